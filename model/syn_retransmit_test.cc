// The socket a handshake with retransmitted SYNs or SYN-ACKs leaves
// (TcpSock::InitAfterSynRetransmit) and tcp_enter_loss's ssthresh condition
// (timers.cc). Expectations derived by hand from tcp_init_transfer,
// tcp_init_metrics, tcp_process_loss and tcp_enter_loss.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

// Reno (halving ssthresh), no SACK, no RTT sample from the handshake.
SenderContext::Options AfterSynRetransmits(uint32_t n, uint32_t backoff) {
  SenderContext::Options o;
  o.config.sack = false;
  o.profile = "linux-6.1";
  o.handshake_rtt_ns = 0;
  o.syn_retransmits = n;
  o.syn_backoff = backoff;
  return o;
}

// One retransmission: cwnd stays the initial 10 (tcp_init_transfer cuts
// only after more than one); ssthresh infinite (tcp_init_metrics); RTO
// TCP_TIMEOUT_FALLBACK; no RTT; backoff as the SYN left it; Loss held
// without SACK.
TEST(SynRetransmitTest, OneRetransmissionWithoutSack) {
  SenderContext ctx(AfterSynRetransmits(1, 1));
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.snd_cwnd, 10u);
  EXPECT_EQ(i.snd_ssthresh, kTcpInfiniteSsthresh);
  EXPECT_EQ(i.rto_us, 3000000u);
  EXPECT_EQ(i.rtt_us, 0u);
  EXPECT_EQ(i.backoff, 1);
  EXPECT_EQ(i.ca_state, 4);  // TCP_CA_Loss
  EXPECT_EQ(i.total_retrans, 1u);
  EXPECT_EQ(i.retransmits, 0);
}

// Two retransmissions: cwnd 1. With SACK the SYN-ACK already ended Loss.
TEST(SynRetransmitTest, TwoRetransmissionsWithSack) {
  SenderContext::Options o = AfterSynRetransmits(2, 0);
  o.config.sack = true;
  SenderContext ctx(o);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.snd_cwnd, 1u);
  EXPECT_EQ(i.ca_state, 0);  // TCP_CA_Open
  EXPECT_EQ(i.total_retrans, 2u);
  EXPECT_EQ(i.backoff, 0);
  EXPECT_EQ(i.rto_us, 3000000u);
}

// A timestamp echo gave a 100 ms sample: RTO 100 + max(200, 200) = 300 ms,
// and the sample cleared the backoff (tcp_ack_update_rtt).
TEST(SynRetransmitTest, TimestampSampleClearsBackoff) {
  SenderContext::Options o = AfterSynRetransmits(1, 1);
  o.handshake_rtt_ns = 100 * kNsPerMs;
  SenderContext ctx(o);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.rto_us, 300000u);
  EXPECT_EQ(i.backoff, 0);
  EXPECT_EQ(i.rtt_us, 100000u);
  EXPECT_EQ(i.snd_cwnd, 10u);
  // The SYN's retransmission still counts (tcp_retransmit_skb), which a
  // socket without one would not show.
  EXPECT_EQ(i.total_retrans, 1u);
}

// The first data ACK above high_seq ends the held Loss and, as the first
// RTT sample, sets the RTO (100 ms: 300 ms) and clears the backoff.
TEST(SynRetransmitTest, FirstDataAckEndsLoss) {
  SenderContext ctx(AfterSynRetransmits(1, 1));
  const uint64_t una = ctx.sock().snd_una();
  ASSERT_EQ(ctx.SendMsg(kMss, 0), kMss);
  ctx.CompleteAllTx();
  ctx.At(100 * kNsPerMs);
  ctx.Ack(una + kMss);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.ca_state, 0);
  EXPECT_EQ(i.rto_us, 300000u);
  EXPECT_EQ(i.backoff, 0);
}

// The data's RTO in the held Loss (snd_una == high_seq): tcp_enter_loss
// cuts ssthresh (Reno: 10 / 2 = 5), cwnd 1, RTO 3 s doubled to 6 s. The
// next RTO of the same series (high_seq above snd_una, icsk_retransmits 1)
// keeps ssthresh 5.
TEST(SynRetransmitTest, RtoInHeldLossCutsSsthreshOnce) {
  SenderContext ctx(AfterSynRetransmits(1, 0));
  ASSERT_EQ(ctx.SendMsg(kMss, 0), kMss);
  ctx.CompleteAllTx();
  ctx.At(3 * kNsPerSec + 10 * kNsPerMs);
  ctx.CompleteAllTx();
  TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.snd_ssthresh, 5u);
  EXPECT_EQ(i.snd_cwnd, 1u);
  EXPECT_EQ(i.rto_us, 6000000u);
  EXPECT_EQ(i.total_retrans, 2u);
  ctx.At(9 * kNsPerSec + 20 * kNsPerMs);
  i = ctx.sock().info();
  EXPECT_EQ(i.retransmits, 2);
  EXPECT_EQ(i.snd_ssthresh, 5u);
}

