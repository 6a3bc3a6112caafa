// tcp_write_xmit: Nagle/Minshall and TSO deferral.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"
#include "model/write_xmit.h"

namespace sendsim::model {
namespace {

using ::testing::ElementsAre;
using testing::SenderContext;
using testing::WireSeg;

TEST(Rules, CwndQuotaIsAtMostHalfTheWindow) {
  EXPECT_EQ(CwndQuotaRule(0, 10), 5u);
  EXPECT_EQ(CwndQuotaRule(8, 10), 2u);
  EXPECT_EQ(CwndQuotaRule(10, 10), 0u);
  EXPECT_EQ(CwndQuotaRule(0, 1), 1u);
}

TEST(Rules, NagleBits) {
  EXPECT_TRUE(NagleCheckRule(true, kTcpNagleCork, 0, false));
  EXPECT_FALSE(NagleCheckRule(true, kTcpNagleOff, 5, true));
  EXPECT_TRUE(NagleCheckRule(true, 0, 1, true));
  EXPECT_FALSE(NagleCheckRule(true, 0, 0, true));
  EXPECT_FALSE(NagleCheckRule(false, kTcpNagleCork, 1, true));
}

// tcp_tso_should_defer's ACK-due test, srtt 4 ms (srtt_us 32000 in 1/8 us),
// rtx head sent at 0. v6.x: the ACK is due at 4 ms; waiting is allowed when
// that is at most min(2 ms, 1 ms) = 1 ms away, i.e. from 3 ms on. v4.19:
// once the head is srtt / 2 = 2 ms old.
TEST(Rules, TsoDeferAckDueSoon) {
  constexpr uint32_t kSrtt4ms = 4000 * 8;
  EXPECT_FALSE(TsoDeferAckDueSoonRule(2'500'000, 0, kSrtt4ms, true));   // due in 1.5 ms
  EXPECT_TRUE(TsoDeferAckDueSoonRule(3'000'000, 0, kSrtt4ms, true));    // due in 1 ms
  EXPECT_TRUE(TsoDeferAckDueSoonRule(2'500'000, 0, kSrtt4ms, false));   // 2.5 ms old
  EXPECT_FALSE(TsoDeferAckDueSoonRule(1'999'999, 0, kSrtt4ms, false));  // 1999 us old
  // srtt 1 ms: the half-srtt bound (0.5 ms) is the smaller one.
  EXPECT_FALSE(TsoDeferAckDueSoonRule(400'000, 0, 1000 * 8, true));  // due in 0.6 ms
  EXPECT_TRUE(TsoDeferAckDueSoonRule(500'000, 0, 1000 * 8, true));   // due in 0.5 ms
}

// Nagle on (no TCP_NODELAY):
//  t=0   write 100 -> nothing in flight -> sent (PSH); snd_sml = 100.
//        TX completion (so autocork cannot hold the next write).
//  t=10  write 200 -> packets_out 1 and snd_una < snd_sml <= snd_nxt
//        (Minshall: a short segment is unacked) -> held.
//  t=50  ACK 100 -> packets_out 0 -> the 200 leaves from tcp_data_snd_check.
TEST(Nagle, HoldsSmallSegmentUntilAck) {
  SenderContext::Options o;
  o.config.nodelay = false;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.SendMsg(100, 0), 100);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(100));
  ctx.CompleteAllTx();
  ctx.AtUs(10);
  EXPECT_EQ(ctx.SendMsg(200, 0), 200);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_EQ(ctx.sock().counters().nagle_holds, 1u);
  ctx.AtUs(50);
  ctx.Ack(100);
  const std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].len, 200u);
  EXPECT_EQ(w[0].reason, PushReason::kAck);
}

// TSO deferral (v4.19), cwnd 10, handshake srtt 100 us:
//  t=0    write 11584 (8 MSS): quota 5 -> 5 x 1448; remainder 3 MSS: quota 5,
//         limit = min(wnd, 5*1448) = 7240 >= chunk 14480/3 -> sent. 8 in flight.
//  t=50   all TX completions (so autocork cannot apply).
//  t=100  write 4344 (3 MSS): quota min(5, 2) = 2; tcp_tso_should_defer:
//         same jiffy as the last send; limit = 2*1448 = 2896 < 45*1448; the
//         skb is the tail; 2896 < chunk 4826; rtx queue non-empty; the oldest
//         unacked skb is 100 us old >= srtt/2 = 50 us -> defer.
//  t=200  ACK 2896: slow start (10 < 2*8) -> cwnd 12, in flight 6, quota 6;
//         limit 8688 >= chunk 12*1448/3 = 5792 -> the 3 segments leave.
TEST(TsoDefer, HoldsThenReleasesOnAck) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(11584, 0), 11584);
  EXPECT_EQ(ctx.TakeLens().size(), 8u);
  ctx.AtUs(50);
  ctx.CompleteAllTx();
  ctx.AtUs(100);
  EXPECT_EQ(ctx.SendMsg(4344, 0), 4344);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_EQ(ctx.sock().counters().tso_deferrals, 1u);
  ctx.AtUs(200);
  ctx.Ack(2896);
  EXPECT_EQ(ctx.sock().snd_cwnd(), 12u);
  const std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 3u);
  for (const WireSeg& s : w) {
    EXPECT_EQ(s.len, 1448u);
    EXPECT_EQ(s.reason, PushReason::kAck);
  }
  EXPECT_TRUE(w[2].psh());
  EXPECT_FALSE(w[1].psh());
}

