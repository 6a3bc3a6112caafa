#ifndef SENDSIM_CLI_SEED_RUNS_H_
#define SENDSIM_CLI_SEED_RUNS_H_

// The comparison under several seeds. Every (seed, writer) pair is one job;
// jobs go to a few threads and their results land by index, so what is
// printed never depends on the number of threads or on their timing.

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/progress.h"
#include "cli/run_result.h"
#include "scenario/scenario.h"
#include "model/observer.h"

namespace sendsim::cli {

// One run of every writer under one seed.
struct SeedRun {
  uint64_t seed = 0;
  std::vector<RunResult> results;  // the scenario's writers, in order
};

// One writer's run (the app passes RunOne or a test's stand-in).
// (The same type as app.h's RunFn.)
using SeedRunFn = std::function<absl::StatusOr<RunResult>(const scenario::Scenario&, const scenario::WriterSpec&, model::Observer* extra,
                                                          const ProgressFn& progress)>;

// Progress over all jobs, called with a lock held (so from one thread at a time).
using SeedProgressFn =
    std::function<void(size_t runs_done, size_t runs, uint64_t messages_done, uint64_t messages)>;

// Runs `s` under s.seed .. s.seed + s.seeds - 1 on up to `threads` threads
// (0: one per CPU). `first_seed_extra[w]` (may be empty or hold nulls) also
// observes writer w's run under the first seed only (--trace, --pcap).
// On failure: the error of the first failing job in (seed, writer) order,
// with its code, prefixed "WRITER on KERNEL: " (and "(seed N)" with several
// seeds). Jobs after a failed one are skipped; the ones before it all run,
// so which error is reported does not depend on timing either.
absl::StatusOr<std::vector<SeedRun>> RunSeeds(const scenario::Scenario& s, const std::vector<model::Observer*>& first_seed_extra,
                                              uint32_t threads, const SeedRunFn& run,
                                              const SeedProgressFn& progress);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_SEED_RUNS_H_
