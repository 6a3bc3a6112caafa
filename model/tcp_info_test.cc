// tcp_get_info's counters and times: tcpi_rttvar, tcpi_min_rtt,
// tcpi_bytes_retrans, tcpi_total_rto* (tcp_update_rto_stats,
// tcp_update_rto_time), tcpi_last_data_sent, tcpi_last_ack_recv.
// SenderContext: HZ 250 (4 ms jiffies), a 100 us handshake sample.

#include "gtest/gtest.h"
#include "model/constants.h"
#include "model/socket.h"
#include "model/tcp_sock.h"
#include "model/testing/sender_context.h"

namespace sendsim::model {
namespace {

using testing::SenderContext;

// First sample m = 100 us: mdev = 2m = 200 us, so rttvar 50 us; min_rtt
// 100 us. Nothing retransmitted yet; both times 0 at creation.
TEST(TcpInfo, HandshakeSample) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.rttvar_us, 50u);
  EXPECT_EQ(i.min_rtt_us, 100u);
  EXPECT_EQ(i.bytes_retrans, 0u);
  EXPECT_EQ(i.total_rto, 0u);
  EXPECT_EQ(i.last_data_sent_ms, 0u);
  EXPECT_EQ(i.last_ack_recv_ms, 0u);
}

// The model socket receives no data: last_data_recv counts from its
// creation (lrcvtime's first value), whatever ACKs arrive; pmtu is the
// route MTU tcp_sync_mss last saw (icsk_pmtu_cookie).
TEST(TcpInfo, LastDataRecvAndPmtu) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(40 * kNsPerMs);
  ctx.Ack(1000);
  ctx.At(100 * kNsPerMs);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.last_data_recv_ms, 100u);
  EXPECT_EQ(i.last_ack_recv_ms, 60u);
  EXPECT_EQ(i.last_data_sent_ms, 100u);
  EXPECT_EQ(i.pmtu, SenderContext::DefaultConfig().mtu);
}

// RTO = 100 us + max(200 us, TCP_RTO_MIN) -> 51 jiffies = 204 ms after the
// send at 0; the next one doubles (408 ms later, 612 ms). Both are one
// series: total_rto 2, one recovery, its clock from 204 ms. The ACK of
// high_seq keeps Loss (no SACK); the ACK of new data at 800 ms leaves it:
// total_rto_time 800 - 204 = 596 ms, and it stays there.
TEST(TcpInfo, RtoStatistics) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(204 * kNsPerMs);
  TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.total_rto, 1u);
  EXPECT_EQ(i.total_rto_recoveries, 1u);
  EXPECT_EQ(i.total_rto_time_ms, 0u);
  EXPECT_EQ(i.bytes_retrans, 1000u);
  EXPECT_EQ(i.last_data_sent_ms, 0u);  // the retransmission is data sent
  ctx.CompleteAllTx();
  ctx.At(300 * kNsPerMs);
  EXPECT_EQ(ctx.sock().info().total_rto_time_ms, 96u);
  ctx.At(612 * kNsPerMs);
  i = ctx.sock().info();
  EXPECT_EQ(i.total_rto, 2u);
  EXPECT_EQ(i.total_rto_recoveries, 1u);
  EXPECT_EQ(i.bytes_retrans, 2000u);
  ctx.CompleteAllTx();
  ctx.At(700 * kNsPerMs);
  ctx.Ack(1000);
  ASSERT_EQ(ctx.sock().ca_state(), CaState::kLoss);
  EXPECT_EQ(ctx.sock().info().total_rto_time_ms, 496u);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(800 * kNsPerMs);
  ctx.Ack(2000);
  ASSERT_EQ(ctx.sock().ca_state(), CaState::kOpen);
  ctx.At(900 * kNsPerMs);
  i = ctx.sock().info();
  EXPECT_EQ(i.total_rto_time_ms, 596u);
  EXPECT_EQ(i.total_rto, 2u);
  EXPECT_EQ(i.last_data_sent_ms, 200u);  // jiffies 175 -> 225, 4 ms each
  EXPECT_EQ(i.last_ack_recv_ms, 100u);
  EXPECT_EQ(i.min_rtt_us, 100u);         // the 100 ms sample is larger
}

// A new RTO after the series ended starts another recovery.
TEST(TcpInfo, SecondSeriesCountsAnotherRecovery) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(204 * kNsPerMs);
  ctx.CompleteAllTx();
  ctx.At(300 * kNsPerMs);
  ctx.Ack(1000);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(400 * kNsPerMs);
  ctx.Ack(2000);
  ASSERT_EQ(ctx.sock().ca_state(), CaState::kOpen);
  EXPECT_EQ(ctx.sock().info().total_rto_time_ms, 196u);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  ctx.At(2000 * kNsPerMs);  // well past the next RTO
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.total_rto_recoveries, 2u);
  EXPECT_GE(i.total_rto, 2u);
}

