#include "benchmark/benchmark.h"
static void BM(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(s.iterations()); }
BENCHMARK(BM);
