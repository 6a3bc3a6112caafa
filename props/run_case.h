#ifndef SENDSIM_PROPS_RUN_CASE_H_
#define SENDSIM_PROPS_RUN_CASE_H_

#include "absl/status/statusor.h"
#include "props/case.h"
#include "props/outcome.h"
#include "props/runner.h"

namespace sendsim::props {

// Runs one case on the model with the messenger's writer and decoder, on a
// fresh event loop, until every message is acknowledged, the loop runs dry
// or the simulated horizon (LivenessHorizonNs) passes. Errors: the case is
// malformed or the writer does not exist on the profile
// (FailedPrecondition).
absl::StatusOr<Outcome> RunCase(const Case& c, RunDepth depth = RunDepth::kFull);

// What RunCase checks before it runs: the case's shape, its network and
// profile (scenario::ValidateNetwork's ranges), its writer on the profile.
absl::Status CheckCaseRunnable(const Case& c);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_RUN_CASE_H_
