#include "cli/flags.h"

#include <string>
#include <vector>

#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::cli {

using scenario::DataLayout;
using scenario::GroMode;
using scenario::Scenario;
using scenario::SizeMixEntry;
using scenario::WriterSpec;
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ErrorOf(const std::vector<std::string>& args) {
  absl::StatusOr<CliOptions> o = ParseCommandLine(args);
  EXPECT_FALSE(o.ok());
  if (o.ok()) return "";
  const std::string msg(o.status().message());
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  return msg;
}

TEST(FlagsTest, NoFlagsIsTheDefaultScenario) {
  absl::StatusOr<CliOptions> o = ParseCommandLine({});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->scenario, Scenario());
  EXPECT_EQ(o->format, OutputFormat::kTable);
  EXPECT_FALSE(o->dump_scenario);
  EXPECT_TRUE(o->positional.empty());
}

// Every knob's flag default, given explicitly, reproduces Scenario(): the
// help text's defaults are the ones a run uses.
TEST(FlagsTest, FlagDefaultsEqualScenarioDefaults) {
  std::vector<std::string> args;
  for (const std::string& n : KnobFlagNames()) {
    const absl::CommandLineFlag* f = absl::FindCommandLineFlag(n);
    ASSERT_NE(f, nullptr) << n;
    args.push_back("--" + n + "=" + f->DefaultValue());
  }
  absl::StatusOr<CliOptions> o = ParseCommandLine(args);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->scenario, Scenario());
}

TEST(FlagsTest, FlagsSetKnobs) {
  absl::StatusOr<CliOptions> o =
      ParseCommandLine({"--messages=12", "--writers=v1-legacy,v2@linux-6.8", "--kernel", "linux-5.0", "--mss=1400",
                        "--seed=7", "--notso", "--dump-scenario", "--sizes=4K:3,128K", "--format=json",
                        "--page-offset=512", "--layout=pages", "--gro=off", "packetdrill", "x.pkt"});
  ASSERT_TRUE(o.ok()) << o.status();
  const Scenario& s = o->scenario;
  EXPECT_EQ(s.messages, 12u);
  ASSERT_EQ(s.writers.size(), 2u);
  EXPECT_EQ(s.writers[1], (WriterSpec{"v2", "linux-6.8"}));
  EXPECT_EQ(s.kernel, "linux-5.0");
  EXPECT_EQ(s.mss, 1400u);
  EXPECT_EQ(s.seed, 7u);
  EXPECT_FALSE(s.tso);
  EXPECT_THAT(s.sizes, ElementsAre(SizeMixEntry{4096, 3}, SizeMixEntry{131072, 1}));
  EXPECT_EQ(s.page_offset, 512u);
  EXPECT_EQ(s.layout, DataLayout::kPages);
  EXPECT_EQ(s.gro, GroMode::kOff);
  EXPECT_TRUE(o->dump_scenario);
  EXPECT_EQ(o->format, OutputFormat::kJson);
  EXPECT_THAT(o->positional, ElementsAre("packetdrill", "x.pkt"));
  // A second parse starts from the defaults again.
  absl::StatusOr<CliOptions> again = ParseCommandLine({});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->scenario, Scenario());
}

