// Property exploration throughput, in cases per second (items_per_second),
// for the properties the issue sets targets for (integrity on one-message
// layouts, exhaustive optimality in a quiescent network) and the other
// holding ones. Each BM_Explore_* does what `explore` does per case:
// generate the case from (seed, index), then check the property on the
// real model. BM_Check_* runs pre-generated cases only (the check's share),
// BM_Generate_* the generator only. ratio_main.cc prints every rate as a
// ratio to BM_PagewiseStream (model packets/s): the inverse of the ratio is
// a case's cost in model packets, and `packets_per_case` is what the case
// itself simulates, so overhead = (1 / ratio) / packets_per_case.

#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "props/explore_lib.h"
#include "props/generators.h"
#include "props/registry.h"
#include "props/run_case.h"

namespace sendsim::props {
namespace {

constexpr uint64_t kSeed = 1;

// The registry's limits, with one message per layout for BM_*_OneMessage.
CaseLimits LimitsFor(const std::string& property, bool one_message) {
  CaseLimits l = PropertyByName(property)->limits;
  if (one_message) l.layout.max_messages = 1;
  return l;
}

// Counts the packets the primary runs simulate (for packets_per_case).
struct CountingRunner {
  uint64_t packets = 0;
  absl::StatusOr<Outcome> operator()(const Case& c, RunDepth depth) {
    absl::StatusOr<Outcome> o = RunCase(c, depth);
    if (o.ok()) packets += o->packets.size();
    return o;
  }
};

// The exploration's speed targets, on one core with -c opt, printed next to the rates.
double TargetFor(const std::string& property, bool one_message) {
  if (property == "integrity" && one_message) return 10'000;
  if (property == "optimality_quiescent") return 500;
  return 0;
}

void Explore(benchmark::State& state, const std::string& property, bool one_message) {
  const PropertySpec spec = *PropertyByName(property);
  const CaseGenerator gen(LimitsFor(property, one_message));
  CountingRunner counter;
  const Runner run = [&counter](const Case& c, RunDepth d) { return counter(c, d); };
  uint64_t i = 0, fails = 0;
  for (auto _ : state) {
    std::optional<Case> c = gen.Draw(kSeed, i++);
    if (!c.has_value()) continue;
    const PropertyResult r = spec.check(*c, run);
    fails += r.verdict == Verdict::kFails ? 1 : 0;
  }
  if (fails > 0) state.SkipWithError("a holding property failed");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.counters["packets_per_case"] = static_cast<double>(counter.packets) / static_cast<double>(state.iterations());
  if (const double target = TargetFor(property, one_message); target > 0) state.counters["target_cases_per_s"] = target;
}

void Check(benchmark::State& state, const std::string& property, bool one_message) {
  const PropertySpec spec = *PropertyByName(property);
  const CaseGenerator gen(LimitsFor(property, one_message));
  std::vector<Case> cases;
  for (uint64_t i = 0; cases.size() < 512; ++i) {
    if (std::optional<Case> c = gen.Draw(kSeed, i)) cases.push_back(*std::move(c));
  }
  size_t k = 0;
  for (auto _ : state) {
    const PropertyResult r = spec.check(cases[k++ % cases.size()], RunCase);
    benchmark::DoNotOptimize(r.verdict);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void Generate(benchmark::State& state, const std::string& property, bool one_message) {
  const CaseGenerator gen(LimitsFor(property, one_message));
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(gen.Draw(kSeed, i++));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

BENCHMARK_CAPTURE(Explore, Integrity_OneMessage, "integrity", true)->MinTime(2);
BENCHMARK_CAPTURE(Check, Integrity_OneMessage, "integrity", true)->MinTime(1);
BENCHMARK_CAPTURE(Generate, Integrity_OneMessage, "integrity", true)->MinTime(1);
BENCHMARK_CAPTURE(Explore, OptimalityQuiescent, "optimality_quiescent", false)->MinTime(3);
BENCHMARK_CAPTURE(Explore, Integrity, "integrity", false)->MinTime(1);
BENCHMARK_CAPTURE(Explore, LowerBoundQuiescent, "lower_bound_quiescent", false)->MinTime(1);
BENCHMARK_CAPTURE(Explore, DeterminismInvariants, "determinism_invariants", false)->MinTime(1);
BENCHMARK_CAPTURE(Explore, DominanceNotlastLegacyQuiescent, "dominance_notlast_legacy_quiescent", false)->MinTime(1);

}  // namespace
}  // namespace sendsim::props
