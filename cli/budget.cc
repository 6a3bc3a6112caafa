#include "cli/budget.h"

#include <algorithm>
#include <cmath>

#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::cli {

double MinSimulatedSeconds(const scenario::Scenario& s) {
  uint64_t smallest = UINT64_MAX;
  for (const scenario::SizeMixEntry& e : s.sizes) smallest = std::min(smallest, e.bytes);
  if (smallest == UINT64_MAX) smallest = 0;
  const double wire_s = static_cast<double>(s.messages) * static_cast<double>(smallest) * 8.0 /
                        (static_cast<double>(std::max<uint64_t>(s.link_mbps, 1)) * 1e6);
  const double reply_s = s.queue_depth == 0 ? 0
                                            : static_cast<double>(s.messages / s.queue_depth) *
                                                  static_cast<double>(s.osd_reply_ns) / 1e9;
  return std::max(wire_s, reply_s);
}

model::TimeNs SimulatedHorizonNs(const scenario::Scenario& s) {
  constexpr model::TimeNs kStuckAfterNs = 3600 * model::kNsPerSec;
  return kStuckAfterNs + 2 * static_cast<model::TimeNs>(std::llround(MinSimulatedSeconds(s) * 1e9));
}

Budget EstimateBudget(const scenario::Scenario& s, uint32_t threads) {
  Budget b;
  b.runs = static_cast<uint64_t>(s.writers.size()) * s.seeds;
  b.concurrent = std::min<uint64_t>(std::max<uint32_t>(threads, 1), b.runs);
  uint64_t weight = 0;
  double weighted_bytes = 0;
  for (const scenario::SizeMixEntry& e : s.sizes) {
    weight += e.weight;
    weighted_bytes += static_cast<double>(e.bytes) * e.weight;
  }
  const double mean_bytes = weight > 0 ? weighted_bytes / static_cast<double>(weight) : 0;
  // Saturating: the product of in-range knobs can pass 64 bits.
  const double mem = static_cast<double>(b.concurrent) * (static_cast<double>(s.messages) * kBytesPerMessageInFlight +
                                                          kBytesPerRun) +
                     static_cast<double>(b.runs) * static_cast<double>(s.messages) * kBytesPerMessageKept;
  b.memory_bytes = mem >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(mem);
  const double per_run_ns = static_cast<double>(s.messages) * (kCpuNsPerMessage + mean_bytes * kCpuNsPerByte);
  b.cpu_seconds = per_run_ns * static_cast<double>(b.runs) / 1e9;
  b.wall_seconds = b.cpu_seconds / static_cast<double>(b.concurrent);
  b.min_simulated_s = MinSimulatedSeconds(s);
  return b;
}

namespace {

std::string Duration(double seconds) {
  if (seconds >= 2 * 86400) return absl::StrFormat("%.1f days", seconds / 86400);
  if (seconds >= 2 * 3600) return absl::StrFormat("%.1f hours", seconds / 3600);
  if (seconds >= 120) return absl::StrFormat("%.0f minutes", seconds / 60);
  return absl::StrFormat("%.0f s", seconds);
}

}  // namespace

absl::Status CheckBudget(const Budget& b, uint64_t max_memory_mb, uint64_t max_minutes) {
  std::vector<std::string> over;
  const double mem_mb = static_cast<double>(b.memory_bytes) / (1 << 20);
  if (mem_mb > static_cast<double>(max_memory_mb)) {
    over.push_back(absl::StrFormat("estimated memory %.0f MiB (%d runs, %d at once) exceeds the %d MiB limit "
                                   "(fewer messages, seeds, writers or --threads, or --max-memory-mb=%.0f)",
                                   mem_mb, b.runs, b.concurrent, max_memory_mb, mem_mb + 1));
  }
  if (b.wall_seconds > static_cast<double>(max_minutes) * 60) {
    over.push_back(absl::StrFormat(
        "estimated run time %s (%s of CPU over %d threads) exceeds the %d-minute limit (--max-minutes=%.0f)",
        Duration(b.wall_seconds), Duration(b.cpu_seconds), b.concurrent, max_minutes, b.wall_seconds / 60 + 1));
  }
  if (over.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(over, "; "));
}

}  // namespace sendsim::cli
