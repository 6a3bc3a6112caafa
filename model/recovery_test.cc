// Loss recovery (sack.cc, recovery.cc). Expectations derived by hand from
// tcp_input.c (tcp_sacktag_write_queue, tcp_fastretrans_alert,
// tcp_enter_recovery, tcp_cwnd_reduction, tcp_add_reno_sack,
// tcp_newreno_mark_lost) and tcp_recovery.c (RACK).

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

SenderContext::Options Opts(bool sack, CongestionControl cc) {
  SenderContext::Options o;
  o.config.sack = sack;
  o.config.cc = cc;
  o.profile = "linux-6.12";
  o.handshake_rtt_ns = 100 * kNsPerMs;
  return o;
}

// 10 segments in flight at cwnd 10 (sent at t = 0).
uint64_t Fill(SenderContext& ctx, uint32_t segs = 10) {
  const uint64_t una0 = ctx.sock().snd_una();
  EXPECT_EQ(ctx.SendMsg(segs * kMss, 0), segs * kMss);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().packets_out(), 10u);
  ctx.TakeWire();
  return una0;
}

// A SACK covering three segments above a one-segment hole: sacked_out 3
// reaches reordering, so RACK's reo_wnd is 0 and the head (sent with the
// SACKed ones) is lost at once. Recovery: ssthresh = 10 * 717 / 1024 = 7;
// PRR: in flight = 10 - 3 - 1 = 6, delta 1, sndcnt 1: cwnd 7, and the head
// is retransmitted.
TEST(RecoveryTest, SackAboveHoleEntersRecoveryWithCubicSsthresh) {
  SenderContext ctx(Opts(true, CongestionControl::kCubic));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 4 * kMss}});
  TcpSock& s = ctx.sock();
  EXPECT_EQ(s.ca_state(), CaState::kRecovery);
  EXPECT_EQ(s.sacked_out(), 3u);
  EXPECT_EQ(s.lost_out(), 1u);
  EXPECT_EQ(s.snd_ssthresh(), 7u);
  EXPECT_EQ(s.snd_cwnd(), 7u);
  const auto wire = ctx.TakeWire();
  ASSERT_EQ(wire.size(), 1u);
  EXPECT_TRUE(wire[0].retransmit);
  EXPECT_EQ(wire[0].seq, static_cast<uint32_t>(una));
  EXPECT_EQ(wire[0].len, kMss);
  EXPECT_EQ(s.retrans_out(), 1u);
  EXPECT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
}

// A SACK ending inside a TSO skb splits it at a segment boundary: the
// SACKed part is whole segments.
TEST(RecoveryTest, PartialSackSplitsAtSegmentBoundary) {
  SenderContext ctx(Opts(true, CongestionControl::kCubic));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  // 1.5 segments SACKed from seq una + kMss: only the first whole one counts.
  ctx.AckSack(una, {{una + kMss, una + 2 * kMss + kMss / 2}});
  TcpSock& s = ctx.sock();
  EXPECT_EQ(s.sacked_out(), 1u);
  bool found = false;
  for (const Skb& skb : s.rtx_queue()) {
    if (skb.sacked) {
      EXPECT_EQ(skb.seq, una + kMss);
      EXPECT_EQ(skb.end_seq, una + 2 * kMss);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(s.ca_state(), CaState::kDisorder);
  EXPECT_TRUE(s.CheckInvariants().ok()) << s.CheckInvariants();
}

// One SACK, below the duplicate threshold: RACK waits rack.rtt + min_rtt/4
// = 100 + 25 ms from the head's sending; the timer is 25 ms + 2 ms,
// rounded up to 7 jiffies at HZ 250: 28 ms after the SACK. Then the head
// is lost, Recovery with one PRR step: in flight 8 > ssthresh 7, sndcnt =
// ceil(7 * 1 / 10) = 1, cwnd 9.
TEST(RecoveryTest, RackReoTimerMarksTheHeadLost) {
  SenderContext ctx(Opts(true, CongestionControl::kCubic));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 2 * kMss}});
  TcpSock& s = ctx.sock();
  EXPECT_EQ(s.pending_timer(), XmitTimer::kReoTimeout);
  EXPECT_EQ(s.timer_expires_ns(), 128 * kNsPerMs);
  EXPECT_EQ(s.ca_state(), CaState::kDisorder);
  ctx.At(128 * kNsPerMs - 1);
  EXPECT_EQ(s.lost_out(), 0u);
  ctx.At(128 * kNsPerMs);
  EXPECT_EQ(s.ca_state(), CaState::kRecovery);
  EXPECT_EQ(s.lost_out(), 1u);
  EXPECT_EQ(s.snd_cwnd(), 9u);
  const auto wire = ctx.TakeWire();
  ASSERT_EQ(wire.size(), 1u);
  EXPECT_EQ(wire[0].seq, static_cast<uint32_t>(una));
}

