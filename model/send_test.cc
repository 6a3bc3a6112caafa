// skb building and end-of-call pushes (do_tcp_sendpages / tcp_sendmsg_locked),
// driven through the sender-only test context.

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/send.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using testing::RenderLens;
using testing::SenderContext;
using testing::WireSeg;

std::vector<uint32_t> Repeat(uint32_t len, int n) { return std::vector<uint32_t>(n, len); }

// Large cwnd and window so that only the push rules decide (reference 13).
SenderContext::Options WorkedExampleOptions() {
  SenderContext::Options o;
  o.config.initcwnd = 100;
  o.peer_window = 4 * 1024 * 1024;
  return o;
}

TEST(SizeGoal, HalfWindowBound) {
  // 65536 - 1 - 304 = 65231, not bounded by a 4 MiB window -> 45 x 1448.
  EXPECT_EQ(SizeGoalCandidate(4 << 20, true), 65231u);
  // A Linux receiver's first window, 20 x 1448 = 28960: half is 14480.
  EXPECT_EQ(SizeGoalCandidate(28960, true), 14480u);
  // v6.x: no header subtraction.
  EXPECT_EQ(SizeGoalCandidate(4 << 20, false), 65536u);
}

TEST(SizeGoal, SocketUsesWholeMss) {
  SenderContext ctx(WorkedExampleOptions());
  // 65231 / 1448 = 45 (integer) -> 65160.
  EXPECT_EQ(ctx.sock().size_goal(), 65160u);
  SenderContext::Options small = WorkedExampleOptions();
  small.peer_window = 28960;
  SenderContext ctx2(small);
  // 14480 / 1448 = 10 -> 14480.
  EXPECT_EQ(ctx2.sock().size_goal(), 14480u);
}

// Reference 13, post-patch flags, no asynchronous events, P = 331:
//  prefix 331 (sendmsg, MORE) -> S0, corked push holds it (nothing in flight,
//    so no autocork; CORK holds the 331-byte single-segment tail).
//  pages 1..15 (NOTLAST|MORE) append: 331 + 15*4096 = 61771.
//  page 16: 3389 bytes fill S0 to 65160; S0 is the write-queue head ->
//    tcp_push_one -> 45 x 1448 (cwnd quota min(100/2, 100) = 50 >= 45).
//  rest of page 16 (707) starts S1; pages 17..31 -> 707 + 15*4096 = 62147;
//    page 32 (MORE only) adds 3013 -> 65160 -> head -> tcp_push_one -> 45 x 1448;
//    its last 1083 bytes start S2; end-of-call tcp_push(MORE) autocorks
//    (rtx queue non-empty, wmem_alloc = 1 + two clones >> S2's truesize).
//  footer 21 (sendmsg, no MORE, EOR) appended to S2 -> 1104, PSH, autocork again.
//  The next TX completion runs the TSQ handler with nonagle OFF: one 1104 packet.
// Total 90 x 1448 + 1104 = 331 + 131072 + 21.
TEST(WorkedExample, PostPatchFlagsNoAsyncEvents) {
  SenderContext ctx(WorkedExampleOptions());
  EXPECT_EQ(ctx.SendMsg(331, kMsgMore), 331);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  for (int page = 1; page <= 32; ++page) {
    const int flags = page < 32 ? (kMsgMore | kMsgSendpageNotlast) : kMsgMore;
    EXPECT_EQ(ctx.SendPage(4096, flags), 4096);
    if (page == 16 || page == 32) {
      const std::vector<uint32_t> lens = ctx.TakeLens();
      EXPECT_THAT(lens, ElementsAreArray(Repeat(1448, 45))) << "after page " << page << ": " << RenderLens(lens);
    } else {
      EXPECT_THAT(ctx.TakeLens(), ElementsAre()) << "after page " << page;
    }
  }
  EXPECT_EQ(ctx.SendMsg(21, kMsgEor), 21);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_TRUE(ctx.sock().tsq_throttled());
  EXPECT_EQ(ctx.sock().counters().autocorks, 1u);  // the bit was set once
  ctx.CompleteTx(1);
  const std::vector<WireSeg> tail = ctx.TakeWire();
  ASSERT_EQ(tail.size(), 1u);
  EXPECT_EQ(tail[0].len, 1104u);
  EXPECT_TRUE(tail[0].psh());
  EXPECT_EQ(tail[0].reason, PushReason::kTsq);
  // No call without MSG_MORE marked the 45-segment skbs, but __tcp_transmit_skb
  // forces PSH on every multi-segment clone (v4.11+), and segmentation keeps
  // it on the last segment: 44 and 89 only.
  for (size_t i = 0; i < 90; ++i) EXPECT_EQ(ctx.wire()[i].psh(), i == 44 || i == 89) << i;
  EXPECT_EQ(ctx.sock().snd_nxt(), 331u + 131072u + 21u);
}

