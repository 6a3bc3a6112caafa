// ICMP "fragmentation needed" (pmtu.cc): tcp_v4_err's window test,
// __ip_rt_update_pmtu, tcp_v4_mtu_reduced and tcp_simple_retransmit.
// Default context: MTU 1500, timestamps, MSS 1448, cwnd 10, Reno with SACK;
// the expectations come from the kernel's rules, worked out in each comment.

#include "gtest/gtest.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::RenderLens;
using testing::SenderContext;
using Effect = TcpSock::IcmpEffect;

// between(seq, snd_una, snd_nxt) takes both ends: with [0, 3000) out, 3001
// and 2^32 - 1 (just below snd_una) are ignored, 3000 (snd_nxt) is not.
TEST(Pmtu, QuotedSeqMustLieInSndUnaToSndNxt) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  ASSERT_EQ(ctx.sock().snd_nxt(), 3000u);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(3001, 1200), Effect::kOutOfWindow);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(UINT32_MAX, 1200), Effect::kOutOfWindow);
  EXPECT_EQ(ctx.sock().info().pmtu, 1500u);
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(3000, 1200), Effect::kMssReduced);
  EXPECT_EQ(ctx.sock().info().pmtu, 1200u);
  EXPECT_EQ(ctx.sock().mss_cache(), 1148u);  // 1200 - 40 - 12
}

// The route's MTU never rises: 1600 leaves it at 1500. The same MTU again
// "updates" the route to what it has, and the cookie (1500) is not above
// it: the MSS stays.
TEST(Pmtu, LargerOrEqualMtuChangesNothing) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1600), Effect::kRouteUnchanged);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1500), Effect::kMssUnchanged);
  EXPECT_EQ(ctx.sock().info().pmtu, 1500u);
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  EXPECT_EQ(ctx.sock().ca_state(), CaState::kOpen);
  EXPECT_EQ(ctx.sock().lost_out(), 0u);
}

// Below ip_rt_min_pmtu (552) the exception takes 552 and is locked: MSS
// 552 - 40 - 12 = 500, and a later 530 (which would again be 552) or 1000
// (a rise) changes nothing.
TEST(Pmtu, MinPmtuClampsAndLocks) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 300), Effect::kMssReduced);
  EXPECT_EQ(ctx.sock().info().pmtu, 552u);
  EXPECT_EQ(ctx.sock().mss_cache(), 500u);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 530), Effect::kRouteUnchanged);
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1000), Effect::kRouteUnchanged);
  EXPECT_EQ(ctx.sock().info().pmtu, 552u);
}

// A route whose MTU is locked (`mtu lock 1500`) ignores the message.
TEST(Pmtu, LockedRouteIgnoresIt) {
  SenderContext::Options o;
  o.config.route_mtu_metric = true;
  o.config.route_mtu_locked = true;
  SenderContext ctx(o);
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  const size_t sent = ctx.wire().size();
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1200), Effect::kRouteUnchanged);
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  EXPECT_EQ(ctx.wire().size(), sent);  // nothing resent
}

// tcp_simple_retransmit: the 2896-byte skb (2 x 1448) has segments longer
// than the new MSS 1148 and is lost; the 500-byte one is not. Loss without
// a cwnd change (10), no undo; the lost skb is resent at once, re-counted
// at MSS 1148: 3 segments, 1148 + 1148 + 600, so packets_out grows from 3
// to 4 and lost_out and retrans_out are 3.
TEST(Pmtu, SimpleRetransmitResendsLongSkbsAtTheNewMss) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(2896, 0), 2896);
  ASSERT_EQ(ctx.SendMsg(500, 0), 500);
  ctx.CompleteAllTx();
  ASSERT_EQ(ctx.sock().packets_out(), 3u);
  const uint32_t ssthresh = ctx.sock().snd_ssthresh();
  ctx.TakeWire();
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1200), Effect::kMssReduced);
  EXPECT_EQ(RenderLens(ctx.TakeLens()), RenderLens({1148, 1148, 600}));
  EXPECT_EQ(ctx.sock().ca_state(), CaState::kLoss);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 10u);
  EXPECT_EQ(ctx.sock().snd_ssthresh(), ssthresh);
  EXPECT_FALSE(ctx.sock().undo_marker_set());
  EXPECT_EQ(ctx.sock().prior_ssthresh(), 0u);
  EXPECT_EQ(ctx.sock().packets_out(), 4u);
  EXPECT_EQ(ctx.sock().lost_out(), 3u);
  EXPECT_EQ(ctx.sock().retrans_out(), 3u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();

  // high_seq was snd_nxt (3396): its ACK ends Loss (nothing to undo), and
  // new data is cut at 1148.
  ctx.AtUs(200);
  ctx.Ack(3396);
  EXPECT_EQ(ctx.sock().ca_state(), CaState::kOpen);
  ctx.CompleteAllTx();
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  EXPECT_EQ(RenderLens(ctx.TakeLens()), RenderLens({1148, 1148, 704}));
}

// Nothing outstanding longer than the new MSS: the MSS drops, nothing is
// lost, the state stays Open.
TEST(Pmtu, ShortSegmentsAreNotResent) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.TakeWire();
  EXPECT_EQ(ctx.sock().IcmpFragNeeded(0, 1200), Effect::kMssReduced);
  EXPECT_TRUE(ctx.TakeWire().empty());
  EXPECT_EQ(ctx.sock().ca_state(), CaState::kOpen);
  EXPECT_EQ(ctx.sock().lost_out(), 0u);
  EXPECT_EQ(ctx.sock().mss_cache(), 1148u);
}

}  // namespace
}  // namespace sendsim::model
