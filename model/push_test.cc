// tcp_push paths: TCP_CORK, MSG_MORE held until probe0, the send buffer
// running out (short count, push, EAGAIN, write-space resume).

#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/host/cpu_steal.h"
#include "model/push.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using ::testing::ElementsAre;
using testing::SenderContext;
using testing::WireSeg;

TEST(PushRules, ForcedPushAfterHalfTheLargestWindow) {
  // 65536/2 = 32768 bytes may be written past pushed_seq before a forced push.
  EXPECT_FALSE(ForcedPushRule(32768, 0, 65536));
  EXPECT_TRUE(ForcedPushRule(32769, 0, 65536));
}

// TCP_CORK on a TCP_NODELAY socket: nonagle = OFF|CORK.
//  write 1000 -> first skb (linear), tcp_push: no autocork (nothing in
//    flight); CORK holds the sub-MSS tail; "stuck" -> probe0 armed.
//  write 1000 -> same skb (424 into the linear head, 576 into a page frag),
//    2000 bytes; tcp_push: TSO deferral passes (limit 14480 >= 14480/3);
//    tcp_mss_split_point with CORK cuts at 1448 -> 1448 leaves (PSH stays on
//    the 552 remainder), 552 is held by Nagle/CORK.
//  TCP_CORK 0 -> nonagle OFF|PUSH, tcp_push_pending_frames: 552 with PSH.
TEST(Cork, HoldsSubMssUntilUncork) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
  EXPECT_EQ(ctx.SendMsg(1000, 0), 1000);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_EQ(ctx.sock().pending_timer(), XmitTimer::kProbe0);
  EXPECT_EQ(ctx.SendMsg(1000, 0), 1000);
  std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].len, 1448u);
  EXPECT_FALSE(w[0].psh());
  EXPECT_GE(ctx.sock().counters().cork_holds, 2u);
  ctx.AtUs(100);
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 0), 0);
  w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].len, 552u);
  EXPECT_TRUE(w[0].psh());
  EXPECT_EQ(w[0].reason, PushReason::kSetsockopt);
}

// MSG_MORE on the last write: tcp_push(MSG_MORE) corks; nothing is in flight
// so the queue is "stuck" and probe0 is armed for max(RTO, TCP_RTO_MIN).
// RTO after the handshake sample of 100 us: srtt 100 us, rttvar =
// max(2*100 us, 200 ms) -> usecs_to_jiffies(200100) = 51 jiffies at HZ 250;
// probe0 = max(51, 50) = 51 jiffies -> fires at 204 ms, sending the 500 bytes
// with PSH (tcp_write_wakeup).
TEST(MsgMore, LastWriteHeldUntilProbeTimer) {
  SenderContext ctx;
  EXPECT_EQ(ctx.SendMsg(500, kMsgMore), 500);
  EXPECT_EQ(ctx.sock().pending_timer(), XmitTimer::kProbe0);
  EXPECT_EQ(ctx.sock().timer_expires_ns(), 204 * kNsPerMs);
  ctx.At(204 * kNsPerMs - 1);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  ctx.At(204 * kNsPerMs);
  const std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].len, 500u);
  EXPECT_TRUE(w[0].psh());
  EXPECT_EQ(w[0].reason, PushReason::kProbe0);
  EXPECT_EQ(w[0].time, 204 * kNsPerMs);
  EXPECT_EQ(ctx.sock().counters().probe0_fires, 1u);
  // Data in flight: tcp_event_new_data_sent re-armed the RTO in place of
  // probe0 (tcp_write_wakeup does not schedule a loss probe).
  EXPECT_EQ(ctx.sock().pending_timer(), XmitTimer::kRetrans);
}

