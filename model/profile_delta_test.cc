// The send-path deltas between kernel profiles that the v4.19 tests cannot
// see: the v4.20+ ending of tcp_tso_should_defer (an eor skb is sent at once)
// and the v6.x TSQ exemption for a single-skb rtx queue
// (tcp_small_queue_check / tcp_rtx_queue_empty_or_single_skb); v5.9's one
// loss probe per flight (tcp_send_loss_probe).

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "absl/types/span.h"
#include "model/constants.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using ::testing::ElementsAre;
using testing::SenderContext;

SenderContext::Options WithProfile(const char* profile) {
  SenderContext::Options o;
  o.profile = profile;
  return o;
}

// cwnd 10, handshake srtt 100 us, peer window 4 MiB.
//  t=0    write 7 MSS (10136): quota min(cwnd/2, 10) = 5 -> 5 segments; the
//         2-MSS rest: quota min(5, 10-5) = 5, limit 7240 >= chunk 14480/3 =
//         4826 -> sent. 7 in flight.
//  t=50   all TX completions (autocork cannot hold the next write).
//  t=100  write 2 MSS (2896) as a new skb. tcp_write_xmit: quota min(5, 3) = 3;
//         tcp_tso_should_defer: last send recent (same jiffy / < 1 ms);
//         limit = cong_win = 3 * 1448 = 4344 < 45 MSS; the skb is the tail;
//         chunk 4826 > limit; rtx queue non-empty; the oldest skb is 100 us
//         old >= srtt/2 -> reach the ending with cong_win (4344) > skb len
//         (2896) and send_win > skb len, i.e. application-limited.
//         v4.19 ending: defer.  v4.20+ ending: defer unless the skb has FIN or
//         eor ("it will not get more data").
int64_t WriteThenTail(SenderContext& ctx, int tail_flags) {
  EXPECT_EQ(ctx.SendMsg(7 * 1448, 0), 7 * 1448);
  EXPECT_EQ(ctx.TakeLens().size(), 7u);
  ctx.AtUs(50);
  ctx.CompleteAllTx();
  ctx.AtUs(100);
  return ctx.SendMsg(2 * 1448, tail_flags);
}

TEST(TsoDeferEnding, V419DefersAnEorSkb) {
  SenderContext ctx(WithProfile("linux-4.19"));
  EXPECT_EQ(WriteThenTail(ctx, kMsgEor), 2 * 1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_EQ(ctx.sock().counters().tso_deferrals, 1u);
}

TEST(TsoDeferEnding, V50SendsAnEorSkbAtOnce) {
  SenderContext ctx(WithProfile("linux-5.0"));
  EXPECT_EQ(WriteThenTail(ctx, kMsgEor), 2 * 1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448));
  EXPECT_EQ(ctx.sock().counters().tso_deferrals, 0u);
}

// Control: without eor the v4.20+ ending still defers an application-limited
// tail, so the send above is the eor exit and nothing else.
TEST(TsoDeferEnding, V50DefersANonEorSkb) {
  SenderContext ctx(WithProfile("linux-5.0"));
  EXPECT_EQ(WriteThenTail(ctx, 0), 2 * 1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_EQ(ctx.sock().counters().tso_deferrals, 1u);
}

// TSQ (tcp_small_queue_check), autocorking off so tcp_push always transmits,
// handshake srtt 10 ms so the pacing term is small.
//  t=0     prime: write 1448, TX-complete it; t=10 ms ACK it. No cwnd growth
//          (tcp_is_cwnd_limited: cwnd 10 >= 2 x max_packets_out 1); srtt
//          stays 10 ms; tcp_update_pacing_rate: 200% x 1448 x 10 / 10 ms =
//          2,896,000 B/s, >> 10 = 2828 bytes, so tcp_tso_autosize allows
//          max(2828 / 1448, tcp_min_tso_segs 2) = 2 segments per skb (v6.x's
//          RTT term adds 64 KiB >> (10000 us >> 9) = 0). The rtx queue is
//          empty again.
//  +0      write 2 MSS (2896: one skb of 2 segments, truesize T1 > 2896): the
//          rtx queue is empty before it, so TSQ never holds it. sk_wmem_alloc
//          = T1 until its TX completion, which the test withholds.
//  +10 us  write 100 bytes (one skb, truesize T2): limit = max(2 x T2, 2828);
//          the test asserts T1 exceeds it. v4.19: throttled (TSQ_THROTTLED
//          set, nothing sent) until the TX completion runs the TSQ handler.
//          v6.x: the rtx queue holds a single skb -> exempt, sent at once.
void Prime(SenderContext& ctx) {
  EXPECT_EQ(ctx.SendMsg(1448, 0), 1448);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448));
  ctx.CompleteAllTx();
  ctx.At(10 * kNsPerMs);
  ctx.Ack(1448);
  ASSERT_EQ(ctx.sock().snd_cwnd(), 10u);
}

class TsqSingleSkb : public ::testing::TestWithParam<const char*> {
 protected:
  static SenderContext::Options Opts(const char* profile) {
    SenderContext::Options o = WithProfile(profile);
    o.config.autocorking = false;
    o.handshake_rtt_ns = 10 * kNsPerMs;
    return o;
  }
  // A write in the profile's zero-copy-or-copy form.
  static int64_t WritePage(SenderContext& ctx, const std::string& profile, uint32_t len) {
    if (profile == "linux-6.8") {
      const BioVec v{Page{1000 + len}, 0, len};
      return ctx.sock().sendmsg_bvec(absl::MakeConstSpan(&v, 1), kMsgSplicePages);
    }
    return ctx.SendPage(len, 0);
  }
};

