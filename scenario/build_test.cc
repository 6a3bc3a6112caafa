#include "scenario/build.h"

#include <map>

#include "gtest/gtest.h"
#include "messenger/writer_policy.h"

namespace sendsim::scenario {
namespace {

TEST(RunnerConfigTest, ConnectionConfigFromScenario) {
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

TEST(RunnerConfigTest, CostsReachTheMessenger) {
  Scenario s;
  s.crc_ns_per_page = 777;
  const model::ConnectionConfig c = BuildConnectionConfig(s);
  const messenger::ConnectionOptions o =
      BuildConnectionOptions(s, c, messenger::WriterKind::kV1Notlast, model::Profile{});
  EXPECT_EQ(o.costs.crc_ns_per_4k, 777);
  EXPECT_EQ(o.costs.call_cost_ns, c.call_cost_ns);
  EXPECT_EQ(o.policy.kind, messenger::WriterKind::kV1Notlast);
}

TEST(RunnerConfigTest, WorkloadFollowsTheMixAndSeed) {
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

TEST(RunnerConfigTest, CliWriterNamesAreTheMessengers) {
  EXPECT_EQ(KnownWriters(), messenger::WriterNames());
}

}  // namespace
}  // namespace sendsim::scenario