// The reordering timer armed by the first SACK (due at 128 ms, as above)
// stays pending through the fast retransmit at 100 ms: tcp_rack_mark_lost
// finds nothing left to wait for and does not re-arm it, and
// tcp_xmit_retransmit_queue leaves a pending REO timer alone. At 128 ms it
// fires with nothing newly lost, and tcp_rearm_rto, with icsk_pending still
// ICSK_TIME_REO_TIMEOUT, arms what is left of the head's RTO: due one RTO
// after the head was resent (100 ms), not one RTO after 128 ms.
TEST(RecoveryTest, ReoTimeoutAfterTheFastRetransmitKeepsTheHeadsRto) {
  SenderContext ctx(Opts(true, CongestionControl::kCubic));
  const uint64_t una = Fill(ctx);
  TcpSock& s = ctx.sock();
  const TimeNs jiffy = kNsPerSec / 250;
  ctx.At(100 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 2 * kMss}});
  ASSERT_EQ(s.pending_timer(), XmitTimer::kReoTimeout);
  ctx.AckSack(una, {{una + kMss, una + 3 * kMss}});
  ctx.AckSack(una, {{una + kMss, una + 4 * kMss}});
  ASSERT_EQ(s.ca_state(), CaState::kRecovery);
  ASSERT_EQ(ctx.TakeWire().size(), 1u);  // the head, resent at 100 ms
  EXPECT_EQ(s.pending_timer(), XmitTimer::kReoTimeout);
  EXPECT_EQ(s.timer_expires_ns(), 128 * kNsPerMs);
  ctx.At(128 * kNsPerMs);
  EXPECT_TRUE(ctx.TakeWire().empty());
  EXPECT_EQ(s.pending_timer(), XmitTimer::kRetrans);
  EXPECT_EQ(s.timer_expires_ns(), 100 * kNsPerMs + static_cast<TimeNs>(s.rto_jiffies()) * jiffy);
}

// tcp_clean_rtx_queue re-arms the RTO on an ACK that acks nothing
// cumulatively when the newly SACKed data was sent before the rtx head's
// last transmission. The head is resent at 100 ms (the RTO is then due one
// RTO later); a SACK at 152 ms (a jiffy boundary at HZ 250: timers are
// jiffies + RTO) of segment 5, sent at 0, has an RTT sample (152 ms) older
// than the head's resending (52 ms ago): the RTO moves to 152 ms + RTO.
TEST(RecoveryTest, SackOfDataSentBeforeTheHeadsResendReArmsTheRto) {
  SenderContext ctx(Opts(true, CongestionControl::kCubic));
  const uint64_t una = Fill(ctx);
  TcpSock& s = ctx.sock();
  const TimeNs jiffy = kNsPerSec / 250;
  ctx.At(100 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 4 * kMss}});
  ASSERT_EQ(s.ca_state(), CaState::kRecovery);
  ASSERT_EQ(ctx.TakeWire().size(), 1u);  // the head, resent now
  EXPECT_EQ(s.pending_timer(), XmitTimer::kRetrans);
  EXPECT_EQ(s.timer_expires_ns(), 100 * kNsPerMs + static_cast<TimeNs>(s.rto_jiffies()) * jiffy);
  ctx.At(152 * kNsPerMs);
  ctx.AckSack(una, {{una + kMss, una + 5 * kMss}});
  EXPECT_EQ(s.sacked_out(), 4u);
  EXPECT_EQ(s.pending_timer(), XmitTimer::kRetrans);
  EXPECT_EQ(s.timer_expires_ns(), 152 * kNsPerMs + static_cast<TimeNs>(s.rto_jiffies()) * jiffy);
}

