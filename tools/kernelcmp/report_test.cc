#include "tools/kernelcmp/report.h"

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

ModelFigures Model(uint64_t packets, double sub_mss_per_msg, SizeHistogram sizes) {
  ModelFigures m;
  m.packets = packets;
  m.sub_mss_per_msg = sub_mss_per_msg;
  m.sizes = std::move(sizes);
  return m;
}

RunOutcome ValidRun(uint64_t packets, uint64_t sub_mss, SizeHistogram sizes) {
  RunOutcome r;
  r.valid = true;
  r.figures.packets = packets;
  r.figures.sub_mss_packets = sub_mss;
  r.figures.sizes = std::move(sizes);
  return r;
}

TEST(FormatJson, OneEntryPerCellWithKernelRangesAndModelDistances) {
  Workload w;
  w.messages = 10;
  Cell c;
  c.variant = Variant::kV1Cork;
  c.io = IoMode::kBlocking;
  c.placement = Placement::kReceiverCpu;
  // Two valid runs: 100 packets (10 sub-MSS) and 110 packets (30 sub-MSS);
  // per message 1.0 and 3.0 -> mean 2.0, range [1, 3]; packets mean 105.
  c.runs.push_back(ValidRun(100, 10, {{1448, 90}, {21, 10}}));
  c.runs.push_back(ValidRun(110, 30, {{1448, 80}, {21, 30}}));
  RunOutcome bad;
  bad.invalid_reason = "tcpdump dropped 3 packets";
  c.runs.push_back(bad);
  // Model: 126 packets, sizes 1448 x 105 + 21 x 21. Kernel pooled: 1448 x 170,
  // 21 x 40 of 210. TVD = |170/210 - 105/126| = |0.809524 - 0.833333| = 0.0238095.
  c.model = Model(126, 2.1, {{1448, 105}, {21, 21}});
  c.model->sub_mss_by_reason = {{"tsq", 21}};
  c.model->autocorks = 50;
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  const nlohmann::json& e = j[0];
  EXPECT_EQ(e["variant"], "v1-cork");
  EXPECT_EQ(e["io"], "blocking");
  EXPECT_EQ(e["placement"], "rx-on-receiver-cpu");
  EXPECT_EQ(e["valid_runs"], 2);
  EXPECT_EQ(e["invalid_runs"].size(), 1u);
  EXPECT_DOUBLE_EQ(e["kernel_packets"].get<double>(), 105.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["mean"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["max"].get<double>(), 3.0);
  EXPECT_EQ(e["model_packets"], 126);
  EXPECT_DOUBLE_EQ(e["model_sub_mss_per_msg"].get<double>(), 2.1);
  EXPECT_NEAR(e["tvd"].get<double>(), 105.0 / 126 - 170.0 / 210, 1e-12);
  EXPECT_NEAR(e["packet_ratio"].get<double>(), 126.0 / 105, 1e-12);
  EXPECT_EQ(e["kernel_top_sizes"][0]["size"], 1448);
  // Whole distributions, the kernel's pooled over the valid runs.
  EXPECT_EQ(e["kernel_sizes"], nlohmann::json({{"1448", 170}, {"21", 40}}));
  EXPECT_EQ(e["model_sizes"], nlohmann::json({{"1448", 105}, {"21", 21}}));
  EXPECT_EQ(e["model_sub_mss_by_push"], nlohmann::json({{"tsq", 21}}));
  EXPECT_DOUBLE_EQ(e["model_autocorks_per_msg"].get<double>(), 5.0);
  EXPECT_TRUE(e["kernel_autocorks_per_msg"].is_null());  // no run read the counter
  // 2.1 in [1, 3], top sizes 1448, 21 on both sides, tvd 0.024: the goal.
  EXPECT_EQ(e["model_goal"]["met"], true);
  EXPECT_TRUE(e.find("reference_goal") == e.end());
}

// The kernel: sub-MSS per message in [2, 3], sizes 1448 x 80, 21 x 10,
// 1000 x 6, 500 x 4 of 100 (top 3: 1448, 21, 1000).
CellSummary GoalKernel() {
  CellSummary k;
  k.valid_runs = 2;
  k.sub_mss_per_msg = Summary{2.5, 2.0, 3.0, 2};
  k.sizes = {{1448, 80}, {21, 10}, {1000, 6}, {500, 4}};
  k.top_sizes = TopSizes(k.sizes, 3);
  return k;
}

// A: 2.5 inside; 1448 x 80, 21 x 10, 1000 x 7, 500 x 3: the same top 3, tvd
// (|0.06 - 0.07| + |0.04 - 0.03|) / 2 = 0.01: met. B: 3.01 outside; 1448 x
// 70, 500 x 12, 21 x 10, 1000 x 8: top 3 1448, 500, 21, tvd (0.10 + 0.02 +
// 0.08) / 2 = 0.10. At the range's edge (3.0) a candidate is inside.
TEST(JudgeGoal, EachPartByHand) {
  const CellSummary k = GoalKernel();
  std::optional<GoalVerdict> a = JudgeGoal(k, 2.5, {{1448, 80}, {21, 10}, {1000, 7}, {500, 3}});
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->inside_range);
  EXPECT_TRUE(a->same_top3);
  EXPECT_NEAR(a->tvd, 0.01, 1e-12);
  EXPECT_TRUE(a->met());
  std::optional<GoalVerdict> b = JudgeGoal(k, 3.01, {{1448, 70}, {500, 12}, {21, 10}, {1000, 8}});
  ASSERT_TRUE(b.has_value());
  EXPECT_FALSE(b->inside_range);
  EXPECT_FALSE(b->same_top3);
  EXPECT_NEAR(b->tvd, 0.10, 1e-12);
  EXPECT_FALSE(b->met());
  EXPECT_TRUE(JudgeGoal(k, 3.0, k.sizes)->met());
  CellSummary none;
  EXPECT_FALSE(JudgeGoal(none, 2.5, k.sizes).has_value());
}

