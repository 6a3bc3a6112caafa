// tcp_send_fin through TcpSock::Shutdown, a reset through TcpSock::Abort,
// and tcp_poll's POLLOUT.

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// Corked 1000 bytes (TCP_NODELAY|TCP_CORK holds a sub-MSS tail). tcp_send_fin
// finds the unsent tail skb: FIN set on it, end_seq and write_seq + 1, then
// __tcp_push_pending_frames(TCP_NAGLE_OFF): tcp_nagle_test passes an skb with
// FIN, so the 1000 bytes leave with FIN and the PSH of the write's tcp_push.
TEST(Fin, RidesOnTheUnsentTail) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ASSERT_TRUE(ctx.skbs().empty());
  ASSERT_EQ(ctx.sock().Shutdown(), 0);
  ASSERT_EQ(ctx.skbs().size(), 1u);
  const XmitSkb& skb = ctx.skbs()[0];
  EXPECT_EQ(skb.seq, 0u);
  EXPECT_EQ(skb.len, 1000u);
  EXPECT_EQ(skb.tcp_flags, kTcpAck | kTcpPsh | kTcpFin);
  EXPECT_EQ(ctx.sock().write_seq(), 1001u);
  EXPECT_EQ(ctx.sock().snd_nxt(), 1001u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok());
  // The peer acknowledges data and FIN: nothing is left in flight.
  ctx.AtUs(100);
  ctx.Ack(1001);
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
  EXPECT_EQ(ctx.sock().rtx_queue_len(), 0u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// 10 full segments fill cwnd 10. With nothing unsent, tcp_send_fin queues a
// data-less FIN skb (pcount 1), and tcp_cwnd_test lets a one-segment FIN skb
// through although cwnd is full: packets_out becomes 11.
TEST(Fin, AloneAndPastAFullCwnd) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(10 * 1448, 0), 10 * 1448);
  ASSERT_EQ(ctx.sock().packets_out(), 10u);
  ASSERT_EQ(ctx.sock().snd_cwnd(), 10u);
  const size_t before = ctx.skbs().size();
  ASSERT_EQ(ctx.sock().Shutdown(), 0);
  ASSERT_EQ(ctx.skbs().size(), before + 1);
  const XmitSkb& fin = ctx.skbs().back();
  EXPECT_EQ(fin.seq, 14480u);
  EXPECT_EQ(fin.len, 0u);
  EXPECT_EQ(fin.tcp_flags, kTcpAck | kTcpFin);
  EXPECT_EQ(ctx.sock().packets_out(), 11u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok());
  ctx.AtUs(100);
  ctx.Ack(14481);
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// After SEND_SHUTDOWN every send path fails with EPIPE, a second shutdown is
// a no-op (no second FIN) and tcp_poll reports POLLOUT.
TEST(Fin, SendsFailAfterShutdown) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().Shutdown(), 0);
  EXPECT_EQ(ctx.SendMsg(100, 0), -kEpipe);
  EXPECT_EQ(ctx.SendPage(100, 0), -kEpipe);
  ASSERT_EQ(ctx.skbs().size(), 1u);
  EXPECT_EQ(ctx.sock().Shutdown(), 0);
  EXPECT_EQ(ctx.skbs().size(), 1u);
  EXPECT_EQ(ctx.sock().write_seq(), 1u);
  EXPECT_TRUE(ctx.sock().PollWriteable());
}

