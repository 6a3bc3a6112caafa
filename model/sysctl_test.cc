// net.ipv4 sysctls the sender reads (TcpSysctls): defaults, initial sndbuf,
// autotuning cap, pacing ratios, min TSO segments, live changes.

#include "gtest/gtest.h"
#include "model/config.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"
#include "model/write_xmit.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// The defaults are the kernel's and the model's earlier constants, so configs
// that do not set them behave as before.
TEST(Sysctls, DefaultsAreTheKernelDefaults) {
  TcpSysctls s;
  EXPECT_EQ(s.wmem[1], kTcpWmemDefault);
  EXPECT_EQ(s.wmem[2], kTcpWmemMax);
  EXPECT_EQ(s.min_tso_segs, static_cast<uint32_t>(kTcpMinTsoSegs));
  EXPECT_EQ(s.tso_win_divisor, static_cast<uint32_t>(kTcpTsoWinDivisor));
  EXPECT_EQ(s.pacing_ss_ratio, kTcpPacingSsRatio);
  EXPECT_EQ(s.pacing_ca_ratio, kTcpPacingCaRatio);
  EXPECT_EQ(s.notsent_lowat, UINT32_MAX);
}

// tcp_init_sock starts sk_sndbuf at tcp_wmem[1]; tcp_sndbuf_expand only raises
// it, to 2 * per_mss * 10 capped at tcp_wmem[2]. MSS 1448 with MTU 1500:
// per_mss = roundup_pow_of_two(1460 + 304 + 320) + 256 = 4352 -> 87040.
TEST(Sysctls, WmemSetsInitialSndbufAndCap) {
  SenderContext::Options big;
  big.config.sysctl.wmem[1] = 262144;
  EXPECT_EQ(SenderContext(big).sock().sndbuf(), 262144u);
  SenderContext::Options dflt;
  EXPECT_EQ(SenderContext(dflt).sock().sndbuf(), 87040u);
  SenderContext::Options capped;
  capped.config.sysctl.wmem[2] = 20000;
  EXPECT_EQ(SenderContext(capped).sock().sndbuf(), 20000u);
}

// tcp_update_pacing_rate after the 100 us handshake sample, cwnd 10 in slow
// start: mss * 80000 * ratio * cwnd / srtt_us_x8 = 1448 * 80000 * ratio * 10 / 800.
TEST(Sysctls, PacingSsRatioScalesTheRate) {
  SenderContext::Options o;
  EXPECT_EQ(SenderContext(o).sock().info().pacing_rate, 289600000u);  // 200%
  o.config.sysctl.pacing_ss_ratio = 100;
  EXPECT_EQ(SenderContext(o).sock().info().pacing_rate, 144800000u);
}

// The first rate (tcp_ack on the SYN-ACK) is computed before the route's
// initcwnd applies: cwnd 10 (kernel replay, UML 6.12, mss 536, initcwnd 32,
// 5,190 us handshake RTT: the first flight's skbs held 3 segments).
// srtt_us_x8 = 41,520; 536 * 80000 * 200 * 10 / 41,520 = 2,065,510 B/s.
// tcp_tso_autosize: (2,065,510 >> 10 = 2,017) + (65,536 >> (5,190 >> 9 =
// 10) = 64) = 2,081 bytes, / 536 = 3 segments; cwnd 32 would give 12.
TEST(Sysctls, SynAckPacingRateUsesInitCwnd) {
  SenderContext::Options o;
  o.config.mss = 536;
  o.config.initcwnd = 32;
  o.handshake_rtt_ns = 5190 * kNsPerUs;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 32u);
  EXPECT_EQ(ctx.sock().info().pacing_rate, 2065510u);
  EXPECT_EQ(TsoAutosizeRule(2065510, 536, true, 5190, 9), 3u);
}

// tcp_tso_autosize: max(rate >> 10 / mss, tcp_min_tso_segs).
TEST(Sysctls, MinTsoSegsFloorsTheBurst) {
  EXPECT_EQ(TsoAutosizeRule(200000, 1000, false, 100000, 9), 2u);
  EXPECT_EQ(TsoAutosizeRule(200000, 1000, false, 100000, 9, 4), 4u);
  EXPECT_EQ(TsoAutosizeRule(20000000, 1000, false, 100000, 9, 4), 19u);
}

// The sysctl is read on every tcp_write_xmit: with a 100 ms handshake RTT the
// rate (2 * 1448 * 10 / 0.1 s = 289600 B/s >> 10 = 282 bytes) gives no whole
// segment, so bursts are tcp_min_tso_segs long; after UpdateSysctls(4) a
// 10-segment write leaves as 4 + 4 + 2 segments (cwnd quota 5, 5, 2). The
// third skb waits for TX completions: TSQ allows max(2 * truesize, rate >> 10)
// bytes in the qdisc/NIC, about 8 KB for a 2-segment skb, and two 4-segment
// skbs hold more (tcp_small_queue_check); the TSQ handler sends it.
TEST(Sysctls, LiveMinTsoSegs) {
  SenderContext::Options o;
  o.handshake_rtt_ns = 100 * kNsPerMs;
  SenderContext ctx(o);
  TcpSysctls s;
  s.min_tso_segs = 4;
  ctx.sock().UpdateSysctls(s, true, true);
  ASSERT_EQ(ctx.SendMsg(10 * 1448, 0), 10 * 1448);
  ASSERT_EQ(ctx.skbs().size(), 2u);
  ctx.CompleteAllTx();
  ASSERT_EQ(ctx.skbs().size(), 3u);
  EXPECT_EQ(ctx.skbs()[0].len, 4u * 1448);
  EXPECT_EQ(ctx.skbs()[1].len, 4u * 1448);
  EXPECT_EQ(ctx.skbs()[2].len, 2u * 1448);
}

TEST(Sysctls, ValidateRejectsZeroMinTsoSegs) {
  ConnectionConfig c;
  c.sysctl.min_tso_segs = 0;
  EXPECT_FALSE(ValidateConfig(c).ok());
}

}  // namespace
}  // namespace sendsim::model