// SO_SNDBUF 8192 -> sk_sndbuf 16384. A 100000-byte MSG_DONTWAIT sendmsg,
// cwnd 10 (quota 5 per burst):
//  the first skb (linear 1424 + frags) fills to 65160 without any sndbuf test
//  (only new skbs are checked); it is the head -> tcp_push_one -> 5 x 1448;
//  tso_fragment leaves the 57920-byte rest as the write-queue tail, which is
//  not eor, so the loop appends to it again: +7240 -> 65160 -> head ->
//  tcp_push_one -> 5 x 1448; again +7240 -> 65160, tcp_push_one finds the
//  cwnd full. Now the tail is full: a new skb is needed and wmem_queued >=
//  sndbuf -> wait path: tcp_push(no MORE, TCP_NAGLE_PUSH) PSH-marks the tail
//  (nothing leaves: cwnd full); timeo 0 -> short count 65160 + 2*7240 = 79640.
//  A second MSG_DONTWAIT call finds no space: -EAGAIN.
TEST(Sndbuf, ShortCountPushAndEagain) {
  SenderContext::Options o;
  o.config.sndbuf = 8192;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.sock().sndbuf(), 16384u);
  EXPECT_EQ(ctx.SendMsg(100000, kMsgDontwait), 79640);
  const std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(w[i].len, 1448u);
    EXPECT_EQ(w[i].reason, PushReason::kPushOne) << i;
  }
  EXPECT_EQ(ctx.sock().counters().pushes_by_reason[static_cast<int>(PushReason::kSndbufFull)], 1u);
  ASSERT_EQ(ctx.sock().write_queue_len(), 1u);
  EXPECT_EQ(ctx.sock().write_queue()[0].len(), 65160u);
  EXPECT_TRUE(ctx.sock().write_queue()[0].tcp_flags & kTcpPsh);
  EXPECT_EQ(ctx.SendMsg(1000, kMsgDontwait), -kEagain);
  EXPECT_EQ(ctx.sock().counters().eagains, 1u);
}

// After the short count, ACKs (with TX completions) drain the queue; the
// write-space callback runs once wmem_queued <= 2/3 of sndbuf
// (sk_stream_wspace >= sk_stream_min_wspace), and a new write then succeeds.
TEST(Sndbuf, WriteSpaceResumesWriter) {
  SenderContext::Options o;
  o.config.sndbuf = 8192;
  SenderContext ctx(o);
  int calls = 0;
  uint32_t queued_at_call = 0;
  ctx.sock().set_write_space_callback([&] {
    ++calls;
    queued_at_call = ctx.sock().wmem_queued();
  });
  ASSERT_EQ(ctx.SendMsg(100000, kMsgDontwait), 79640);
  for (int k = 1; k <= 50 && calls == 0; ++k) {
    ctx.At(k * 4 * kNsPerMs + kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_nxt());
  }
  ASSERT_EQ(calls, 1);
  EXPECT_LE(queued_at_call, 16384u * 2 / 3);
  EXPECT_GT(ctx.SendMsg(1000, kMsgDontwait), 0);
}

// A blocking sendmsg (no MSG_DONTWAIT) parks in sk_stream_wait_memory and
// completes through its DoneFn with the full count once space returns.
TEST(Sndbuf, BlockingCallResumesOnWriteSpace) {
  SenderContext::Options o;
  o.config.sndbuf = 8192;
  SenderContext ctx(o);
  std::vector<uint8_t> buf(100000, 1);
  int64_t result = 0;
  const Iovec iov{buf.data(), buf.size()};
  EXPECT_EQ(ctx.sock().sendmsg({iov}, 0, [&](int64_t r) { result = r; }), Socket::kInProgress);
  EXPECT_TRUE(ctx.sock().blocked_call_pending());
  for (int k = 1; k <= 100 && result == 0; ++k) {
    ctx.At(k * 4 * kNsPerMs + kNsPerMs);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_nxt());
  }
  EXPECT_EQ(result, 100000);
  EXPECT_FALSE(ctx.sock().blocked_call_pending());
  EXPECT_EQ(ctx.sock().write_seq(), 100000u);
}


