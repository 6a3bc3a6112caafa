// CUBIC's HyStart (tcp_cubic.c: bictcp_hystart_reset, hystart_update,
// hystart_ack_delay, called from bictcp_acked). Expectations derived by hand
// from the kernel's rules (docs/kernel-send-path.md §9.1), not from the
// model's output.
//
// Common timeline: handshake RTT 10 ms; at 0 the writer queues 100 segments
// and cwnd 10 sends 10. Round 1: all 10 ACKs (one segment each) arrive
// together at 10 ms, so every RTT sample is 10 ms (delay_min 10 ms) and the
// ACK train has length 0; slow start takes cwnd to 20 and the ACKs release
// the next 20 segments, all at 10 ms. Round 2 acks those one by one.

#include <cstdint>

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

SenderContext::Options Cubic(const char* profile, uint32_t initcwnd = 10) {
  SenderContext::Options o;
  o.config.cc = CongestionControl::kCubic;
  o.config.initcwnd = initcwnd;
  o.config.sndbuf = 1 << 20;  // room for the whole stream at once
  o.profile = profile;
  o.handshake_rtt_ns = 10 * kNsPerMs;
  return o;
}

// TX completions at the current instant until nothing more leaves.
// ACKs segment `seg` (1-based from the start of the stream) at `t`.
void AckSeg(SenderContext& ctx, uint64_t una0, uint32_t seg, TimeNs t) {
  ctx.At(t);
  ctx.Ack(una0 + static_cast<uint64_t>(seg) * kMss);
  ctx.DrainTx(0);
}

// Sends the first flight and runs round 1 (all ACKs at 10 ms).
uint64_t RoundOne(SenderContext& ctx, uint32_t initcwnd = 10) {
  const uint64_t una0 = ctx.sock().snd_una();
  EXPECT_EQ(ctx.SendMsg(100 * kMss, 0), 100 * kMss);
  ctx.DrainTx(0);
  EXPECT_EQ(ctx.sock().snd_nxt(), una0 + initcwnd * kMss);
  for (uint32_t s = 1; s <= initcwnd; ++s) AckSeg(ctx, una0, s, 10 * kNsPerMs);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 2 * initcwnd);
  EXPECT_EQ(ctx.sock().snd_nxt(), una0 + 3 * initcwnd * kMss) << "round 2 leaves at 10 ms";
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  return una0;
}

// Delay detector, v6.1 (us clock): delay_min 10 ms -> margin clamp(10 ms / 8,
// 4 ms, 16 ms) = 4 ms. Round 2's ACKs all come at 24.5 ms: RTT 14.5 ms >
// 14 ms. The round's first ACK (segment 11, past end_seq = 10) restarts the
// round; cwnd 20 >= 16, so every ACK is a sample. Samples 1-8 (segments
// 11-18, cwnd 20-27 as each is judged) only fill the count; the 9th
// (segment 19, cwnd 28) is the first tested: ssthresh = cwnd = 28, and the
// same ACK's cong_avoid no longer slow-starts (28 < 28 is false). The ACK
// train never grows: all ACKs share one instant, 0 us past round_start.
TEST(HystartDelay, NinthSampleOfTheRoundExitsV61) {
  SenderContext ctx(Cubic("linux-6.1"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 18; ++s) AckSeg(ctx, una0, s, 24500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 28u);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh) << "8 samples are not yet judged";
  AckSeg(ctx, una0, 19, 24500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 28u);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 28u);
  EXPECT_EQ(ctx.sock().counters().hystart_delay_exits, 1u);
  EXPECT_EQ(ctx.sock().counters().hystart_train_exits, 0u);
}

// The same on v4.19 (ms << 3 delays, round restarted by bictcp_cong_avoid
// after the sample was taken): delay_min 80 (10 ms), margin clamp(80 / 8,
// 32, 128) = 32, RTT 14.5 ms -> 116 > 112. Round 1 already counted samples
// at cwnd 16-19 (ACKs 7-10: 4 samples, curr_rtt 80), and round 2's first
// ACK is judged before its reset: sample 5 of round 1. Then the reset;
// segments 12-19 (cwnd 21-28) are samples 1-8 of round 2 and segment 20
// (cwnd 29) the first tested: ssthresh = cwnd = 29.
TEST(HystartDelay, RoundResetAfterTheSampleV419) {
  SenderContext ctx(Cubic("linux-4.19"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 19; ++s) AckSeg(ctx, una0, s, 24500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 29u);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  AckSeg(ctx, una0, 20, 24500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 29u);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 29u);
  EXPECT_EQ(ctx.sock().counters().hystart_delay_exits, 1u);
}

// v4.19's 1/8 ms delay unit: 14.1 ms is 112, not above 80 + 32; 6.1's us
// clock sees 14100 > 14000 and exits on the 9th sample as above.
TEST(HystartDelay, MarginInEighthsOfAMillisecond) {
  for (const char* profile : {"linux-4.19", "linux-6.1"}) {
    SenderContext ctx(Cubic(profile));
    const uint64_t una0 = RoundOne(ctx);
    for (uint32_t s = 11; s <= 30; ++s) AckSeg(ctx, una0, s, 24100 * kNsPerUs);
    const bool usec = ctx.sock().profile().cubic_usec_clock;
    EXPECT_EQ(ctx.sock().snd_ssthresh(), usec ? 28u : kTcpInfiniteSsthresh) << profile;
  }
}

