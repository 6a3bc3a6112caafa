// Every kernel-disagreement fixture (testdata/kernelreplay/fixtures/*.txt,
// passed as arguments): the model must still give the recorded model sizes
// and still differ from the kernel's, so a model change that touches a
// named difference gets a human look (then rerun replay.sh).

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "props/case.h"
#include "tools/kernelreplay/replay.h"

ABSL_FLAG(uint64_t, seed, 1, "unused here (props/map.cc reads the explorer's --seed)");

namespace sendsim::kernelreplay {
namespace {

std::vector<std::string>* files = nullptr;

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
  std::vector<std::string> f(argv + 1, argv + argc);
  sendsim::kernelreplay::files = &f;
  return RUN_ALL_TESTS();
}
