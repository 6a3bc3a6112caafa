// BM_PagewiseStream: simulated wire packets per second of the model alone
// (no messenger, no payload bytes, no decoder) for a stream of 128 KiB
// pagewise writes (32 sendpage calls per message, post-patch flags),
// histogram-only output. Every benchmark binary links it: ratio_main.cc
// prints the other benchmarks as ratios to it.

#include <algorithm>

#include "benchmark/benchmark.h"
#include "bench/bench_scenario.h"
#include "scenario/simulation.h"

namespace sendsim::model {
namespace {

void BM_PagewiseStream(benchmark::State& state) {
  const uint64_t messages = static_cast<uint64_t>(state.range(0));
  scenario::Simulation sim;
  sim.scenario = bench::BenchScenario();
  sim.outputs = {.track_payload = false, .full_trace = false, .record_data_timing = false};
  sim.scenario.kernel = "linux-4.19";
  testing::MessageShape shape;
  shape.pages = 32;
  shape.notlast = true;
  uint64_t packets = 0;
  uint64_t events = 0;
  uint64_t max_queue = 0;
  for (auto _ : state) {
    bench::StreamApp app(shape, messages);
    absl::StatusOr<scenario::SimulationResult> r = sim.Run(app);
    if (!r.ok() || !app.done()) {
      state.SkipWithError("writer did not finish");
      break;
    }
    packets += r->histogram.packets;
    events += r->events_run;
    max_queue = std::max<uint64_t>(max_queue, r->max_queue_size);
    benchmark::DoNotOptimize(r->histogram.counts.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(packets));
  state.counters["events_per_packet"] = static_cast<double>(events) / static_cast<double>(packets);
  state.counters["max_queue"] = static_cast<double>(max_queue);
  state.counters["packets_per_run"] = static_cast<double>(packets) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PagewiseStream)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sendsim::model
