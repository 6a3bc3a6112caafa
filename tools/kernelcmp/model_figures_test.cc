#include "tools/kernelcmp/model_figures.h"

#include "gtest/gtest.h"
#include "scenario/simulation.h"
#include "tools/kernelcmp/model_replay.h"

namespace sendsim::kernelcmp {
namespace {

// Checks that hold for any correct run, derived from the byte stream alone:
// first transmissions carry every stream byte exactly once, no packet exceeds
// the MSS, and since each message is 4363 (v1) or 4378 (v2) bytes, not a
// multiple of 1448, and these runs end with a flush, at least one packet of
// the run is shorter than the MSS.
void CheckStreamAccounting(const ModelFigures& f, const Workload& w, Variant v) {
  uint64_t bytes = 0, packets = 0;
  for (const auto& [size, n] : f.sizes) {
    EXPECT_LE(size, 1448u);
    EXPECT_GT(size, 0u);
    bytes += uint64_t{size} * n;
    packets += n;
  }
  EXPECT_EQ(bytes, StreamBytesFor(w, v));
  EXPECT_EQ(packets, f.packets);
  EXPECT_GE(f.packets, (StreamBytesFor(w, v) + 1447) / 1448);
  EXPECT_GT(f.sub_mss_per_msg, 0.0);
  // Every sub-MSS packet has one push path, and the paths add up.
  uint64_t sub = 0, by_reason = 0;
  for (const auto& [size, n] : f.sizes) sub += size < 1448 ? n : 0;
  for (const auto& [reason, n] : f.sub_mss_by_reason) by_reason += n;
  EXPECT_EQ(by_reason, sub);
}

Workload Small() {
  Workload w;
  w.messages = 5;
  w.message_bytes = 4096;
  w.prefix_bytes = 246;
  return w;
}

// The model's throughput is measured as a capture's (analysis.h): first
// transmissions only, between the first and the last data packet's first
// bit. Data 1448 at 1 us, an ACK, data 1448 at 3 us, a retransmission at
// 4 us (left out), data 100 at 5 us: 2996 bytes in 4 us = 749 MB/s.
TEST(CaptureCounter, BytesPerSecondSpansFirstTransmissions) {
  CaptureCounter counter(1448);
  auto packet = [](model::TimeNs t, model::Direction dir, uint32_t len, model::PushReason reason) {
    model::WirePacket p;
    p.time = t;
    p.dir = dir;
    p.len = len;
    p.reason = reason;
    return p;
  };
  counter.OnWirePacket(packet(1'000, model::Direction::kData, 1448, model::PushReason::kPushOne));
  counter.OnWirePacket(packet(1'500, model::Direction::kAck, 0, model::PushReason::kControl));
  counter.OnWirePacket(packet(3'000, model::Direction::kData, 1448, model::PushReason::kPushOne));
  counter.OnWirePacket(packet(4'000, model::Direction::kData, 1448, model::PushReason::kRetransmit));
  counter.OnWirePacket(packet(5'000, model::Direction::kData, 100, model::PushReason::kAck));
  const ModelFigures f = counter.Figures(1, scenario::SimulationResult{});
  EXPECT_DOUBLE_EQ(f.bytes_per_sec, 2996 * 1e9 / 4'000);
  EXPECT_EQ(f.packets, 3u);
  EXPECT_EQ(f.retransmitted, 1u);
}

TEST(RunModelFor, WriterVariantsAccountForEveryStreamByte) {
  const Workload w = Small();
  for (Variant v : {Variant::kV1Legacy, Variant::kV1Splice, Variant::kV1Cork, Variant::kV2}) {
    absl::StatusOr<ModelFigures> f =
        RunModelFor(w, v, IoMode::kNonBlocking, DefaultModelSettings(Placement::kReceiverCpu));
    ASSERT_TRUE(f.ok()) << VariantName(v) << ": " << f.status();
    SCOPED_TRACE(VariantName(v));
    CheckStreamAccounting(*f, w, v);
    // Every data packet's delay is recorded, none below the 3 us one-way
    // base of this placement's defaults.
    EXPECT_GE(f->delays.packets, f->packets);
    EXPECT_GE(f->delays.p5_ns, 3'000);
  }
}

TEST(RunModelFor, ReplayedVariantsAccountForEveryStreamByte) {
  const Workload w = Small();
  for (Variant v : {Variant::kSendmsgAll, Variant::kSendfile, Variant::kSplice}) {
    absl::StatusOr<ModelFigures> f = RunModelFor(w, v, IoMode::kNonBlocking, DefaultModelSettings(Placement::kSenderCpu));
    ASSERT_TRUE(f.ok()) << VariantName(v) << ": " << f.status();
    SCOPED_TRACE(VariantName(v));
    CheckStreamAccounting(*f, w, v);
  }
}

TEST(RunModelFor, V1CorkEndsEveryMessageWithTailAndLoneFooter) {
  // v1-cork on any kernel: the last page goes with MSG_EOR inside the cork,
  // so the footer starts a new skb; uncorking sends both. Per message
  // 246 + 4096 = 4342 = 2 x 1448 + 1446, then 21: sizes 1448 x 2, 1446, 21.
  Workload w = Small();
  absl::StatusOr<ModelFigures> f =
      RunModelFor(w, Variant::kV1Cork, IoMode::kNonBlocking,
                  DefaultModelSettings(Placement::kReceiverCpu));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->sizes, (SizeHistogram{{21, 5}, {1446, 5}, {1448, 10}}));
  EXPECT_DOUBLE_EQ(f->sub_mss_per_msg, 2.0);
}

TEST(RunModelFor, BlockingReplayAccountsForEveryStreamByte) {
  const Workload w = Small();
  for (Variant v : {Variant::kV1Legacy, Variant::kV1Splice, Variant::kV1Cork, Variant::kV2,
                    Variant::kSendmsgAll, Variant::kSendfile, Variant::kSplice}) {
    absl::StatusOr<ModelFigures> f =
        RunModelFor(w, v, IoMode::kBlocking, DefaultModelSettings(Placement::kReceiverCpu));
    ASSERT_TRUE(f.ok()) << VariantName(v) << ": " << f.status();
    SCOPED_TRACE(VariantName(v));
    CheckStreamAccounting(*f, w, v);
  }
}

// Blocking v2 corks around each message (traffic.cc V2Message): head 77 +
// front 192, one 4096-byte page, epilogue 13 = 4378 = 3 x 1448 + 34, and
// clearing the cork with TCP_NODELAY set sends the 34-byte tail at once
// (tcp_push_pending_frames with nonagle OFF|PUSH) before the next message
// starts a new skb: 1448 x 3 and 34 per message, as the kernel's capture
// shows at the start of a 4 KiB run. 100 us per call and no delay spread
// keep the path idle between messages (RTT 6 us), so neither cwnd nor TSQ
// holds a tail into the next message.
TEST(RunModelFor, BlockingV2UncorksEveryMessage) {
  const Workload w = Small();
  ModelSettings s = DefaultModelSettings(Placement::kReceiverCpu);
  s.scenario.call_cost_ns = 100'000;
  s.scenario.host.data_delay_spread_ns = 0;
  absl::StatusOr<ModelFigures> f = RunModelFor(w, Variant::kV2, IoMode::kBlocking, s);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->sizes, (SizeHistogram{{34, 5}, {1448, 15}}));
}

}  // namespace
}  // namespace sendsim::kernelcmp