// A blocking write parked in sk_stream_wait_memory (SO_SNDBUF at its minimum,
// 4608 bytes of truesize, far less than 100000 bytes) is woken by the
// shutdown and returns the bytes it had copied (do_error with copied > 0).
TEST(Fin, ShutdownEndsABlockedWrite) {
  SenderContext::Options o;
  o.config.sndbuf = 1;  // -> SOCK_MIN_SNDBUF
  SenderContext ctx(o);
  std::vector<uint8_t> data(100000, 0);
  Iovec iov{data.data(), data.size()};
  int64_t result = 0;
  const int64_t r = ctx.sock().sendmsg(absl::MakeConstSpan(&iov, 1), 0, [&](int64_t v) { result = v; });
  ASSERT_EQ(r, Socket::kInProgress);
  ASSERT_TRUE(ctx.sock().blocked_call_pending());
  const uint64_t queued = ctx.sock().write_seq();
  ASSERT_GT(queued, 0u);
  ASSERT_EQ(ctx.sock().Shutdown(), 0);
  ctx.AtUs(1);
  EXPECT_FALSE(ctx.sock().blocked_call_pending());
  EXPECT_EQ(result, static_cast<int64_t>(queued));
  EXPECT_EQ(ctx.sock().write_seq(), queued + 1);  // the FIN
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// tcp_reset -> tcp_done: 20 segments written, cwnd 10 sent. Both queues
// are purged (tcp_write_queue_purge: packets_out 0, no memory queued), the
// retransmit timer is cleared, so nothing leaves at the RTO; a later ACK finds
// no socket.
TEST(Abort, PurgesQueuesAndStopsTimers) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(20 * 1448, 0), 20 * 1448);
  ASSERT_EQ(ctx.sock().packets_out(), 10u);
  ASSERT_GT(ctx.sock().write_queue_len(), 0u);
  const size_t sent = ctx.skbs().size();
  ctx.sock().Abort(kEconnreset);
  EXPECT_TRUE(ctx.sock().aborted());
  EXPECT_EQ(ctx.sock().packets_out(), 0u);
  EXPECT_EQ(ctx.sock().write_queue_len(), 0u);
  EXPECT_EQ(ctx.sock().rtx_queue_len(), 0u);
  EXPECT_EQ(ctx.sock().wmem_queued(), 0u);
  EXPECT_EQ(ctx.sock().pending_timer(), XmitTimer::kNone);
  ctx.AtUs(3'000'000);
  ctx.Ack(1448);
  EXPECT_EQ(ctx.skbs().size(), sent);
  EXPECT_TRUE(ctx.sock().CheckInvariants().ok()) << ctx.sock().CheckInvariants();
}

// sk_stream_error reports a pending sk_err before EPIPE and sock_error
// clears it: ECONNRESET once, then EPIPE on every send path; POLLOUT is set
// (SEND_SHUTDOWN).
TEST(Abort, ErrorOnceThenEpipe) {
  SenderContext ctx;
  ctx.sock().Abort(kEconnreset);
  EXPECT_TRUE(ctx.sock().has_sock_error());
  EXPECT_EQ(ctx.SendMsg(100, 0), -kEconnreset);
  EXPECT_FALSE(ctx.sock().has_sock_error());
  EXPECT_EQ(ctx.SendMsg(100, 0), -kEpipe);
  EXPECT_EQ(ctx.SendPage(100, 0), -kEpipe);
  EXPECT_TRUE(ctx.sock().PollWriteable());
  // Read by SO_ERROR (or a read) instead: the sends see EPIPE at once.
  SenderContext other;
  other.sock().Abort(kEconnreset);
  EXPECT_EQ(other.sock().TakeSockError(), kEconnreset);
  EXPECT_EQ(other.sock().TakeSockError(), 0);
  EXPECT_EQ(other.SendMsg(100, 0), -kEpipe);
}

