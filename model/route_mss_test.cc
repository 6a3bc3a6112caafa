// tcp_mtu_to_mss, tcp_sync_mss and tcp_current_mss after a route change
// (route_mss.cc). Default context: MTU 1500, timestamps, MSS 1448 (peer MSS
// clamp 1460), profile linux-4.19's send path; the numbers come from the
// kernel's formulas, worked out in each comment.

#include "gtest/gtest.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// Without an mtu metric the dead dst's MTU is blackhole_netdev's 68:
// tcp_mtu_to_mss(68) = max(68 - 40, 48) - 12 (timestamps) = 36; flooring
// again after the option would give 48. The send that used it looked the
// route up again, so the next send syncs to the new MTU: min(800 - 40,
// 1460) - 12 = 748.
TEST(RouteMss, DeadDstSizesForBlackholeThenNewRoute) {
  SenderContext ctx;
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  ctx.sock().RouteChange(800, false);
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);  // nothing reads the dst yet
  ASSERT_EQ(ctx.SendMsg(300, 0), 300);  // 9 segments of at most 36: within cwnd 10
  ASSERT_FALSE(ctx.skbs().empty());
  EXPECT_EQ(ctx.skbs()[0].gso_size, 36u);
  EXPECT_EQ(ctx.sock().mss_cache(), 36u);
  const size_t sent = ctx.skbs().size();
  ctx.AtUs(100);
  ctx.Ack(300);
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  EXPECT_EQ(ctx.sock().mss_cache(), 748u);
  ASSERT_GT(ctx.skbs().size(), sent);
  EXPECT_EQ(ctx.skbs()[sent].gso_size, 748u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// With an mtu metric (1500) the dead dst keeps it: equal to icsk_pmtu_cookie,
// so the first send keeps MSS 1448; the one after syncs to 748.
TEST(RouteMss, DeadDstKeepsTheOldMetric) {
  SenderContext::Options o;
  o.config.route_mtu_metric = true;
  SenderContext ctx(o);
  ctx.sock().RouteChange(800, true);
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  ASSERT_FALSE(ctx.skbs().empty());
  EXPECT_EQ(ctx.skbs()[0].gso_size, 1448u);
  EXPECT_EQ(ctx.sock().mss_cache(), 1448u);
  ctx.AtUs(100);
  ctx.Ack(3000);
  ASSERT_EQ(ctx.SendMsg(3000, 0), 3000);
  EXPECT_EQ(ctx.sock().mss_cache(), 748u);
}

// The peer's MSS clamps the new route's MSS (rx_opt.mss_clamp 1000): a
// larger MTU 9000 gives min(9000 - 40, 1000) - 12 = 988, and
// tcp_bound_to_half_wnd caps it at half of max_window: a peer window of
// 1200 bytes gives 600.
TEST(RouteMss, ClampedByPeerMssAndHalfWindow) {
  SenderContext::Options o;
  // The old route: mtu metric 576, MSS 576 - 40 - 12 = 524, so that the
  // clamped 988 below can only come from the re-sync.
  o.config.mtu = 576;
  o.config.mss = 524;
  o.config.mss_clamp = 1000;
  o.config.route_mtu_metric = true;
  SenderContext ctx(o);
  ASSERT_EQ(ctx.sock().mss_cache(), 524u);
  ctx.sock().RouteChange(9000, true);
  ASSERT_EQ(ctx.SendMsg(100, 0), 100);  // looks the route up again
  ctx.AtUs(100);
  ctx.Ack(100);
  ASSERT_EQ(ctx.SendMsg(100, 0), 100);
  EXPECT_EQ(ctx.sock().mss_cache(), 988u);

  SenderContext::Options w = o;
  w.peer_window = 1200;
  SenderContext small(w);
  small.sock().RouteChange(9000, true);
  ASSERT_EQ(small.SendMsg(100, 0), 100);
  small.AtUs(100);
  small.Ack(100, 1200);
  ASSERT_EQ(small.SendMsg(100, 0), 100);
  EXPECT_EQ(small.sock().mss_cache(), 600u);
}

}  // namespace
}  // namespace sendsim::model