// Two recorded cells: the model meets the goal in the first only (candidate A
// above; B in the second); a reference recording in the second only, with
// A's figures. One line each, and the reference's fields in the JSON.
TEST(FormatGoalSummary, ModelAndReferenceLines) {
  Workload w;
  w.messages = 10;
  Cell c1;
  c1.recorded = GoalKernel();
  c1.model = Model(100, 2.5, {{1448, 80}, {21, 10}, {1000, 7}, {500, 3}});
  Cell c2 = c1;
  c2.model = Model(100, 3.01, {{1448, 70}, {500, 12}, {21, 10}, {1000, 8}});
  CellSummary ref = GoalKernel();
  ref.sub_mss_per_msg = Summary{2.5, 2.4, 2.6, 5};
  ref.sizes = {{1448, 80}, {21, 10}, {1000, 7}, {500, 3}};
  c2.reference = ref;
  EXPECT_EQ(FormatGoalSummary({c1, c2}, w),
            "goal, the model: met in 1 of 2 cells (inside the kernel's range 1, same top 3 sizes 1, tvd <= 0.05 1; "
            "mean tvd 0.0550)\n"
            "goal, the reference recording's kernel runs (--reference_json) in the model's place: met in 1 of 1 "
            "cells (inside the kernel's range 1, same top 3 sizes 1, tvd <= 0.05 1; mean tvd 0.0100)\n");
  nlohmann::json j = nlohmann::json::parse(FormatJson({c1, c2}, w, false));
  EXPECT_EQ(j[1]["model_goal"]["met"], false);
  EXPECT_EQ(j[1]["reference_goal"]["met"], true);
  EXPECT_DOUBLE_EQ(j[1]["reference_sub_mss_per_msg"]["mean"].get<double>(), 2.5);
}

TEST(FormatJson, ModelFieldsAreNullWhenTheModelIsUnavailable) {
  Workload w;
  Cell c;
  c.runs.push_back(ValidRun(100, 10, {{1448, 100}}));
  c.model_error = "not built";
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  EXPECT_TRUE(j[0]["model_packets"].is_null());
  EXPECT_TRUE(j[0]["model_sub_mss_per_msg"].is_null());
  EXPECT_TRUE(j[0]["tvd"].is_null());
  EXPECT_TRUE(j[0]["model_sizes"].is_null());
  const std::string table = FormatTable({c}, w, false);
  EXPECT_NE(table.find("model: not built"), std::string::npos);
}