// Loss whose RTO series an ACK ended (icsk_retransmits back to 0) with
// high_seq still ahead: the next RTO cuts ssthresh again from the current
// cwnd, max(cwnd / 2, 2) = 2 for any cwnd up to 5.
TEST(SynRetransmitTest, RtoAfterPartialAckInLossCutsAgain) {
  SenderContext::Options o;
  o.config.sack = false;
  o.profile = "linux-6.1";
  o.handshake_rtt_ns = 100 * kNsPerMs;  // RTO 300 ms
  SenderContext ctx(o);
  const uint64_t una = ctx.sock().snd_una();
  ASSERT_EQ(ctx.SendMsg(10 * kMss, 0), 10 * kMss);
  ctx.CompleteAllTx();
  ctx.At(400 * kNsPerMs);  // the RTO: ssthresh 5, cwnd 1
  ctx.CompleteAllTx();
  ASSERT_EQ(ctx.sock().snd_ssthresh(), 5u);
  ctx.Ack(una + kMss);  // partial: still below high_seq
  ctx.CompleteAllTx();
  ASSERT_LE(ctx.sock().snd_cwnd(), 5u);
  ctx.At(2 * kNsPerSec);
  ctx.CompleteAllTx();
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 2u);
  EXPECT_EQ(ctx.sock().info().ca_state, 4);
}

// Passive open after SYN-ACK retransmissions (the request socket's timer:
// no tcp_enter_loss, no backoff on the child). Reno, no SACK, MSS 1448,
// tcp_pacing_ss_ratio 200.
SenderContext::Options AfterSynAckRetransmits(uint32_t n, TimeNs rtt) {
  SenderContext::Options o = AfterSynRetransmits(n, 0);
  o.passive_open = true;
  o.handshake_rtt_ns = rtt;
  return o;
}

// One retransmission, no sample: cwnd 10, RTO 3 s, and Open even without
// SACK (no Loss was entered). tcp_update_pacing_rate with srtt 0 does not
// divide: 1448 * 80000 * 200 * 10.
TEST(SynRetransmitTest, PassiveOneSynAckRetransmission) {
  SenderContext ctx(AfterSynAckRetransmits(1, 0));
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.snd_cwnd, 10u);
  EXPECT_EQ(i.snd_ssthresh, kTcpInfiniteSsthresh);
  EXPECT_EQ(i.rto_us, 3000000u);
  EXPECT_EQ(i.rtt_us, 0u);
  EXPECT_EQ(i.backoff, 0);
  EXPECT_EQ(i.ca_state, 0);
  EXPECT_EQ(i.total_retrans, 1u);
  EXPECT_EQ(i.pacing_rate, uint64_t{1448} * 80000 * 200 * 10);
}

// Two retransmissions: cwnd 1, and the pacing rate sees it (tcp_init_transfer
// runs before tcp_update_pacing_rate): 1448 * 80000 * 200 * 1.
TEST(SynRetransmitTest, PassiveTwoSynAckRetransmissions) {
  SenderContext ctx(AfterSynAckRetransmits(2, 0));
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.snd_cwnd, 1u);
  EXPECT_EQ(i.ca_state, 0);
  EXPECT_EQ(i.total_retrans, 2u);
  EXPECT_EQ(i.rto_us, 3000000u);
  EXPECT_EQ(i.pacing_rate, uint64_t{1448} * 80000 * 200);
}

// Two retransmissions with a 100 ms timestamp sample: RTO 300 ms, cwnd
// still 1, pacing 1448 * 80000 * 200 * 1 / (8 * 100000) = 28960 B/s (not
// the 289600 of the initial cwnd).
TEST(SynRetransmitTest, PassiveTimestampSampleAfterTwo) {
  SenderContext ctx(AfterSynAckRetransmits(2, 100 * kNsPerMs));
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.rtt_us, 100000u);
  EXPECT_EQ(i.rto_us, 300000u);
  EXPECT_EQ(i.snd_cwnd, 1u);
  EXPECT_EQ(i.pacing_rate, 28960u);
}

// Two SYN-ACKs that answered the peer's repeated SYN, no timeout: no
// undo_marker, so v5.2+ (linux-6.1's profile) keeps cwnd 10; linux-4.19
// cuts on total_retrans alone. One of the two a timeout: cut on both.
TEST(SynRetransmitTest, PassiveCutNeedsATimeoutSinceV52) {
  SenderContext::Options o = AfterSynAckRetransmits(2, 0);
  o.synack_answers = 2;
  EXPECT_EQ(SenderContext(o).sock().info().snd_cwnd, 10u);
  EXPECT_EQ(SenderContext(o).sock().info().total_retrans, 2u);
  o.profile = "linux-4.19";
  EXPECT_EQ(SenderContext(o).sock().info().snd_cwnd, 1u);
  o.profile = "linux-6.1";
  o.synack_answers = 1;
  EXPECT_EQ(SenderContext(o).sock().info().snd_cwnd, 1u);
}

// Without SACK the first flight's RTO (3 s after it left) enters Loss from
// Open: Reno ssthresh 10 / 2 = 5, cwnd 1, the RTO doubled to 6 s, backoff
// 1; total_retrans 1 (SYN-ACK) + 1.
TEST(SynRetransmitTest, PassiveFirstFlightRto) {
  SenderContext ctx(AfterSynAckRetransmits(1, 0));
  ASSERT_EQ(ctx.SendMsg(10 * kMss, 0), 10 * kMss);
  ctx.CompleteAllTx();
  ctx.At(3 * kNsPerSec - 10 * kNsPerMs);
  EXPECT_EQ(ctx.sock().info().total_retrans, 1u);
  ctx.At(3 * kNsPerSec + 10 * kNsPerMs);
  ctx.CompleteAllTx();
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.ca_state, 4);
  EXPECT_EQ(i.snd_ssthresh, 5u);
  EXPECT_EQ(i.snd_cwnd, 1u);
  EXPECT_EQ(i.rto_us, 6000000u);
  EXPECT_EQ(i.backoff, 1);
  EXPECT_EQ(i.total_retrans, 2u);
}

}  // namespace
}  // namespace sendsim::model
