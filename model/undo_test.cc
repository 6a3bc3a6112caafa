// Undo of spurious cwnd reductions and F-RTO (undo.cc, recovery.cc).
// Expectations derived by hand from tcp_input.c of 6.1/6.12
// (tcp_init_undo, tcp_check_dsack, tcp_dsack_seen, tcp_try_undo_*,
// tcp_packet_delayed, tcp_process_loss) and tcp_output.c
// (__tcp_retransmit_skb's undo_retrans and retrans_stamp).

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;
constexpr uint32_t kInfinite = kTcpInfiniteSsthresh;

SenderContext::Options Opts(bool sack) {
  SenderContext::Options o;
  o.config.sack = sack;
  o.config.cc = CongestionControl::kCubic;
  o.profile = "linux-6.12";
  o.handshake_rtt_ns = 100 * kNsPerMs;
  return o;
}

// 10 segments in flight at cwnd 10, sent at 10 ms (TS val 10: the model's
// TS clock is ms since the start, and 0 would read as "no echo").
uint64_t Fill(SenderContext& ctx) {
  ctx.At(10 * kNsPerMs);
  const uint64_t una0 = ctx.sock().snd_una();
  EXPECT_EQ(ctx.SendMsg(10 * kMss, 0), 10 * kMss);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().packets_out(), 10u);
  ctx.TakeWire();
  return una0;
}

// Recovery at 110 ms: three segments SACKed above the head, which is lost
// and resent (sack_fast_recovery.pkt's first steps).
void EnterRecovery(SenderContext& ctx, uint64_t una) {
  ctx.At(110 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 4 * kMss}});
  ASSERT_EQ(ctx.sock().ca_state(), CaState::kRecovery);
  ctx.TakeWire();
}

// tcp_enter_recovery from Disorder: tcp_init_undo with nothing
// retransmitted (undo_retrans -1), prior_ssthresh = tcp_current_ssthresh =
// max(infinite, 7) ; the head's retransmission: undo_retrans 1,
// retrans_stamp = its send time in ms.
TEST(UndoTest, RecoveryRecordsUndoState) {
  SenderContext ctx(Opts(true));
  const uint64_t una = Fill(ctx);
  EnterRecovery(ctx, una);
  const TcpSock& s = ctx.sock();
  EXPECT_TRUE(s.undo_marker_set());
  EXPECT_EQ(s.undo_marker(), una);
  EXPECT_EQ(s.undo_retrans(), 1);
  EXPECT_EQ(s.retrans_stamp(), 110u);
  EXPECT_EQ(s.prior_ssthresh(), kInfinite);
  EXPECT_EQ(s.snd_ssthresh(), 7u);
}

// The full ACK ends Recovery without undo (undo_retrans 1, no TS echo):
// cwnd = ssthresh 7. A D-SACK of the head then proves the one
// retransmission spurious: undo_retrans 0, and with nothing in flight
// (tcp_ack's no_queue path) tcp_try_undo_dsack in Open restores cwnd =
// prior_cwnd 10 and ssthresh = prior_ssthresh.
TEST(UndoTest, DsackAfterRecoveryUndoesTheReduction) {
  SenderContext ctx(Opts(true));
  const uint64_t una = Fill(ctx);
  EnterRecovery(ctx, una);
  TcpSock& s = ctx.sock();
  ctx.At(210 * kNsPerMs);
  ctx.Ack(una + 10 * kMss);
  EXPECT_EQ(s.ca_state(), CaState::kOpen);
  EXPECT_EQ(s.snd_ssthresh(), 7u);
  EXPECT_TRUE(s.undo_marker_set());
  EXPECT_EQ(s.dsack_dups(), 0u);
  ctx.AckSack(una + 10 * kMss, {{una, una + kMss}});
  EXPECT_EQ(s.dsack_dups(), 1u);
  EXPECT_EQ(s.undo_retrans(), 0);
  EXPECT_FALSE(s.undo_marker_set());
  EXPECT_EQ(s.snd_cwnd(), 10u);
  EXPECT_EQ(s.snd_ssthresh(), kInfinite);
  EXPECT_EQ(s.ca_state(), CaState::kOpen);
}

// A D-SACK for data never retransmitted: tcp_dsack_seen counts it in
// dsack_dups, finds more duplicates than total_retrans (0) and ignores it;
// nothing about the state changes.
TEST(UndoTest, DsackWithoutRetransmissionIsIgnored) {
  SenderContext ctx(Opts(true));
  const uint64_t una = Fill(ctx);
  ctx.At(110 * kNsPerMs);
  ctx.AckSack(una + kMss, {{una, una + kMss}});
  const TcpSock& s = ctx.sock();
  EXPECT_EQ(s.dsack_dups(), 1u);
  EXPECT_EQ(s.ca_state(), CaState::kOpen);
  EXPECT_FALSE(s.undo_marker_set());
}

