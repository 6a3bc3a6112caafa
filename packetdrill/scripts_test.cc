// Runs every script of testdata/packetdrill on every kernel profile. The
// scripts' expectations were derived by hand from the reference notes (see
// each script's header), so a FAIL here is a disagreement between the model
// and those rules: the test prints every verdict and fails on any FAIL.
// No script may SKIP. A "// profiles:" header line limits a script to the
// profiles named (see RunsOn).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/profile.h"
#include "packetdrill/model_endpoint.h"
#include "packetdrill/runner.h"
#include "packetdrill/script_header.h"

namespace sendsim::packetdrill {
namespace {

std::vector<std::string> Scripts() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("testdata/packetdrill")) {
    if (e.path().extension() == ".pkt") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A script whose header has "// profiles: A B ..." pins a rule that differs
// between kernels; it runs only on those profiles (each profile follows its
// own kernel). Others run on every profile.
bool RunsOn(const std::string& path, const std::string& profile) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<std::string>> names = HeaderProfiles(text.str());
  EXPECT_TRUE(names.ok()) << path << ": " << names.status();
  return !names.ok() || names->empty() || std::find(names->begin(), names->end(), profile) != names->end();
}

class ScriptsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScriptsTest, AllScriptsPass) {
  absl::StatusOr<model::Profile> profile = model::ProfileByName(GetParam());
  ASSERT_TRUE(profile.ok()) << profile.status();
  std::vector<std::string> scripts = Scripts();
  ASSERT_GE(scripts.size(), 15u);
  const EndpointFactory factory = ModelEndpointFactory();
  for (const std::string& s : scripts) {
    if (!RunsOn(s, GetParam())) continue;
    Result r = RunScript(s, *profile, factory);
    const char* v = r.verdict == Verdict::kPass ? "PASS" : r.verdict == Verdict::kFail ? "FAIL" : "SKIP";
    std::printf("%s %s %s%s%s\n", GetParam().c_str(), v, s.c_str(), r.reason.empty() ? "" : ": ", r.reason.c_str());
    EXPECT_EQ(r.verdict, Verdict::kPass) << s << ": " << r.reason;
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, ScriptsTest, ::testing::ValuesIn(model::ProfileNames()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           std::replace(n.begin(), n.end(), '.', '_');
                           return n;
                         });

}  // namespace
}  // namespace sendsim::packetdrill