// Pre-patch flags (MSG_MORE on every page, no NOTLAST), cwnd 10:
//  t=0   page A, no flags: new skb 4096 -> push OFF -> 1448 1448 1200(PSH).
//        tso_should_defer: limit = min(wnd, 10*1448) = 14480 >= 14480/3 -> send.
//  t=10  page B, MORE: new skb 4096 (truesize 1280+4096 = 5376); autocork:
//        rtx queue non-empty and wmem_alloc = 1 + 5376 > 5376 -> held, THROTTLED.
//  t=50  ACK 4096: tcp_data_snd_check with nonagle OFF sends B whole:
//        1448 1448 1200 -- the 1200-byte runt (4096 mod 1448).
//  t=60  page C, MORE: new skb (queue empty); autocork: wmem_alloc =
//        1 + 5376 + 5376 > 5376 -> held.
//  t=70  page D, MORE: appended -> 8192 (truesize 9472); wmem_alloc 10753 >
//        9472 -> autocork holds again.
//  t=100 one TX completion -> TSQ handler, nonagle OFF: in_flight 3, quota
//        min(10/2, 7) = 5 -> split at 5*1448 = 7240, sent; then the 952-byte
//        remainder (8192 mod 1448) goes too (Nagle OFF) -- the 952 runt.
TEST(WorkedExample, PrePatchRuntsFromAckAndTxCompletion) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendPage(4096, 0), 4096);
  std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[2].len, 1200u);
  EXPECT_TRUE(w[2].psh());

  ctx.AtUs(10);
  EXPECT_EQ(ctx.SendPage(4096, kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_TRUE(ctx.sock().tsq_throttled());

  ctx.AtUs(50);
  ctx.Ack(4096);
  w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].len, 1448u);
  EXPECT_EQ(w[1].len, 1448u);
  EXPECT_EQ(w[2].len, 1200u);
  EXPECT_EQ(w[2].reason, PushReason::kAck);
  // MSG_MORE never marked the skb, but a 3-segment clone gets the forced
  // PSH of __tcp_transmit_skb on its last segment.
  EXPECT_TRUE(w[2].psh());

  ctx.AtUs(60);
  EXPECT_EQ(ctx.SendPage(4096, kMsgMore), 4096);
  ctx.AtUs(70);
  EXPECT_EQ(ctx.SendPage(4096, kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());

  ctx.AtUs(100);
  ctx.CompleteTx(1);
  w = ctx.TakeWire();
  std::vector<uint32_t> lens;
  for (const WireSeg& s : w) lens.push_back(s.len);
  EXPECT_THAT(lens, ElementsAre(1448, 1448, 1448, 1448, 1448, 952)) << RenderLens(lens);
  for (const WireSeg& s : w) EXPECT_EQ(s.reason, PushReason::kTsq);
}

// MSG_EOR: the eor skb is never appended to. Under TCP_CORK:
//  with EOR the second write starts a second skb; the first is then no longer
//  the write-queue tail, and tcp_write_xmit applies Nagle/cork only to the
//  tail (other skbs are tested with TCP_NAGLE_PUSH), so the first 100 bytes
//  leave at the second write's push; uncorking sends the second 100.
//  without EOR the second write coalesces into the tail skb: nothing leaves
//  until uncork, then one 200-byte segment.
TEST(Eor, NextWriteStartsNewSkb) {
  for (const bool eor : {true, false}) {
    SenderContext ctx;
    ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
    EXPECT_EQ(ctx.SendMsg(100, eor ? kMsgEor : 0), 100);
    EXPECT_THAT(ctx.TakeLens(), ElementsAre());
    EXPECT_EQ(ctx.SendMsg(100, 0), 100);
    if (eor) {
      const std::vector<WireSeg> w = ctx.TakeWire();
      ASSERT_EQ(w.size(), 1u);
      EXPECT_EQ(w[0].len, 100u);
      EXPECT_TRUE(w[0].psh());  // marked by the first call's own tcp_push
      EXPECT_EQ(w[0].reason, PushReason::kEndOfCall);
    } else {
      EXPECT_THAT(ctx.TakeLens(), ElementsAre());
    }
    ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 0), 0);
    const std::vector<WireSeg> w = ctx.TakeWire();
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].len, eor ? 100u : 200u);
    EXPECT_TRUE(w[0].psh());
    EXPECT_EQ(w[0].reason, PushReason::kSetsockopt);
  }
}