// Reno without SACK: two duplicate ACKs are Disorder; the third marks the
// head lost (tcp_newreno_mark_lost), Recovery with ssthresh 10 / 2 = 5.
// PRR: in flight = 10 - 3 - 1 = 6 > 5: sndcnt = ceil(5 * 1 / 10) - 0 = 1,
// cwnd 7; the head leaves again.
TEST(RecoveryTest, RenoThreeDupacksFastRetransmit) {
  SenderContext ctx(Opts(false, CongestionControl::kReno));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  TcpSock& s = ctx.sock();
  ctx.Ack(una);
  ctx.Ack(una);
  EXPECT_EQ(s.ca_state(), CaState::kDisorder);
  EXPECT_EQ(s.sacked_out(), 2u);
  EXPECT_TRUE(ctx.TakeWire().empty());
  ctx.Ack(una);
  EXPECT_EQ(s.ca_state(), CaState::kRecovery);
  EXPECT_EQ(s.snd_ssthresh(), 5u);
  EXPECT_EQ(s.snd_cwnd(), 7u);
  const auto wire = ctx.TakeWire();
  ASSERT_EQ(wire.size(), 1u);
  EXPECT_TRUE(wire[0].retransmit);
  EXPECT_EQ(wire[0].len, kMss);
}

// A FIN at snd_una (the peer closing while our data is in flight) takes a
// sequence number, so tcp_ack counts it as data (FLAG_DATA, seq !=
// end_seq), not as a duplicate ACK: three of them (the FIN and two
// retransmissions) leave Reno in Open with no emulated SACK, where three
// bare duplicate ACKs would start a fast retransmit (above).
TEST(RecoveryTest, RenoFinAtSndUnaIsNoDupack) {
  SenderContext ctx(Opts(false, CongestionControl::kReno));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  TcpSock& s = ctx.sock();
  for (int i = 0; i < 3; ++i) ctx.Ack(una, std::nullopt, kTcpAck | kTcpFin);
  EXPECT_EQ(s.ca_state(), CaState::kOpen);
  EXPECT_EQ(s.sacked_out(), 0u);
  EXPECT_TRUE(ctx.TakeWire().empty());
}

// PRR below ssthresh (tcp_cwnd_reduction's second branch): after the
// Reno fast retransmit (prr_delivered 1, prr_out 1), a partial ACK of 4
// segments eats the 3 emulated SACKs and delivers 1; NewReno marks the new
// head lost. In flight = 6 - 1 = 5 = ssthresh: delta 0, so cwnd 5 and
// nothing may leave.
TEST(RecoveryTest, RenoPartialAckMarksNextHead) {
  SenderContext ctx(Opts(false, CongestionControl::kReno));
  const uint64_t una = Fill(ctx);
  ctx.At(100 * kNsPerMs);
  for (int i = 0; i < 3; ++i) ctx.Ack(una);
  ctx.TakeWire();
  ctx.At(200 * kNsPerMs);
  ctx.Ack(una + 4 * kMss);
  TcpSock& s = ctx.sock();
  EXPECT_EQ(s.ca_state(), CaState::kRecovery);
  EXPECT_EQ(s.sacked_out(), 0u);
  EXPECT_EQ(s.lost_out(), 1u);
  EXPECT_EQ(s.snd_cwnd(), 5u);
  EXPECT_TRUE(ctx.TakeWire().empty());
}

}  // namespace
}  // namespace sendsim::model
