#include "model/peer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "model/testing/peer_harness.h"
#include "model/nic.h"
#include "model/profile.h"

namespace sendsim::model {
namespace {

using testing::Data;
using testing::Delivery;
using testing::Harness;
using testing::kJiffy;
using testing::kMss;
using testing::Recorder;
using testing::SmallBuf;

// Socket backlog (tcp_add_backlog, v5.0+). The reader copies 1448 bytes per
// us. Seg 1 (t = 0) is processed at once: quick-ACK mode, ACK 1448 at t = 0;
// then a 1448-byte read holds the socket until t = 1000. Segs 2..21 arrive at
// t = 100..290 and wait in the backlog: the first 17 coalesce into one skb
// (MAX_SKB_FRAGS, one frag per segment), the last 3 into a second, so 20
// backlogged and 18 coalesced. At t = 1000 the read releases the socket and
// each skb gets one ACK decision; quick-ACK mode is still on, so without the
// deferral both are sent (ACK 18*1448 at 1000; ACK 21*1448 decided at 1000
// leaves at 1072, after the first ACK's 72 ns on the reverse link), and with
// tcp_backlog_ack_defer (v6.7+) one ACK 21*1448 leaves after the backlog.
// linux-5.0 coalesces without the deferral; linux-6.8 has both.
std::vector<std::pair<TimeNs, uint32_t>> BacklogAcks(bool defer, Peer::Stats* stats) {
  ConnectionConfig c = SmallBuf();
  c.peer.app_read_bytes_per_sec = 1'448'000'000;
  Harness h(c, defer ? "linux-6.8" : "linux-5.0");
  h.Full(0, 0, 1, 0);
  h.Full(100, kMss, 20, 10);
  h.loop.RunUntil(1'000);
  *stats = h.peer->stats();
  std::vector<std::pair<TimeNs, uint32_t>> acks;
  for (const auto& a : h.rec.acks) acks.emplace_back(a.time, a.ack);
  return acks;
}

TEST(PeerTest, BacklogCoalescesWhileTheReaderHoldsTheSocket) {
  Peer::Stats st;
  using Acks = std::vector<std::pair<TimeNs, uint32_t>>;
  EXPECT_EQ(BacklogAcks(/*defer=*/false, &st), (Acks{{0, kMss}, {1'000, 18 * kMss}, {1'072, 21 * kMss}}));
  EXPECT_EQ(st.backlogged, 20u);
  EXPECT_EQ(st.coalesced, 18u);
  EXPECT_EQ(BacklogAcks(/*defer=*/true, &st), (Acks{{0, kMss}, {1'000, 21 * kMss}}));
  EXPECT_EQ(st.coalesced, 18u);
}

// Which ACKs leave from the reader's context (Segment::from_reader, for
// RpsBacklog): the run above with the deferral. Seg 1's ACK at t = 0 is
// sent by softirq processing; the one after the backlog is sent by the
// read's release_sock.
TEST(PeerTest, AcksSentByTheReaderAreMarked) {
  ConnectionConfig c = SmallBuf();
  c.peer.app_read_bytes_per_sec = 1'448'000'000;
  EventLoop loop;
  std::vector<std::pair<uint32_t, bool>> acks;
  Link reverse(&loop, c.link_bps, c.one_way_delay_ns, Direction::kAck,
               [&](const Segment& s) { acks.emplace_back(s.ack, s.from_reader); }, nullptr);
  Peer peer(&loop, c, *ProfileByName("linux-6.8"), &reverse, nullptr);
  peer.OnSegmentAt(0, Data(0, kMss));
  for (int i = 0; i < 20; ++i) peer.OnSegmentAt(100 + i * 10, Data(kMss + i * kMss, kMss));
  loop.RunUntil(1'000'000);
  EXPECT_EQ(acks, (std::vector<std::pair<uint32_t, bool>>{{kMss, false}, {21 * kMss, true}}));
}

// Without backlog coalescing (linux-4.19) the same arrivals are processed one by one, each
// with its own ACK decision. Nothing is read before t = 1000, so seg k finds
// k * 1448 bytes unread: tcp_space = 65536 - 1448k. tcp_grow_window (room =
// space - rcv_ssthresh, rcv_ssthresh = 28960 + 2920 (k-1) before seg k) grows
// for k < 39496 / 4368 = 9.04, and each growth sets quick |= 1, so quick
// stays 10 through seg 9; segs 10..19 spend it (ten more quick ACKs). Seg 20
// is 1448 new bytes (not > rcv_mss): delayed. Seg 21: free 35128 < rcv_ssthresh
// 52504 gives a window of 35200, below the 38144 offered after seg 19, so it
// is delayed too. 19 ACKs; from seg 2 on they queue on the reverse link
// (72 ns each, decisions 10 ns apart), so seg 19's leaves at 100 + 17*72.
TEST(PeerTest, NoBacklogWithoutCoalescing) {
  ConnectionConfig c = SmallBuf();
  c.peer.app_read_bytes_per_sec = 1'448'000'000;
  Harness h(c);
  h.Full(0, 0, 1, 0);
  h.Full(100, kMss, 20, 10);
  EXPECT_EQ(h.peer->stats().backlogged, 0u);
  ASSERT_EQ(h.rec.acks.size(), 19u);
  EXPECT_EQ(h.rec.acks.back().time, 100 + 17 * 72);
  EXPECT_EQ(h.rec.acks.back().ack, 19 * kMss);
}

// A sleeping reader wakes app_read_wakeup_ns after the data that found it
// asleep: seg 1 at t = 0 wakes it at 50 us; by then segs 1..5 (t = 0, 10, 20,
// 30, 40 us) are queued, so it reads 5 * 1448 bytes at 1448 bytes/us, done at
// 55 us, and sleeps again. Seg 6 at 60 us wakes it at 110 us.
TEST(PeerTest, ReaderWakesAfterItsWakeupLatency) {
  ConnectionConfig c = SmallBuf();
  c.peer.app_read_bytes_per_sec = 1'448'000'000;
  c.host.app_read_wakeup_ns = 50'000;
  Harness h(c);
  h.Full(0, 0, 5, 10'000);
  h.loop.RunUntil(49'999);
  EXPECT_EQ(h.peer->unread(), 5u * kMss);
  h.loop.RunUntil(54'999);
  EXPECT_EQ(h.peer->unread(), 5u * kMss);  // the read is still copying
  h.loop.RunUntil(55'000);
  EXPECT_EQ(h.peer->unread(), 0u);
  h.peer->OnSegmentAt(60'000, Data(5 * kMss, kMss));
  h.loop.RunUntil(109'999);
  EXPECT_EQ(h.peer->unread(), uint64_t{kMss});
  h.loop.RunUntil(111'000);
  EXPECT_EQ(h.peer->unread(), 0u);
}

TEST(PeerTest, InitialWindowAndMss) {
  Harness h(SmallBuf());
  EXPECT_EQ(h.peer->initial_window(), 28960u);
  EXPECT_EQ(h.peer->rcv_mss(), 536u);
  EXPECT_EQ(h.peer->wscale(), 7);
  ConnectionConfig big;  // 6 MiB: the initial window is still 20 * mss
  Harness h2(big);
  EXPECT_EQ(h2.peer->initial_window(), 28960u);
}

// Quick-ACK start, then one ACK per two full segments (segments 10 us apart):
// seg 1: rcv_mss 536 -> 1448; first data -> quick = 28960 / (2*1448) = 10,
//   ato = 40 ms. tcp_grow_window (rcv_ssthresh 28960 < min(clamp 65536,
//   free 65536-1448 = 64088)) adds max(2*1460, 2*1448) = 2920 and sets
//   quick |= 1 -> 11; the ACK (quick mode) takes it to 10.
// segs 2..13 keep growing (28960 + 12*2920 = 64000 < 64088 still grows on
//   seg 13 to the clamp 65536): quick 11 -> 10 each time, every seg ACKed.
// segs 14..23: no growth, quick 10 -> 0: ten more immediate ACKs.
// seg 24: 1448 new bytes, not > rcv_mss: delayed. seg 25: 2896 > 1448 and
//   the window would not shrink (free 64088 -> 64128 aligned to 128 ==
//   rcv_wnd) -> ACK now. Then segs 27, 29, 31, 33.
TEST(PeerTest, QuickAckAtStartThenEverySecondFullSegment) {
  Harness h(SmallBuf());
  h.Full(0, 0, 33, 10'000);
  std::vector<uint32_t> want;
  for (int i = 1; i <= 23; ++i) want.push_back(i * kMss);
  for (int i = 25; i <= 33; i += 2) want.push_back(i * kMss);
  std::vector<uint32_t> got;
  for (const auto& a : h.rec.acks) got.push_back(a.ack);
  EXPECT_EQ(got, want);
  EXPECT_EQ(h.peer->quick(), 0u);
  EXPECT_EQ(h.peer->rcv_ssthresh(), 65536u);
  // Each ACK leaves when the segment it answers arrives (ack_proc_ns 0).
  EXPECT_EQ(h.rec.acks[0].time, 0);
  EXPECT_EQ(h.rec.acks[23].time, 24 * 10'000);  // seg 25 arrives at 24*10us
  EXPECT_EQ(h.rec.acks[0].dir, Direction::kAck);
  EXPECT_EQ(h.rec.acks[0].flags, kTcpAck);
}

// Same warm-up, then a lone segment: the delayed-ACK timer fires ato = 10
// jiffies after the jiffy the segment arrived in (jiffy 0 -> 40 ms) and
// doubles ato to 20 jiffies (tcp_delack_timer_handler).
TEST(PeerTest, DelayedAckTimerFiresAtAtoAndInflatesIt) {
  Harness h(SmallBuf());
  h.Full(0, 0, 24, 10'000);  // seg 24 (at 230 us) is held
  ASSERT_EQ(h.rec.acks.size(), 23u);
  EXPECT_EQ(h.peer->ato_jiffies(), 10u);
  h.loop.Run();
  ASSERT_EQ(h.rec.acks.size(), 24u);
  EXPECT_EQ(h.rec.acks[23].time, 10 * kJiffy);
  EXPECT_EQ(h.rec.acks[23].ack, 24 * kMss);
  EXPECT_EQ(h.peer->stats().delayed_acks, 1u);
  EXPECT_EQ(h.peer->ato_jiffies(), 20u);
}

// ato evolution after the timer (tcp_event_data_recv), lrcvtime = jiffy 0:
//  seg at 41 ms (jiffy 10): m = 10, not <= 5, < ato 20 -> ato = 10 + 10 = 20
//  seg at 41.01 ms (m = 0 <= 5): ato = 20/2 + 5 = 15; the second segment
//    (2896 unacked) is ACKed at once.
//  then 15/2 + 5 = 12, 12/2 + 5 = 11, 11/2 + 5 = 10, 10/2 + 5 = 10.
// The timer armed by the seg at 41 ms uses min(ato 20, max_ato): max_ato =
// HZ/2 = 125 jiffies, limited by max(srtt 1 jiffy, TCP_DELACK_MIN 10) = 10.
TEST(PeerTest, AtoEvolution) {
  Harness h(SmallBuf());
  h.Full(0, 0, 24, 10'000);
  h.loop.Run();  // delayed ACK at 40 ms, ato 20
  h.peer->OnSegmentAt(41 * kNsPerMs, Data(24 * kMss, kMss));
  EXPECT_EQ(h.peer->ato_jiffies(), 20u);
  h.peer->OnSegmentAt(41 * kNsPerMs + 10'000, Data(25 * kMss, kMss));
  EXPECT_EQ(h.peer->ato_jiffies(), 15u);
  ASSERT_EQ(h.rec.acks.size(), 25u);
  EXPECT_EQ(h.rec.acks[24].ack, 26 * kMss);
  std::vector<uint32_t> atos;
  for (int i = 0; i < 4; ++i) {
    h.peer->OnSegmentAt(41 * kNsPerMs + (i + 2) * 10'000, Data((26 + i) * kMss, kMss));
    atos.push_back(h.peer->ato_jiffies());
  }
  EXPECT_EQ(atos, (std::vector<uint32_t>{12, 11, 10, 10}));
}

// A delayed segment followed by a gap longer than the timer: the timer armed
// at jiffy 10 (41 ms, ato capped at 10) fires at jiffy 20 = 80 ms.
TEST(PeerTest, DelackTimerUsesJiffyBoundaries) {
  Harness h(SmallBuf());
  h.Full(0, 0, 24, 10'000);
  h.loop.Run();  // 40 ms delayed ACK
  h.peer->OnSegmentAt(41 * kNsPerMs, Data(24 * kMss, kMss));
  h.loop.Run();
  ASSERT_EQ(h.rec.acks.size(), 25u);
  EXPECT_EQ(h.rec.acks[24].time, 20 * kJiffy);
  EXPECT_EQ(h.rec.acks[24].ack, 25 * kMss);
}

// A gap longer than the receiver's RTO (200 ms = 50 jiffies) re-enters quick
// mode: quick = min(rcv_wnd / (2*1448), 16) with rcv_wnd 64128 -> 16; the
// segment is ACKed at once and quick drops to 15.
TEST(PeerTest, LongGapReentersQuickAck) {
  Harness h(SmallBuf());
  h.Full(0, 0, 23, 10'000);  // all ACKed, quick 0
  ASSERT_EQ(h.peer->quick(), 0u);
  h.peer->OnSegmentAt(300 * kNsPerMs, Data(23 * kMss, kMss));
  ASSERT_EQ(h.rec.acks.size(), 24u);
  EXPECT_EQ(h.rec.acks[23].time, 300 * kNsPerMs);
  EXPECT_EQ(h.peer->quick(), 15u);
}

// ack_every_segs = 4 (test knob): after warm-up ACKs come when more than
// 3 * rcv_mss is unacknowledged, i.e. at every 4th segment: 27, 31.
TEST(PeerTest, AckEveryFourSegmentsKnob) {
  ConnectionConfig c = SmallBuf();
  c.peer.ack_every_segs = 4;
  Harness h(c);
  h.Full(0, 0, 31, 10'000);
  ASSERT_EQ(h.rec.acks.size(), 25u);
  EXPECT_EQ(h.rec.acks[23].ack, 27 * kMss);
  EXPECT_EQ(h.rec.acks[24].ack, 31 * kMss);
}

// delayed_ack = false: every segment is ACKed.
TEST(PeerTest, NoDelayedAckAcksEverySegment) {
  ConnectionConfig c = SmallBuf();
  c.peer.delayed_ack = false;
  Harness h(c);
  h.Full(0, 0, 40, 10'000);
  EXPECT_EQ(h.rec.acks.size(), 40u);
}

// A short pushed segment sets ICSK_ACK_PUSHED; the application's read drains
// the queue, so tcp_cleanup_rbuf ACKs it at once (no delayed ACK).
TEST(PeerTest, RuntIsAckedByTheReadThatDrainsIt) {
  Harness h(SmallBuf());
  h.Full(0, 0, 23, 10'000);
  h.peer->OnSegmentAt(1 * kNsPerMs, Data(23 * kMss, 1200, kTcpAck | kTcpPsh));
  ASSERT_EQ(h.rec.acks.size(), 24u);
  EXPECT_EQ(h.rec.acks[23].ack, 23 * kMss + 1200);
  EXPECT_EQ(h.rec.acks[23].time, 1 * kNsPerMs);
  EXPECT_EQ(h.peer->stats().read_acks, 1u);
}

// Advertised windows. 6 MiB buffer, wscale 7: after seg 1 rcv_ssthresh =
// 28960 + 2920 = 31880; free space 3 MiB - 1448 is larger, so the window is
// 31880 rounded up to a multiple of 128 = 32000 (sent as 250 << 7).
// wscale 0 (rcvbuf 131072): same rcv_ssthresh; without scaling the window is
// rounded down to a multiple of rcv_mss: 22 * 1448 = 31856.
TEST(PeerTest, AdvertisedWindowScaling) {
  ConnectionConfig c;
  Harness h(c);
  h.peer->OnSegmentAt(0, Data(0, kMss));
  ASSERT_EQ(h.rec.acks.size(), 1u);
  EXPECT_EQ(h.rec.acks[0].win, 32000u);
  EXPECT_EQ(h.rec.acks[0].win % 128, 0u);

  ConnectionConfig c0 = SmallBuf();
  c0.peer.wscale = 0;
  Harness h0(c0);
  h0.peer->OnSegmentAt(0, Data(0, kMss));
  ASSERT_EQ(h0.rec.acks.size(), 1u);
  EXPECT_EQ(h0.rec.acks[0].win, 31856u);
}

// The window grows by 2920 per segment while rcv_ssthresh < clamp: ACK k
// (k = 1..5) advertises 28960 + 2920k aligned up to 128.
TEST(PeerTest, WindowGrowsWithData) {
  Harness h(ConnectionConfig{});
  h.Full(0, 0, 5, 10'000);
  ASSERT_EQ(h.rec.acks.size(), 5u);
  for (int k = 1; k <= 5; ++k) {
    const uint32_t ssthresh = 28960 + 2920 * k;
    EXPECT_EQ(h.rec.acks[k - 1].win, (ssthresh + 127) / 128 * 128) << k;
  }
}

// Segment 2 (bytes 1448..2896) is lost. Segments 3, 4, 5 each get an
// immediate duplicate ACK for 1448 carrying the growing SACK block; the
// retransmitted segment 2 fills the hole: ACK 7240 at once, no SACK.
TEST(PeerTest, OutOfOrderDupAcksWithSackThenHoleFill) {
  Harness h(SmallBuf());
  h.peer->OnSegmentAt(0, Data(0, kMss));
  h.peer->OnSegmentAt(10'000, Data(2 * kMss, kMss));
  h.peer->OnSegmentAt(20'000, Data(3 * kMss, kMss));
  h.peer->OnSegmentAt(30'000, Data(4 * kMss, kMss));
  ASSERT_EQ(h.rec.acks.size(), 4u);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(h.rec.acks[i].ack, kMss);
    EXPECT_EQ(h.rec.acks[i].time, i * 10'000);
  }
  EXPECT_EQ(h.peer->stats().ofo_segments, 3u);
  h.peer->OnSegmentAt(100'000, Data(kMss, kMss));
  ASSERT_EQ(h.rec.acks.size(), 5u);
  EXPECT_EQ(h.rec.acks[4].ack, 5 * kMss);
  EXPECT_EQ(h.rec.acks[4].time, 100'000);
  EXPECT_EQ(h.peer->rcv_nxt(), 5 * kMss);
}

// SACK blocks as a sender sees them: capture the ACK segments at the sender.
TEST(PeerTest, SackBlocksMostRecentFirst) {
  ConnectionConfig c = SmallBuf();
  EventLoop loop;
  std::vector<Segment> at_sender;
  Link reverse(&loop, c.link_bps, c.one_way_delay_ns, Direction::kAck,
               [&](const Segment& s) { at_sender.push_back(s); }, nullptr);
  Peer peer(&loop, c, *ProfileByName("linux-4.19"), &reverse, nullptr);
  peer.OnSegmentAt(0, Data(0, 100));
  peer.OnSegmentAt(1'000, Data(200, 100));  // hole [100,200)
  peer.OnSegmentAt(2'000, Data(400, 100));  // hole [300,400)
  peer.OnSegmentAt(3'000, Data(300, 100));  // merges with [400,500)
  loop.Run();
  ASSERT_EQ(at_sender.size(), 4u);
  using Blocks = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(at_sender[1].sack, (Blocks{{200, 300}}));
  EXPECT_EQ(at_sender[2].sack, (Blocks{{400, 500}, {200, 300}}));
  EXPECT_EQ(at_sender[3].sack, (Blocks{{200, 500}}));
  for (int i = 1; i < 4; ++i) EXPECT_EQ(at_sender[i].ack, 100u);
}

// Every byte reaches OnDeliver exactly once and in order, payload pointers
// included: overlapping retransmissions, an out-of-order segment and a
// partial overlap.
TEST(PeerTest, OnDeliverEveryByteOnceInOrder) {
  Harness h(SmallBuf());
  std::vector<uint8_t> buf(5000);
  for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<uint8_t>(i * 7);
  auto seg = [&](uint32_t seq, uint32_t len) {
    Segment s = Data(seq, len);
    s.payload = {{buf.data() + seq, len}};
    return s;
  };
  h.peer->OnSegmentAt(0, seg(0, 1000));
  h.peer->OnSegmentAt(1'000, seg(2500, 1000));  // out of order
  h.peer->OnSegmentAt(2'000, seg(500, 1000));   // overlaps [500,1000)
  h.peer->OnSegmentAt(3'000, seg(0, 800));      // entirely old
  h.peer->OnSegmentAt(4'000, seg(1500, 1500));  // fills the hole, overlaps the ofo segment
  h.peer->OnSegmentAt(5'000, seg(3500, 1500));
  uint32_t next = 0;
  for (const auto& d : h.rec.deliveries) {
    EXPECT_EQ(d.seq, next);
    ASSERT_NE(d.data, nullptr);
    EXPECT_EQ(d.data, buf.data() + d.seq);
    next += d.len;
  }
  EXPECT_EQ(next, 5000u);
  EXPECT_EQ(h.peer->stats().dup_segments, 1u);
}

// GRO (flush window 2 us, segments 1231 ns apart as at 10 Gb/s).
// Batch 1: 5 full segments, then silence: one skb of 7240 bytes processed at
//   the last arrival + 2 us -> one ACK (quick mode) for 7240.
// Batch 2: 3 full segments + a 600-byte runt: the runt is merged and flushes
//   at its own arrival -> one ACK for 7240 + 3*1448 + 600 = 12184; rcv_mss
//   stays 1448 (gso_size) and the runt does not count as a pushed segment.
// Batch 3: a full segment with PSH flushes alone at arrival.
TEST(PeerTest, GroOneAckPerBatchAndRuntPshTerminate) {
  ConnectionConfig c = SmallBuf();
  c.peer.gro = GroMode::kBatch;
  c.peer.gro_flush_ns = 2'000;
  Harness h(c);
  h.Full(0, 0, 5, 1231);
  h.loop.Run();
  ASSERT_EQ(h.rec.acks.size(), 1u);
  EXPECT_EQ(h.rec.acks[0].ack, 5 * kMss);
  EXPECT_EQ(h.rec.acks[0].time, 4 * 1231 + 2'000);

  const TimeNs t2 = 100'000;
  h.Full(t2, 5 * kMss, 3, 1231);
  h.peer->OnSegmentAt(t2 + 3 * 1231, Data(8 * kMss, 600));
  ASSERT_EQ(h.rec.acks.size(), 2u);
  EXPECT_EQ(h.rec.acks[1].ack, 8 * kMss + 600);
  EXPECT_EQ(h.rec.acks[1].time, t2 + 3 * 1231);
  EXPECT_EQ(h.peer->rcv_mss(), kMss);

  const TimeNs t3 = 200'000;
  h.peer->OnSegmentAt(t3, Data(8 * kMss + 600, kMss, kTcpAck | kTcpPsh));
  ASSERT_EQ(h.rec.acks.size(), 3u);
  EXPECT_EQ(h.rec.acks[2].time, t3);
  EXPECT_EQ(h.peer->stats().batches, 3u);
  EXPECT_EQ(h.peer->stats().segments, 10u);
}

// GRO 64 KB limit: 46 back-to-back full segments. 45 of them make 65160
// bytes (+52 header = 65212); a 46th would reach 66660 >= 65536, so it
// flushes the first aggregate (ACK at its arrival, 45*1231 ns) and starts a
// new one, flushed 2 us after it arrived.
TEST(PeerTest, GroAggregateStopsBelow64K) {
  ConnectionConfig c = SmallBuf();
  c.peer.gro = GroMode::kBatch;
  c.peer.gro_flush_ns = 2'000;
  Harness h(c);
  h.Full(0, 0, 46, 1231);
  h.loop.Run();
  ASSERT_EQ(h.rec.acks.size(), 2u);
  EXPECT_EQ(h.rec.acks[0].ack, 45 * kMss);
  EXPECT_EQ(h.rec.acks[0].time, 45 * 1231);
  EXPECT_EQ(h.rec.acks[1].ack, 46 * kMss);
  EXPECT_EQ(h.rec.acks[1].time, 45 * 1231 + 2'000);
}

// ack_proc_ns delays every ACK by the receiver's processing latency.
TEST(PeerTest, AckProcessingLatency) {
  ConnectionConfig c = SmallBuf();
  c.peer.ack_proc_ns = 3'000;
  Harness h(c);
  h.peer->OnSegmentAt(10'000, Data(0, kMss));
  ASSERT_EQ(h.rec.acks.size(), 1u);
  EXPECT_EQ(h.rec.acks[0].time, 13'000);
}

// A slow reader (1 byte/us): the first recvmsg copies what is queued when it
// starts (1448 bytes at t=0) and completes at 1448 us. Meanwhile 29 more
// segments arrive 1 us apart; unread data reaches 30 * 1448 = 43440 bytes,
// free space 65536 - 43440 = 22096 < 32768 (half the buffer), so the
// advertised window stops growing: the last ACK offers no more than the
// space the sender already had.
TEST(PeerTest, SlowReaderShrinksOfferedSpace) {
  ConnectionConfig c = SmallBuf();
  c.peer.app_read_bytes_per_sec = 1'000'000;
  c.peer.delayed_ack = false;
  Harness h(c);
  h.Full(0, 0, 30, 1'000);
  ASSERT_EQ(h.rec.acks.size(), 30u);
  EXPECT_EQ(h.peer->unread(), 30u * kMss);
  // Right edge = ack + win never moves back and stops at the edge offered
  // when free space fell below half the buffer.
  uint64_t edge = 0;
  for (const auto& a : h.rec.acks) {
    EXPECT_GE(uint64_t{a.ack} + a.win, edge);
    edge = uint64_t{a.ack} + a.win;
  }
  const auto& last = h.rec.acks.back();
  const auto& prev = h.rec.acks[28];
  // Once free space is below the current window, tcp_select_window keeps
  // ALIGN(cur_win, 128): cur_win = A - 1448 for the previous aligned window A,
  // and 1448 = 11*128 + 40 rounds up to A - 1408, so the right edge creeps
  // by exactly 40 bytes per ACK instead of growing by 1448.
  EXPECT_EQ(uint64_t{last.ack} + last.win, uint64_t{prev.ack} + prev.win + 40);
  EXPECT_LT(last.win, prev.win);
  // The reader finishes chunk 1 at 1448 us; reading all 43440 bytes takes
  // until 43440 us. The read that empties the queue sends a window update.
  h.loop.Run();
  EXPECT_EQ(h.peer->unread(), 0u);
  EXPECT_GT(h.peer->stats().read_acks, 0u);
  EXPECT_GT(h.rec.acks.back().win, last.win);
}

// Event-mode delivery and lookahead delivery produce identical ACK streams
// (the argument in link.h / peer.h), here with GRO and delayed ACKs active
// and data sent by a Nic in bursts at irregular times.
std::vector<std::string> RunThroughNic(bool lookahead, GroMode gro) {
  ConnectionConfig c = SmallBuf();  // window growth (quick-ACK phase) ends early
  c.peer.gro = gro;
  c.peer.gro_flush_ns = 1'500;
  EventLoop loop;
  Recorder rec;
  Link rev(&loop, c.link_bps, c.one_way_delay_ns, Direction::kAck, nullptr, &rec);
  Peer peer(&loop, c, *ProfileByName("linux-4.19"), &rev, &rec);
  SegmentSinkFn deliver;
  if (!lookahead) deliver = [&peer](const Segment& s) { peer.OnSegment(s); };
  Link fwd(&loop, c.link_bps, c.one_way_delay_ns, Direction::kData, deliver, &rec, LinkOptionsFor(c, Direction::kData));
  if (lookahead) peer.AttachLookahead(&fwd);
  std::vector<std::string> log;
  Nic nic(&loop, c, &fwd, [](uint32_t) {});
  uint32_t seq = 0;
  const uint32_t sizes[] = {65160, 4096, 1200, 30000, 952, 65160, 65160, 100, 2896, 14480};
  TimeNs t = 0;
  for (int round = 0; round < 40; ++round) {
    const uint32_t len = sizes[round % 10];
    loop.ScheduleAt(t, [&nic, &seq, len] {
      XmitSkb skb;
      skb.seq = seq;
      skb.len = len;
      skb.gso_size = kMss;
      skb.tcp_flags = (len % 2 == 0) ? kTcpAck : kTcpAck | kTcpPsh;
      skb.truesize = len + 1280;
      seq += len;
      nic.Transmit(std::move(skb));
    });
    t += (round % 3 == 0) ? 7'000 : (round % 3 == 1 ? 45 * kNsPerMs : 300);
  }
  loop.Run();
  for (const auto& a : rec.acks) {
    log.push_back(std::to_string(a.time) + " " + std::to_string(a.ack) + " " + std::to_string(a.win));
  }
  log.push_back("delayed_acks " + std::to_string(peer.stats().delayed_acks));
  return log;
}

TEST(PeerTest, LookaheadEqualsEventDelivery) {
  for (GroMode gro : {GroMode::kOff, GroMode::kBatch}) {
    const auto ev = RunThroughNic(false, gro);
    const auto la = RunThroughNic(true, gro);
    EXPECT_GT(ev.size(), 20u);
    // Without GRO the delayed-ACK timer path is exercised too.
    if (gro == GroMode::kOff) {
      EXPECT_NE(ev.back(), "delayed_acks 0");
    }
    EXPECT_EQ(ev, la);
  }
}


// Sequence numbers wrap at 2^32: starting 2000 bytes below the wrap, three
// full segments cross it; ACKs and deliveries continue seamlessly and an
// out-of-order segment beyond the wrap is held, not taken as old data.
TEST(PeerTest, SequenceWrap) {
  ConnectionConfig c = SmallBuf();
  EventLoop loop;
  Recorder rec;
  Link reverse(&loop, c.link_bps, c.one_way_delay_ns, Direction::kAck, nullptr, &rec);
  const uint32_t isn = 0xFFFFFFFFu - 1999;  // first byte; 2000 bytes to the wrap
  Peer peer(&loop, c, *ProfileByName("linux-4.19"), &reverse, &rec, isn);
  peer.OnSegmentAt(0, Data(isn, kMss));
  peer.OnSegmentAt(2'000, Data(isn + 2 * kMss, kMss));  // ofo, crosses nothing, lies past the wrap
  ASSERT_EQ(rec.acks.size(), 2u);
  EXPECT_EQ(rec.acks[1].ack, isn + kMss);
  EXPECT_EQ(peer.stats().ofo_segments, 1u);
  peer.OnSegmentAt(4'000, Data(isn + kMss, kMss));  // crosses the wrap, fills the hole
  EXPECT_EQ(peer.rcv_nxt(), static_cast<uint32_t>(isn + 3 * kMss));
  EXPECT_EQ(peer.rcv_nxt(), 3 * kMss - 2000);
  uint32_t next = isn;
  uint64_t total = 0;
  for (const auto& d : rec.deliveries) {
    EXPECT_EQ(d.seq, next);
    next += d.len;
    total += d.len;
  }
  EXPECT_EQ(total, 3u * kMss);
}


// SACK compression (outside quick-ACK mode, which ACKs everything at once):
// with segment 24 lost, the first three dup ACKs leave at once; the 4th
// (t0 + 13 us) starts the compression timer at 5% of the peer's RTT
// (2 * 25 us / 20 = 2.5 us), the 5th and 6th are absorbed, and one ACK
// carrying the latest SACK block leaves at t0 + 15.5 us. tcp_event_ack_sent
// then caps compressed_ack at 3, so the next dup ACK is compressed again.
TEST(PeerTest, SackCompressionAfterThreeDupAcks) {
  Harness h(SmallBuf());
  h.Full(0, 0, 23, 10'000);  // warm-up: out of quick-ACK mode, window at its clamp
  ASSERT_EQ(h.rec.acks.size(), 23u);
  ASSERT_EQ(h.peer->quick(), 0u);
  const TimeNs t0 = 1'000'000;
  // Segment 24 is lost; 25..30 arrive 1 us apart from t0 + 10 us.
  for (int i = 0; i < 6; ++i) h.peer->OnSegmentAt(t0 + (10 + i) * 1'000, Data((24 + i) * kMss, kMss));
  ASSERT_EQ(h.rec.acks.size(), 26u);  // three immediate dup ACKs
  h.loop.RunUntil(t0 + 19'000);  // not past the next input
  ASSERT_EQ(h.rec.acks.size(), 27u);
  EXPECT_EQ(h.rec.acks[26].time, t0 + 15'500);
  EXPECT_EQ(h.rec.acks[26].ack, 23 * kMss);
  h.peer->OnSegmentAt(t0 + 20'000, Data(30 * kMss, kMss));
  h.loop.Run();
  ASSERT_EQ(h.rec.acks.size(), 28u);
  EXPECT_EQ(h.rec.acks[27].time, t0 + 22'500);
}


// A zero-window probe (tcp_xmit_probe_skb: no data, seq = snd_una - 1) is
// outside the window and answered at once with a duplicate ACK
// (tcp_sequence fails -> tcp_send_dupack); a pure ACK at rcv_nxt is not.
TEST(PeerTest, WindowProbeGetsImmediateAck) {
  Harness h(SmallBuf());
  h.Full(0, 0, 24, 10'000);  // seg 24 waits for the delayed ACK
  ASSERT_EQ(h.rec.acks.size(), 23u);
  h.peer->OnSegmentAt(300'000, Data(24 * kMss, 0));  // pure ACK at rcv_nxt
  EXPECT_EQ(h.rec.acks.size(), 23u);
  h.peer->OnSegmentAt(400'000, Data(24 * kMss - 1, 0));
  ASSERT_EQ(h.rec.acks.size(), 24u);
  EXPECT_EQ(h.rec.acks[23].time, 400'000);
  EXPECT_EQ(h.rec.acks[23].ack, 24 * kMss);
}


// tcp_default_init_rwnd with jumbo frames: MTU 9000, MSS 8948 (9000 - 40 -
// 12): 1460 * 20 / 8948 = 3 segments -> 26844 bytes offered.
TEST(PeerTest, JumboInitialWindow) {
  ConnectionConfig c;
  c.mtu = 9000;
  c.mss = 8948;
  EventLoop loop;
  Link reverse(&loop, c.link_bps, c.one_way_delay_ns, Direction::kAck, nullptr, nullptr);
  Peer peer(&loop, c, *ProfileByName("linux-4.19"), &reverse, nullptr);
  EXPECT_EQ(peer.initial_window(), 26844u);
}

}  // namespace
}  // namespace sendsim::model