// __tcp_transmit_skb: segs_out counts every segment the socket sends,
// data_segs_out those with payload. Two 1000-byte writes (NODELAY: two
// segments), the RTO resends the head (204 ms, see RtoStatistics), then
// shutdown() sends a bare FIN once everything is acknowledged: segs_out
// 2 + 1 + 1 = 4, data_segs_out 3 (the FIN has no payload).
TEST(TcpInfo, SegsOutCountsRetransmissionsAndTheFin) {
  SenderContext ctx(SenderContext::NoSack("linux-6.12"));
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.CompleteAllTx();
  TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.segs_out, 2u);
  EXPECT_EQ(i.data_segs_out, 2u);
  ctx.At(204 * kNsPerMs);
  ctx.CompleteAllTx();
  i = ctx.sock().info();
  EXPECT_EQ(i.segs_out, 3u);
  EXPECT_EQ(i.data_segs_out, 3u);
  ctx.At(300 * kNsPerMs);
  ctx.Ack(2000);
  ASSERT_EQ(ctx.sock().Shutdown(), 0);
  ctx.CompleteAllTx();
  i = ctx.sock().info();
  EXPECT_EQ(i.segs_out, 4u);
  EXPECT_EQ(i.data_segs_out, 3u);
}

// tcp_xmit_probe_skb goes through tcp_transmit_skb: a window probe (a bare
// ACK) counts in segs_out only. Zero window after the first 1000 bytes; the
// probe timer fires at 204 ms (persist_test.cc derives it).
TEST(TcpInfo, WindowProbeIsASegmentWithoutData) {
  SenderContext ctx;
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.AtUs(100);
  ctx.Ack(1000, 0);
  ASSERT_EQ(ctx.SendMsg(1000, 0), 1000);
  ctx.At(204 * kNsPerMs);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.segs_out, 2u);
  EXPECT_EQ(i.data_segs_out, 1u);
}

// tcp_check_sack_reordering from tcp_clean_rtx_queue: three segments, the
// second SACKed, then one ACK of all three. The first was never SACKed nor
// retransmitted and lies below the highest SACK (prior fack 2 * 1448): an
// event for reord_seen. The distance (fack = snd_una 3 * 1448, since
// nothing is SACKed any more, minus 0) is not above 3 segments, so
// tp->reordering stays 3.
TEST(TcpInfo, ReordSeenCountsALateHole) {
  SenderContext::Options o;
  o.profile = "linux-6.12";
  SenderContext ctx(o);
  ASSERT_EQ(ctx.SendMsg(3 * 1448, 0), 3 * 1448);
  ctx.CompleteAllTx();
  ctx.AtUs(200);
  ctx.AckSack(0, {{1448, 2 * 1448}});
  EXPECT_EQ(ctx.sock().info().reord_seen, 0u);
  ctx.AtUs(300);
  ctx.Ack(3 * 1448);
  const TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.reord_seen, 1u);
  EXPECT_EQ(i.reordering, 3u);
}

// tcp_rate.c. SACK (segments count as delivered when acked), MSS 1448,
// min_rtt 100 us from the handshake. tcp_init_sock starts app-limited with
// no sample. write(11 * 1448) at 0 on an idle socket: tcp_rate_check_app_limited
// marks a bubble up to delivered 1 + 0 in flight; ten segments go (cwnd
// 10), each remembering delivered 1, the delivery clock 0 and app-limited.
// Their ACK at 1 ms: 11 - 1 = 10 segments over max(send phase 0, ACK phase
// 1000 us) = 1000 us: 10 * 1448 * 1e6 / 1000 = 14480000 B/s, app-limited
// (recorded: nothing was). The bubble is over (delivered 11 > 1), so the
// 11th segment, sent on that ACK with nothing else in flight, is not
// app-limited: its ACK at 3 ms gives 12 - 11 = 1 segment over 2000 us,
// 724000 B/s, which replaces the faster app-limited sample.
TEST(TcpInfo, DeliveryRateSamples) {
  SenderContext::Options o;
  o.profile = "linux-6.12";
  SenderContext ctx(o);
  TcpInfo i = ctx.sock().info();
  EXPECT_EQ(i.delivery_rate, 0u);
  EXPECT_TRUE(i.delivery_rate_app_limited);
  ASSERT_EQ(ctx.SendMsg(11 * 1448, 0), 11 * 1448);
  ctx.DrainTx(0);
  ASSERT_EQ(ctx.sock().packets_out(), 10u);
  ctx.AtUs(1000);
  ctx.Ack(10 * 1448);
  i = ctx.sock().info();
  EXPECT_EQ(i.delivery_rate, 14480000u);
  EXPECT_TRUE(i.delivery_rate_app_limited);
  ctx.DrainTx(0);
  ASSERT_EQ(ctx.sock().packets_out(), 1u);
  ctx.AtUs(3000);
  ctx.Ack(11 * 1448);
  i = ctx.sock().info();
  EXPECT_EQ(i.delivery_rate, 724000u);
  EXPECT_FALSE(i.delivery_rate_app_limited);
}

// tcp_rate_gen drops a sample shorter than min_rtt, but the ACK's own RTT
// sample (tcp_ack_update_rtt in tcp_clean_rtx_queue) comes first: an ACK
// 50 us after the send lowers min_rtt from 100 to 50 us, and the 50 us
// interval is valid: 1448 * 1e6 / 50 = 28960000 B/s.
TEST(TcpInfo, DeliveryRateAfterTheAcksRttSample) {
  SenderContext::Options o;
  o.profile = "linux-6.12";
  SenderContext ctx(o);
  ASSERT_EQ(ctx.SendMsg(1448, 0), 1448);
  ctx.DrainTx(0);
  ctx.AtUs(50);
  ctx.Ack(1448);
  EXPECT_EQ(ctx.sock().info().min_rtt_us, 50u);
  EXPECT_EQ(ctx.sock().info().delivery_rate, 28960000u);
}

}  // namespace
}  // namespace sendsim::model
