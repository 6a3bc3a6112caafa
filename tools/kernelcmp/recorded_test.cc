#include "tools/kernelcmp/recorded.h"

#include <string>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

Workload Small() {
  Workload w;
  w.messages = 10;
  w.message_bytes = 4096;
  w.prefix_bytes = 246;
  return w;
}

// Two valid runs and an invalid one, every kernel-side measurement set.
Cell MeasuredCell() {
  Cell c;
  c.variant = Variant::kV1Legacy;
  c.io = IoMode::kBlocking;
  c.placement = Placement::kReceiverCpu;
  RunOutcome a;
  a.valid = true;
  a.figures.packets = 40;
  a.figures.sub_mss_packets = 20;
  a.figures.acks = 7;
  a.figures.sizes = {{1448, 20}, {1200, 10}, {21, 10}};
  a.figures.first_data_ns = 0;
  a.figures.last_data_ns = 1'000'000;
  a.traffic.send_calls = 100;
  a.traffic.send_cpu_ns = 500'000;
  a.traffic.sender_run_delay_ns = 70'000;
  a.traffic.bytes_received = 43'630;
  a.traffic.read_cpu_ns = 43'630;
  a.traffic.reads = 20;
  for (int i = 0; i < 15; ++i) {
    a.traffic.call_fit.Add(0, 2'000);
    a.traffic.call_fit.Add(3, 11'000);
  }
  a.delays = DelaySummary{100, 1'000, 17'000, 30'000, 12, 1'500, 19'000};
  HoldSummary holds;
  holds.calls = 40;
  holds.mean_ns = 4'000;
  holds.calls_with_receive = 10;
  for (int i = 0; i < 15; ++i) {
    holds.fit.Add(0, 1'000);
    holds.fit.Add(2, 4'000);
  }
  a.holds = holds;
  a.traffic.autocorks = 30;
  a.traffic.snd_cwnd = 200;
  a.traffic.rtt_us = 120;
  a.traffic.delayed_acks = 4;
  RunOutcome b = a;
  b.figures.packets = 44;
  b.figures.sub_mss_packets = 30;
  b.figures.acks = 9;
  RunOutcome bad;
  bad.invalid_reason = "tcpdump dropped 1 packet";
  c.runs = {a, b, bad};
  return c;
}

// What FormatJson writes, ParseRecordedJson reads back as SummarizeCell
// computed it from the runs. Bytes per read come from the workload: 4363
// stream bytes per message over 20 reads per 10 messages = 2181.5.
TEST(ParseRecordedJson, ReadsBackWhatFormatJsonWrote) {
  const Workload w = Small();
  const Cell c = MeasuredCell();
  const CellSummary want = SummarizeCell(c, w);
  absl::StatusOr<std::vector<RecordedCell>> got = ParseRecordedJson(FormatJson({c}, w, false), w, false);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->size(), 1u);
  const RecordedCell& r = (*got)[0];
  EXPECT_EQ(r.variant, Variant::kV1Legacy);
  EXPECT_EQ(r.io, IoMode::kBlocking);
  EXPECT_EQ(r.placement, Placement::kReceiverCpu);
  const CellSummary& k = r.kernel;
  EXPECT_EQ(k.valid_runs, 2u);
  EXPECT_EQ(k.invalid_runs, 1u);
  EXPECT_EQ(k.sizes, want.sizes);
  EXPECT_EQ(k.top_sizes, want.top_sizes);
  EXPECT_DOUBLE_EQ(k.packets.mean, 42.0);
  EXPECT_DOUBLE_EQ(k.sub_mss_per_msg.min, 2.0);
  EXPECT_DOUBLE_EQ(k.sub_mss_per_msg.max, 3.0);
  EXPECT_DOUBLE_EQ(k.acks_per_msg.mean, 0.8);
  EXPECT_NEAR(k.mbytes_per_sec.mean, want.mbytes_per_sec.mean, 1e-9);
  EXPECT_NEAR(k.call_cpu_ns, 5'000, 1e-6);
  EXPECT_NEAR(k.run_delay_per_call_ns, 700, 1e-6);
  EXPECT_EQ(k.call_samples, 60u);
  EXPECT_NEAR(k.call_base_cpu_ns, 2'000, 1e-6);
  EXPECT_NEAR(k.xmit_cpu_ns_per_segment, 3'000, 1e-6);
  EXPECT_NEAR(k.recv_cpu_bytes_per_sec, 1e9, 1e-3);
  EXPECT_DOUBLE_EQ(k.reads_per_msg, 2.0);
  EXPECT_DOUBLE_EQ(k.bytes_per_read, 4363.0 / 2);
  EXPECT_NEAR(k.delay_p5_ns, 1'000, 1e-6);
  EXPECT_NEAR(k.delay_median_ns, 17'000, 1e-6);
  EXPECT_NEAR(k.delay_mean_ns, 30'000, 1e-6);
  EXPECT_NEAR(k.rx_service_ns, 1'500, 1e-6);
  EXPECT_NEAR(k.rx_wakeup_ns, 19'000, 1e-6);
  EXPECT_DOUBLE_EQ(k.autocorks_per_msg.mean, 3.0);
  EXPECT_DOUBLE_EQ(k.delayed_acks_per_msg.max, 0.4);
  EXPECT_DOUBLE_EQ(k.srtt_us.mean, 120);
  EXPECT_DOUBLE_EQ(k.snd_cwnd.max, 200);
  // Holds: both runs carry the same summary, so the pool is that summary,
  // and its line through (0, 1000) and (2, 4000) is 1000 + 1500 x.
  EXPECT_EQ(k.hold_calls, 80u);
  EXPECT_NEAR(k.hold_mean_ns, 4'000, 1e-6);
  EXPECT_NEAR(k.hold_mean_without_receive_ns, 2'500, 1e-6);
  EXPECT_NEAR(k.hold_base_ns, 1'000, 1e-6);
  EXPECT_NEAR(k.hold_ns_per_segment, 1'500, 1e-6);
}

// A recorded cell stands in for the runs, and the distances are to the
// model beside it: kernel sizes {1448: 40, 1200: 20, 21: 20} of 80 against
// a model with {1448: 40} only: tvd = 40/80 = 0.5.
TEST(ParseRecordedJson, RecordedCellReplacesTheRuns) {
  const Workload w = Small();
  absl::StatusOr<std::vector<RecordedCell>> got = ParseRecordedJson(FormatJson({MeasuredCell()}, w, false), w, false);
  ASSERT_TRUE(got.ok()) << got.status();
  Cell c;
  c.recorded = (*got)[0].kernel;
  ModelFigures m;
  m.packets = 40;
  m.sizes = {{1448, 40}};
  c.model = m;
  const CellSummary s = SummarizeCell(c, w);
  EXPECT_EQ(s.valid_runs, 2u);
  ASSERT_TRUE(s.tvd.has_value());
  EXPECT_DOUBLE_EQ(*s.tvd, 0.5);
}

TEST(ParseRecordedJson, BadInputIsAnErrorNamingTheEntry) {
  const Workload w = Small();
  EXPECT_EQ(ParseRecordedJson("{", w, false).status().message(), "not JSON");
  EXPECT_FALSE(ParseRecordedJson("{}", w, false).ok());
  std::string json = FormatJson({MeasuredCell()}, w, false);
  std::string no_sizes = json;
  no_sizes.replace(no_sizes.find("\"kernel_sizes\""), 14, "\"kernel_sizex\"");
  absl::Status s = ParseRecordedJson(no_sizes, w, false).status();
  EXPECT_EQ(s.message(), "entry 0: missing kernel_sizes (a JSON from before the field existed?)");
  Workload other = w;
  other.messages = 11;
  EXPECT_EQ(ParseRecordedJson(json, other, false).status().message(),
            "entry 0: recorded with 10 messages of 246 + 4096 + 21 bytes, the scenario has 11 of 246 + 4096 + 21");
  EXPECT_EQ(ParseRecordedJson(json, w, /*tso=*/true).status().message(),
            "entry 0: recorded with TSO off, the flags say on");
  std::string bad_variant = json;
  bad_variant.replace(bad_variant.find("v1-legacy"), 9, "v9-legacy");
  EXPECT_FALSE(ParseRecordedJson(bad_variant, w, false).ok());
  // A cell without valid runs has no kernel side to compare with: skipped.
  Cell empty;
  absl::StatusOr<std::vector<RecordedCell>> none = ParseRecordedJson(FormatJson({empty}, w, false), w, false);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->empty());
}

}  // namespace
}  // namespace sendsim::kernelcmp