// ACK train, v6.1: round 2's ACKs come 1 ms apart from 20 ms (RTTs 10, 11,
// ... ms: the round's minimum stays 10 ms, no delay exit). The pacing rate
// at srtt 10 ms is ~5.8 MB/s, so hystart_ack_delay = min(1 ms, 4 x 65215 B
// / rate) = 1 ms, and without fq (SK_PACING_NONE) the threshold is (10 ms +
// 1 ms) / 2 = 5.5 ms. The ACK at 25 ms is 5 ms into the round, the one at
// 26 ms (segment 17, cwnd 26) 6 ms: ssthresh = cwnd = 26.
TEST(HystartTrain, TrainPastHalfDelayMinExitsV61) {
  SenderContext ctx(Cubic("linux-6.1"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 16; ++s) AckSeg(ctx, una0, s, (20 + (s - 11)) * kNsPerMs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 26u);
  AckSeg(ctx, una0, 17, 26 * kNsPerMs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 26u);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 26u);
  EXPECT_EQ(ctx.sock().counters().hystart_train_exits, 1u);
  EXPECT_EQ(ctx.sock().counters().hystart_delay_exits, 0u);
}

// v4.19: threshold delay_min (80) >> 4 = 5 ms on a ms clock; round 2's first
// ACK (20 ms) restarts the round in cong_avoid, so the train is timed from
// 20 ms as on 6.1 and the ACK at 26 ms (6 > 5) exits at cwnd 26.
TEST(HystartTrain, TrainPastHalfDelayMinExitsV419) {
  SenderContext ctx(Cubic("linux-4.19"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 16; ++s) AckSeg(ctx, una0, s, (20 + (s - 11)) * kNsPerMs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  AckSeg(ctx, una0, 17, 26 * kNsPerMs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 26u);
  EXPECT_EQ(ctx.sock().counters().hystart_train_exits, 1u);
}

// A gap over 2 ms breaks the train for the rest of the round: ACKs 3 ms
// apart (20, 23, 26, ... ms) never extend it, though they run 9 ms past the
// round's start. Their RTTs (10, 13, 16 ... ms) keep the round's minimum
// at 10 ms.
TEST(HystartTrain, GapsOverTwoMillisecondsAreNoTrain) {
  for (const char* profile : {"linux-4.19", "linux-6.1"}) {
    SenderContext ctx(Cubic(profile));
    const uint64_t una0 = RoundOne(ctx);
    for (uint32_t s = 11; s <= 14; ++s) AckSeg(ctx, una0, s, (20 + 3 * (s - 11)) * kNsPerMs);
    EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh) << profile;
    EXPECT_EQ(ctx.sock().snd_cwnd(), 24u) << profile;
  }
}

// Below hystart_low_window nothing is judged: with initcwnd 4, round 2 (8
// segments acked at 30 ms, RTT 20 ms, twice delay_min) sees cwnd 8-15.
TEST(HystartNotFired, BelowSixteenSegments) {
  for (const char* profile : {"linux-4.19", "linux-6.1"}) {
    SenderContext ctx(Cubic(profile, 4));
    const uint64_t una0 = RoundOne(ctx, 4);
    for (uint32_t s = 5; s <= 12; ++s) AckSeg(ctx, una0, s, 30 * kNsPerMs);
    EXPECT_EQ(ctx.sock().snd_cwnd(), 16u) << profile;
    EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh) << profile;
  }
}

// Eight samples are not enough (v6.1): round 2's first 7 ACKs (segments
// 11-17) and an 8th acking the rest of the round (to 30 = end_seq, not past
// it) come at 24.5 ms; the next ACK (segment 31, sent at 24.5 ms, acked at
// 34.5 ms: RTT 10 ms) is past end_seq and starts round 3 with a fresh count.
TEST(HystartNotFired, EightSamples) {
  SenderContext ctx(Cubic("linux-6.1"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 17; ++s) AckSeg(ctx, una0, s, 24500 * kNsPerUs);
  AckSeg(ctx, una0, 30, 24500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  for (uint32_t s = 31; s <= 45; ++s) AckSeg(ctx, una0, s, 34500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), kTcpInfiniteSsthresh);
  EXPECT_EQ(ctx.sock().counters().hystart_delay_exits, 0u);
}

// After slow start ended (here by HyStart itself: ssthresh 28 as in
// NinthSampleOfTheRoundExitsV61), later rounds with RTTs rising to 40 ms
// leave ssthresh alone: cwnd >= ssthresh is no slow start, and `found`
// holds until the next Loss.
TEST(HystartNotFired, AfterSlowStart) {
  SenderContext ctx(Cubic("linux-6.1"));
  const uint64_t una0 = RoundOne(ctx);
  for (uint32_t s = 11; s <= 30; ++s) AckSeg(ctx, una0, s, 24500 * kNsPerUs);
  ASSERT_EQ(ctx.sock().snd_ssthresh(), 28u);
  for (uint32_t s = 31; s <= 58; ++s) AckSeg(ctx, una0, s, 64500 * kNsPerUs);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), 28u);
  EXPECT_EQ(ctx.sock().counters().hystart_delay_exits, 1u);
}

}  // namespace
}  // namespace sendsim::model
