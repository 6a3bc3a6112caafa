#ifndef SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_
#define SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tools/kernelcmp/analysis.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// The model's linux-6.8 figures for the workload a kernel run replays.
struct ModelFigures {
  uint64_t packets = 0;         // data packets on the wire
  double sub_mss_per_msg = 0;   // payload < MSS packets / messages
  SizeHistogram sizes;          // payload size -> packets
};

// Runs sendsim (profile linux-6.8, MSS 1448, cubic, TCP_NODELAY, autocorking)
// with the writer that matches `variant` and the ACK behaviour of
// `placement`. Unimplemented until the model and messenger land on main: the
// report then shows the kernel side only.
absl::StatusOr<ModelFigures> RunModelFor(const Workload& w, Variant variant, Placement placement);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_
