// The send chronographs behind tcpi_busy_time, tcpi_rwnd_limited and
// tcpi_sndbuf_limited (tcp_chrono_start/stop/set, tcp_get_info_chrono_stats).
// SenderContext runs at HZ 250: the clocks count 4 ms jiffies, reported in us.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/socket.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// SO_SNDBUF at its minimum; 1000 bytes sent and acked at 20 ms with a zero
// window; three 1000-byte writes fill the buffer and the fourth gets EAGAIN.
void FillTheMinimumSndbufBehindAZeroWindow(SenderContext& ctx) {
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoSndbuf, 1), 0);
  ASSERT_EQ(ctx.sock().sndbuf(), kSockMinSndbuf);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(20 * kNsPerMs);
  ctx.Ack(1000, 0);
  for (int k = 0; k < 3; ++k) ASSERT_EQ(ctx.SendMsg(1000, kMsgEor | kMsgDontwait), 1000);
  ASSERT_EQ(ctx.SendMsg(1000, kMsgEor | kMsgDontwait), -kEagain);
}

// Busy from the first queued skb (jiffy 0) to the ACK that empties the
// retransmit queue at 40 ms: 10 jiffies. The second write meets window 0:
// tcp_write_xmit starts rwnd-limited at jiffy 10, which runs until the
// window opens at 100 ms (jiffy 25): 15 jiffies = 60 ms, also counted in
// busy_time. Busy again until the ACK at 120 ms; then nothing runs.
TEST(Chrono, BusyAndRwndLimited) {
  SenderContext ctx;
  TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.busy_time_us, 0u);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(20 * kNsPerMs);
  EXPECT_EQ(ctx.sock().info().busy_time_us, 20000u);  // running: 5 jiffies so far
  ctx.At(40 * kNsPerMs);
  ctx.Ack(1000, 0);
  i = ctx.sock().info();
  EXPECT_EQ(i.busy_time_us, 40000u);
  EXPECT_EQ(i.rwnd_limited_us, 0u);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.At(100 * kNsPerMs);
  i = ctx.sock().info();
  EXPECT_EQ(i.rwnd_limited_us, 60000u);
  EXPECT_EQ(i.busy_time_us, 100000u);
  ctx.Ack(1000, 65535);
  ASSERT_EQ(ctx.skbs().size(), 2u);  // the window opened: the data left
  ctx.CompleteAllTx();
  ctx.At(120 * kNsPerMs);
  ctx.Ack(2000, 65535);
  ctx.At(200 * kNsPerMs);
  i = ctx.sock().info();
  EXPECT_EQ(i.busy_time_us, 120000u);
  EXPECT_EQ(i.rwnd_limited_us, 60000u);
  EXPECT_EQ(i.sndbuf_limited_us, 0u);
}

// SO_SNDBUF 1: sk_sndbuf = SOCK_MIN_SNDBUF 4608. On 6.12 an eor skb of 1000
// copied bytes has truesize 960 + 1000 = 1960: the third new skb is
// accepted at 3920 queued, the fourth refused (-EAGAIN, SOCK_NOSPACE). With
// window 0 nothing leaves; at 40 ms the window opens and the three skbs
// empty the write queue with 3 packets out and cwnd 10 (not cwnd-limited:
// 10 >= 2 * 3): tcp_cwnd_validate starts sndbuf-limited. tcp_check_space
// finds no write space (5880 queued > 4608), so it runs until the ACK of
// everything at 100 ms: 15 jiffies = 60 ms.
TEST(Chrono, SndbufLimited) {
  SenderContext::Options opts;
  opts.profile = "linux-6.12";
  SenderContext ctx(opts);
  FillTheMinimumSndbufBehindAZeroWindow(ctx);
  EXPECT_EQ(ctx.sock().info().sndbuf_limited_us, 0u);
  ctx.At(40 * kNsPerMs);
  ctx.Ack(1000, 65535);
  ASSERT_EQ(ctx.sock().packets_out(), 3u);
  ASSERT_EQ(ctx.sock().write_queue_len(), 0u);
  ctx.CompleteAllTx();
  ctx.At(100 * kNsPerMs);
  ctx.Ack(4000, 65535);
  ctx.At(200 * kNsPerMs);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.sndbuf_limited_us, 60000u);
  EXPECT_EQ(i.rwnd_limited_us, 20000u);
  EXPECT_EQ(i.busy_time_us, 100000u);  // 20 busy + 20 rwnd + 60 sndbuf
}

// An ACK that frees enough space clears SOCK_NOSPACE (tcp_check_space):
// sndbuf-limited ends and the clock falls back to busy while data is still
// in flight (tcp_chrono_stop of the running type).
TEST(Chrono, WriteSpaceEndsSndbufLimited) {
  SenderContext::Options opts;
  opts.profile = "linux-6.12";
  SenderContext ctx(opts);
  FillTheMinimumSndbufBehindAZeroWindow(ctx);
  ctx.At(40 * kNsPerMs);
  ctx.Ack(1000, 65535);
  ctx.CompleteAllTx();
  // Two of three acked at 60 ms: 1960 queued, free 2648 >= 1960 / 2.
  ctx.At(60 * kNsPerMs);
  ctx.Ack(3000, 65535);
  ctx.At(100 * kNsPerMs);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.sndbuf_limited_us, 20000u);
  EXPECT_EQ(i.busy_time_us, 100000u);  // still busy: one skb in flight
}

}  // namespace
}  // namespace sendsim::model
