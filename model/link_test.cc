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

// A 10 Gb/s data link, kDelay one way, whose lookahead sink records each
// segment's arrival time.
struct RecordingLink {
  explicit RecordingLink(LinkOptions o)
      : link(&loop, k10G, kDelay, Direction::kData, nullptr, nullptr, std::move(o)) {
    link.set_lookahead_sink([this](TimeNs at, const Segment&) { arrivals.push_back(at); });
  }
  EventLoop loop;
  std::vector<TimeNs> arrivals;
  Link link;
};

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

// LinkOptions::delay_spread_ns: an exponential extra delay per data segment.
// Segments 1 ms apart never wait for each other, so each extra is one draw:
// the mean of 20000 draws is within 5 % of the configured 10 us (its standard
// error is 10 us / sqrt(20000) = 0.7 %), and P(extra > mean) is e^-1 = 0.368
// for an exponential (a uniform draw of the same mean would give 0.5).
std::vector<TimeNs> SpreadExtras(uint64_t seed) {
  LinkOptions o;
  o.delay_spread_ns = 10'000;
  o.seed = seed;
  RecordingLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  std::vector<TimeNs> extras;
  for (int i = 0; i < 20000; ++i) {
    const TimeNs last_bit = link.SendAt(TimeNs{i} * 1'000'000, Data(i * 1448u, 1448));
    extras.push_back(arrivals.back() - (last_bit + kDelay));
  }
  return extras;
}

