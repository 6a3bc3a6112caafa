// main() for sendsim's benchmarks: runs them as benchmark_main would, then
// prints each benchmark's items_per_second as a ratio to the model-only
// stream (BM_PagewiseStream, linked into every benchmark binary), so the
// overhead of everything around the model is visible in one run:
//   RATIO BM_EndToEnd/1000 = 0.62 x BM_PagewiseStream/1000 (6.1 M/s vs 9.8 M/s)
// With --benchmark_repetitions the ratio uses the mean aggregate.

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "benchmark/benchmark.h"

namespace {

constexpr char kBaseline[] = "BM_PagewiseStream";

// Keeps items_per_second per benchmark while the console output goes on as usual.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      auto it = run.counters.find("items_per_second");
      if (run.error_occurred || it == run.counters.end()) continue;
      const std::string name = run.run_name.str();
      const bool mean = run.run_type == Run::RT_Aggregate && run.aggregate_name == "mean";
      if (run.run_type == Run::RT_Aggregate && !mean) continue;
      Rate& rate = rates_[name];
      if (rate.from_mean && !mean) continue;  // a repetition after its mean: keep the mean
      if (rate.per_second == 0) order_.push_back(name);
      rate = {it->second.value, mean};
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void PrintRatios() const {
    double base = 0;
    std::string base_name;
    for (const std::string& name : order_) {
      if (absl::StartsWith(name, kBaseline)) {
        base = rates_.at(name).per_second;
        base_name = name;
        break;
      }
    }
    if (base <= 0) {
      std::printf("RATIO: no %s run to compare with\n", kBaseline);
      return;
    }
    for (const std::string& name : order_) {
      if (name == base_name) continue;
      const double r = rates_.at(name).per_second;
      std::printf("%s\n", absl::StrFormat("RATIO %s = %.4g x %s (%.4g/s vs %.4g/s)", name, r / base, base_name, r,
                                          base)
                              .c_str());
    }
  }

 private:
  struct Rate {
    double per_second = 0;
    bool from_mean = false;
  };
  std::map<std::string, Rate> rates_;
  std::vector<std::string> order_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  benchmark::Shutdown();
  return 0;
}
