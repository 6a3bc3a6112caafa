// Receive-buffer autotuning and the window it offers (peer_window.cc).

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "model/peer.h"
#include "model/profile.h"
#include "model/testing/peer_harness.h"

namespace sendsim::model {
namespace {

using testing::Data;
using testing::Harness;
using testing::kMss;
using testing::SmallBuf;

// Receive-buffer autotuning (tcp_rcv_space_adjust), instant reader, srtt
// 50 us (2 x 25 us one way), segments 1 us apart. Start: sk_rcvbuf 131072
// (tcp_rmem[1]), rcvq_space = the initial window 28960.
//  t < 50 us: less than one RTT since the last measurement -> no change.
//  t = 50 us: 51 segments read, copied 73848 > 28960:
//    rcvwin = 2 x 73848 + 16 x advmss 1460 = 171056
//    grow = 171056 x (73848 - 28960) / 28960 = 265136 (integer)
//    rcvwin += 2 x 265136 -> 701328; sk_rcvbuf = 2 x 701328 = 1402656
//    (below the 32 MiB cap).
// Without autotuning the buffer stays at rcvbuf and the window at its clamp.
TEST(PeerTest, RcvbufAutotuningGrowsOncePerRtt) {
  ConnectionConfig c;
  c.peer.rcvbuf = 32 * 1024 * 1024;
  c.peer.rcvbuf_autotune_initial = 131072;
  Harness h(c);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 131072u);
  h.Full(0, 0, 50, 1'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 131072u);
  EXPECT_EQ(h.peer->stats().rcvbuf_grows, 0u);
  h.Full(50'000, 50 * kMss, 1, 1'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 1402656u);
  EXPECT_EQ(h.peer->stats().rcvbuf_grows, 1u);
  // The next measurement needs another RTT.
  h.Full(51'000, 51 * kMss, 48, 1'000);
  EXPECT_EQ(h.peer->stats().rcvbuf_grows, 1u);
}

// Autotuning from tcp_rmem[1] = 131072 up to 32 MiB on the window-based
// receiver RTT; the v6.18 step comes with the linux-6.18 profile.
ConnectionConfig WindowRttAutotune() {
  ConnectionConfig c;
  c.peer.rcvbuf = 32 * 1024 * 1024;
  c.peer.rcvbuf_autotune_initial = 131072;
  c.peer.rcv_rtt_from_window = true;
  return c;
}

// rcv_rtt_from_window: the receiver's RTT is the time one offered window
// takes to arrive (tcp_rcv_rtt_measure), not the path's. Segments 1 us
// apart, instant reader. rcvq_space starts at min(initial window 28960,
// TCP_INIT_CWND x 1448 = 14480) = 14480.
//  seg 0 (t = 0): the first measurement starts, edge = rcv_nxt 1448 + the
//    offered 28960 = 30408. No RTT yet, so no buffer adjustment.
//  seg 20 (t = 20 us): rcv_nxt = 21 x 1448 = 30408 reaches the edge: RTT
//    20 us. The read that follows finds 20 us since t = 0: copied 30408 >
//    14480: rcvwin = 2 x 30408 + 16 x 1460 = 84176, grow = 84176 x (30408 -
//    14480) / 14480 = 92593 (integer), rcvwin = 84176 + 2 x 92593 = 269362,
//    sk_rcvbuf = 2 x 269362 = 538724.
TEST(PeerTest, RcvRttFromTheWindowDrivesAutotuning) {
  Harness h(WindowRttAutotune(), "linux-6.8");
  h.Full(0, 0, 20, 1'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 131072u);
  h.Full(20'000, 20 * kMss, 1, 1'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 538724u);
  EXPECT_EQ(h.peer->stats().rcvbuf_grows, 1u);
}

// linux-6.18 (Profile::rcv_drs_skips_queued) on the same run: no 16-MSS cushion. At seg 20: copied 30408
// (nothing queued: the reader is instant) > 14480: rcvwin = 2 x 30408 =
// 60816, grow = 60816 x (30408 - 14480) / 14480 = 66897 (integer), rcvwin
// = 60816 + 2 x 66897 = 194610, sk_rcvbuf = 389220.
TEST(PeerTest, Drs618HasNoCushion) {
  Harness h(WindowRttAutotune(), "linux-6.18");
  h.Full(0, 0, 21, 1'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 389220u);
}

// linux-6.18 with bytes still queued. Segments 0..20 arrive at 0, 1, ...,
// 20 us; the reader copies 1448 bytes per 1.6 us and takes all that is
// queued each time, so reads end at 1.6 (seg 0), 3.2 (seg 1), 6.4 (segs
// 2-3), 11.2 (4-6), 19.2 (7-11) and 32.0 us (12-19). Seg 20 at 20 us gives
// the RTT sample (20 us, as above); before it no read adjusts. At 32.0 us:
// copied 20 x 1448 = 28960, seg 20 still queued (inq 1448): 27512 > 14480,
// rcvwin = 55024, grow = 55024 x (27512 - 14480) / 14480 = 49521 (integer),
// rcvwin = 55024 + 2 x 49521 = 154066, sk_rcvbuf = 308132. Counting the
// queued bytes would give 347520. The 6.18 receiver's backlog coalescing is
// switched off here so that segments arriving during a read are queued,
// not backlogged: the rule in isolation.
TEST(PeerTest, Drs618LeavesQueuedBytesOut) {
  ConnectionConfig c = WindowRttAutotune();
  c.peer.app_read_bytes_per_sec = 905'000'000;
  Profile profile = *ProfileByName("linux-6.18");
  profile.rcv_backlog_coalesce = false;
  Harness h(c, profile);
  h.Full(0, 0, 21, 1'000);
  h.loop.RunUntil(31'999);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 131072u);
  h.loop.RunUntil(32'000);
  EXPECT_EQ(h.peer->sk_rcvbuf(), 308132u);
}

TEST(PeerTest, FixedRcvbufCapsTheWindow) {
  ConnectionConfig fixed = SmallBuf();  // 131072: window clamp 65536
  ConnectionConfig tuned = SmallBuf();
  tuned.peer.rcvbuf = 32 * 1024 * 1024;
  tuned.peer.rcvbuf_autotune_initial = 131072;
  uint32_t max_win[2] = {0, 0};
  int i = 0;
  for (const ConnectionConfig& c : {fixed, tuned}) {
    Harness h(c);
    h.Full(0, 0, 3000, 1'000);
    for (const WirePacket& a : h.rec.acks) max_win[i] = std::max(max_win[i], a.win);
    ++i;
  }
  EXPECT_LE(max_win[0], 65536u);
  EXPECT_GT(max_win[1], 65536u);
}

}  // namespace
}  // namespace sendsim::model
