#ifndef SENDSIM_CLI_BUDGET_H_
#define SENDSIM_CLI_BUDGET_H_

// What a command line will cost, estimated before anything runs, so that a
// run needing more memory or time than the limits is refused up front with
// the estimate and the flag that allows it, instead of crashing or running
// for days.

#include <cstdint>

#include "absl/status/status.h"
#include "model/event_loop.h"
#include "model/types.h"
#include "scenario/scenario.h"

namespace sendsim::cli {

// Defaults of --max-memory-mb and --max-minutes.
inline constexpr uint64_t kDefaultMaxMemoryMb = 4096;
inline constexpr uint64_t kDefaultMaxMinutes = 60;

// Measured per-message state of one run in flight (the workload's message
// spec, the driver's record, the completion time, the sequence index), and
// the completion time every finished run keeps for the percentiles
// (docs/notes/2026-12-03-bad-input-and-outputs.md).
inline constexpr uint64_t kBytesPerMessageInFlight = 200;
inline constexpr uint64_t kBytesPerMessageKept = 8;
// Fixed cost of one run (model, pools, page contents), generous.
inline constexpr uint64_t kBytesPerRun = 16ull << 20;
// CPU cost of the simulation, measured with -c opt on this project's
// reference machine (same note): per message and per payload byte.
inline constexpr double kCpuNsPerMessage = 4000;
inline constexpr double kCpuNsPerByte = 0.25;

// A lower bound of one run's simulated time: every message's smallest
// payload crosses the link once, and with a queue depth each batch of
// requests waits for the OSD's reply.
double MinSimulatedSeconds(const scenario::Scenario& s);

// When a run counts as stuck: an hour of simulated time beyond twice that
// lower bound, so that a slow link or slow replies are not mistaken for a
// stall (a fixed hour failed --link-mbps=1 with the default workload).
model::TimeNs SimulatedHorizonNs(const scenario::Scenario& s);

struct Budget {
  uint64_t runs = 0;             // writers x seeds
  uint64_t concurrent = 0;       // runs in flight at once
  uint64_t memory_bytes = 0;     // peak estimate
  double cpu_seconds = 0;        // all runs
  double wall_seconds = 0;       // cpu_seconds spread over the threads
  double min_simulated_s = 0;    // lower bound of one run's simulated time
};

// `threads`: --threads after defaulting (>= 1).
Budget EstimateBudget(const scenario::Scenario& s, uint32_t threads);

// InvalidArgument naming the estimate and the overriding flag when the
// budget exceeds a limit (every limit exceeded, in one line).
absl::Status CheckBudget(const Budget& b, uint64_t max_memory_mb, uint64_t max_minutes);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_BUDGET_H_