// __tcp_transmit_skb forces PSH on every clone of more than one segment
// (v4.11+, every profile); segmentation leaves it on the clone's last segment.
//  write 11584 (8 MSS), cwnd 10: one skb, PSH-marked by the call's tcp_push;
//  quota 5 splits it: the head (5 MSS) loses the mark (tso_fragment) but its
//  clone is forced -> PSH on segment 4; the 3-MSS rest keeps the mark -> 7.
TEST(ForcedPsh, EveryMultiSegmentCloneEndsWithPsh) {
  for (const char* name : {"linux-4.19", "linux-5.0", "linux-6.8", "linux-6.18"}) {
    SenderContext::Options o;
    o.profile = name;
    SenderContext ctx(o);
    EXPECT_EQ(ctx.SendMsg(11584, 0), 11584);
    const std::vector<WireSeg> w = ctx.TakeWire();
    ASSERT_EQ(w.size(), 8u) << name;
    for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i].psh(), i == 4 || i == 7) << name << " segment " << i;
    // Segment 4's PSH is the forced one; 7's is the call's own push.
    EXPECT_TRUE(w[4].psh_forced) << name;
    EXPECT_FALSE(w[7].psh_forced) << name;
  }
}

// Without the "recent send" condition (a later jiffy) the same write is not
// deferred: exit 3 of tcp_tso_should_defer sends at once (2 segments, quota 2).
TEST(TsoDefer, NotDeferredInALaterJiffy) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(11584, 0), 11584);
  ctx.TakeLens();
  ctx.AtUs(50);
  ctx.CompleteAllTx();
  ctx.AtUs(4100);  // jiffy 1 at HZ 250
  EXPECT_EQ(ctx.SendMsg(4344, 0), 4344);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448));
  EXPECT_EQ(ctx.sock().counters().tso_deferrals, 0u);
}

// tcp_grow_skb (v6.10+), MSS 1448, a 2-MSS peer window (so max_window 2896
// and tcp_bound_to_half_wnd gives a 1-MSS size goal), TCP_NODELAY, cwnd 10:
//  t=0  write 7240 (5 skbs of 1448): skb0 leaves by tcp_push_one; skb1 by
//       the forced push (2896 > 0 + 2896/2); skb2 fails the window test.
//       On 6.12 the forced push after skb3 grows skb2 by skb3 (cwnd quota
//       min(10 / 2, 10 - 2) = 5 MSS > 1448) and frees skb3; tcp_push at the end grows it by skb4:
//       one unsent skb [2896, 7240), 3 skb heads charged at 960 (6.12's
//       small-head truesize). On 6.1 three unsent skbs, 5 heads at 1280.
//  ACK 1448, window 3000 (edge 4448): 6.12's 4344-byte head passes the
//       window test (first MSS ends at 4344); tcp_tso_should_defer: limit
//       min(1552, 10 MSS) = 1552 >= chunk 3000/3 -> send; tcp_mss_split_point
//       cuts at min(4344, 1552) = 1552, keeping the 104-byte partial
//       (TCP_NAGLE_OFF) -> 1448 + 104. On 6.1 the 1-MSS head fits, the next
//       (ends at 5792) does not -> 1448 only.
TEST(GrowSkb, HeadGrowsToTheCwndQuotaAndIsCutAtTheWindowEdge) {
  for (const char* profile : {"linux-6.12", "linux-6.1"}) {
    SCOPED_TRACE(profile);
    const bool grows = std::string(profile) == "linux-6.12";
    SenderContext::Options o;
    o.profile = profile;
    o.peer_window = 2 * 1448;
    SenderContext ctx(o);
    EXPECT_EQ(ctx.SendMsg(5 * 1448, 0), 5 * 1448);
    EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448));
    EXPECT_EQ(ctx.sock().write_queue().size(), grows ? 1u : 3u);
    EXPECT_EQ(ctx.sock().wmem_queued(), grows ? 5 * 1448 + 3 * 960 : 5 * 1448 + 5 * 1280);
    ctx.AtUs(10);
    ctx.Ack(1448, 3000);
    if (grows) {
      EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 104));
    } else {
      EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448));
    }
  }
}

}  // namespace
}  // namespace sendsim::model
