// MSG_ZEROCOPY completions on the socket (zerocopy.h, tcp_zerocopy.cc),
// driven through the sender-only test context (seq 0 is the first byte).

#include <optional>

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// __msg_zerocopy_callback runs when the last skb referencing the uarg is
// freed: tcp_clean_rtx_queue frees an skb only once it is fully acked.
TEST(TcpZerocopy, NotifiedWhenTheSkbIsFullyAcked) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpNodelay, 1), 0);
  ASSERT_EQ(ctx.SendMsg(1000, kMsgZerocopy), 1000);
  EXPECT_FALSE(ctx.sock().errqueue_pending());  // sent, not acked
  ctx.AtUs(100);
  ctx.Ack(500);  // trimmed (tcp_tso_acked), not freed
  EXPECT_FALSE(ctx.sock().errqueue_pending());
  ctx.AtUs(200);
  ctx.Ack(1000);
  ASSERT_TRUE(ctx.sock().errqueue_pending());
  // Sent once: the (tun) device copied the frags.
  EXPECT_EQ(ctx.sock().RecvErrqueue(), ZerocopyErr(0, 0, true));
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);
}

// A copied send takes no id; without SO_ZEROCOPY the runner drops the flag,
// so the socket only sees kMsgZerocopy when it applies.
TEST(TcpZerocopy, CopiedSendsTakeNoId) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpNodelay, 1), 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ASSERT_EQ(ctx.SendMsg(1000, kMsgZerocopy), 1000);
  ctx.AtUs(100);
  ctx.Ack(2000);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), ZerocopyErr(0, 0, true));
}

// msg_zerocopy_realloc: a call appending to the corked tail skb that holds
// the previous call's uarg grows it (ids 0..1); one notification.
TEST(TcpZerocopy, AppendToTheTailExtends) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
  ASSERT_EQ(ctx.SendMsg(300, kMsgZerocopy), 300);
  ASSERT_EQ(ctx.SendMsg(300, kMsgZerocopy), 300);
  ASSERT_EQ(ctx.sock().write_queue_len(), 1u);
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 0), 0);
  ctx.AtUs(100);
  ctx.Ack(600);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), ZerocopyErr(0, 1, true));
  EXPECT_FALSE(ctx.sock().errqueue_pending());
}

}  // namespace
}  // namespace sendsim::model