// The testbed's costs pool over valid runs: (1000 + 3000) ns CPU over
// (10 + 10) calls = 200 ns per call; 2e6 bytes read in (1 + 1) ms of recv
// CPU = 1e9 bytes/s, in 40 + 60 reads = 20000 bytes per read and
// 100 / (2 runs x 10 messages) = 5 reads per message. ACKs: 30 and 50 over
// 10 messages: 3 and 5 per message.
TEST(SummarizeCell, PoolsTheTestbedsCostsAndAcks) {
  Workload w;
  w.messages = 10;
  Cell c;
  RunOutcome a = ValidRun(100, 10, {{1448, 100}});
  a.traffic.send_calls = 10;
  a.traffic.send_cpu_ns = 1000;
  a.traffic.sender_thread_cpu_ns = 1500;
  a.traffic.bytes_received = 1'000'000;
  a.traffic.read_cpu_ns = 1'000'000;
  a.traffic.reads = 40;
  a.figures.acks = 30;
  RunOutcome b = a;
  b.traffic.send_cpu_ns = 3000;
  b.traffic.sender_thread_cpu_ns = 4000;
  b.traffic.reads = 60;
  b.figures.acks = 50;
  // Backlog delays: run a (p5 1, median 10, mean 20 us), run b (3, 30, 40):
  // averaged 2 / 20 / 30 us.
  a.delays = DelaySummary{100, 1'000, 10'000, 20'000};
  b.delays = DelaySummary{100, 3'000, 30'000, 40'000};
  // Autocork counts 20 and 40 over 10 messages: 2 and 4 per message; run b
  // could not read the receiver's counter (-1), so DelayedACKs has run a only.
  a.traffic.autocorks = 20;
  b.traffic.autocorks = 40;
  a.traffic.delayed_acks = 5;
  // Run delay: run a waited 400 ns over its 10 calls, run b could not read
  // schedstat (-1): 40 ns per call, over run a's calls only.
  a.traffic.sender_run_delay_ns = 400;
  c.runs = {a, b};
  const CellSummary s = SummarizeCell(c, w);
  EXPECT_DOUBLE_EQ(s.call_cpu_ns, 200.0);
  EXPECT_DOUBLE_EQ(s.run_delay_per_call_ns, 40.0);
  // Between calls: thread CPU 1500 + 4000 minus the calls' 1000 + 3000,
  // over 20 calls: 1500 / 20 = 75 ns.
  EXPECT_DOUBLE_EQ(s.between_calls_cpu_ns, 75.0);
  EXPECT_DOUBLE_EQ(s.autocorks_per_msg.mean, 3.0);
  EXPECT_EQ(s.delayed_acks_per_msg.n, 1u);
  EXPECT_DOUBLE_EQ(s.delayed_acks_per_msg.mean, 0.5);
  EXPECT_DOUBLE_EQ(s.recv_cpu_bytes_per_sec, 1e9);
  EXPECT_DOUBLE_EQ(s.bytes_per_read, 20000.0);
  EXPECT_DOUBLE_EQ(s.reads_per_msg, 5.0);
  EXPECT_DOUBLE_EQ(s.acks_per_msg.min, 3.0);
  EXPECT_DOUBLE_EQ(s.acks_per_msg.max, 5.0);
  EXPECT_DOUBLE_EQ(s.delay_p5_ns, 2'000.0);
  EXPECT_DOUBLE_EQ(s.delay_median_ns, 20'000.0);
  EXPECT_DOUBLE_EQ(s.delay_mean_ns, 30'000.0);
  c.model = Model(100, 1.0, {{1448, 100}});
  c.model->acks = 42;
  c.model->bytes_per_sec = 250e6;
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  EXPECT_DOUBLE_EQ(j[0]["kernel_acks_per_msg"]["mean"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j[0]["model_mbytes_per_sec"].get<double>(), 250.0);
  EXPECT_DOUBLE_EQ(j[0]["model_acks_per_msg"].get<double>(), 4.2);
  EXPECT_DOUBLE_EQ(j[0]["kernel_call_cpu_us"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(j[0]["kernel_backlog_delay_us"]["mean"].get<double>(), 30.0);
}

// Traced socket holds pool over the runs that have them. Every fitted call
// lies on 1000 + 500 x segments ns: run a 8 calls of 4 segments (3000 ns)
// and 2 with receive work inline (mean of its 10 calls 5000 ns); run b 30
// calls of 0 segments (1000 ns). Pooled: 40 calls, mean (10 x 5000 + 30 x
// 1000) / 40 = 2000 ns; without receive work (8 x 3000 + 30 x 1000) / 38;
// the line 1000 + 500 x.
TEST(SummarizeCell, PoolsTheTracedHolds) {
  Workload w;
  w.messages = 10;
  Cell c;
  RunOutcome a = ValidRun(100, 10, {{1448, 100}});
  RunOutcome b = a;
  HoldSummary ha;
  ha.calls = 10;
  ha.mean_ns = 5'000;
  ha.calls_with_receive = 2;
  for (int i = 0; i < 8; ++i) ha.fit.Add(4, 3'000);
  HoldSummary hb;
  hb.calls = 30;
  hb.mean_ns = 1'000;
  for (int i = 0; i < 30; ++i) hb.fit.Add(0, 1'000);
  a.holds = ha;
  b.holds = hb;
  c.runs = {a, b, ValidRun(100, 10, {{1448, 100}})};  // the third traced nothing
  const CellSummary s = SummarizeCell(c, w);
  EXPECT_EQ(s.hold_calls, 40u);
  EXPECT_DOUBLE_EQ(s.hold_mean_ns, 2'000.0);
  EXPECT_DOUBLE_EQ(s.hold_mean_without_receive_ns, (8 * 3'000.0 + 30 * 1'000.0) / 38);
  EXPECT_NEAR(s.hold_base_ns, 1'000.0, 1e-6);
  EXPECT_NEAR(s.hold_ns_per_segment, 500.0, 1e-6);
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  EXPECT_DOUBLE_EQ(j[0]["kernel_call_hold_us"]["mean"].get<double>(), 2.0);
  EXPECT_EQ(j[0]["kernel_call_hold_us"]["calls"], 40);
}

// With traced holds the model's call holds the socket for their base plus
// their part per segment (2000 + 700 x), and the thread's CPU per call
// beyond the mean hold of calls without receive work (11000 - 2700 ns) is
// CPU between calls: 3900 + 8300 = 12200 ns. Without `hold`, the CPU fit
// (4000 + 5500 x) and the measured 3900 between calls.
TEST(CalibrateFromKernel, TracedHoldsSetTheCallAndTheRestGoesBetweenCalls) {
  CellSummary ks;
  ks.call_cpu_ns = 11'000;
  ks.between_calls_cpu_ns = 3'900;
  ks.call_base_cpu_ns = 4'000;
  ks.xmit_cpu_ns_per_segment = 5'500;
  ks.hold_calls = 100;
  ks.hold_mean_ns = 5'900;
  ks.hold_mean_without_receive_ns = 2'700;
  ks.hold_base_ns = 2'000;
  ks.hold_ns_per_segment = 700;
  Calibration traced;
  traced.hold = true;
  ModelSettings s;
  CalibrateFromKernel(ks, traced, &s);
  EXPECT_EQ(s.scenario.call_cost_ns, 2'000u);
  EXPECT_EQ(s.scenario.host.xmit_cost_ns, 700);
  EXPECT_EQ(s.between_calls_ns, 12'200);
  Calibration cpu;
  ModelSettings t;
  CalibrateFromKernel(ks, cpu, &t);
  EXPECT_EQ(t.scenario.call_cost_ns, 4'000u);
  EXPECT_EQ(t.scenario.host.xmit_cost_ns, 5'500);
  EXPECT_EQ(t.between_calls_ns, 3'900);
  // The thread's wait for its CPU (600 ns per call) comes on top, in both
  // ways, unless `run_delay` is off.
  ks.run_delay_per_call_ns = 600;
  CalibrateFromKernel(ks, cpu, &t);
  EXPECT_EQ(t.between_calls_ns, 4'500);
  CalibrateFromKernel(ks, traced, &s);
  EXPECT_EQ(s.between_calls_ns, 12'800);
  cpu.run_delay = false;
  CalibrateFromKernel(ks, cpu, &t);
  EXPECT_EQ(t.between_calls_ns, 3'900);
}

// Reader wakeup from one read cycle, B = R (W + B / C): 30000-byte reads at
// R = 200 MB/s and C = 1 GB/s give W = 150 us - 30 us = 120 us.
TEST(CalibrateFromKernel, SenderCostReaderRateAndWakeup) {
  CellSummary ks;
  ks.mbytes_per_sec.n = 1;
  ks.mbytes_per_sec.mean = 200;
  ks.call_cpu_ns = 12345.6;
  ks.recv_cpu_bytes_per_sec = 1e9;
  ks.bytes_per_read = 30000;
  ModelSettings s;
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.scenario.call_cost_ns, 12346u);
  EXPECT_EQ(s.scenario.receiver.app_read_bytes_per_sec, 1'000'000'000u);
  EXPECT_EQ(s.scenario.host.app_read_wakeup_ns, 120'000);
  // A reader slower than the data (C < R) never sleeps: W = 0.
  ks.recv_cpu_bytes_per_sec = 100e6;
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.scenario.host.app_read_wakeup_ns, 0);
  // Delay: base = p5 (2 us), spread = mean - p5 = 25 - 2 = 23 us.
  ks.delay_p5_ns = 2'000;
  ks.delay_mean_ns = 25'000;
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.scenario.rtt_ns, 4'000u);  // one way 2 us
  EXPECT_EQ(s.scenario.host.data_delay_spread_ns, 23'000);
  // What a flag pins stays.
  ModelSettings pinned;
  pinned.scenario.call_cost_ns = 7;
  pinned.scenario.rtt_ns = 10;
  ks.call_base_cpu_ns = 2'000;
  ks.xmit_cpu_ns_per_segment = 4'000;
  ks.between_calls_cpu_ns = 1'500;
  Calibration none;
  none.call_cost = none.xmit_cost = none.between_calls = none.read_rate = none.read_wakeup = none.delay = false;
  CalibrateFromKernel(ks, none, &pinned);
  EXPECT_EQ(pinned.scenario.rtt_ns, 10u);
  EXPECT_EQ(pinned.scenario.host.data_delay_spread_ns, 0);
  EXPECT_EQ(pinned.scenario.call_cost_ns, 7u);
  EXPECT_EQ(pinned.scenario.receiver.app_read_bytes_per_sec, 0u);
  EXPECT_EQ(pinned.scenario.host.app_read_wakeup_ns, 0);
  EXPECT_EQ(pinned.scenario.host.xmit_cost_ns, 0);
  EXPECT_EQ(pinned.between_calls_ns, 0);
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.between_calls_ns, 1'500);
}

// With the call fit the cost splits: base 2 us + 4 us per segment sent in
// place of the 12.3 us mean. Pinning xmit_cost (flag) keeps the flat mean.
TEST(CalibrateFromKernel, CallFitSplitsTheCost) {
  CellSummary ks;
  ks.call_cpu_ns = 12345.6;
  ks.call_base_cpu_ns = 2'000.4;
  ks.xmit_cpu_ns_per_segment = 3'999.6;
  ModelSettings s;
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.scenario.call_cost_ns, 2'000u);
  EXPECT_EQ(s.scenario.host.xmit_cost_ns, 4'000);
  ModelSettings flat;
  Calibration no_split;
  no_split.xmit_cost = false;
  CalibrateFromKernel(ks, no_split, &flat);
  EXPECT_EQ(flat.scenario.call_cost_ns, 12'346u);
  EXPECT_EQ(flat.scenario.host.xmit_cost_ns, 0);
}

// A measured receiving-CPU queue replaces the spread; without rx_cpu_queue
// the spread stays and the queue is off.
TEST(CalibrateFromKernel, ReceivingCpuQueue) {
  CellSummary ks;
  ks.delay_p5_ns = 2'000;
  ks.delay_mean_ns = 25'000;
  ks.rx_service_ns = 1'200.4;
  ks.rx_wakeup_ns = 18'999.6;
  ModelSettings s;
  CalibrateFromKernel(ks, Calibration{}, &s);
  EXPECT_EQ(s.scenario.rtt_ns, 4'000u);  // one way 2 us
  EXPECT_EQ(s.scenario.host.rx_cpu_service_ns, 1'200);
  EXPECT_EQ(s.scenario.host.rx_cpu_wakeup_ns, 19'000);
  ModelSettings spread;
  Calibration no_queue;
  no_queue.rx_cpu_queue = false;
  CalibrateFromKernel(ks, no_queue, &spread);
  EXPECT_EQ(spread.scenario.host.data_delay_spread_ns, 23'000);
  EXPECT_EQ(spread.scenario.host.rx_cpu_service_ns, 0);
  EXPECT_EQ(spread.scenario.host.rx_cpu_wakeup_ns, 0);
  // One backlog on the sender's CPU: the wakeup is the deferred packets'
  // wait (the IPI), 48.5 us, not the idle packets' mean.
  ks.rx_deferred_ns = 48'500;
  ModelSettings rps;
  rps.scenario.host.rps_backlog_on_sender_cpu = true;
  CalibrateFromKernel(ks, Calibration{}, &rps);
  EXPECT_EQ(rps.scenario.host.rx_cpu_wakeup_ns, 48'500);
  EXPECT_EQ(rps.scenario.host.rx_cpu_service_ns, 1'200);
}

// Kernel mean 21 us; the model's run gave p5 4 us and mean 12.5 us:
// factor (21 - 4) / (12.5 - 4) = 2, so a 10 us wakeup becomes 20 us. A model
// mean within 5 % (20.5 us) stops; a huge gap is held to 4x.
TEST(RefitWakeup, ScalesTheWakeupTowardsTheKernelsMeanDelay) {
  CellSummary ks;
  ks.delay_mean_ns = 21'000;
  DelaySummary m;
  m.packets = 100;
  m.p5_ns = 4'000;
  m.mean_ns = 12'500;
  ModelSettings s;
  s.scenario.host.rx_cpu_wakeup_ns = 10'000;
  EXPECT_TRUE(RefitWakeup(ks, m, &s));
  EXPECT_EQ(s.scenario.host.rx_cpu_wakeup_ns, 20'000);
  m.mean_ns = 20'500;
  EXPECT_FALSE(RefitWakeup(ks, m, &s));
  EXPECT_EQ(s.scenario.host.rx_cpu_wakeup_ns, 20'000);
  m.mean_ns = 4'500;  // (21 - 4) / 0.5 = 34 -> 4
  EXPECT_TRUE(RefitWakeup(ks, m, &s));
  EXPECT_EQ(s.scenario.host.rx_cpu_wakeup_ns, 80'000);
  ModelSettings no_queue;  // wakeup 0: the spread model, nothing to refit
  EXPECT_FALSE(RefitWakeup(ks, m, &no_queue));
}

// SummarizeCell pools the runs' sampled calls before fitting: run 1 has
// calls of 0 segments at 1 us, run 2 calls of 2 segments at 7 us (ten
// each, so neither run alone can be fitted): base 1 us, 3 us per segment.
TEST(SummarizeCell, PoolsTheCallFitOverRuns) {
  Workload w;
  w.messages = 10;
  Cell c;
  RunOutcome a, b;
  a.valid = b.valid = true;
  for (int i = 0; i < 10; ++i) {
    a.traffic.call_fit.Add(0, 1'000);
    b.traffic.call_fit.Add(2, 7'000);
  }
  c.runs = {a, b};
  const CellSummary s = SummarizeCell(c, w);
  EXPECT_EQ(s.call_samples, 20u);
  EXPECT_NEAR(s.call_base_cpu_ns, 1'000, 1e-6);
  EXPECT_NEAR(s.xmit_cpu_ns_per_segment, 3'000, 1e-6);
}

}  // namespace
}  // namespace sendsim::kernelcmp
