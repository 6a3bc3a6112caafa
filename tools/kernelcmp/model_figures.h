#ifndef SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_
#define SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "scenario/scenario.h"
#include "tools/kernelcmp/analysis.h"
#include "tools/kernelcmp/delay_trace.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// The model runs the testbed's kernel: its receiver's rules (backlog
// coalescing, the ACK deferral, the 6.18 buffer autotuning) come with the
// profile; its send path is linux-6.8's (no later send-side change is
// modelled).
inline constexpr char kModelProfile[] = "linux-6.18";

// The model's figures for the workload a kernel run replays.
struct ModelFigures {
  uint64_t packets = 0;         // first-transmission data packets on the wire
  double sub_mss_per_msg = 0;   // payload < MSS packets / messages
  SizeHistogram sizes;          // payload size -> packets
  uint64_t retransmitted = 0;   // retransmissions, TLPs (excluded above)
  uint64_t acks = 0;            // pure ACKs the peer sent
  uint64_t autocorks = 0;       // times autocork set TSQ_THROTTLED (TCPAutoCorking)
  uint64_t delayed_acks = 0;    // ACKs the peer's delayed-ACK timer sent (DelayedACKs)
  uint32_t snd_cwnd = 0;        // the sender's cwnd and smoothed RTT at the end (tcp_info)
  uint32_t rtt_us = 0;
  // Payload bytes per second between the first and the last data packet's
  // first bit, as analysis.h measures a capture: whether the model's
  // bottleneck carries what the testbed's does.
  double bytes_per_sec = 0;
  // The model's own xmit-to-receive delays, summarised as the kernel's are
  // (delay_trace.h), to check the calibration reproduces them.
  DelaySummary delays;
  // Sub-MSS packets by the path that pushed them (model::PushReasonName).
  std::map<std::string, uint64_t> sub_mss_by_reason;
};

// The veth testbed as the model sees it: a scenario (network, TCP, receiver
// and where the hosts run the work), first the placement's host preset
// (host_presets.h), then calibrated from each cell's kernel runs
// (CalibrateFromKernel) or set by --model_host.
struct ModelSettings {
  scenario::Scenario scenario;
  // The sender's own CPU between two calls, socket not held (the messenger's
  // per-call bookkeeping; a gap in the replay): the replayer's, not a
  // scenario setting.
  int64_t between_calls_ns = 0;
};
// The testbed's two placements as named host presets:
// "veth-rps-sender-cpu" (receive processing, both directions, on the
// sender's CPU) and "veth-rps-receiver-cpu" (on the receiving
// application's CPU), with the fallbacks used when nothing is measured.
absl::string_view HostPresetName(Placement placement);
ModelSettings DefaultModelSettings(Placement placement);
std::string DescribeModelSettings(const ModelSettings& s);

// Runs sendsim (profile linux-6.8, MSS 1448, cubic, TCP_NODELAY, autocorking,
// software GSO) on the network described by `settings`: non-blocking libceph
// writer variants through the messenger's writer; blocking runs and
// sendmsg-all, sendfile and splice by issuing kernelcmp's own calls on the
// model socket (model_replay.h).
absl::StatusOr<ModelFigures> RunModelFor(const Workload& w, Variant variant, IoMode io,
                                         const ModelSettings& settings);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_
