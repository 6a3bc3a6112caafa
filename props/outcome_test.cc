#include "props/outcome.h"

#include "gtest/gtest.h"

namespace sendsim::props {
namespace {

PacketRecord P(uint32_t seq, uint32_t len, uint8_t flags = 0) { return PacketRecord{0, seq, len, flags, 0, false}; }

TEST(OutcomeTest, CountsOnlyFirstTransmissionsBelowMss) {
  Outcome o;
  o.mss = 1000;
  o.packets = {P(0, 1000), P(1000, 300), P(1300, 1000)};
  o.packets.push_back(PacketRecord{0, 1000, 300, 0, 0, true});  // retransmission: not counted
  EXPECT_EQ(DataPackets(o), 3u);
  EXPECT_EQ(SubMss(o), 1u);
  EXPECT_EQ(RuntSizes(o), (std::map<uint32_t, uint64_t>{{300, 1}}));
}

TEST(OutcomeTest, FlushRunsEndAtPshAndAtMessageEnds) {
  Outcome o;
  o.mss = 1000;
  // Message 1 = [0, 2500): 1000, 1000, 500+PSH  -> one run, 3 segments.
  // Message 2 = [2500, 4100): 1000 then 600 with no PSH, but the message end
  // closes the run -> one run of 1600 in 2 segments.
  // Then 300 (no PSH, stream end) -> an open run closed at the end.
  o.packets = {P(0, 1000), P(1000, 1000), P(2000, 500, kPsh), P(2500, 1000), P(3500, 600), P(4100, 300)};
  o.message_ends = {2500, 4100};
  std::vector<FlushRun> runs = FlushRuns(o);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].bytes, 2500u);
  EXPECT_EQ(runs[0].segments, 3u);
  EXPECT_EQ(runs[1].begin, 2500u);
  EXPECT_EQ(runs[1].bytes, 1600u);
  EXPECT_EQ(runs[1].segments, 2u);
  EXPECT_EQ(runs[2].bytes, 300u);
  EXPECT_EQ(runs[2].sub_mss, 1u);
}

TEST(OutcomeTest, SummaryNamesTheFigures) {
  Outcome o;
  o.mss = 1448;
  o.packets = {P(0, 1200), P(1200, 1448)};
  std::string s = Summarize(o);
  EXPECT_NE(s.find("packets=2 sub_mss=1 runts=[1200x1]"), std::string::npos) << s;
}

}  // namespace
}  // namespace sendsim::props
