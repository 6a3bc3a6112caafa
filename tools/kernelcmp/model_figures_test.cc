#include "tools/kernelcmp/model_figures.h"

#include "gtest/gtest.h"

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
}

Workload Small() {
  Workload w;
  w.messages = 5;
  w.message_bytes = 4096;
  w.prefix_bytes = 246;
  return w;
}

TEST(RunModelFor, WriterVariantsAccountForEveryStreamByte) {
  const Workload w = Small();
  for (Variant v : {Variant::kV1Legacy, Variant::kV1Splice, Variant::kV1Cork, Variant::kV2}) {
    absl::StatusOr<ModelFigures> f =
        RunModelFor(w, v, DefaultModelSettings(Placement::kReceiverCpu));
    ASSERT_TRUE(f.ok()) << VariantName(v) << ": " << f.status();
    SCOPED_TRACE(VariantName(v));
    CheckStreamAccounting(*f, w, v);
  }
}

TEST(RunModelFor, ReplayedVariantsAccountForEveryStreamByte) {
  const Workload w = Small();
  for (Variant v : {Variant::kSendmsgAll, Variant::kSendfile, Variant::kSplice}) {
    absl::StatusOr<ModelFigures> f = RunModelFor(w, v, DefaultModelSettings(Placement::kSenderCpu));
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
      RunModelFor(w, Variant::kV1Cork, DefaultModelSettings(Placement::kReceiverCpu));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->sizes, (SizeHistogram{{21, 5}, {1446, 5}, {1448, 10}}));
  EXPECT_DOUBLE_EQ(f->sub_mss_per_msg, 2.0);
}

}  // namespace
}  // namespace sendsim::kernelcmp
