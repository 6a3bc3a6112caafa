// Zero-window persist probes: tcp_check_probe_timer, tcp_probe_timer,
// tcp_send_probe0, tcp_write_wakeup, tcp_xmit_probe_skb, tcp_ack_probe.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// RTO after the 100 us handshake sample: srtt 100 us + rttvar max(200 us,
// TCP_RTO_MIN) = 200100 us -> 51 jiffies at HZ 250 (4 ms each); the ACK at
// 100 us is another 100 us sample and leaves it there. probe0 base =
// max(51, 50) = 51 jiffies: armed at jiffy 0 by the write at 100 us that
// cannot pass tcp_snd_wnd_test, it fires at 204 ms and sends a bare ACK one
// below snd_una (1000 - 1). tcp_send_probe0 then backs off: 51 << 1 = 102
// jiffies from 204 ms -> 612 ms; probes_out 1, backoff 1.
TEST(Persist, ZeroWindowSendsWindowProbes) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.AtUs(100);
  ctx.Ack(1000, 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ASSERT_EQ(ctx.skbs().size(), 1u);
  ASSERT_EQ(ctx.sock().pending_timer(), XmitTimer::kProbe0);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 204 * kNsPerMs);
  ctx.At(204 * kNsPerMs);
  ASSERT_EQ(ctx.skbs().size(), 2u);
  const XmitSkb& probe = ctx.skbs()[1];
  EXPECT_EQ(probe.seq, 999u);
  EXPECT_EQ(probe.len, 0u);
  EXPECT_EQ(probe.tcp_flags, kTcpAck);
  EXPECT_EQ(probe.reason, PushReason::kProbe0);
  EXPECT_EQ(ctx.sock().info().probes, 1u);
  EXPECT_EQ(ctx.sock().info().backoff, 1u);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 612 * kNsPerMs);
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
  // The peer's answer (window still 0) is acceptable: probes_out clears,
  // tcp_ack_probe re-arms at 51 << 1 jiffies from now (300 ms -> 708 ms).
  ctx.At(300 * kNsPerMs);
  ctx.Ack(1000, 0);
  EXPECT_EQ(ctx.sock().info().probes, 0u);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 708 * kNsPerMs);
  // The window opens: backoff 0, the timer is cleared and the ACK path sends
  // the data at once.
  ctx.At(400 * kNsPerMs);
  ctx.Ack(1000, 65535);
  ASSERT_EQ(ctx.skbs().size(), 3u);
  EXPECT_EQ(ctx.skbs()[2].seq, 1000u);
  EXPECT_EQ(ctx.skbs()[2].len, 1000u);
  EXPECT_EQ(ctx.sock().info().backoff, 0u);
  EXPECT_NE(ctx.sock().pending_timer(), XmitTimer::kProbe0);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok());
}

// A 500-byte window in front of a 1000-byte skb: tcp_snd_wnd_test fails, so
// only probe0 moves data. At expiry the head starts inside the window and
// tcp_write_wakeup sends min(window, MSS) = 500 bytes (tcp_fragment), PSH set;
// with data in flight tcp_send_probe0 resets the backoff and stops probing.
TEST(Persist, PartialWindowSendsNewDataProbe) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.AtUs(100);
  ctx.Ack(1000, 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.AtUs(200);
  ctx.Ack(1000, 500);  // the window grew: tcp_may_update_window accepts it
  ASSERT_EQ(ctx.sock().snd_wnd(), 500u);
  ASSERT_EQ(ctx.skbs().size(), 1u);
  ctx.At(204 * kNsPerMs);
  ASSERT_EQ(ctx.skbs().size(), 2u);
  const XmitSkb& probe = ctx.skbs()[1];
  EXPECT_EQ(probe.seq, 1000u);
  EXPECT_EQ(probe.len, 500u);
  EXPECT_TRUE(probe.tcp_flags & kTcpPsh);
  EXPECT_EQ(ctx.sock().packets_out(), 1u);
  EXPECT_EQ(ctx.sock().info().backoff, 0u);
  EXPECT_NE(ctx.sock().pending_timer(), XmitTimer::kProbe0);
  EXPECT_EQ(ctx.sock().info().notsent_bytes, 500u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok());
}

}  // namespace
}  // namespace sendsim::model
