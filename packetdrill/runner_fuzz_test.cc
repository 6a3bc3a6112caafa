// Robustness of the runner: scripts that parse but make no sense (mutations
// of our valid scripts: lines dropped, duplicated or swapped, digits changed)
// must give PASS, or FAIL/SKIP with a one-line "path:line: reason", on the
// fake endpoint and on the model - never a crash or hang.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/profile.h"
#include "packetdrill/fake_endpoint.h"
#include "packetdrill/model_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"

namespace sendsim::packetdrill {
namespace {

std::vector<std::string> Seeds() {
  std::vector<std::string> out;
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator("testdata/packetdrill")) {
    if (e.path().extension() == ".pkt") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back(ss.str());
  }
  return out;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string l;
  while (std::getline(ss, l)) v.push_back(l);
  return v;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& l : v) s += l + "\n";
  return s;
}

std::string CheckResult(const Result& r) {
  if (r.verdict == Verdict::kPass) return "";
  static const std::regex kShape(R"(^fuzz\.pkt:[0-9]+: [^\n]+$)");
  if (!std::regex_match(r.reason, kShape)) return "malformed reason: " + r.reason;
  return "";
}

RC_GTEST_PROP(RunnerFuzz, MutatedScriptsNeverCrash, ()) {
  static const std::vector<std::string> seeds = Seeds();
  RC_PRE(!seeds.empty());
  std::vector<std::string> lines = Lines(*rc::gen::elementOf(seeds));
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n && !lines.empty(); ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, lines.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        lines.erase(lines.begin() + static_cast<long>(at));
        break;
      case 1:
        lines.insert(lines.begin() + static_cast<long>(at), lines[*rc::gen::inRange<size_t>(0, lines.size())]);
        break;
      case 2:
        std::swap(lines[at], lines[*rc::gen::inRange<size_t>(0, lines.size())]);
        break;
      default: {
        std::string& l = lines[at];
        std::vector<size_t> digits;
        for (size_t k = 0; k < l.size(); ++k) {
          if (std::isdigit(static_cast<unsigned char>(l[k]))) digits.push_back(k);
        }
        if (!digits.empty()) l[*rc::gen::elementOf(digits)] = static_cast<char>('0' + *rc::gen::inRange(0, 10));
        break;
      }
    }
  }
  absl::StatusOr<Script> s = ParseScript("fuzz.pkt", Join(lines));
  if (!s.ok()) return;  // the parser's own property covers this
  absl::StatusOr<model::Profile> profile = model::ProfileByName(*rc::gen::elementOf(model::ProfileNames()));
  RC_ASSERT(profile.ok());
  const std::string fake = CheckResult(RunParsedScript(*s, *profile, FakeEndpointFactory()));
  RC_LOG() << "fake: " << fake << "\n";
  RC_ASSERT(fake.empty());
  const std::string real = CheckResult(RunParsedScript(*s, *profile, ModelEndpointFactory()));
  RC_LOG() << "model: " << real << "\n";
  RC_ASSERT(real.empty());
}

}  // namespace
}  // namespace sendsim::packetdrill
