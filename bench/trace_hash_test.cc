// Golden-trace check for performance work: the full WirePacket stream (both
// directions, every field incl. tag and time) of fixed 200-message runs is
// hashed and compared against hashes recorded BEFORE the optimisations
// (golden fixtures: the values are the model's own output at commit 2a0b5d0,
// by design -- this test guards "same results", not correctness). Re-recorded
// on 3 Dec 2026 when the model started to force PSH on every multi-segment
// transmitted skb (__tcp_transmit_skb): the peer's GRO flushes at
// each PSH, so ACKs (and in the slow-reader run the data packets) change.
// Optimisations of the event loop, link, NIC or peer must keep them.
// Re-recorded on 6 Dec 2026 for CUBIC's HyStart: the two linux-5.0 runs
// leave slow start early (same packet counts, other timing and ACKs).

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "model/testing/trace_hash.h"
#include "bench/bench_scenario.h"
#include "scenario/simulation.h"

namespace sendsim::model {
namespace {

using HashObserver = testing::TraceHashObserver;

struct HashRun {
  const char* profile;
  bool tso;
  GroMode gro;
  uint64_t app_read_bps;
  bool notlast;
};

HashObserver RunScenario(const HashRun& s) {
  // The benchmark's configuration, with the full trace on.
  scenario::Scenario sc = bench::BenchScenario();
  sc.tso = s.tso;
  sc.gro = s.gro == GroMode::kBatch ? scenario::GroMode::kBatch : scenario::GroMode::kOff;
  sc.gro_flush_ns = s.gro == GroMode::kBatch ? 2 * kNsPerUs : 0;
  sc.receiver.app_read_bytes_per_sec = s.app_read_bps;
  sc.kernel = s.profile;
  testing::MessageShape shape;
  shape.pages = 32;
  shape.notlast = s.notlast;
  HashObserver obs;
  bench::StreamApp app(shape, 200);
  scenario::Simulation sim;
  sim.scenario = sc;
  sim.outputs = {.track_payload = false, .full_trace = true, .record_data_timing = false};
  sim.observers = {&obs};
  EXPECT_TRUE(sim.Run(app).ok());
  EXPECT_TRUE(app.done());
  return obs;
}

TEST(TraceHash, BenchScenarioUnchanged) {
  const HashObserver h = RunScenario({"linux-4.19", true, GroMode::kOff, 0, true});
  EXPECT_EQ(h.packets, 27695u);
  EXPECT_EQ(h.hash, 849455032637015395u);
}

// Re-recorded on 3 Dec 2026 when the receiver's version rules moved into
// Profile: a linux-5.0 receiver now coalesces its socket backlog while the
// rate-limited reader holds the socket (Profile::rcv_backlog_coalesce), so
// its ACKs change; the data packets (count) did not.
TEST(TraceHash, GsoGroSlowReaderUnchanged) {
  const HashObserver h = RunScenario({"linux-5.0", false, GroMode::kBatch, 2'000'000'000, false});
  EXPECT_EQ(h.packets, 18521u);
  EXPECT_EQ(h.hash, 8837247261373086638u);
}

TEST(TraceHash, PrePatch50Unchanged) {
  const HashObserver h = RunScenario({"linux-5.0", true, GroMode::kOff, 0, false});
  EXPECT_EQ(h.packets, 27695u);
  EXPECT_EQ(h.hash, 9513809217285993243u);
}

}  // namespace
}  // namespace sendsim::model
