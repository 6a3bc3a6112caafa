#ifndef SENDSIM_CLI_RUNNER_H_
#define SENDSIM_CLI_RUNNER_H_

// One writer's run of a scenario: builds the model connection and the
// messenger workload, runs the event loop to the end, collects a RunResult.

#include "absl/status/statusor.h"
#include "cli/progress.h"
#include "cli/run_result.h"
#include "scenario/scenario.h"
#include "model/observer.h"

namespace sendsim::cli {

// `extra` (may be null) also sees every wire packet and delivery (trace,
// pcap). `progress` (may be empty) is called as messages complete.
// InvalidArgument: the writer/kernel combination or a knob is unsupported
// by the model (bad input); other errors: the run failed.
absl::StatusOr<RunResult> RunOne(const scenario::Scenario& scenario, const scenario::WriterSpec& writer, model::Observer* extra,
                                 const ProgressFn& progress);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_RUNNER_H_
