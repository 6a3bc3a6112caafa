// Golden fixtures: the JSON output of a fixed scenario, byte for byte. The
// expected files were produced by sendsim itself (the one place where
// expectations come from the code's output) and must be regenerated, after
// checking the change is intended, whenever the model or messenger changes
// behaviour:
//   bazel run -c opt //:sendsim -- --format=json > testdata/golden/default.json
//   bazel run -c opt //:sendsim -- --format=json --messages=20 > testdata/golden/small.json
// (bazel run's working directory is the workspace root's runfiles; redirect
// into the source tree as shown, from the workspace root.)

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/runner.h"
#include "gtest/gtest.h"

#ifndef SENDSIM_GOLDEN_FILE
#error "define SENDSIM_GOLDEN_FILE and SENDSIM_GOLDEN_ARGS"
#endif

namespace sendsim::cli {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> GoldenArgs() {
  std::vector<std::string> args = SENDSIM_GOLDEN_ARGS;
  args.push_back("--format=json");
  return args;
}

TEST(GoldenTest, JsonMatchesFixture) {
  const std::string want = ReadFile(SENDSIM_GOLDEN_FILE);
  ASSERT_FALSE(want.empty()) << SENDSIM_GOLDEN_FILE << " missing from runfiles";
  std::ostringstream out, err;
  AppEnv env{&out, &err, false, nullptr};
  ASSERT_EQ(RunApp(GoldenArgs(), env, RunOne), 0) << err.str();
  const std::string got = out.str();
  if (got != want) {
    size_t at = 0;
    while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
    const size_t line = static_cast<size_t>(std::count(want.begin(), want.begin() + at, '\n')) + 1;
    FAIL() << SENDSIM_GOLDEN_FILE << " differs from the output first at line " << line << ":\n  want: "
           << want.substr(at > 40 ? at - 40 : 0, 120) << "\n  got:  " << got.substr(at > 40 ? at - 40 : 0, 120)
           << "\nIf the change is intended, regenerate the fixture (see the top of cli/golden_test.cc).";
  }
}

}  // namespace
}  // namespace sendsim::cli
