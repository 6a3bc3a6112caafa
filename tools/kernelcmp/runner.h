#ifndef SENDSIM_TOOLS_KERNELCMP_RUNNER_H_
#define SENDSIM_TOOLS_KERNELCMP_RUNNER_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "tools/kernelcmp/analysis.h"
#include "tools/kernelcmp/cleanup.h"
#include "tools/kernelcmp/delay_trace.h"
#include "tools/kernelcmp/testbed.h"
#include "tools/kernelcmp/traffic.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// One captured kernel run. `valid` is false when the capture cannot be
// trusted (tcpdump dropped or missed packets, or the payload it saw differs
// from what the receiver read); such runs are reported, never counted.
struct RunOutcome {
  bool valid = false;
  std::string invalid_reason;
  TrafficResult traffic;
  CaptureStats capture;
  RunFigures figures;
  // Receive-backlog delays (RunSpec::tracefs_root set and tracing worked).
  std::optional<DelaySummary> delays;
  std::string delay_error;  // why `delays` is absent despite tracefs_root
  // The sender's socket holds (call_trace.h), from the same trace when the
  // kernel has syscall tracepoints.
  std::optional<HoldSummary> holds;
};

struct RunSpec {
  Workload workload;
  Variant variant = Variant::kV1Splice;
  IoMode io = IoMode::kNonBlocking;
  Placement placement = Placement::kSenderCpu;
  // Non-empty: measure the receive-backlog delay with tracepoints there.
  std::string tracefs_root;
};

// Steers RPS for the placement, starts tcpdump in the sender namespace on the
// sender's veth (both directions: data and the ACKs), replays the workload, stops tcpdump
// once the capture file is quiet, then parses and checks it. Errors are
// infrastructure failures (the whole tool stops); capture problems give an
// invalid outcome.
absl::StatusOr<RunOutcome> RunOnce(Testbed& tb, CleanupStack* cleanup, const RunSpec& spec,
                                   const std::string& work_dir);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_RUNNER_H_