TEST(FlagsTest, ScenarioFileThenFlagsOverride) {
  absl::StatusOr<CliOptions> o =
      ParseCommandLine({"--mss=8000", "--scenario=testdata/scenarios/jumbo.json"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->scenario.mtu, 9000u);  // from the file
  EXPECT_EQ(o->scenario.mss, 8000u);  // the flag wins wherever it appears
}

TEST(FlagsTest, BadInputIsOneLine) {
  EXPECT_THAT(ErrorOf({"--mesages=3"}), HasSubstr("unknown flag --mesages"));
  EXPECT_THAT(ErrorOf({"--messages=-3"}), HasSubstr("--messages"));
  EXPECT_THAT(ErrorOf({"--messages=99999999999999999999999"}), HasSubstr("--messages"));
  EXPECT_THAT(ErrorOf({"--mss=1.5"}), HasSubstr("--mss"));
  EXPECT_THAT(ErrorOf({"--mss=4294967296"}), HasSubstr("--mss"));
  EXPECT_THAT(ErrorOf({"--tso=maybe"}), HasSubstr("--tso"));
  EXPECT_THAT(ErrorOf({"--nomss"}), HasSubstr("unknown flag --nomss"));
  EXPECT_THAT(ErrorOf({"--messages"}), HasSubstr("needs a value"));
  // The next argument is another flag, not a value (found by the bad-input
  // sweep: "--trace --messages=1" wrote a file named "--messages=1").
  EXPECT_THAT(ErrorOf({"--trace", "--messages=1"}),
              HasSubstr("flag --trace needs a value, got the flag \"--messages=1\""));
  EXPECT_THAT(ErrorOf({"--messages", "-1"}), HasSubstr("bad value \"-1\" for --messages"));  // a value
  EXPECT_THAT(ErrorOf({"--sizes=4K:x"}), HasSubstr("weight"));
  EXPECT_THAT(ErrorOf({"--sizes=-4"}), HasSubstr("not a byte count"));
  EXPECT_THAT(ErrorOf({"--sizes=99999999999G"}), HasSubstr("overflows"));
  EXPECT_THAT(ErrorOf({"--writers=v2@"}), HasSubstr("writers"));
  EXPECT_THAT(ErrorOf({"--layout=bios"}), HasSubstr("layout"));
  EXPECT_THAT(ErrorOf({"--format=xml"}), HasSubstr("--format"));
  EXPECT_THAT(ErrorOf({"--scenario=/nonexistent.json"}), HasSubstr("/nonexistent.json"));
  EXPECT_THAT(ErrorOf({"--flagfile=x"}), HasSubstr("unknown flag"));  // Abseil's own flags are not ours
}

TEST(FlagsTest, HelpListsEveryKnobWithDefault) {
  absl::StatusOr<CliOptions> o = ParseCommandLine({"--help"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->help);
  const std::string usage = UsageText();
  for (std::string n : KnobFlagNames()) {
    for (char& c : n) {
      if (c == '_') c = '-';
    }
    EXPECT_THAT(usage, HasSubstr("--" + n + " (default: ")) << n;
  }
  EXPECT_THAT(usage, HasSubstr("--messages (default: 10000)"));
  EXPECT_THAT(usage, HasSubstr("--dump-scenario"));
}

// The host group's flags set the scenario's sub-structs, like its file keys.
TEST(FlagsTest, HostGroupFlagsSetTheSubStructs) {
  absl::StatusOr<CliOptions> o = ParseCommandLine(
      {"--tcp-cc=reno", "--receiver_wscale=9", "--host-rx-cpu-wakeup-ns=2000", "--host_tx_completion_at_arrival"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->scenario.tcp.cc, model::CongestionControl::kReno);
  EXPECT_EQ(o->scenario.receiver.wscale, 9);
  EXPECT_EQ(o->scenario.host.rx_cpu_wakeup_ns, 2000);
  EXPECT_TRUE(o->scenario.host.tx_completion_at_arrival);
  EXPECT_EQ(ErrorOf({"--receiver_wscale=256"}), "--receiver_wscale: 256 does not fit in 8 bits");
  EXPECT_EQ(ErrorOf({"--tcp_cc=bbr"}), "--tcp_cc: unknown congestion control \"bbr\" (known: cubic, reno)");
}

TEST(FlagsTest, SizeMixRoundTrip) {
  std::vector<SizeMixEntry> m = {{4096, 3}, {131072, 1}, {4194304, 2}};
  absl::StatusOr<std::vector<SizeMixEntry>> back = ParseSizeMix(SizeMixString(m));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, m);
  EXPECT_EQ(*ParseSizeMix("4M"), (std::vector<SizeMixEntry>{{4u << 20, 1}}));
}

}  // namespace
}  // namespace sendsim::cli
