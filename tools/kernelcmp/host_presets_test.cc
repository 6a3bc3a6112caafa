#include "tools/kernelcmp/host_presets.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "scenario/scenario_json.h"
#include "tools/kernelcmp/model_figures.h"

namespace sendsim::kernelcmp {
namespace {

// Expectations from docs/kernelcmp.md's fallbacks: a veth pair on
// linux-6.18, MSS 1448, software GSO, 100 Gbit/s, TX completion on arrival;
// with receive processing on the sender's CPU one-way 1 us, ACK latency
// 5 us, spread 23 us, softirq transmits and one backlog there; on the
// receiver's CPU one-way 3 us, no ACK latency, spread 30 us.
TEST(HostPresets, BothPlacementsReadAndCheck) {
  EXPECT_THAT(HostPresetNames(), ::testing::ElementsAre("veth-rps-receiver-cpu", "veth-rps-sender-cpu"));
  for (Placement p : {Placement::kSenderCpu, Placement::kReceiverCpu}) {
    const scenario::Scenario s = DefaultModelSettings(p).scenario;
    EXPECT_TRUE(scenario::ValidateNetworkAndHost(s).ok()) << scenario::ValidateNetworkAndHost(s);
    EXPECT_EQ(s.kernel, kModelProfile);
    EXPECT_EQ(s.mss, 1448u);
    EXPECT_FALSE(s.tso);
    EXPECT_EQ(s.link_mbps, 100'000u);
    EXPECT_EQ(s.call_cost_ns, 1'000u);
    EXPECT_EQ(s.tx_completion_ns, 0u);
    EXPECT_EQ(s.gro, scenario::GroMode::kOff);
    EXPECT_TRUE(s.host.tx_completion_at_arrival);
  }
  const scenario::Scenario snd = DefaultModelSettings(Placement::kSenderCpu).scenario;
  EXPECT_EQ(snd.rtt_ns, 2'000u);
  EXPECT_EQ(snd.ack_proc_ns, 5'000u);
  EXPECT_EQ(snd.host.data_delay_spread_ns, 23'000);
  EXPECT_TRUE(snd.host.xmit_softirq_on_sender_cpu);
  EXPECT_TRUE(snd.host.rps_backlog_on_sender_cpu);
  const scenario::Scenario rcv = DefaultModelSettings(Placement::kReceiverCpu).scenario;
  EXPECT_EQ(rcv.rtt_ns, 6'000u);
  EXPECT_EQ(rcv.ack_proc_ns, 0u);
  EXPECT_EQ(rcv.host.data_delay_spread_ns, 30'000);
  EXPECT_FALSE(rcv.host.xmit_softirq_on_sender_cpu);
  EXPECT_FALSE(rcv.host.rps_backlog_on_sender_cpu);
}

// The compiled-in text is the file's, and the file reads like any scenario.
TEST(HostPresets, AreTheFilesInTestdata) {
  for (const std::string& name : HostPresetNames()) {
    std::ifstream f("testdata/kernelcmp/hosts/" + name + ".json");
    std::stringstream text;
    text << f.rdbuf();
    absl::StatusOr<scenario::Scenario> from_file = scenario::ScenarioFromJson(text.str());
    ASSERT_TRUE(from_file.ok()) << name << ": " << from_file.status();
    absl::StatusOr<scenario::Scenario> preset = HostPresetScenario(name);
    ASSERT_TRUE(preset.ok()) << preset.status();
    EXPECT_EQ(*preset, *from_file) << name;
  }
  EXPECT_THAT(HostPresetScenario("nic").status().message(), ::testing::HasSubstr("unknown host preset \"nic\""));
}

// --model_host: a file over a preset; its keys are what calibration leaves.
TEST(HostOverride, AppliesOverAPresetAndNamesItsKeys) {
  const std::string path = ::testing::TempDir() + "/host.json";
  {
    std::ofstream f(path);
    f << R"({"call_cost_ns": 2500, "host_xmit_cost_ns": 600})";
  }
  absl::StatusOr<HostOverride> o = ReadHostOverride(path);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_TRUE(o->Sets("call_cost_ns"));
  EXPECT_TRUE(o->Sets("host_xmit_cost_ns"));
  EXPECT_FALSE(o->Sets("rtt_ns"));
  absl::StatusOr<scenario::Scenario> s = ApplyHostOverride(*o, DefaultModelSettings(Placement::kSenderCpu).scenario);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->call_cost_ns, 2'500u);
  EXPECT_EQ(s->host.xmit_cost_ns, 600);
  EXPECT_EQ(s->rtt_ns, 2'000u);  // the preset's
  {
    std::ofstream f(path);
    f << R"({"host_rx_cpu_wakeup_ns": 99999999999})";
  }
  o = ReadHostOverride(path);
  ASSERT_FALSE(o.ok());
  EXPECT_THAT(o.status().message(), ::testing::HasSubstr("host_rx_cpu_wakeup_ns: 99999999999 ns is out of range"));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace sendsim::kernelcmp
