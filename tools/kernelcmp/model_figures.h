#ifndef SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_
#define SENDSIM_TOOLS_KERNELCMP_MODEL_FIGURES_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "model/host/host.h"
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

// The veth testbed as the model sees it: calibration parameters, not kernel
// rules. Defaults per placement come from DefaultModelSettings; flags of
// kernelcmp override them.
struct ModelSettings {
  uint64_t link_bps = 0;         // effective per-packet cost of the software path
  int64_t one_way_delay_ns = 0;
  int64_t tx_completion_ns = 0;   // after the segment reaches the peer (see ConfigFor)
  int64_t call_cost_ns = 0;      // one socket call holds the socket this long
  // The sender's own CPU between two calls, socket not held (the messenger's
  // per-call bookkeeping; a gap in the replay).
  int64_t between_calls_ns = 0;
  int64_t ack_proc_ns = 0;       // receiver softirq latency before an ACK leaves
  bool gro_batch = false;        // one ACK decision per back-to-back batch (backlog batching)
  int64_t gro_flush_ns = 0;
  uint64_t app_read_bytes_per_sec = 0;  // receiving application's read rate (0: instant)
  // The peer's receive buffer: fixed at peer_rcvbuf, or autotuned from
  // peer_rcvbuf_initial (tcp_rmem[1]) up to peer_rcvbuf (tcp_rmem[2]) when
  // peer_rcvbuf_initial > 0; 0/0: the model's defaults. peer_wscale < 0:
  // the model's default window scale.
  uint32_t peer_rcvbuf = 0;
  uint32_t peer_rcvbuf_initial = 0;
  int peer_wscale = -1;
  // How the testbed places the work on its CPUs (model/host/host.h): the
  // receiving CPU's queue or backlog, the data path's delay spread, the
  // per-segment transmit cost and the softirq work on the sender's CPU, the
  // reader's wakeup. Set per placement by HostPreset, then calibrated.
  model::HostConfig host;
};
// The testbed's two placements as named presets of the host layer:
// "veth-rps-sender-cpu" (receive processing, both directions, on the
// sender's CPU) and "veth-rps-receiver-cpu" (on the receiving
// application's CPU), with the fallbacks used when nothing is measured.
model::HostConfig HostPreset(Placement placement);
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
