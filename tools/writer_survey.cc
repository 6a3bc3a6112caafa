// Runs the same krbd write workload through every writer on every kernel
// profile and prints a table: packets, sub-MSS packets and the most common
// sub-MSS sizes, EAGAINs, and message completion latency. An exploration
// tool (not part of the test suite).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "messenger/workload_driver.h"
#include "model/profile.h"
#include "scenario/scenario.h"
#include "scenario/simulation.h"

ABSL_FLAG(uint64_t, count, 200, "messages");
ABSL_FLAG(uint64_t, kib, 128, "data KiB per message");
ABSL_FLAG(uint32_t, front, 192, "front length in bytes");
ABSL_FLAG(uint64_t, interval_us, 0, "submission interval (0: all at once)");
ABSL_FLAG(uint32_t, queue_depth, 32, "outstanding requests (0: unlimited)");
ABSL_FLAG(std::string, writers, "", "comma-separated writers (default: all)");

namespace sendsim::messenger {
namespace {

// 10 GbE, RTT 50 us, calls of 300 ns, TX completion at the last bit, a peer
// that decides on every segment at once (no GRO, no ACK latency).
scenario::Scenario SurveyScenario() {
  scenario::Scenario s;
  s.call_cost_ns = 300;
  s.tx_completion_ns = 0;
  s.gro = scenario::GroMode::kOff;
  s.gro_flush_ns = 0;
  s.ack_proc_ns = 0;
  return s;
}

int Main() {
  std::vector<std::string> writers = WriterNames();
  if (!absl::GetFlag(FLAGS_writers).empty()) {
    writers.clear();
    const std::vector<std::string> names = absl::StrSplit(absl::GetFlag(FLAGS_writers), ',');
    for (const std::string& w : names) {
      if (absl::StatusOr<WriterKind> k = ParseWriterKind(w); !k.ok()) {
        std::fprintf(stderr, "error: %s\n", std::string(k.status().message()).c_str());
        return 2;
      }
      writers.push_back(w);
    }
  }
  if (absl::GetFlag(FLAGS_count) == 0 || absl::GetFlag(FLAGS_kib) > 4 * 1024 * 1024) {
    std::fprintf(stderr, "error: --count must be > 0 and --kib <= 4194304\n");
    return 2;
  }
  std::printf("%-10s %-11s %8s %8s %8s %6s %9s %9s  %s\n", "profile", "writer", "packets", "sub-mss", "eagain",
              "runs", "p50_us", "p99_us", "top sub-MSS sizes (count)");
  for (const std::string& pname : model::ProfileNames()) {
    for (const std::string& wname : writers) {
      scenario::Simulation sim;
      sim.scenario = SurveyScenario();
      sim.scenario.kernel = pname;
      DriverOptions dopt;
      dopt.queue_depth = absl::GetFlag(FLAGS_queue_depth);
      dopt.verify_payload = false;
      ConnectionOptions copt;
      copt.policy = MakeWriterPolicy(*ParseWriterKind(wname));
      scenario::MessengerWorkload app(
          KrbdWrites(absl::GetFlag(FLAGS_count), absl::GetFlag(FLAGS_kib) * 1024, absl::GetFlag(FLAGS_front),
                     static_cast<model::TimeNs>(absl::GetFlag(FLAGS_interval_us)) * model::kNsPerUs),
          dopt, copt);
      absl::StatusOr<scenario::SimulationResult> run = sim.Run(app);
      if (!run.ok()) {
        std::fprintf(stderr, "error: %s\n", std::string(run.status().message()).c_str());
        return 1;
      }
      const WorkloadDriver& driver = app.driver();
      if (absl::Status s = driver.Finish(); !s.ok()) {
        std::fprintf(stderr, "error: %s/%s: %s\n", pname.c_str(), wname.c_str(), std::string(s.message()).c_str());
        return 1;
      }
      const uint32_t mss = sim.scenario.mss;
      const model::PacketHistogram& h = run->histogram;
      std::vector<std::pair<uint64_t, uint32_t>> small;
      uint64_t sub = 0;
      for (uint32_t len = 1; len < mss && len < h.counts.size(); ++len) {
        if (h.counts[len] > 0) {
          small.push_back({h.counts[len], len});
          sub += h.counts[len];
        }
      }
      std::sort(small.begin(), small.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
      std::vector<std::string> top;
      for (size_t i = 0; i < small.size() && i < 6; ++i) top.push_back(absl::StrFormat("%u(%u)", small[i].second, small[i].first));
      std::vector<model::TimeNs> lat;
      for (const MessageRecord& r : driver.records()) lat.push_back(r.completion_ns());
      std::sort(lat.begin(), lat.end());
      auto pct = [&lat](double p) { return lat[static_cast<size_t>(p * (lat.size() - 1))] / 1000.0; };
      std::printf("%-10s %-11s %8lu %8lu %8lu %6lu %9.1f %9.1f  %s\n", pname.c_str(), wname.c_str(),
                  static_cast<unsigned long>(h.packets), static_cast<unsigned long>(sub),
                  static_cast<unsigned long>(run->counters.eagains),
                  static_cast<unsigned long>(app.driver().connection().worker_runs()), pct(0.5), pct(0.99),
                  absl::StrJoin(top, " ").c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace sendsim::messenger

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return sendsim::messenger::Main();
}
