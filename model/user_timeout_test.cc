// The timeouts that end a connection (user_timeout.cc): TCP_USER_TIMEOUT's
// clamp of the RTO and its abort, tcp_retries2's estimate without it, and
// the user timeout of zero-window probing. Times worked out by hand at HZ
// 250 (4 ms jiffies) from tcp_timer.c's rules.

#include <vector>

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// No SACK (no loss probe before the RTO), 6.12's rules.
// RTO after the 100 us handshake sample: 200100 us -> 51 jiffies (204 ms).
// User timeout 500 ms:
// - 204 ms: first RTO, no retransmission yet so no test: resend,
//   retrans_stamp 204 ms; RTO 102 jiffies, below the 125 left: 612 ms.
// - 612 ms: 408 ms < 500: resend; RTO 204 jiffies, clamped to the 92 ms
//   (23 jiffies) left: 704 ms.
// - 704 ms: 500 ms >= 500: tcp_write_err, ETIMEDOUT, nothing sent.
TEST(UserTimeout, ClampsTheRtoAndAbortsWithoutReset) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  std::vector<int> errs;
  ctx.sock().set_timeout_callback([&errs](int err) { errs.push_back(err); });
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpUserTimeout, -1), -kEinval);
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpUserTimeout, 500), 0);
  EXPECT_EQ(ctx.sock().user_timeout_ms(), 500u);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 204 * kNsPerMs);
  ctx.At(204 * kNsPerMs);
  ASSERT_EQ(ctx.skbs().size(), 2u);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 612 * kNsPerMs);
  ctx.At(612 * kNsPerMs);
  ASSERT_EQ(ctx.skbs().size(), 3u);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 704 * kNsPerMs);
  ctx.At(700 * kNsPerMs);
  EXPECT_FALSE(ctx.sock().aborted());
  ctx.At(704 * kNsPerMs);
  EXPECT_TRUE(ctx.sock().aborted());
  EXPECT_EQ(ctx.skbs().size(), 3u);  // no RST, no further resend
  EXPECT_EQ(errs, std::vector<int>{kEtimedout});
  EXPECT_EQ(ctx.sock().TakeSockError(), kEtimedout);
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
}

// Without a user timeout the RTOs end at tcp_model_timeout(15, TCP_RTO_MIN):
// thresh ilog2(30000 / 50) = 9, so (2^10 - 1) * 50 + 6 * 30000 = 231150
// jiffies (924.6 s) after the first resend (jiffy 51). The RTOs fire at
// jiffies 51, 153, 357, ..., 52173 (doubling to TCP_RTO_MAX), then every
// 30000: the first at or past 231201 is 232173 (928.692 s), after 15
// resends: the sixteenth RTO aborts.
TEST(UserTimeout, Retries2WithoutUserTimeout) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.At(928'688 * kNsPerMs);
  EXPECT_FALSE(ctx.sock().aborted());
  EXPECT_EQ(ctx.skbs().size(), 16u);
  ctx.At(928'692 * kNsPerMs);
  EXPECT_TRUE(ctx.sock().aborted());
  EXPECT_EQ(ctx.skbs().size(), 16u);
  EXPECT_EQ(ctx.sock().TakeSockError(), kEtimedout);
}

// Zero-window probing (as persist_test's first case: probe0 base 51
// jiffies, first run at 204 ms) with a 300 ms user timeout: the first run
// stamps icsk_probes_tstamp and sends a probe; the backed-off 102 jiffies
// are clamped to the 75 left: 504 ms, where 75 jiffies have passed: abort.
TEST(UserTimeout, EndsZeroWindowProbing) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpUserTimeout, 300), 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.AtUs(100);
  ctx.Ack(1000, 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.At(204 * kNsPerMs);
  ASSERT_EQ(ctx.skbs().size(), 2u);
  EXPECT_EQ(ctx.skbs()[1].seq, 999u);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 504 * kNsPerMs);
  ctx.At(500 * kNsPerMs);
  EXPECT_FALSE(ctx.sock().aborted());
  ctx.At(504 * kNsPerMs);
  EXPECT_TRUE(ctx.sock().aborted());
  EXPECT_EQ(ctx.skbs().size(), 2u);
  EXPECT_EQ(ctx.sock().TakeSockError(), kEtimedout);
}

}  // namespace
}  // namespace sendsim::model
