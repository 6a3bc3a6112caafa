// CUBIC after an RTO (bictcp_state / cubictcp_state on TCP_CA_Loss): the
// whole state is forgotten, the remembered peak included, so the window
// regrows from a fresh epoch at its own level instead of reaching back
// toward the pre-loss peak. Expectations derived by hand from tcp_cubic.c.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

SenderContext::Options CubicNoSack(const char* profile) {
  SenderContext::Options o = SenderContext::NoSack(profile);
  o.config.cc = CongestionControl::kCubic;
  o.handshake_rtt_ns = 100 * kNsPerMs;  // srtt 100 ms, RTO 300 ms
  return o;
}

// TX completions until nothing more leaves (TSQ holds skbs until then).
// Timeline (ms): 10 segments at 0; RTO at 300 (ssthresh = 10 * 717 / 1024 =
// 7, cwnd 1); ACKs every 100 ms of 1, 2 and 4 segments grow cwnd 2, 4, 7 in
// slow start, the last leaving 1 segment for congestion avoidance, which
// starts an epoch at 600 with last_max_cwnd 0 (reset): K = 0, origin 7,
// target ~7 within a second, so cnt = 100 * cwnd capped at 20 while
// last_max_cwnd is 0. The ACK of the last 3 segments and one of 7 new ones
// leave cwnd 7 (11 acked < 20). The next 7 acked push the TCP-friendly
// estimate over 7 * 15 >> 3 = 13 acked: tcp_cwnd 8, cnt = 7 / (8 - 7) = 7,
// so the 11 + 7 acked count two increments: cwnd 9. Had the peak (10)
// survived, K = cbrt(2^40 / 410 * 3) ~ 1.96 s puts the target at ~8 (cnt 7)
// and the first 7 new segments acked would already give cwnd 8.
void ExpectRegrowthAfterRto(const char* profile) {
  SenderContext ctx(CubicNoSack(profile));
  const uint64_t una0 = ctx.sock().snd_una();
  ASSERT_EQ(ctx.SendMsg(10 * kMss, 0), 10 * kMss);
  ctx.DrainTx();
  ASSERT_EQ(ctx.sock().packets_out(), 10u);
  ctx.At(350 * kNsPerMs);
  ctx.DrainTx();
  EXPECT_EQ(ctx.sock().snd_cwnd(), 1u);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 7u);
  const uint32_t acked_at[] = {1, 3, 7, 10};
  const uint32_t cwnd_at[] = {2, 4, 7, 7};
  for (int i = 0; i < 4; ++i) {
    ctx.At((400 + 100 * i) * kNsPerMs);
    ctx.Ack(una0 + acked_at[i] * kMss);
    ctx.DrainTx();
    EXPECT_EQ(ctx.sock().snd_cwnd(), cwnd_at[i]) << "ACK " << i;
  }
  const uint32_t cwnd_after_round[] = {7, 9};
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(ctx.SendMsg(7 * kMss, 0), 7 * kMss);
    ctx.DrainTx();
    ASSERT_EQ(ctx.sock().packets_out(), 7u) << "round " << r;
    ctx.At((800 + 100 * r) * kNsPerMs);
    ctx.Ack(ctx.sock().snd_nxt());
    EXPECT_EQ(ctx.sock().snd_cwnd(), cwnd_after_round[r]) << "round " << r;
  }
}

TEST(CubicLoss, ForgetsThePeakV419) { ExpectRegrowthAfterRto("linux-4.19"); }
TEST(CubicLoss, ForgetsThePeakV68) { ExpectRegrowthAfterRto("linux-6.8"); }

}  // namespace
}  // namespace sendsim::model
