#include "tools/kernelcmp/model_figures.h"

namespace sendsim::kernelcmp {

absl::StatusOr<ModelFigures> RunModelFor(const Workload&, Variant, Placement) {
  // TODO(kernelcmp): wire to messenger/ writers + model/ connection once
  // branches `model` and `messenger` are merged.
  return absl::UnimplementedError("model figures not available in this build");
}

}  // namespace sendsim::kernelcmp
