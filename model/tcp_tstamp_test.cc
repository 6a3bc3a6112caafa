// SO_TIMESTAMPING transmit timestamps (tx_timestamp.h, tcp_tstamp.cc),
// driven through the sender-only test context (seq 0 is the first byte;
// MSS 1448 with the timestamps option, TCP_NODELAY). Expectations follow
// the kernel's rules: tcp_tx_timestamp marks a call's last byte,
// tcp_fragment_tstamp moves the mark with it, tcp_ack_tstamp stamps the
// ACK that covers it, and ee_data counts from sk_tskey.

#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/errqueue.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

constexpr uint32_t kMss = 1448;

// The entry __skb_complete_tx_timestamp queues for `type` and key `data`
// (OPT_TSONLY: no packet copy), taken at `t`.
SockExterr Stamp(uint32_t type, uint32_t data, TimeNs t) {
  SockExterr e;
  e.ee_errno = kEnomsg;
  e.origin = kSoEeOriginTimestamping;
  e.info = type;
  e.data = data;
  e.tstamp_ns = t;
  return e;
}

TEST(TcpTstamp, AckStampForTheCallsLastByteOnce) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptTsonly), 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);  // key: byte 999 (sk_tskey = snd_una = 0)
  EXPECT_FALSE(ctx.sock().errqueue_pending());  // TX_ACK alone: nothing at transmission
  ctx.AtUs(100);
  ctx.Ack(999);  // byte 999 not yet covered
  EXPECT_FALSE(ctx.sock().errqueue_pending());
  ctx.AtUs(200);
  ctx.Ack(1000);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 999, 200 * kNsPerUs));
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);
}

// Two calls into one skb (MSG_MORE holds the first): the second call's
// tcp_tx_timestamp re-marks the tail with its own last byte; the first
// call's key is gone, so one ACK stamp.
TEST(TcpTstamp, ACallAppendingToAMarkedSkbTakesItsKey) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptTsonly), 0);
  ASSERT_EQ(ctx.SendMsg(500, kMsgMore), 500);
  ASSERT_EQ(ctx.SendMsg(500, 0), 500);
  ctx.AtUs(100);
  ctx.Ack(1000);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 999, 100 * kNsPerUs));
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);
}

uint32_t Sum(const std::vector<uint32_t>& v) {
  uint32_t s = 0;
  for (uint32_t x : v) s += x;
  return s;
}

// The initial cwnd (10) cuts a 12-MSS call (tso_fragment): the mark goes
// with the last byte to the unsent piece, SCHED then SND when it leaves.
// The ACK mark moves as well (tcp_has_tx_tstamp tests both).
TEST(TcpTstamp, TheMarkFollowsTheKeyIntoTheSplitPiece) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping,
                                  kSofTxSched | kSofTxSoftware | kSofTxAck | kSofOptId | kSofOptTsonly),
            0);
  ASSERT_EQ(ctx.SendMsg(12 * kMss, 0), 12 * kMss);
  ctx.DrainTx();
  EXPECT_EQ(Sum(ctx.TakeLens()), 10 * kMss);
  EXPECT_FALSE(ctx.sock().errqueue_pending());  // the sent pieces carry no mark
  ctx.AtUs(100);
  ctx.Ack(10 * kMss);  // opens cwnd: the last two MSS go out
  EXPECT_EQ(Sum(ctx.TakeLens()), 2 * kMss);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampSched, 12 * kMss - 1, 100 * kNsPerUs));
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampSnd, 12 * kMss - 1, 100 * kNsPerUs));
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);
  ctx.AtUs(200);
  ctx.Ack(12 * kMss);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 12 * kMss - 1, 200 * kNsPerUs));
}

// An ACK-only mark (no SKBTX_* flag) moves to the split piece too: the
// ACK of the first ten MSS does not stamp, the ACK of all does.
TEST(TcpTstamp, AnAckOnlyMarkFollowsTheKey) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptTsonly), 0);
  ASSERT_EQ(ctx.SendMsg(12 * kMss, 0), 12 * kMss);
  ctx.DrainTx();
  ASSERT_EQ(Sum(ctx.TakeLens()), 10 * kMss);
  ctx.AtUs(100);
  ctx.Ack(10 * kMss);
  EXPECT_FALSE(ctx.sock().errqueue_pending());
  ctx.DrainTx();
  ctx.AtUs(200);
  ctx.Ack(12 * kMss);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 12 * kMss - 1, 200 * kNsPerUs));
}

// sock_set_timestamping: turning OPT_ID on takes snd_una as the base, or
// write_seq with OPT_ID_TCP; setting it again while on keeps the base.
TEST(TcpTstamp, OptIdBase) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);  // in flight: snd_una 0, write_seq 1000
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptIdTcp | kSofOptTsonly),
            0);
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptTsonly), 0);
  ASSERT_EQ(ctx.SendMsg(500, 0), 500);  // key 1499
  ctx.DrainTx();  // autocorked behind the first skb's clone until its TX completion
  ctx.AtUs(100);
  ctx.Ack(1500);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 499, 100 * kNsPerUs));
  // Off, then on without OPT_ID_TCP: the base is snd_una (1500) again.
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, 0), 0);
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck | kSofOptId | kSofOptTsonly), 0);
  ASSERT_EQ(ctx.SendMsg(100, 0), 100);  // key 1599
  ctx.DrainTx();
  ctx.AtUs(200);
  ctx.Ack(1600);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), Stamp(kScmTstampAck, 99, 200 * kNsPerUs));
}

// A key inside an skb (a later unmarked call appended to the marked tail):
// the partial ACK that covers it stamps the skb it stopped at; the
// packet copy at ACK time is the skb's remaining payload (no OPT_TSONLY).
TEST(TcpTstamp, APartialAckCoveringAKeyInsideTheSkbStamps) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxAck), 0);
  ASSERT_EQ(ctx.SendMsg(1000, kMsgMore), 1000);  // key 999
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, 0), 0);
  ASSERT_EQ(ctx.SendMsg(1896, 0), 1896);  // one 2-MSS skb
  EXPECT_EQ(ctx.TakeLens(), (std::vector<uint32_t>{kMss, kMss}));
  ctx.AtUs(100);
  ctx.Ack(kMss);
  SockExterr want = Stamp(kScmTstampAck, 0, 100 * kNsPerUs);  // no OPT_ID: ee_data 0
  want.len = kMss;
  EXPECT_EQ(ctx.sock().RecvErrqueue(), want);
  ctx.AtUs(200);
  ctx.Ack(2 * kMss);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);
}

// Without OPT_TSONLY the SCHED/SND entries carry the packet from its IP
// header: 20 + 20 + 12 (timestamps option) + payload.
TEST(TcpTstamp, PacketCopyAtTransmission) {
  SenderContext ctx;
  ASSERT_EQ(ctx.sock().setsockopt(SockOpt::kSoTimestamping, kSofTxSched), 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  std::optional<SockExterr> e = ctx.sock().RecvErrqueue();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->info, kScmTstampSched);
  EXPECT_EQ(e->len, 1052u);
  EXPECT_EQ(ctx.sock().RecvErrqueue(), std::nullopt);  // no TX_SOFTWARE: no SND
}

}  // namespace
}  // namespace sendsim::model
