// Placeholder until the model and messenger land (then runner.cc replaces it).
#include "cli/runner.h"

namespace sendsim::cli {

absl::StatusOr<RunResult> RunOne(const Scenario& /*scenario*/, const WriterSpec& /*writer*/,
                                 model::Observer* /*extra*/, const ProgressFn& /*progress*/) {
  return absl::UnimplementedError("the model and messenger are not built into this binary yet");
}

}  // namespace sendsim::cli
