#ifndef SENDSIM_PROPS_RUNNER_H_
#define SENDSIM_PROPS_RUNNER_H_

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "props/case.h"
#include "props/outcome.h"

namespace sendsim::props {

// Properties call the model through this type (RunCase in production, fakes
// in the logic tests), so that only binaries link the model.
using Runner = std::function<absl::StatusOr<Outcome>(const Case&)>;

// Liveness horizon: a run that has not completed by then has stalled.
inline constexpr int64_t kLivenessHorizonNs = 30'000'000'000;  // 30 s simulated

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_RUNNER_H_