// A writer parked in sk_stream_wait_memory wakes at the reset. Having
// copied bytes, it returns their count (do_error: copied > 0) and leaves
// sk_err for the next call; one that copied nothing returns the error.
TEST(Abort, EndsABlockedWrite) {
  SenderContext::Options o;
  o.config.sndbuf = 1;  // -> SOCK_MIN_SNDBUF
  SenderContext ctx(o);
  std::vector<uint8_t> data(100000, 0);
  Iovec iov{data.data(), data.size()};
  int64_t result = 0;
  ASSERT_EQ(ctx.sock().sendmsg(absl::MakeConstSpan(&iov, 1), 0, [&](int64_t v) { result = v; }),
            Socket::kInProgress);
  const uint64_t copied = ctx.sock().write_seq();
  ASSERT_GT(copied, 0u);
  ctx.sock().Abort(kEconnreset);
  ctx.AtUs(1);
  EXPECT_FALSE(ctx.sock().blocked_call_pending());
  EXPECT_EQ(result, static_cast<int64_t>(copied));
  EXPECT_EQ(ctx.SendMsg(100, 0), -kEconnreset);
}

// tcp_notsent_lowat: the socket option, else the sysctl. tcp_poll calls
// __sk_stream_is_writeable(sk, 1); from v5.4 tcp_stream_memory_free compares
// 2 * unsent with the mark, before only unsent. 600 corked bytes against a
// sysctl of 1000: writable on linux-4.19 (600 < 1000), not on linux-6.8
// (1200 >= 1000); the option at 2000 makes both writable, and 0 returns to
// the sysctl.
TEST(PollWriteable, NotsentLowatSysctlAndOption) {
  for (const char* profile : {"linux-4.19", "linux-6.8"}) {
    SCOPED_TRACE(profile);
    SenderContext::Options o;
    o.profile = profile;
    o.config.sysctl.notsent_lowat = 1000;
    SenderContext ctx(o);
    EXPECT_TRUE(ctx.sock().PollWriteable());
    ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpCork, 1), 0);
    ASSERT_EQ(ctx.SendMsg(600, 0), 600);
    ASSERT_EQ(ctx.sock().info().notsent_bytes, 600u);
    const bool v54 = std::string(profile) == "linux-6.8";
    EXPECT_EQ(ctx.sock().PollWriteable(), !v54);
    ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpNotsentLowat, 2000), 0);
    EXPECT_TRUE(ctx.sock().PollWriteable());
    EXPECT_EQ(ctx.sock().info().notsent_lowat, 2000u);
    ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kTcpNotsentLowat, 0), 0);
    EXPECT_EQ(ctx.sock().info().notsent_lowat, 1000u);
    EXPECT_EQ(ctx.sock().PollWriteable(), !v54);
  }
}

// tcp_poll sets SOCK_NOSPACE on a stream it finds not writeable, so the ACK
// that frees the queue wakes the poller (tcp_check_space -> tcp_new_space
// -> sk_stream_write_space); without a poll (and without a send that ran out
// of room) nothing is woken. SO_SNDBUF 8192 is an sk_sndbuf of 16384
// (sock_setsockopt doubles it): 12000 bytes queue more than two thirds of
// it (free space below half of what is queued: not writeable) but less than
// all of it (the send needs no wait).
TEST(PollOut, SetsNoSpaceSoTheFreeingAckWakes) {
  for (const bool poll : {false, true}) {
    SCOPED_TRACE(poll ? "polled" : "not polled");
    SenderContext::Options o;
    o.config.sndbuf = 8192;
    SenderContext ctx(o);
    int wakeups = 0;
    ctx.sock().set_write_space_callback([&] { ++wakeups; });
    ASSERT_EQ(ctx.SendMsg(12000, kMsgDontwait), 12000);
    ASSERT_GT(ctx.sock().wmem_queued(), 16384u * 2 / 3);
    ASSERT_LT(ctx.sock().wmem_queued(), 16384u);
    ASSERT_FALSE(ctx.sock().PollWriteable());
    if (poll) {
      EXPECT_FALSE(ctx.sock().PollOut());
    }
    ctx.AtUs(100);
    ctx.CompleteAllTx();
    ctx.Ack(ctx.sock().snd_nxt());
    EXPECT_EQ(ctx.sock().wmem_queued(), 0u);
    EXPECT_EQ(wakeups, poll ? 1 : 0);
  }
}

}  // namespace
}  // namespace sendsim::model