// At 120 ms, the ACK of the head (a partial ACK: the hole is filled) with
// SACK of segments 2-4 and TS ecr `tsecr`.
void PartialAckAt120Ms(SenderContext& ctx, uint64_t una, uint32_t tsecr) {
  ctx.At(120 * kNsPerMs);
  Segment seg;
  seg.ack = static_cast<uint32_t>(una + kMss);
  seg.tsecr = tsecr;
  seg.sack = {{static_cast<uint32_t>(una + kMss), static_cast<uint32_t>(una + 4 * kMss)}};
  ctx.AckSegment(seg);
}

// Eifel (tcp_try_undo_partial): a partial ACK echoing TS val 10, before the
// retransmission's 110, filled the hole with the original. The reordering
// was underestimated: tcp_check_sack_reordering(prior snd_una) with the
// highest SACK 4 segments up gives reordering 4. The acked retransmission
// leaves retrans_out 0: undo (lost marks cleared), cwnd = max(7, 10) = 10,
// ssthresh infinite, tcp_try_keep_open: 3 SACKed outstanding -> Disorder.
// tcp_cong_control then slow-starts (reordering 4 > 3: forward progress
// raises cwnd; cwnd-limited, 10 < 2 * 10) by the 1 segment delivered: 11.
TEST(UndoTest, PartialAckEchoingTheOriginalUndoes) {
  SenderContext ctx(Opts(true));
  const uint64_t una = Fill(ctx);
  EnterRecovery(ctx, una);
  TcpSock& s = ctx.sock();
  PartialAckAt120Ms(ctx, una, 10);
  EXPECT_EQ(s.ca_state(), CaState::kDisorder);
  EXPECT_FALSE(s.undo_marker_set());
  EXPECT_EQ(s.lost_out(), 0u);
  EXPECT_EQ(s.reordering(), 4u);
  EXPECT_EQ(s.snd_ssthresh(), kInfinite);
  EXPECT_EQ(s.snd_cwnd(), 11u);
  EXPECT_EQ(s.retrans_stamp(), 0u);
  EXPECT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
}

// The same partial ACK echoing the retransmission's TS val (110, not
// before retrans_stamp): no undo, Recovery goes on with ssthresh 7.
TEST(UndoTest, PartialAckEchoingTheRetransmissionKeepsRecovery) {
  SenderContext ctx(Opts(true));
  const uint64_t una = Fill(ctx);
  EnterRecovery(ctx, una);
  TcpSock& s = ctx.sock();
  PartialAckAt120Ms(ctx, una, 110);
  EXPECT_EQ(s.ca_state(), CaState::kRecovery);
  EXPECT_TRUE(s.undo_marker_set());
  EXPECT_EQ(s.snd_ssthresh(), 7u);
  EXPECT_EQ(s.reordering(), 3u);
}

// Reno (no loss probe), 10 segments out and 2 more queued; the RTO 300 ms
// after the send (srtt 100 + rttvar 200) resends the head. The ACK of the
// head 10 ms later: with F-RTO (tcp_frto 2) step 2.b sends the 2 queued
// segments (cwnd 1 -> 2 in slow start, nothing counted in flight);
// without it (0) the next 2 lost segments are retransmitted instead.
std::vector<testing::WireSeg> AfterRtoAck(uint32_t frto) {
  SenderContext::Options o = Opts(false);
  o.config.sysctl.frto = frto;
  SenderContext ctx(o);
  const uint64_t una = Fill(ctx);
  EXPECT_EQ(ctx.SendMsg(2 * kMss, 0), 2 * kMss);
  ctx.DrainTx();
  EXPECT_TRUE(ctx.TakeWire().empty());
  ctx.At(311 * kNsPerMs);
  TcpSock& s = ctx.sock();
  EXPECT_EQ(s.ca_state(), CaState::kLoss);
  EXPECT_EQ(s.frto(), frto != 0);
  ctx.DrainTx();  // the resent head leaves the host (TSQ)
  EXPECT_EQ(ctx.TakeWire().size(), 1u);
  ctx.At(321 * kNsPerMs);
  ctx.Ack(una + kMss);
  ctx.DrainTx();
  EXPECT_EQ(s.snd_cwnd(), 2u);
  return ctx.TakeWire();
}

TEST(UndoTest, FrtoSendsNewDataAfterTheRto) {
  uint32_t bytes = 0;
  for (const auto& w : AfterRtoAck(2)) {
    EXPECT_FALSE(w.retransmit);
    bytes += w.len;
  }
  EXPECT_EQ(bytes, 2 * kMss);
}

TEST(UndoTest, WithoutFrtoTheRtoRetransmits) {
  uint32_t bytes = 0;
  for (const auto& w : AfterRtoAck(0)) {
    EXPECT_TRUE(w.retransmit);
    bytes += w.len;
  }
  EXPECT_EQ(bytes, 2 * kMss);
}

}  // namespace
}  // namespace sendsim::model
