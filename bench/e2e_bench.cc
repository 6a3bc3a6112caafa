// BM_EndToEnd: the whole pipeline as `sendsim` runs it (messenger writer,
// model, peer, decoder verifying every crc and payload byte), in simulated
// wire packets per second, for the default scenario cut to N messages and
// one writer. ratio_main.cc prints it against BM_PagewiseStream, the model
// alone, from the same run.

#include <cstdint>

#include "benchmark/benchmark.h"
#include "cli/runner.h"
#include "scenario/scenario.h"

namespace sendsim::cli {

using scenario::Scenario;
using scenario::WriterSpec;
namespace {

void BM_EndToEnd(benchmark::State& state) {
  Scenario s;  // the default scenario
  s.messages = static_cast<uint64_t>(state.range(0));
  const WriterSpec writer{"v1-notlast", ""};
  uint64_t packets = 0;
  for (auto _ : state) {
    absl::StatusOr<RunResult> r = RunOne(s, writer, nullptr, {});
    if (!r.ok()) {
      state.SkipWithError(std::string(r.status().message()).c_str());
      return;
    }
    packets += r->packets;
  }
  state.SetItemsProcessed(static_cast<int64_t>(packets));
  state.counters["packets_per_run"] = static_cast<double>(packets) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_EndToEnd)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sendsim::cli
