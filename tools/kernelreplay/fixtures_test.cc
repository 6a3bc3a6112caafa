// Every kernel-disagreement fixture (testdata/kernelreplay/fixtures/*.txt,
// passed as arguments): the model must still give the recorded model sizes
// and still differ from the kernel's, so a model change that touches a
// named difference gets a human look (then rerun replay.sh). The fixtures'
// README.md (the first argument) must explain each one: a table row with
// the first divergence, the cause and the kernel function, and no row for a
// fixture that is gone (re-recording rewrites the fixtures, not the README).

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "props/case.h"
#include "tools/kernelreplay/replay.h"

ABSL_FLAG(uint64_t, seed, 1, "unused here (props/map.cc reads the explorer's --seed)");

namespace sendsim::kernelreplay {
namespace {

std::vector<std::string>* files = nullptr;
std::string* readme = nullptr;

// The README's table rows: fixture file name -> its cells after the name
// (first divergence, cause, kernel function).
std::map<std::string, std::vector<std::string>> ReadmeRows(const std::string& path) {
  std::map<std::string, std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!absl::StartsWith(line, "| `uml-")) continue;
    std::vector<std::string> cells = absl::StrSplit(line, '|');
    // "", " `name` ", cells..., ""
    if (cells.size() < 3) continue;
    std::string name(absl::StripAsciiWhitespace(cells[1]));
    name = std::string(absl::StripSuffix(absl::StripPrefix(name, "`"), "`"));
    std::vector<std::string> rest;
    for (size_t i = 2; i + 1 < cells.size(); ++i) rest.emplace_back(absl::StripAsciiWhitespace(cells[i]));
    rows[name] = rest;
  }
  return rows;
}

TEST(KernelFixtures, EveryFixtureIsExplainedInTheReadme) {
  ASSERT_NE(files, nullptr);
  ASSERT_NE(readme, nullptr);
  const std::map<std::string, std::vector<std::string>> rows = ReadmeRows(*readme);
  std::map<std::string, bool> present;
  for (const std::string& path : *files) {
    const std::string name = std::filesystem::path(path).filename().string();
    present[name] = true;
    SCOPED_TRACE(name);
    auto it = rows.find(name);
    ASSERT_NE(it, rows.end()) << "no row in " << *readme;
    ASSERT_EQ(it->second.size(), 3u) << "want: first divergence | cause | kernel function";
    for (const std::string& cell : it->second) EXPECT_FALSE(cell.empty());
  }
  for (const auto& [name, cells] : rows) EXPECT_TRUE(present.count(name)) << name << " is in the README but gone";
}

TEST(KernelFixtures, EveryFixtureStillDisagreesAsRecorded) {
  ASSERT_NE(files, nullptr);
  ASSERT_FALSE(files->empty());
  for (const std::string& path : *files) {
    SCOPED_TRACE(path);
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line, kernel, model, why;
    std::ostringstream text;
    bool in_case = false;
    while (std::getline(in, line)) {
      if (in_case) {
        text << line << "\n";
      } else if (absl::StartsWith(line, "# kernel: ")) {
        kernel = line.substr(10);
      } else if (absl::StartsWith(line, "# model:  ")) {
        model = line.substr(10);
      } else if (absl::StartsWith(line, "# why: ")) {
        why = line.substr(7);
      } else if (line == "case:") {
        in_case = true;
      }
    }
    EXPECT_FALSE(why.empty());
    absl::StatusOr<props::Case> c = props::ParseCase(text.str());
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> m = ModelSizes(*c);
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(EncodeSizes(m->first), model);
    EXPECT_NE(EncodeSizes(m->first), kernel);
    EXPECT_EQ(ExplainQuiescent(*c, *DecodeSizes(kernel)).substr(0, 20), why.substr(0, 20));
  }
}

}  // namespace
}  // namespace sendsim::kernelreplay

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: fixtures_test README.md FIXTURE...\n");
    return 2;
  }
  std::string r = argv[1];
  std::vector<std::string> f(argv + 2, argv + argc);
  sendsim::kernelreplay::readme = &r;
  sendsim::kernelreplay::files = &f;
  return RUN_ALL_TESTS();
}
