// Fuzzing the scenario parser: RapidCheck properties over arbitrary bytes and
// mutated valid files, plus a replay of the saved corpus.

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/scenario_json.h"
#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"

namespace sendsim::scenario {
namespace {

constexpr char kCorpusDir[] = "testdata/fuzz/scenario";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> names;
  if (DIR* d = opendir(kCorpusDir)) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.rfind("ok-", 0) == 0 || n.rfind("bad-", 0) == 0) names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool IsOneLine(absl::string_view msg) {
  return !msg.empty() && msg.size() < 400 && msg.find('\n') == absl::string_view::npos &&
         msg.find('\r') == absl::string_view::npos;
}

// What every input must satisfy: no crash; an error is one non-empty line;
// an accepted scenario validates to ok or a one-line error, and its dump
// parses back to the same scenario.
void CheckInput(const std::string& text) {
  absl::StatusOr<Scenario> s = ScenarioFromJson(text);
  if (!s.ok()) {
    RC_ASSERT(IsOneLine(s.status().message()));
    return;
  }
  const absl::Status v = ValidateScenario(*s);
  if (!v.ok()) RC_ASSERT(IsOneLine(v.message()));
  absl::StatusOr<Scenario> back = ScenarioFromJson(ScenarioToJson(*s));
  RC_ASSERT(back.ok());
  // Strings that are not valid UTF-8 cannot come out of the parser, so the
  // dump never has to replace characters: the round trip is exact.
  RC_ASSERT(*back == *s);
}

TEST(ScenarioFuzzTest, CorpusReplays) {
  const std::vector<std::string> files = CorpusFiles();
  ASSERT_GE(files.size(), 20u) << "corpus missing from runfiles";
  for (const std::string& name : files) {
    SCOPED_TRACE(name);
    const std::string text = ReadFile(std::string(kCorpusDir) + "/" + name);
    absl::StatusOr<Scenario> s = ScenarioFromJson(text);
    absl::Status outcome = s.ok() ? ValidateScenario(*s) : s.status();
    if (name.rfind("ok-", 0) == 0) {
      EXPECT_TRUE(outcome.ok()) << outcome;
      if (s.ok()) {
        absl::StatusOr<Scenario> back = ScenarioFromJson(ScenarioToJson(*s));
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(*back, *s);
      }
    } else {
      EXPECT_FALSE(outcome.ok());
      EXPECT_TRUE(IsOneLine(outcome.message())) << outcome.message();
    }
  }
}

RC_GTEST_PROP(ScenarioFuzzTest, ArbitraryBytesNeverCrash, (const std::vector<uint8_t>& bytes)) {
  CheckInput(std::string(bytes.begin(), bytes.end()));
}

RC_GTEST_PROP(ScenarioFuzzTest, ArbitraryStringsNeverCrash, (const std::string& text)) {
  CheckInput(text);
  CheckInput("{" + text + "}");
  CheckInput("{\"messages\": " + text + "}");
}

// Random edits of the corpus and the shipped default: byte flips, deletions,
// insertions of JSON punctuation, duplicated slices.
RC_GTEST_PROP(ScenarioFuzzTest, MutatedValidFilesNeverCrash, ()) {
  static const std::vector<std::string>* const kSeeds = [] {
    auto* v = new std::vector<std::string>{ScenarioToJson(Scenario())};
    for (const std::string& n : CorpusFiles()) {
      if (n.rfind("ok-", 0) == 0) v->push_back(ReadFile(std::string(kCorpusDir) + "/" + n));
    }
    return v;
  }();
  std::string text = (*kSeeds)[*rc::gen::inRange<size_t>(0, kSeeds->size())];
  const int edits = *rc::gen::inRange(1, 8);
  static const std::vector<std::string> kTokens = {"{", "}", "[", "]", ",", ":", "\"", "-", "0", "1e999", "null", "true",
                                        "\\u0000", "\\ud800", "4294967296", "18446744073709551616", "\n", "\xff"};
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        text[at] = *rc::gen::arbitrary<char>();
        break;
      case 1:
        text.erase(at, *rc::gen::inRange<size_t>(1, 16));
        break;
      case 2:
        text.insert(at, *rc::gen::elementOf(kTokens));
        break;
      case 3: {
        const size_t len = *rc::gen::inRange<size_t>(1, 32);
        text.insert(at, text.substr(at, len));
        break;
      }
    }
  }
  CheckInput(text);
}

// Structured inputs: known keys with values of random JSON types.
RC_GTEST_PROP(ScenarioFuzzTest, KnownKeysWithRandomValues, ()) {
  static const std::vector<std::string> kKeys = {"messages", "sizes", "front_len", "layout", "page_offset", "mss", "mtu",
                                      "timestamps", "sndbuf", "hz", "rtt_ns", "gro", "kernel", "writers", "seed"};
  static const std::vector<std::string> kValues = {"0", "1", "-1", "1448", "4096", "9000", "4294967295", "4294967296",
                                        "18446744073709551615", "2.5", "true", "\"bio\"", "\"linux-6.8\"", "null",
                                        "[]", "{}", "[\"v2\"]", "[{\"bytes\": 4096}]", "[{\"bytes\": -1}]",
                                        "\"batch\"", "[\"v1-legacy@\"]"};
  std::string text = "{";
  const int n = *rc::gen::inRange(0, 6);
  for (int i = 0; i < n; ++i) {
    if (i) text += ",";
    text += "\"" + *rc::gen::elementOf(kKeys) + "\":" + *rc::gen::elementOf(kValues);
  }
  text += "}";
  CheckInput(text);
}

}  // namespace
}  // namespace sendsim::scenario
