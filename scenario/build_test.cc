#include "scenario/build.h"

#include <map>

#include "gtest/gtest.h"
#include "messenger/writer_policy.h"

namespace sendsim::scenario {
namespace {

TEST(BuildTest, ConnectionConfigFromScenario) {
  Scenario s;
  s.rtt_ns = 50000;
  s.link_mbps = 10000;
  s.gro = GroMode::kOff;
  s.sndbuf = 65536;
  const model::ConnectionConfig c = BuildConnectionConfig(s);
  EXPECT_EQ(c.one_way_delay_ns, 25000);  // half the RTT each way
  EXPECT_EQ(c.link_bps, 10'000'000'000u);
  EXPECT_EQ(c.mss, 1448u);
  EXPECT_EQ(c.sndbuf, 65536u);
  EXPECT_EQ(c.peer.gro, model::GroMode::kOff);
  EXPECT_EQ(c.call_cost_ns, 1500);
  EXPECT_TRUE(c.track_payload);  // the driver's decoder needs the bytes
  EXPECT_TRUE(c.full_trace);
}

// The parts front ends set reach the model unchanged, and the CLI's
// defaults leave them at the model's own defaults.
TEST(BuildTest, TcpReceiverAndHostReachTheModel) {
  const model::ConnectionConfig plain = BuildConnectionConfig(Scenario());
  const model::ConnectionConfig defaults;
  EXPECT_EQ(plain.mss_clamp, defaults.mss_clamp);
  EXPECT_EQ(plain.initcwnd, defaults.initcwnd);
  EXPECT_EQ(plain.cc, defaults.cc);
  EXPECT_TRUE(plain.sysctl == defaults.sysctl);
  EXPECT_TRUE(plain.host == defaults.host);
  EXPECT_EQ(plain.peer.rcvbuf, defaults.peer.rcvbuf);
  EXPECT_EQ(plain.peer.init_rcv_wnd_segs, defaults.peer.init_rcv_wnd_segs);
  EXPECT_EQ(plain.peer.wscale, defaults.peer.wscale);

  Scenario s;
  s.tcp.mss_clamp = 1000;
  s.tcp.sack = false;
  s.tcp.initcwnd = 4;
  s.tcp.cwnd_clamp = 7;
  s.tcp.cc = model::CongestionControl::kReno;
  s.tcp.slow_start_after_idle = false;
  s.tcp.sysctl.min_tso_segs = 5;
  s.receiver.rcvbuf = 1 << 20;
  s.receiver.rcvbuf_autotune_initial = 131072;
  s.receiver.rcv_rtt_from_window = true;
  s.receiver.init_rcv_wnd_segs = 45;
  s.receiver.wscale = 9;
  s.receiver.app_read_bytes_per_sec = 1'000'000;
  s.host.rx_cpu_service_ns = 1200;
  s.host.tx_completion_at_arrival = true;
  const model::ConnectionConfig c =
      BuildConnectionConfig(s, {.track_payload = false, .full_trace = false, .record_data_timing = true});
  EXPECT_EQ(c.mss_clamp, 1000u);
  EXPECT_FALSE(c.sack);
  EXPECT_EQ(c.initcwnd, 4u);
  EXPECT_EQ(c.cwnd_clamp, 7u);
  EXPECT_EQ(c.cc, model::CongestionControl::kReno);
  EXPECT_FALSE(c.slow_start_after_idle);
  EXPECT_EQ(c.sysctl.min_tso_segs, 5u);
  EXPECT_EQ(c.peer.rcvbuf, 1u << 20);
  EXPECT_EQ(c.peer.rcvbuf_autotune_initial, 131072u);
  EXPECT_TRUE(c.peer.rcv_rtt_from_window);
  EXPECT_EQ(c.peer.init_rcv_wnd_segs, 45u);
  EXPECT_EQ(c.peer.wscale, 9);
  EXPECT_EQ(c.peer.app_read_bytes_per_sec, 1'000'000u);
  EXPECT_EQ(c.host.rx_cpu_service_ns, 1200);
  EXPECT_TRUE(c.host.tx_completion_at_arrival);
  EXPECT_FALSE(c.track_payload);
  EXPECT_FALSE(c.full_trace);
  EXPECT_TRUE(c.record_data_timing);
}

TEST(BuildTest, CostsReachTheMessenger) {
  Scenario s;
  s.crc_ns_per_page = 777;
  const messenger::ConnectionOptions o = BuildConnectionOptions(s, messenger::WriterKind::kV1Notlast);
  EXPECT_EQ(o.costs.crc_ns_per_4k, 777);
  EXPECT_EQ(o.policy.kind, messenger::WriterKind::kV1Notlast);
}

TEST(BuildTest, WorkloadFollowsTheMixAndSeed) {
  Scenario s;
  s.messages = 4000;
  s.sizes = {{4096, 1}, {131072, 3}};
  s.layout = DataLayout::kPages;
  s.page_offset = 512;
  const std::vector<messenger::MessageSpec> a = BuildWorkload(s);
  ASSERT_EQ(a.size(), 4000u);
  std::map<uint64_t, int> counts;
  for (const auto& m : a) {
    ASSERT_EQ(m.items.size(), 1u);
    EXPECT_EQ(m.items[0].kind, messenger::DataKind::kPages);
    EXPECT_EQ(m.items[0].alignment, 512u);
    EXPECT_EQ(m.front_len, 192u);
    ++counts[m.items[0].length];
  }
  // Weights 1:3 -> expected 1000 and 3000; binomial sd ~27, allow 5 sd.
  EXPECT_NEAR(counts[4096], 1000, 140);
  EXPECT_NEAR(counts[131072], 3000, 140);
  // Same seed, same sizes; another seed, another sequence.
  const std::vector<messenger::MessageSpec> again = BuildWorkload(s);
  s.seed = 2;
  const std::vector<messenger::MessageSpec> other = BuildWorkload(s);
  int same = 0, differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same += a[i].items[0].length == again[i].items[0].length;
    differ += a[i].items[0].length != other[i].items[0].length;
  }
  EXPECT_EQ(same, 4000);
  EXPECT_GT(differ, 1000);  // two independent draws differ with p = 2 * 1/4 * 3/4 = 3/8
}

TEST(BuildTest, CliWriterNamesAreTheMessengers) {
  EXPECT_EQ(KnownWriters(), messenger::WriterNames());
}

}  // namespace
}  // namespace sendsim::scenario
