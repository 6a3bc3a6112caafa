// Classic ECN on the sending side (ecn.cc). Expectations derived by hand
// from tcp_input.c (tcp_enter_cwr, tcp_cwnd_reduction,
// tcp_end_cwnd_reduction) and tcp_output.c (tcp_ecn_send).

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

SenderContext::Options EcnReno(bool ecn) {
  SenderContext::Options o = SenderContext::NoSack("linux-6.12");
  o.config.ecn = ecn;
  o.handshake_rtt_ns = 100 * kNsPerMs;
  return o;
}

// 10 segments in flight at cwnd 10, the rest of a 30-segment write queued.
uint64_t FillWindow(SenderContext& ctx) {
  const uint64_t una0 = ctx.sock().snd_una();
  EXPECT_EQ(ctx.SendMsg(30 * kMss, 0), 30 * kMss);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().packets_out(), 10u);
  return una0;
}

TEST(EcnTest, NewDataIsEctAndControlIsNot) {
  SenderContext ctx(EcnReno(true));
  FillWindow(ctx);
  ASSERT_FALSE(ctx.skbs().empty());
  for (const XmitSkb& x : ctx.skbs()) {
    EXPECT_TRUE(x.ect);
    EXPECT_EQ(x.tcp_flags & kTcpCwr, 0);
  }
}

// Reno: ssthresh = 10 / 2 = 5. The ECE ACK of 2 segments leaves 8 in
// flight (above ssthresh): PRR allows ceil(5 * 2 / 10) = 1 more, cwnd 9,
// and that segment is the first new data after the reduction: CWR.
TEST(EcnTest, EceEntersCwrWithProportionalReduction) {
  SenderContext ctx(EcnReno(true));
  const uint64_t una0 = FillWindow(ctx);
  const size_t before = ctx.skbs().size();
  ctx.At(200 * kNsPerMs);
  ctx.Ack(una0 + 2 * kMss, std::nullopt, kTcpAck | kTcpEce);
  ctx.DrainTx();
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.ca_state, 2);
  EXPECT_EQ(i.snd_ssthresh, 5u);
  EXPECT_EQ(i.snd_cwnd, 9u);
  EXPECT_EQ(i.delivered_ce, 2u);
  ASSERT_EQ(ctx.skbs().size(), before + 1);
  EXPECT_NE(ctx.skbs().back().tcp_flags & kTcpCwr, 0);
  EXPECT_TRUE(ctx.skbs().back().ect);
  // A second ECE in the same window changes nothing but the counts; the
  // CWR went out already.
  ctx.Ack(una0 + 4 * kMss, std::nullopt, kTcpAck | kTcpEce);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().info().snd_ssthresh, 5u);
  EXPECT_EQ(ctx.sock().info().delivered_ce, 4u);
  for (size_t k = before + 1; k < ctx.skbs().size(); ++k) EXPECT_EQ(ctx.skbs()[k].tcp_flags & kTcpCwr, 0);
}

// CWR lasts until data above high_seq (snd_nxt at entry, 10 segments) is
// acknowledged; then cwnd = ssthresh and the state is Open again.
TEST(EcnTest, CwrEndsAboveHighSeq) {
  SenderContext ctx(EcnReno(true));
  const uint64_t una0 = FillWindow(ctx);
  ctx.At(200 * kNsPerMs);
  ctx.Ack(una0 + 2 * kMss, std::nullopt, kTcpAck | kTcpEce);
  ctx.DrainTx();
  ctx.Ack(una0 + 10 * kMss);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().info().ca_state, 2);  // snd_una == high_seq: not above
  ctx.Ack(una0 + 11 * kMss);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().info().ca_state, 0);
  EXPECT_EQ(ctx.sock().info().snd_cwnd, 5u);
}

TEST(EcnTest, EceWithoutEcnIsIgnored) {
  SenderContext ctx(EcnReno(false));
  const uint64_t una0 = FillWindow(ctx);
  ctx.At(200 * kNsPerMs);
  ctx.Ack(una0 + 2 * kMss, std::nullopt, kTcpAck | kTcpEce);
  ctx.DrainTx();
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.ca_state, 0);
  EXPECT_EQ(i.snd_cwnd, 12u);  // slow start: + 2 acked
  EXPECT_EQ(i.delivered_ce, 0u);
  for (const XmitSkb& x : ctx.skbs()) EXPECT_FALSE(x.ect);
}

// An RTO's retransmission leaves Not-ECT (tcp_ecn_send: seq below snd_nxt).
TEST(EcnTest, RetransmissionIsNotEct) {
  SenderContext ctx(EcnReno(true));
  FillWindow(ctx);
  ctx.At(1000 * kNsPerMs);
  ctx.DrainTx();
  ASSERT_TRUE(ctx.skbs().back().retransmit);
  EXPECT_FALSE(ctx.skbs().back().ect);
}

}  // namespace
}  // namespace sendsim::model
