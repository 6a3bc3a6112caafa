#include "model/host/host_stage.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "model/host/host_cpu.h"
#include "model/host/rps_backlog.h"
#include "model/link.h"

namespace sendsim::model {
namespace {

Segment Data(uint32_t seq, uint32_t len) {
  Segment s;
  s.seq = seq;
  s.len = len;
  return s;
}

constexpr uint64_t k10G = 10'000'000'000;
constexpr TimeNs kDelay = 25'000;

// A 10 Gb/s link, kDelay one way, whose host stage hands each segment to a
// recorder of the time the host took it.
struct PlacedLink {
  explicit PlacedLink(HostStage::Options o, Direction dir = Direction::kData)
      : link(&loop, k10G, kDelay, dir, nullptr, nullptr), stage(&loop, dir, o) {
    stage.Attach(&link);
    stage.set_lookahead_sink(
        [](void* self, TimeNs at, const Segment&) { static_cast<PlacedLink*>(self)->arrivals.push_back(at); },
        this);
  }
  EventLoop loop;
  std::vector<TimeNs> arrivals;
  Link link;
  HostStage stage;
};

// A plain host takes each segment as it arrives (last bit + delay).
TEST(HostStageTest, PlainHostTakesSegmentsAtArrival) {
  PlacedLink r(HostStage::Options{});
  const TimeNs last_bit0 = r.link.Send(Data(0, 1448));
  const TimeNs last_bit1 = r.link.Send(Data(1448, 1448));
  EXPECT_EQ(r.arrivals, (std::vector<TimeNs>{last_bit0 + kDelay, last_bit1 + kDelay}));
  EXPECT_EQ(r.stage.last_taken(), last_bit1 + kDelay);
  EXPECT_TRUE(r.stage.timing().empty());  // not asked to record
}

// Without a lookahead sink the stage delivers from events: the ACK path sees
// loop->now() equal to the time the host took the segment (here 5 us after
// arrival: the receiving CPU is busy with the first frame).
TEST(HostStageTest, EventDeliveryAtTheTakenTime) {
  EventLoop loop;
  Link link(&loop, k10G, kDelay, Direction::kData, nullptr, nullptr);
  HostStage::Options o;
  o.rx_cpu_service_ns = 5'000;
  HostStage stage(&loop, Direction::kData, o);
  stage.Attach(&link);
  std::vector<TimeNs> seen;
  struct Ctx {
    EventLoop* loop;
    std::vector<TimeNs>* seen;
  } ctx{&loop, &seen};
  stage.set_deliver_sink([](void* c, const Segment&) {
    auto* x = static_cast<Ctx*>(c);
    x->seen->push_back(x->loop->now());
  }, &ctx);
  const TimeNs a = link.Send(Data(0, 1448)) + kDelay;
  link.Send(Data(1448, 1448));
  EXPECT_TRUE(seen.empty());  // nothing before the loop runs
  loop.Run(1'000'000);
  EXPECT_EQ(seen, (std::vector<TimeNs>{a, a + 5'000}));
}

// A segment the link drops is placed (the next one queues behind its
// service time) and recorded, but never handed on.
TEST(HostStageTest, LostSegmentKeepsItsPlaceButIsNotDelivered) {
  EventLoop loop;
  LinkOptions lo;
  lo.drop_data_segments = {0};
  Link link(&loop, k10G, kDelay, Direction::kData, nullptr, nullptr, lo);
  HostStage::Options o;
  o.rx_cpu_service_ns = 5'000;
  o.record_timing = true;
  HostStage stage(&loop, Direction::kData, o);
  stage.Attach(&link);
  std::vector<TimeNs> got;
  stage.set_lookahead_sink(
      [](void* v, TimeNs at, const Segment&) { static_cast<std::vector<TimeNs>*>(v)->push_back(at); }, &got);
  const TimeNs a = link.Send(Data(0, 1448)) + kDelay;
  link.Send(Data(1448, 1448));
  EXPECT_EQ(got, (std::vector<TimeNs>{a + 5'000}));
  ASSERT_EQ(stage.timing().size(), 2u);
  EXPECT_EQ(stage.timing()[0].second, a);
}

// The softirq work of what a stage hands on goes to the sender's CPU: 300
// ns per ACK, 700 per data segment with payload (none for a pure ACK on the
// data path), at the time the host takes it.
TEST(HostStageTest, ChargesSoftirqWorkToTheSendersCpu) {
  HostConfig host;
  host.sender_softirq_ack_ns = 300;
  host.sender_softirq_peer_rx_ns = 700;
  HostCpu cpu(host);
  PlacedLink data(HostStage::Options{}, Direction::kData);
  PlacedLink acks(HostStage::Options{}, Direction::kAck);
  data.stage.set_host_cpu(&cpu);
  acks.stage.set_host_cpu(&cpu);
  const TimeNs a = data.link.Send(Data(0, 1448)) + kDelay;
  data.link.Send(Data(1448, 0));
  const TimeNs b = acks.link.SendAt(100'000, Data(0, 0)) + kDelay;
  EXPECT_EQ(cpu.StolenUpTo(a - 1), 0);
  EXPECT_EQ(cpu.StolenUpTo(a), 700);
  EXPECT_EQ(cpu.StolenUpTo(b), 1'000);
}

// Options::delay_spread_ns: an exponential extra delay per data segment.
// Segments 1 ms apart never wait for each other, so each extra is one draw:
// the mean of 20000 draws is within 5 % of the configured 10 us (its standard
// error is 10 us / sqrt(20000) = 0.7 %), and P(extra > mean) is e^-1 = 0.368
// for an exponential (a uniform draw of the same mean would give 0.5).
std::vector<TimeNs> SpreadExtras(uint64_t seed) {
  HostStage::Options o;
  o.delay_spread_ns = 10'000;
  o.seed = seed;
  PlacedLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  std::vector<TimeNs> extras;
  for (int i = 0; i < 20000; ++i) {
    const TimeNs last_bit = link.SendAt(TimeNs{i} * 1'000'000, Data(i * 1448u, 1448));
    extras.push_back(arrivals.back() - (last_bit + kDelay));
  }
  return extras;
}

TEST(HostStageTest, DelaySpreadIsExponentialAndSeeded) {
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
TEST(HostStageTest, DelaySpreadKeepsFifoOrder) {
  HostStage::Options o;
  o.delay_spread_ns = 10'000;
  PlacedLink r(o);
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
    EXPECT_EQ(r.stage.last_taken(), prev);
  }
  EXPECT_GT(waited, 0);  // 1.2 us frames against a 10 us mean: some must queue
  const TimeNs last_bit = link.SendAt(1'000'000'000, Data(200 * 1448u, 0));
  EXPECT_EQ(arrivals.back(), last_bit + kDelay);
}


// Options::rx_cpu_*: the receiving CPU as a queue. Service 5 us, no
// wakeup: three back-to-back frames (1.23 us apart at 10G) are taken at
// a, a + 5 us and a + 10 us, a = the first one's last bit + delay; a frame
// 1 ms later finds the CPU idle and is taken as it arrives.
TEST(HostStageTest, RxCpuQueuesSegmentsBehindEachOther) {
  HostStage::Options o;
  o.rx_cpu_service_ns = 5'000;
  PlacedLink r(o);
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
TEST(HostStageTest, RxCpuWakeupIsDrawnOncePerIdlePeriod) {
  HostStage::Options o;
  o.rx_cpu_service_ns = 1'000;
  o.rx_cpu_wakeup_ns = 10'000;
  PlacedLink r(o);
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
TEST(HostStageTest, RecordsDataTiming) {
  HostStage::Options o;
  o.record_timing = true;
  o.rx_cpu_service_ns = 5'000;
  PlacedLink r(o);
  Link& link = r.link;
  std::vector<TimeNs>& arrivals = r.arrivals;
  link.Send(Data(0, 1448));
  link.Send(Data(1448, 0));
  link.Send(Data(1448, 1448));
  ASSERT_EQ(r.stage.timing().size(), 2u);
  EXPECT_EQ(r.stage.timing()[0].first, 0);
  EXPECT_EQ(r.stage.timing()[0].second, arrivals[0]);
  EXPECT_EQ(r.stage.timing()[1].second, arrivals[2]);
  EXPECT_EQ(arrivals[2], arrivals[0] + 10'000);  // behind the pure ACK's service time too
}

// HostStage::set_rps_backlog: both directions on one backlog (service 1 us, IPI mean
// 50 us). A data frame is taken as it reaches the CPU (a = last bit +
// delay). An ACK the reader sent at 100 us, reaching the CPU at b (its last
// bit + delay), schedules the backlog: taken at the IPI I > b. A
// data frame reaching the CPU before I waits for it, behind the ACK: I +
// 1 us. An ACK sent from softirq (not from the reader) long after is taken
// as it arrives.
TEST(HostStageTest, RpsBacklogSharedByBothDirections) {
  RpsBacklog backlog(1'000, 50'000, 5);
  PlacedLink data(HostStage::Options{}, Direction::kData);
  PlacedLink acks(HostStage::Options{}, Direction::kAck);
  data.stage.set_rps_backlog(&backlog);
  acks.stage.set_rps_backlog(&backlog);
  std::vector<TimeNs>& data_at = data.arrivals;
  std::vector<TimeNs>& ack_at = acks.arrivals;
  const TimeNs a = data.link.Send(Data(0, 1448)) + kDelay;
  EXPECT_EQ(data_at.back(), a);
  Segment ack;
  ack.from_reader = true;
  const TimeNs b = acks.link.SendAt(100'000, Segment(ack)) + kDelay;
  const TimeNs ipi = ack_at.back();
  EXPECT_GT(ipi, b);
  const TimeNs c = data.link.SendAt(100'000, Data(1448, 1448)) + kDelay;
  ASSERT_LT(c, ipi);
  EXPECT_EQ(data_at.back(), ipi + 1'000);
  Segment soft;
  const TimeNs d = acks.link.SendAt(ipi + 1'000'000, std::move(soft)) + kDelay;
  EXPECT_EQ(ack_at.back(), d);
  EXPECT_EQ(backlog.ipis(), 1u);
}

}  // namespace
}  // namespace sendsim::model
