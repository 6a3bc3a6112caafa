#include "model/link.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

struct Recorder : Observer {
  std::vector<WirePacket> pkts;
  void OnWirePacket(const WirePacket& p) override { pkts.push_back(p); }
};

struct Arrival {
  TimeNs at;
  uint32_t seq;
  uint32_t len;
};

Segment Data(uint32_t seq, uint32_t len) {
  Segment s;
  s.seq = seq;
  s.len = len;
  return s;
}

constexpr uint64_t k10G = 10'000'000'000;
constexpr uint64_t k1G = 1'000'000'000;
constexpr TimeNs kDelay = 25'000;

// Wire bytes, by hand: IP 20 + TCP 20 + timestamps 12 + payload, padded to 46,
// + Ethernet header 14 + FCS 4 + preamble/SFD 8 + IFG 12.
TEST(LinkTest, WireBytesFraming) {
  EventLoop loop;
  Link ts(&loop, k10G, 0, Direction::kData, nullptr, nullptr);
  EXPECT_EQ(ts.WireBytes(Data(0, 1448)), 1538u);  // 1500 IP + 38
  EXPECT_EQ(ts.WireBytes(Data(0, 0)), 90u);       // 52 IP + 38
  EXPECT_EQ(ts.WireBytes(Data(0, 1)), 91u);
  Segment sack = Data(0, 0);
  sack.sack = {{1, 2}, {3, 4}};
  EXPECT_EQ(ts.WireBytes(sack), 90u + 4 + 16);  // SACK: 2 NOP + kind/len, 8 per block

  LinkOptions no_ts;
  no_ts.timestamps = false;
  Link plain(&loop, k10G, 0, Direction::kData, nullptr, nullptr, no_ts);
  EXPECT_EQ(plain.WireBytes(Data(0, 1460)), 1538u);  // 1500 IP + 38
  EXPECT_EQ(plain.WireBytes(Data(0, 0)), 84u);       // 40 IP padded to 46 + 38: the 64-byte minimum frame

  LinkOptions ip_only;
  ip_only.ethernet_framing = false;
  Link raw(&loop, k10G, 0, Direction::kData, nullptr, nullptr, ip_only);
  EXPECT_EQ(raw.WireBytes(Data(0, 1448)), 1500u);
}

// 10 Gb/s: 1538 bytes = 12304 bits = 1230.4 ns. Back to back from t=0:
// frame 0 bits [0, 1230.4], frame 1 [1230.4, 2460.8], frame 2 [2460.8, 3691.2].
// Reported times round up: first bits 0, 1231, 2461; last bits 1231, 2461,
// 3692; arrivals = last bit + 25 us.
TEST(LinkTest, SerializationAt10G) {
  EventLoop loop;
  Recorder rec;
  std::vector<Arrival> got;
  Link link(
      &loop, k10G, kDelay, Direction::kData,
      [&](const Segment& s) { got.push_back({loop.now(), s.seq, s.len}); }, &rec);
  EXPECT_EQ(link.Send(Data(0, 1448)), 1231);
  EXPECT_EQ(link.Send(Data(1448, 1448)), 2461);
  EXPECT_EQ(link.Send(Data(2896, 1448)), 3692);
  ASSERT_EQ(rec.pkts.size(), 3u);
  EXPECT_EQ(rec.pkts[0].time, 0);
  EXPECT_EQ(rec.pkts[1].time, 1231);
  EXPECT_EQ(rec.pkts[2].time, 2461);
  EXPECT_EQ(rec.pkts[1].seq, 1448u);
  EXPECT_EQ(rec.pkts[1].dir, Direction::kData);
  loop.Run();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].at, 26231);
  EXPECT_EQ(got[1].at, 27461);
  EXPECT_EQ(got[2].at, 28692);
  EXPECT_EQ(got[2].seq, 2896u);
}

// 1 Gb/s: a full frame is exactly 12304 ns; a pure ACK 90 bytes = 720 ns.
// After an idle period the next frame starts at its ready time.
TEST(LinkTest, SerializationAt1GAndIdleRestart) {
  EventLoop loop;
  std::vector<Arrival> got;
  Link link(&loop, k1G, kDelay, Direction::kAck, [&](const Segment& s) { got.push_back({loop.now(), s.seq, s.len}); },
            nullptr);
  EXPECT_EQ(link.Send(Data(0, 1448)), 12304);
  EXPECT_EQ(link.Send(Data(0, 0)), 12304 + 720);
  TimeNs third_last_bit = 0;
  loop.ScheduleAt(100'000, [&] { third_last_bit = link.Send(Data(0, 0)); });
  loop.Run();
  EXPECT_EQ(third_last_bit, 100'000 + 720);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].at, 12304 + kDelay);
  EXPECT_EQ(got[1].at, 13024 + kDelay);
  EXPECT_EQ(got[2].at, 100'720 + kDelay);
}

// SendAt: a frame ready in the future starts then, not at now().
TEST(LinkTest, SendAtFutureReadyTime) {
  EventLoop loop;
  Link link(&loop, k1G, 0, Direction::kAck, nullptr, nullptr);
  EXPECT_EQ(link.SendAt(5'000, Data(0, 0)), 5'720);
  EXPECT_EQ(link.SendAt(5'100, Data(0, 0)), 6'440);  // queued behind the first
  EXPECT_EQ(link.busy_until(), 6'440);
}

// Data segments 1 and 3 (0-based, pure ACKs not counted) are lost: the
// observer still sees all frames (sender-side capture), the sink gets 0, 2, 4.
TEST(LinkTest, DropPattern) {
  EventLoop loop;
  Recorder rec;
  std::vector<Arrival> got;
  LinkOptions opts;
  opts.drop_data_segments = {3, 1};
  Link link(
      &loop, k10G, kDelay, Direction::kData,
      [&](const Segment& s) { got.push_back({loop.now(), s.seq, s.len}); }, &rec, opts);
  link.Send(Data(0, 100));
  link.Send(Data(100, 0));  // not a data segment
  link.Send(Data(100, 100));
  link.Send(Data(200, 100));
  link.Send(Data(300, 100));
  link.Send(Data(400, 100));
  loop.Run();
  EXPECT_EQ(rec.pkts.size(), 6u);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].seq, 0u);
  EXPECT_EQ(got[1].len, 0u);
  EXPECT_EQ(got[2].seq, 200u);
  EXPECT_EQ(got[3].seq, 400u);
  EXPECT_EQ(link.dropped(), 2u);
}

// Lookahead mode hands segments over inside Send with the same arrival
// times event mode would use (compare with SerializationAt10G).
TEST(LinkTest, LookaheadSinkGetsArrivalTimes) {
  EventLoop loop;
  std::vector<Arrival> got;
  Link link(&loop, k10G, kDelay, Direction::kData, nullptr, nullptr);
  link.set_lookahead_sink([&](TimeNs at, const Segment& s) { got.push_back({at, s.seq, s.len}); });
  link.Send(Data(0, 1448));
  link.Send(Data(1448, 1448));
  ASSERT_EQ(got.size(), 2u);  // before the loop ran at all
  EXPECT_EQ(got[0].at, 26231);
  EXPECT_EQ(got[1].at, 27461);
  EXPECT_TRUE(loop.empty());
}

}  // namespace
}  // namespace sendsim::model
