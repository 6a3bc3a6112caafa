#include "model/nic.h"

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "model/host/host_stage.h"

namespace sendsim::model {
namespace {

struct Recorder : Observer {
  std::vector<WirePacket> pkts;
  void OnWirePacket(const WirePacket& p) override { pkts.push_back(p); }
};

struct Done {
  TimeNs at;
  uint32_t truesize;
};

struct Harness {
  explicit Harness(bool tso, TimeNs completion_ns = 5'000) {
    cfg.tso = tso;
    cfg.tx_completion_ns = completion_ns;
    link = std::make_unique<Link>(
        &loop, cfg.link_bps, cfg.one_way_delay_ns, Direction::kData, [this](const Segment& s) { arrived.push_back(s); },
        &rec, LinkOptionsFor(cfg, Direction::kData));
    nic = std::make_unique<Nic>(&loop, cfg, link.get(),
                                [this](uint32_t ts) { done.push_back({loop.now(), ts}); });
  }
  ConnectionConfig cfg;
  EventLoop loop;
  Recorder rec;
  std::vector<Segment> arrived;
  std::vector<Done> done;
  std::unique_ptr<Link> link;
  std::unique_ptr<Nic> nic;
};

XmitSkb Skb(uint32_t seq, uint32_t len, uint8_t flags, uint32_t truesize) {
  XmitSkb s;
  s.seq = seq;
  s.len = len;
  s.gso_size = 1448;
  s.tcp_flags = flags;
  s.truesize = truesize;
  s.reason = PushReason::kPushOne;
  s.tag = 7;
  return s;
}

// A 4000-byte skb with PSH at MSS 1448 is cut into 1448 + 1448 + 1104
// (4000 - 2*1448), PSH only on the last. At 10 Gb/s the frames are 1538,
// 1538 and 1194 (1104 + 52 + 38) bytes: 1230.4, 1230.4 and 955.2 ns, so
// first bits at 0, 1230.4 -> 1231, 2460.8 -> 2461 and the last bit at
// exactly 3416. TSO: one completion of the whole truesize at 3416 + 5000.
TEST(NicTest, TsoCutsSkbAndCompletesOnce) {
  Harness h(/*tso=*/true);
  h.nic->Transmit(Skb(1000, 4000, kTcpAck | kTcpPsh, 5280));
  ASSERT_EQ(h.rec.pkts.size(), 3u);
  EXPECT_EQ(h.rec.pkts[0].seq, 1000u);
  EXPECT_EQ(h.rec.pkts[1].seq, 2448u);
  EXPECT_EQ(h.rec.pkts[2].seq, 3896u);
  EXPECT_EQ(h.rec.pkts[0].len, 1448u);
  EXPECT_EQ(h.rec.pkts[1].len, 1448u);
  EXPECT_EQ(h.rec.pkts[2].len, 1104u);
  EXPECT_EQ(h.rec.pkts[0].flags, kTcpAck);
  EXPECT_EQ(h.rec.pkts[1].flags, kTcpAck);
  EXPECT_EQ(h.rec.pkts[2].flags, kTcpAck | kTcpPsh);
  EXPECT_EQ(h.rec.pkts[0].time, 0);
  EXPECT_EQ(h.rec.pkts[1].time, 1231);
  EXPECT_EQ(h.rec.pkts[2].time, 2461);
  for (const auto& p : h.rec.pkts) {
    EXPECT_EQ(p.reason, PushReason::kPushOne);
    EXPECT_EQ(p.tag, 7u);
  }
  EXPECT_EQ(h.nic->pending_truesize(), 5280u);
  h.loop.Run();
  ASSERT_EQ(h.done.size(), 1u);
  EXPECT_EQ(h.done[0].at, 3416 + 5000);
  EXPECT_EQ(h.done[0].truesize, 5280u);
  EXPECT_EQ(h.nic->pending_truesize(), 0u);
  EXPECT_EQ(h.arrived.size(), 3u);
}

// Software GSO: same wire segments, but each completes on its own at its
// last bit + 5000: 1230.4 -> 1231, 2460.8 -> 2461, 3416. Truesize shares by
// payload: floor(5280*1448/4000) = 1911, floor(5280*2896/4000) - 1911 =
// 3822 - 1911 = 1911, and the rest 5280 - 3822 = 1458 (sum 5280).
TEST(NicTest, GsoCompletesEachSegmentWithProportionalTruesize) {
  Harness h(/*tso=*/false);
  h.nic->Transmit(Skb(0, 4000, kTcpAck | kTcpPsh, 5280));
  h.loop.Run();
  ASSERT_EQ(h.done.size(), 3u);
  EXPECT_EQ(h.done[0].at, 6231);
  EXPECT_EQ(h.done[1].at, 7461);
  EXPECT_EQ(h.done[2].at, 8416);
  EXPECT_EQ(h.done[0].truesize, 1911u);
  EXPECT_EQ(h.done[1].truesize, 1911u);
  EXPECT_EQ(h.done[2].truesize, 1458u);
  EXPECT_EQ(h.rec.pkts[2].flags, kTcpAck | kTcpPsh);
  EXPECT_EQ(h.rec.pkts[0].flags, kTcpAck);
}

// Truesize shares always sum to the skb's truesize, for awkward sizes too.
TEST(NicTest, GsoTruesizeSharesSumExactly) {
  for (uint32_t len : {1u, 1447u, 1449u, 2896u, 65160u, 65159u}) {
    for (uint32_t ts : {1u, 1280u, 66441u, 99999u}) {
      Harness h(/*tso=*/false, 0);
      h.nic->Transmit(Skb(0, len, kTcpAck, ts));
      h.loop.Run();
      uint64_t sum = 0;
      for (const auto& d : h.done) sum += d.truesize;
      EXPECT_EQ(sum, ts) << "len " << len;
      EXPECT_EQ(h.done.size(), (len + 1447) / 1448) << "len " << len;
    }
  }
}

// FIN, like PSH, stays on the last segment; an skb no longer than gso_size is
// one segment with its flags unchanged.
TEST(NicTest, FinOnLastSegmentAndSingleSegmentSkb) {
  Harness h(/*tso=*/true);
  h.nic->Transmit(Skb(0, 2000, kTcpAck | kTcpPsh | kTcpFin, 3000));
  h.nic->Transmit(Skb(2000, 1448, kTcpAck | kTcpPsh, 2728));
  ASSERT_EQ(h.rec.pkts.size(), 3u);
  EXPECT_EQ(h.rec.pkts[0].flags, kTcpAck);
  EXPECT_EQ(h.rec.pkts[1].flags, kTcpAck | kTcpPsh | kTcpFin);
  EXPECT_EQ(h.rec.pkts[1].len, 552u);
  EXPECT_EQ(h.rec.pkts[2].len, 1448u);
  EXPECT_EQ(h.rec.pkts[2].flags, kTcpAck | kTcpPsh);
  h.loop.Run();
  ASSERT_EQ(h.done.size(), 2u);
  EXPECT_EQ(h.done[0].truesize, 3000u);
  EXPECT_EQ(h.done[1].truesize, 2728u);
  EXPECT_LT(h.done[0].at, h.done[1].at);
}

// Payload pieces follow the byte split: pieces of 1000 and 3000 bytes over
// segments of 1448, 1448, 1104 -> [1000 + 448], [1448 from offset 448],
// [1104 from offset 1896].
TEST(NicTest, PayloadPiecesSplitWithSegments) {
  Harness h(/*tso=*/true);
  std::vector<uint8_t> a(1000), b(3000);
  XmitSkb skb = Skb(0, 4000, kTcpAck, 5000);
  skb.payload = {{a.data(), 1000}, {b.data(), 3000}};
  h.nic->Transmit(std::move(skb));
  h.loop.Run();
  ASSERT_EQ(h.arrived.size(), 3u);
  ASSERT_EQ(h.arrived[0].payload.size(), 2u);
  EXPECT_EQ(h.arrived[0].payload[0].data, a.data());
  EXPECT_EQ(h.arrived[0].payload[0].len, 1000u);
  EXPECT_EQ(h.arrived[0].payload[1].data, b.data());
  EXPECT_EQ(h.arrived[0].payload[1].len, 448u);
  ASSERT_EQ(h.arrived[1].payload.size(), 1u);
  EXPECT_EQ(h.arrived[1].payload[0].data, b.data() + 448);
  EXPECT_EQ(h.arrived[1].payload[0].len, 1448u);
  ASSERT_EQ(h.arrived[2].payload.size(), 1u);
  EXPECT_EQ(h.arrived[2].payload[0].data, b.data() + 1896);
  EXPECT_EQ(h.arrived[2].payload[0].len, 1104u);
}

// A second skb handed over while the first is still on the wire queues
// behind it (pfifo + NIC ring): 45 x 1448 frames take 45 * 1230.4 = 55368 ns,
// so the next skb's first bit is at 55368 and its completion (one 1448-byte
// frame, ends at 56598.4 -> 56599) comes after the first skb's (55368).
TEST(NicTest, SecondSkbQueuesBehindFirst) {
  Harness h(/*tso=*/true, 0);
  h.nic->Transmit(Skb(0, 65160, kTcpAck, 66440));
  h.nic->Transmit(Skb(65160, 1448, kTcpAck, 2728));
  ASSERT_EQ(h.rec.pkts.size(), 46u);
  EXPECT_EQ(h.rec.pkts[45].time, 55368);
  h.loop.Run();
  ASSERT_EQ(h.done.size(), 2u);
  EXPECT_EQ(h.done[0].at, 55368);
  EXPECT_EQ(h.done[1].at, 56599);
}

// veth (Nic::CompleteWhenTaken, HostConfig::tx_completion_at_arrival):
// completion counts from the time the receiving host takes the segment.
// TSO: the 4000-byte skb's last bit leaves at 3416
// (TsoCutsSkbAndCompletesOnce) and arrives one_way_delay_ns (25 us) later;
// with 100 ns of completion delay tcp_wfree runs at 3416 + 25000 + 100.
// Software GSO with a delay spread: each segment's share completes exactly
// when the host takes that segment.
TEST(NicTest, CompletionWhenTheReceivingHostTakesTheSegment) {
  for (bool tso : {true, false}) {
    ConnectionConfig cfg;
    cfg.tso = tso;
    cfg.tx_completion_ns = tso ? 100 : 0;
    EventLoop loop;
    std::vector<TimeNs> arrived, done;
    Link link(&loop, cfg.link_bps, cfg.one_way_delay_ns, Direction::kData, SegmentSinkFn(), nullptr,
              LinkOptionsFor(cfg, Direction::kData));
    HostStage::Options o;
    o.delay_spread_ns = tso ? 0 : 10'000;
    HostStage stage(&loop, Direction::kData, o);
    stage.Attach(&link);
    std::pair<EventLoop*, std::vector<TimeNs>*> ctx(&loop, &arrived);
    stage.set_deliver_sink(
        [](void* c, const Segment&) {
          auto* x = static_cast<std::pair<EventLoop*, std::vector<TimeNs>*>*>(c);
          x->second->push_back(x->first->now());
        },
        &ctx);
    Nic nic(&loop, cfg, &link, [&](uint32_t) { done.push_back(loop.now()); });
    nic.CompleteWhenTaken(&stage);
    nic.Transmit(Skb(1000, 4000, kTcpAck | kTcpPsh, 5280));
    loop.Run();
    ASSERT_EQ(arrived.size(), 3u);
    if (tso) {
      EXPECT_EQ(done, (std::vector<TimeNs>{3416 + 25'000 + 100}));
    } else {
      EXPECT_EQ(done, arrived);
      EXPECT_GT(arrived.back(), 3416 + 25'000);  // the spread added something
    }
  }
}

// tun (HostConfig::tx_orphan_at_xmit): tun_net_xmit's skb_orphan runs
// tcp_wfree inside the transmit, so the whole truesize (5280) is released
// before Transmit returns, at time 0, once per skb with TSO or software GSO,
// whatever tx_completion_ns says; the segments still leave at 0, 1231 and
// 2461 (TsoCutsSkbAndCompletesOnce) and all three arrive.
TEST(NicTest, TunOrphansAtXmit) {
  for (bool tso : {true, false}) {
    Harness h(tso, /*completion_ns=*/5'000);
    h.cfg.host.tx_orphan_at_xmit = true;
    h.nic = std::make_unique<Nic>(&h.loop, h.cfg, h.link.get(),
                                  [&h](uint32_t ts) { h.done.push_back({h.loop.now(), ts}); });
    h.nic->Transmit(Skb(1000, 4000, kTcpAck | kTcpPsh, 5280));
    ASSERT_EQ(h.done.size(), 1u);
    EXPECT_EQ(h.done[0].at, 0);
    EXPECT_EQ(h.done[0].truesize, 5280u);
    EXPECT_EQ(h.nic->pending_truesize(), 0u);
    ASSERT_EQ(h.rec.pkts.size(), 3u);
    EXPECT_EQ(h.rec.pkts[1].time, 1231);
    EXPECT_EQ(h.rec.pkts[2].time, 2461);
    h.loop.Run();
    EXPECT_EQ(h.done.size(), 1u);  // no completion event follows
    EXPECT_EQ(h.arrived.size(), 3u);
  }
}

}  // namespace
}  // namespace sendsim::model
