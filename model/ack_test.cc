// ACK processing and congestion window: slow start, application-limited cap.

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/ack.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

TEST(Rules, SlowStartStopsAtSsthresh) {
  uint32_t acked = 4;
  EXPECT_EQ(SlowStartRule(10, 12, &acked), 12u);
  EXPECT_EQ(acked, 2u);  // credit left for congestion avoidance
}

TEST(Rules, SndbufPerMss) {
  // 1460 + 304 + 320 = 2084 -> 4096, + 256 -> 4352; 2 * 10 * 4352 = 87040.
  EXPECT_EQ(SndbufPerMss(1460), 4352u);
  SenderContext ctx;
  EXPECT_EQ(ctx.sock().sndbuf(), 87040u);
}

TEST(Rules, CubicRootIsFloor) {
  EXPECT_EQ(CubicRoot(26), 2u);
  EXPECT_EQ(CubicRoot(27), 3u);
  EXPECT_EQ(CubicRoot(1000000), 100u);
}

// tcp_init_cwnd clamps the route's initial cwnd to snd_cwnd_clamp: initcwnd
// 100 with a clamp of 13 sends 13 segments, not 100 (found against UML 6.1
// by tools/kernelreplay: the kernel's footer waited for the window).
TEST(Rules, InitialCwndClamped) {
  SenderContext::Options o;
  o.config.initcwnd = 100;
  o.config.cwnd_clamp = 13;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 13u);
  EXPECT_EQ(ctx.SendMsg(60000, 0), 60000);
  EXPECT_EQ(ctx.TakeLens().size(), 13u);
}

// Slow start with an ACK every second segment (Reno):
//  t=0: 60000 bytes -> cwnd 10 allows 10 segments (two half-cwnd bursts).
//  each ACK then covers 2 segments: cwnd += 2 (cwnd < 2*max_packets_out, so
//  cwnd-limited) and 4 segments leave (2 replace the acked, 2 from growth).
//  ACKs come in later jiffies, so TSO deferral never holds them; the clones
//  are TX-completed before each ACK, so TSQ never throttles.
TEST(SlowStart, TenThenTwoPerAckOfTwo) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(60000, 0), 60000);
  EXPECT_EQ(ctx.TakeLens().size(), 10u);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 10u);
  size_t total = 10;
  for (int k = 1; k <= 5; ++k) {
    ctx.At(k * 4 * kNsPerMs + kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_una() + 2 * 1448);
    EXPECT_EQ(ctx.sock().snd_cwnd(), 10u + 2 * k) << "ACK " << k;
    total += ctx.TakeLens().size();
    EXPECT_EQ(total, 10u + 4 * k) << "ACK " << k;
    EXPECT_EQ(ctx.sock().packets_out(), ctx.sock().snd_cwnd()) << "ACK " << k;
  }
}

// tcp_is_cwnd_limited in slow start: grow only while cwnd < 2*max_packets_out.
//  3 segments out, ACKed: max_packets_out 3, 10 >= 6 -> cwnd stays 10.
//  8 segments out (5 + 3): max_packets_out 8 -> ACKs of 2 grow 10 -> 12 -> 14
//  -> 16, and the 4th ACK finds 16 == 2*8: no growth.
TEST(SlowStart, ApplicationLimitedGrowthCap) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(3 * 1448, 0), 3 * 1448);
  ctx.At(1 * kNsPerMs);
  ctx.Ack(2 * 1448);
  ctx.Ack(3 * 1448);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 10u);
  ctx.CompleteAllTx();
  ctx.At(5 * kNsPerMs);
  EXPECT_EQ(ctx.SendMsg(8 * 1448, 0), 8 * 1448);
  EXPECT_EQ(ctx.sock().packets_out(), 8u);
  const uint32_t expect[] = {12, 14, 16, 16};
  for (int k = 1; k <= 4; ++k) {
    ctx.At((5 + 4 * k) * kNsPerMs);
    ctx.Ack(3 * 1448 + 2 * k * 1448);
    EXPECT_EQ(ctx.sock().snd_cwnd(), expect[k - 1]) << "ACK " << k;
  }
}

// Restart after idle (tcp_cwnd_restart): after more than one RTO without
// transmission, a new skb halves cwnd per RTO elapsed, down to initcwnd.
TEST(SlowStart, RestartAfterIdle) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(60000, 0), 60000);
  for (int k = 1; k <= 5; ++k) {
    ctx.At(k * 4 * kNsPerMs + kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_una() + 2 * 1448);
  }
  for (int k = 0; k < 50 && ctx.sock().snd_una() < ctx.sock().write_seq(); ++k) {
    ctx.At((30 + k) * kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_nxt());
  }
  ASSERT_EQ(ctx.sock().packets_out(), 0u);
  ASSERT_GE(ctx.sock().snd_cwnd(), 20u);
  // Idle for 10 s >> RTO: cwnd restarts at min(initcwnd, cwnd) = 10.
  ctx.At(10 * kNsPerSec);
  EXPECT_EQ(ctx.SendMsg(100, 0), 100);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 10u);
}

// tcp_ack_update_window: an ACK that changes the window while data waits
// runs the same idle check. Data queued into a zero window right after the
// last transmission keeps cwnd (skb_entail sees no idle time); window
// probes are not data, so after 10 s of stall the opening ACK restarts cwnd
// at min(initcwnd, cwnd) = 10, and an ACK that leaves the window unchanged
// does not.
TEST(SlowStart, RestartAfterZeroWindowStall) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(60000, 0), 60000);
  for (int k = 0; k < 50 && ctx.sock().snd_nxt() < ctx.sock().write_seq(); ++k) {
    ctx.At((4 + 4 * k) * kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_nxt());
  }
  ctx.At(ctx.now() + kNsPerMs);
  ctx.CompleteAllTx();
  ctx.Ack(ctx.sock().snd_nxt(), 0);  // everything acked, the window closes
  ASSERT_EQ(ctx.sock().packets_out(), 0u);
  const uint32_t cwnd = ctx.sock().snd_cwnd();
  ASSERT_GE(cwnd, 20u);
  const TimeNs t = ctx.now();
  EXPECT_EQ(ctx.SendMsg(5000, 0), 5000);
  ctx.At(t + 10 * kNsPerSec);
  ctx.CompleteAllTx();
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
  ctx.Ack(ctx.sock().snd_una(), 0);
  EXPECT_EQ(ctx.sock().snd_cwnd(), cwnd);
  ctx.Ack(ctx.sock().snd_una());
  EXPECT_EQ(ctx.sock().snd_cwnd(), 10u);
}

}  // namespace
}  // namespace sendsim::model