// release_sock before the next call. Calls hold the socket 10 us.
//  t=0   send 4096 (MSG_MORE): nothing in flight, so no autocork; MSG_MORE
//        corks Nagle and tcp_mss_split_point keeps the 4096 - 2 x 1448 =
//        1200 tail: 1448, 1448 leave.
//  t=5   an ACK for the first segment: the socket is owned, to the backlog.
//  t=10  the hold ends and the application's next call comes at that same
//        instant (its event was queued first). The thread that makes the
//        call has run release_sock already: the backlogged ACK's
//        tcp_data_snd_check pushes the 1200 tail (nonagle OFF, TCP_NODELAY).
//        The call then queues 4096 in a new skb, and its tcp_push autocorks
//        (the three clones are not completed). Had the call come first, the
//        tail would have grown to 5296 and left as 1448 x 3 + 952.
TEST(LockSock, PendingReleaseRunsBeforeACallAtTheSameInstant) {
  SenderContext::Options o;
  o.config.call_cost_ns = 10 * kNsPerUs;
  SenderContext ctx(o);
  EXPECT_EQ(ctx.SendMsg(4096, kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448u, 1448u));
  int64_t second = 0;
  ctx.loop().ScheduleAt(10 * kNsPerUs, [&ctx, &second] { second = ctx.SendMsg(4096, kMsgMore); });
  ctx.AtUs(5);
  ctx.Ack(1448);
  EXPECT_TRUE(ctx.sock().owned());
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  ctx.AtUs(10);
  EXPECT_EQ(second, 4096);
  const std::vector<WireSeg> w = ctx.TakeWire();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].len, 1200u);
  EXPECT_EQ(w[0].reason, PushReason::kBacklog);
  EXPECT_EQ(ctx.sock().write_seq(), 8192u);
}


// HostConfig::xmit_cost_ns: calls cost 2 us, each segment sent 3 us.
//  t=0   send 4096 (MSG_MORE): 1448, 1448 leave (as above), so the call
//        holds the socket 2 + 2 x 3 = 8 us.
//  t=8   send 4096 (MSG_MORE): the unsent 1200 tail grows to 5296. No
//        autocork: the two uncompleted clones (2896 bytes) are charged less
//        than the tail's own truesize. MSG_MORE corks Nagle: 1448 x 3 leave,
//        952 stays; 2 + 3 x 3 = 11 us, held until 19 us.
//  t=20  an ACK for the first segment, outside any call: 952 leaves (the
//        socket's nonagle is OFF), taken from the caller's CPU (softirq on
//        the sender's CPU): 3 us.
TEST(XmitCost, LengthensTheCallThatSendsAndStealsFromTheCaller) {
  SenderContext::Options o;
  o.config.call_cost_ns = 2 * kNsPerUs;
  o.config.host.xmit_cost_ns = 3 * kNsPerUs;
  o.config.host.xmit_softirq_on_sender_cpu = true;
  SenderContext ctx(o);
  HostCpu cpu(o.config.host);
  ctx.sock().set_host_cpu(&cpu);
  EXPECT_EQ(ctx.SendMsg(4096, kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448u, 1448u));
  EXPECT_EQ(ctx.sock().last_call_xmit_ns(), 6 * kNsPerUs);
  ctx.At(8 * kNsPerUs - 1);
  EXPECT_TRUE(ctx.sock().owned());
  ctx.AtUs(8);
  EXPECT_FALSE(ctx.sock().owned());
  EXPECT_EQ(ctx.SendMsg(4096, kMsgMore), 4096);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448u, 1448u, 1448u));
  EXPECT_EQ(ctx.sock().last_call_xmit_ns(), 9 * kNsPerUs);
  ctx.At(19 * kNsPerUs - 1);
  EXPECT_TRUE(ctx.sock().owned());
  ctx.AtUs(20);
  EXPECT_FALSE(ctx.sock().owned());
  EXPECT_EQ(ctx.sock().cpu_stolen_ns(), 0);
  ctx.Ack(1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(952u));
  EXPECT_EQ(ctx.sock().cpu_stolen_ns(), 3 * kNsPerUs);
}

// Without xmit_softirq_on_sender_cpu the softirq's transmits run on another
// CPU: nothing is taken from the caller.
TEST(XmitCost, SoftirqElsewhereStealsNothing) {
  SenderContext::Options o;
  o.config.call_cost_ns = 2 * kNsPerUs;
  o.config.host.xmit_cost_ns = 3 * kNsPerUs;
  SenderContext ctx(o);
  HostCpu cpu(o.config.host);
  ctx.sock().set_host_cpu(&cpu);
  EXPECT_EQ(ctx.SendMsg(4096, kMsgMore), 4096);
  ctx.AtUs(20);
  ctx.Ack(1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448u, 1448u, 1200u));
  EXPECT_EQ(ctx.sock().cpu_stolen_ns(), 0);
}

}  // namespace
}  // namespace sendsim::model