TEST(LinkTest, DelaySpreadIsExponentialAndSeeded) {
  const std::vector<TimeNs> e = SpreadExtras(1);
  double sum = 0;
  int above = 0;
  for (TimeNs x : e) {
    ASSERT_GE(x, 0);
    sum += static_cast<double>(x);
    above += x > 10'000 ? 1 : 0;
  }
  EXPECT_NEAR(sum / e.size(), 10'000.0, 500.0);
  EXPECT_NEAR(static_cast<double>(above) / e.size(), 0.3679, 0.02);
  EXPECT_EQ(SpreadExtras(1), e);  // same seed, same draws
  EXPECT_NE(SpreadExtras(2), e);
}

// Back-to-back segments keep their order: each arrives no earlier than its
// last bit + delay and no earlier than the one before it. A segment without
// payload draws no spread.
TEST(LinkTest, DelaySpreadKeepsFifoOrder) {
  LinkOptions o;
  o.delay_spread_ns = 10'000;
  RecordingLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  TimeNs prev = 0;
  int waited = 0;
  for (int i = 0; i < 200; ++i) {
    const TimeNs last_bit = link.Send(Data(i * 1448u, 1448));
    ASSERT_GE(arrivals.back(), last_bit + kDelay);
    ASSERT_GE(arrivals.back(), prev);
    waited += arrivals.back() == prev ? 1 : 0;
    prev = arrivals.back();
    EXPECT_EQ(link.last_arrival(), prev);
  }
  EXPECT_GT(waited, 0);  // 1.2 us frames against a 10 us mean: some must queue
  const TimeNs last_bit = link.SendAt(1'000'000'000, Data(200 * 1448u, 0));
  EXPECT_EQ(arrivals.back(), last_bit + kDelay);
}


// LinkOptions::rx_cpu_*: the receiving CPU as a queue. Service 5 us, no
// wakeup: three back-to-back frames (1.23 us apart at 10G) are taken at
// a, a + 5 us and a + 10 us, a = the first one's last bit + delay; a frame
// 1 ms later finds the CPU idle and is taken as it arrives.
TEST(LinkTest, RxCpuQueuesSegmentsBehindEachOther) {
  LinkOptions o;
  o.rx_cpu_service_ns = 5'000;
  RecordingLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  const TimeNs last_bit0 = link.Send(Data(0, 1448));
  link.Send(Data(1448, 1448));
  link.Send(Data(2896, 1448));
  const TimeNs a = last_bit0 + kDelay;
  EXPECT_EQ(arrivals, (std::vector<TimeNs>{a, a + 5'000, a + 10'000}));
  const TimeNs late = link.SendAt(1'000'000, Data(4344, 1448));
  EXPECT_EQ(arrivals.back(), late + kDelay);
}

// Wakeup mean 10 us, service 1 us. Frames 1 ms apart always find the CPU
// idle, so each waits one exponential draw (mean within 5 %, P(> mean) =
// e^-1). A back-to-back burst after idle shares its first frame's wakeup:
// the second frame reaches the CPU 1.23 us after the first, so when the
// wakeup W exceeds 0.23 us the CPU is still busy with the first (taken at
// its arrival + W, busy 1 us) and takes the second exactly 1 us later.
TEST(LinkTest, RxCpuWakeupIsDrawnOncePerIdlePeriod) {
  LinkOptions o;
  o.rx_cpu_service_ns = 1'000;
  o.rx_cpu_wakeup_ns = 10'000;
  RecordingLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  double sum = 0;
  int above = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const TimeNs last_bit = link.SendAt(TimeNs{i} * 1'000'000, Data(i * 1448u, 1448));
    const TimeNs extra = arrivals.back() - (last_bit + kDelay);
    ASSERT_GE(extra, 0);
    sum += static_cast<double>(extra);
    above += extra > 10'000 ? 1 : 0;
  }
  EXPECT_NEAR(sum / n, 10'000.0, 500.0);
  EXPECT_NEAR(static_cast<double>(above) / n, 0.3679, 0.02);
  const TimeNs t = TimeNs{n} * 1'000'000;
  const TimeNs last_bit = link.SendAt(t, Data(n * 1448u, 1448));
  const TimeNs first = arrivals.back();
  ASSERT_GT(first - (last_bit + kDelay), 230);  // this seed's draw: the CPU is still busy
  link.SendAt(t, Data((n + 1) * 1448u, 1448));
  EXPECT_EQ(arrivals.back(), first + 1'000);
}

// record_timing: (first bit, arrival) per segment with payload, the same
// times the sink sees; pure ACKs are left out.
TEST(LinkTest, RecordsDataTiming) {
  LinkOptions o;
  o.record_timing = true;
  o.rx_cpu_service_ns = 5'000;
  RecordingLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  link.Send(Data(0, 1448));
  link.Send(Data(1448, 0));
  link.Send(Data(1448, 1448));
  ASSERT_EQ(link.timing().size(), 2u);
  EXPECT_EQ(link.timing()[0].first, 0);
  EXPECT_EQ(link.timing()[0].second, arrivals[0]);
  EXPECT_EQ(link.timing()[1].second, arrivals[2]);
  EXPECT_EQ(arrivals[2], arrivals[0] + 10'000);  // behind the pure ACK's service time too
}

// set_rps_backlog: both directions on one backlog (service 1 us, IPI mean
// 50 us). A data frame is taken as it reaches the CPU (a = last bit +
// delay). An ACK the reader sent at 100 us, reaching the CPU at b (its last
// bit + delay), schedules the backlog: taken at the IPI I > b. A
// data frame reaching the CPU before I waits for it, behind the ACK: I +
// 1 us. An ACK sent from softirq (not from the reader) long after is taken
// as it arrives.
TEST(LinkTest, RpsBacklogSharedByBothDirections) {
  EventLoop loop;
  RpsBacklog backlog(1'000, 50'000, 5);
  std::vector<TimeNs> data_at, ack_at;
  Link data(&loop, k10G, kDelay, Direction::kData, nullptr, nullptr, LinkOptions{});
  Link acks(&loop, k10G, kDelay, Direction::kAck, nullptr, nullptr, LinkOptions{});
  data.set_rps_backlog(&backlog);
  acks.set_rps_backlog(&backlog);
  data.set_lookahead_sink([&](TimeNs at, const Segment&) { data_at.push_back(at); });
  acks.set_lookahead_sink([&](TimeNs at, const Segment&) { ack_at.push_back(at); });
  const TimeNs a = data.Send(Data(0, 1448)) + kDelay;
  EXPECT_EQ(data_at.back(), a);
  Segment ack;
  ack.from_reader = true;
  const TimeNs b = acks.SendAt(100'000, Segment(ack)) + kDelay;
  const TimeNs ipi = ack_at.back();
  EXPECT_GT(ipi, b);
  const TimeNs c = data.SendAt(100'000, Data(1448, 1448)) + kDelay;
  ASSERT_LT(c, ipi);
  EXPECT_EQ(data_at.back(), ipi + 1'000);
  Segment soft;
  const TimeNs d = acks.SendAt(ipi + 1'000'000, std::move(soft)) + kDelay;
  EXPECT_EQ(ack_at.back(), d);
  EXPECT_EQ(backlog.ipis(), 1u);
}

}  // namespace
}  // namespace sendsim::model