TEST_P(TsqSingleSkb, SecondSkbBehindOneUncompletedSkb) {
  const std::string profile = GetParam();
  SenderContext ctx(Opts(GetParam()));
  Prime(ctx);
  EXPECT_EQ(WritePage(ctx, profile, 2896), 2896);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448));
  ASSERT_EQ(ctx.skbs().size(), 2u);
  const uint32_t t1 = ctx.skbs()[1].truesize;
  ctx.At(ctx.now() + 10 * kNsPerUs);
  EXPECT_EQ(WritePage(ctx, profile, 100), 100);
  if (profile == "linux-6.8") {
    EXPECT_THAT(ctx.TakeLens(), ElementsAre(100));
    ASSERT_EQ(ctx.skbs().size(), 3u);
    ASSERT_GT(t1, std::max<uint32_t>(2 * ctx.skbs()[2].truesize, 2828)) << "precondition: over the TSQ limit";
  } else {
    EXPECT_THAT(ctx.TakeLens(), ElementsAre());
    EXPECT_TRUE(ctx.sock().tsq_throttled());
    ctx.At(ctx.now() + 10 * kNsPerUs);
    ctx.CompleteTx(1);  // tcp_wfree -> TSQ handler -> tcp_write_xmit
    const std::vector<testing::WireSeg> w = ctx.TakeWire();
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].len, 100u);
    EXPECT_EQ(w[0].reason, PushReason::kTsq);
  }
}

// Control for v6.x: with two uncompleted skbs in the rtx queue the exemption
// does not apply and the third write is throttled like on v4.19.
TEST(TsqSingleSkbV68, TwoSkbsInFlightThrottle) {
  SenderContext::Options o = WithProfile("linux-6.8");
  o.config.autocorking = false;
  o.handshake_rtt_ns = 10 * kNsPerMs;
  SenderContext ctx(o);
  Prime(ctx);
  const BioVec a{Page{1}, 0, 2896};
  const BioVec b{Page{2}, 0, 2896};
  const BioVec c{Page{3}, 0, 100};
  EXPECT_EQ(ctx.sock().sendmsg_bvec(absl::MakeConstSpan(&a, 1), kMsgSplicePages), 2896);
  ctx.At(ctx.now() + 10 * kNsPerUs);
  // Second page: T1 > max(2 x T2, 2828) fails (equal-sized skbs), so TSQ
  // lets it go; the rtx queue then holds two skbs.
  EXPECT_EQ(ctx.sock().sendmsg_bvec(absl::MakeConstSpan(&b, 1), kMsgSplicePages), 2896);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre(1448, 1448, 1448, 1448));
  ctx.At(ctx.now() + 10 * kNsPerUs);
  EXPECT_EQ(ctx.sock().sendmsg_bvec(absl::MakeConstSpan(&c, 1), kMsgSplicePages), 100);
  EXPECT_THAT(ctx.TakeLens(), ElementsAre());
  EXPECT_TRUE(ctx.sock().tsq_throttled());
}

INSTANTIATE_TEST_SUITE_P(Profiles, TsqSingleSkb, ::testing::Values("linux-4.19", "linux-6.8"));

}  // namespace
}  // namespace sendsim::model

namespace sendsim::model {
namespace {

// One TLP per flight (v5.9): 20 segments are written at cwnd 10 and no ACK
// comes, so the loss probe sends new data (segment 11: tcp_write_xmit with
// push_one 2 ignores cwnd). At 100 ms an ACK of segment 1 (below the
// probe's end) lets segment 12 go and schedules the next probe. When it
// fires, 6.1+ see tlp_high_seq still set by the first probe and send
// nothing; v4.19 set tlp_high_seq only for a retransmitted probe and send
// new data again (segment 13). The RTO (at least 200 ms after the ACK) is
// not due by 190 ms.
TEST(ProfileDeltaTest, OneLossProbePerFlightSinceV59) {
  for (const char* profile : {"linux-4.19", "linux-6.12"}) {
    SenderContext::Options o;
    o.profile = profile;
    o.config.sack = true;
    o.handshake_rtt_ns = 10 * kNsPerMs;
    SenderContext ctx(o);
    constexpr uint32_t kMss = 1448;
    const uint64_t una = ctx.sock().snd_una();
    ASSERT_EQ(ctx.SendMsg(20 * kMss, 0), 20 * kMss);
    ctx.DrainTx();
    EXPECT_EQ(ctx.sock().packets_out(), 10u) << profile;
    ctx.At(90 * kNsPerMs);
    ctx.DrainTx();
    EXPECT_EQ(ctx.sock().counters().tlp_fires, 1u) << profile;
    EXPECT_EQ(ctx.sock().packets_out(), 11u) << profile;
    ctx.At(100 * kNsPerMs);
    ctx.Ack(una + kMss);
    ctx.DrainTx();
    EXPECT_EQ(ctx.sock().packets_out(), 11u) << profile;  // segments 2..12
    ctx.At(190 * kNsPerMs);
    ctx.DrainTx();
    const bool v419 = std::string(profile) == "linux-4.19";
    EXPECT_EQ(ctx.sock().counters().tlp_fires, v419 ? 2u : 1u) << profile;
    EXPECT_EQ(ctx.sock().packets_out(), v419 ? 12u : 11u) << profile;
  }
}

}  // namespace
}  // namespace sendsim::model
