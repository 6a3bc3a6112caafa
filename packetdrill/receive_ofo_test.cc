#include "packetdrill/receive_ofo.h"

#include <vector>

#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

using Blocks = std::vector<SackBlock>;

// Expectations follow tcp_data_queue_ofo, tcp_sack_new_ofo_skb,
// tcp_sack_maybe_coalesce, tcp_ofo_queue and tcp_sack_remove by hand.

TEST(OfoQueueTest, NewestBlockFirst) {
  OfoQueue q;
  q.Queue(101, 201, false, true, true);
  EXPECT_EQ(q.OptionBlocks(4), (Blocks{{101, 201}}));
  q.Queue(301, 401, false, true, true);
  q.Queue(501, 601, false, true, true);
  // Each new block goes in front.
  EXPECT_EQ(q.OptionBlocks(4), (Blocks{{501, 601}, {301, 401}, {101, 201}}));
  // With timestamps only three fit; here the cap cuts the oldest.
  EXPECT_EQ(q.OptionBlocks(2), (Blocks{{501, 601}, {301, 401}}));
  EXPECT_FALSE(q.dsack());
}

TEST(OfoQueueTest, FifthBlockForgetsTheOldest) {
  OfoQueue q;
  for (uint32_t s : {101u, 301u, 501u, 701u, 901u}) q.Queue(s, s + 100, false, true, true);
  // TCP_NUM_SACKS is 4: 101:201 falls off the end.
  EXPECT_EQ(q.sacks(), (Blocks{{901, 1001}, {701, 801}, {501, 601}, {301, 401}}));
  EXPECT_EQ(q.segments().size(), 5u);
}

TEST(OfoQueueTest, GapFillerJoinsBlocksAndMovesToFront) {
  OfoQueue q;
  q.Queue(101, 201, false, true, true);
  q.Queue(301, 401, false, true, true);
  // 201:301 extends the first block 301:401 to 201:401, which then
  // swallows 101:201.
  q.Queue(201, 301, false, true, true);
  EXPECT_EQ(q.sacks(), (Blocks{{101, 401}}));
  // In the queue it joined the segment before it (coalesced), without
  // merging the next.
  ASSERT_EQ(q.segments().size(), 2u);
  EXPECT_EQ(q.segments()[0].end_seq, 301u);
}

TEST(OfoQueueTest, DuplicateOfQueuedSegmentIsDsacked) {
  OfoQueue q;
  q.Queue(201, 301, false, true, true);
  q.Queue(201, 301, false, true, true);
  EXPECT_EQ(q.OptionBlocks(4), (Blocks{{201, 301}, {201, 301}}));
  q.ClearDsack();
  // Partial overlap of the end: the overlap is the duplicate.
  q.Queue(251, 351, false, true, true);
  EXPECT_EQ(q.OptionBlocks(4), (Blocks{{251, 301}, {201, 351}}));
  // Without tcp_dsack no D-SACK block.
  OfoQueue n;
  n.Queue(201, 301, false, true, false);
  n.Queue(201, 301, false, true, false);
  EXPECT_EQ(n.OptionBlocks(4), (Blocks{{201, 301}}));
}

TEST(OfoQueueTest, CoveringSegmentReplacesAndMergesRight) {
  OfoQueue q;
  q.Queue(201, 301, false, true, true);
  q.Queue(401, 501, false, true, true);
  q.Queue(601, 701, false, true, true);
  // 201:551 starts where the first does: it replaces it (D-SACK 201:301)
  // and swallows 401:501, whose D-SACK does not touch 201:301 and so is
  // not added (tcp_sack_extend); it stops at 601.
  q.Queue(201, 551, false, true, true);
  ASSERT_EQ(q.segments().size(), 2u);
  EXPECT_EQ(q.segments()[0].end_seq, 551u);
  EXPECT_EQ(q.dsack(), (SackBlock{201, 301}));
  // 401:501 (the second block) grows to 201:551, comes first and swallows
  // 201:301.
  EXPECT_EQ(q.sacks(), (Blocks{{201, 551}, {601, 701}}));
}

TEST(OfoQueueTest, DrainAdvancesRcvNxtAndRemovesSacks) {
  OfoQueue q;
  q.Queue(101, 201, false, true, true);
  q.Queue(301, 401, false, true, true);
  uint32_t rcv_nxt = 101;  // 1:101 arrived in order
  EXPECT_FALSE(q.Drain(&rcv_nxt, true));
  EXPECT_EQ(rcv_nxt, 201u);
  q.SackRemove(rcv_nxt);
  EXPECT_EQ(q.sacks(), (Blocks{{301, 401}}));
  EXPECT_FALSE(q.dsack());
  rcv_nxt = 401;  // 201:401 in order covers the rest
  EXPECT_FALSE(q.Drain(&rcv_nxt, true));
  // 301:401 lay below the new rcv_nxt: a duplicate.
  EXPECT_EQ(q.dsack(), (SackBlock{301, 401}));
  EXPECT_TRUE(q.empty());
  q.SackRemove(rcv_nxt);
  EXPECT_TRUE(q.sacks().empty());
}

TEST(OfoQueueTest, DrainStopsAtFin) {
  OfoQueue q;
  q.Queue(101, 202, true, true, true);  // 100 bytes and the FIN
  EXPECT_EQ(q.FinSeq(), 201u);
  uint32_t rcv_nxt = 101;
  EXPECT_TRUE(q.Drain(&rcv_nxt, true));
  EXPECT_EQ(rcv_nxt, 202u);
}

TEST(OfoQueueTest, NoSackKeepsNoBlocks) {
  OfoQueue q;
  q.Queue(101, 201, false, false, false);
  q.Queue(301, 401, false, false, false);
  EXPECT_TRUE(q.OptionBlocks(4).empty());
  EXPECT_EQ(q.segments().size(), 2u);
}

}  // namespace
}  // namespace sendsim::packetdrill