// 17 frags: the 18th non-coalescable page starts a new skb and PSH-marks the
// full one. Corked so nothing leaves; 18 x 100-byte pieces of distinct pages.
TEST(FragLimit, EighteenthPageStartsNewSkb) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
  for (int i = 0; i < 18; ++i) ASSERT_EQ(ctx.SendPage(100, kMsgMore | kMsgSendpageNotlast), 100);
  ASSERT_EQ(ctx.sock().write_queue_len(), 2u);
  EXPECT_EQ(ctx.sock().write_queue()[0].len(), 1700u);
  EXPECT_EQ(ctx.sock().write_queue()[0].nr_frags, 17);
  EXPECT_TRUE(ctx.sock().write_queue()[0].tcp_flags & kTcpPsh);
  EXPECT_EQ(ctx.sock().write_queue()[1].len(), 100u);
}

// v6.8 has no sendpage.
TEST(Profiles, SendpageRemovedInLinux68) {
  SenderContext::Options o;
  o.profile = "linux-6.8";
  SenderContext ctx(o);
  EXPECT_EQ(ctx.SendPage(4096, 0), -kEinval);
}

// v6.8 MSG_SPLICE_PAGES: pages attach as frags; the end of every sendmsg runs
// tcp_push, so MSG_MORE corks (nothing in flight, no autocork): 4096 bytes
// leave as 2 x 1448 with 1200 held.
TEST(Profiles, SplicePagesWithMoreCorksTheTail) {
  SenderContext::Options o;
  o.profile = "linux-6.8";
  SenderContext ctx(o);
  BioVec b;
  b.page.id = 7;
  b.offset = 0;
  b.len = 4096;
  EXPECT_EQ(ctx.sock().sendmsg_bvec({b}, kMsgSplicePages | kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448));
  EXPECT_EQ(ctx.sock().write_queue_len(), 1u);
  EXPECT_EQ(ctx.sock().write_queue()[0].len(), 1200u);
}

// MSG_ZEROCOPY (skb_zerocopy_iter_stream): the user's pages become frags,
// one per page of each element, at most MAX_SKB_FRAGS per skb; a full frag
// array PSH-marks the skb and starts the next (tcp_mark_push). With cwnd
// 100 and TCP_NODELAY every skb leaves at the end of the call, so skb
// boundaries show as sub-MSS wire segments (MSS 1448).
std::vector<uint32_t> SendLens(const std::vector<Iovec>& iov, int flags, std::vector<bool>* own_psh = nullptr) {
  SenderContext ctx(WorkedExampleOptions());
  uint64_t total = 0;
  for (const Iovec& v : iov) total += v.len;
  EXPECT_EQ(ctx.sock().sendmsg(absl::MakeConstSpan(iov), flags), static_cast<int64_t>(total));
  std::vector<uint32_t> lens;
  for (const WireSeg& w : ctx.TakeWire()) {
    lens.push_back(w.len);
    if (own_psh != nullptr) own_psh->push_back(w.psh() && !w.psh_forced);
  }
  return lens;
}

TEST(Zerocopy, SeventeenElementsCloseAnSkb) {
  // 20 x 1000 bytes: 17 one-page frags (17000 = 11 x 1448 + 1072) close the
  // first skb with PSH; the last 3 elements (3000 = 2 x 1448 + 104) make
  // the second. Copied, the same bytes fill one skb: 13 x 1448 + 1176.
  std::vector<bool> psh;
  std::vector<uint32_t> want = Repeat(1448, 11);
  want.insert(want.end(), {1072, 1448, 1448, 104});
  EXPECT_EQ(SendLens(std::vector<Iovec>(20, Iovec{nullptr, 1000}), kMsgZerocopy, &psh), want);
  ASSERT_EQ(psh.size(), 15u);
  EXPECT_TRUE(psh[11]);
  EXPECT_TRUE(psh[14]);
  std::vector<uint32_t> copied = Repeat(1448, 13);
  copied.push_back(1176);
  EXPECT_EQ(SendLens(std::vector<Iovec>(20, Iovec{nullptr, 1000}), 0), copied);
}

TEST(Zerocopy, OneFragPerPageOfAnElement) {
  // An element pins a frag per page: 4 elements of 3 pages (12288 bytes)
  // are 12 frags; 5 one-page elements of 100 bytes reach 17, so the sixth
  // starts a new skb. (One frag per element would keep all in one skb:
  // 49752 = 34 x 1448 + 520.)
  std::vector<Iovec> iov(4, Iovec{nullptr, 12288});
  iov.insert(iov.end(), 6, Iovec{nullptr, 100});
  // 4 x 12288 + 5 x 100 = 49652 = 34 x 1448 + 420; then 100.
  std::vector<uint32_t> want = Repeat(1448, 34);
  want.insert(want.end(), {420, 100});
  EXPECT_EQ(SendLens(iov, kMsgZerocopy), want);
}

}  // namespace
}  // namespace sendsim::model
