#ifndef SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_
#define SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/kernelcmp/call_trace.h"
#include "tools/kernelcmp/cleanup.h"

namespace sendsim::kernelcmp {

// How long a data packet waits between leaving the sender's veth and being
// taken by the receiving side's stack (where ip_rcv_core orphans it, so the
// sender's TX completion): the receive backlog of the CPU that RPS steers it
// to. Measured with two tracepoints: net:net_dev_start_xmit on the sending
// device and net:netif_receive_skb on its peer, matched by skb address (veth
// forwards the same skb).
struct DelaySummary {
  uint64_t packets = 0;  // matched pairs
  int64_t p5_ns = 0;
  int64_t median_ns = 0;
  int64_t mean_ns = 0;
  // The receiving CPU seen as a queue (ConnectionConfig::rx_cpu_*): time
  // per packet while it works through a burst, and the wait of a packet
  // that finds it idle, beyond the base (p5). 0 when not measurable.
  uint64_t idle_packets = 0;
  int64_t rx_service_ns = 0;
  int64_t rx_wakeup_ns = 0;
  // Of those, the ones not taken within kInlineNs beyond p5 waited for
  // something else to run the backlog (with receive processing on the
  // sender's own CPU: the other CPU's RPS IPI, model/host/rps_backlog.h): how
  // many, and their mean wait beyond p5. 0 when none.
  uint64_t deferred_packets = 0;
  int64_t rx_deferred_ns = 0;
  static constexpr int64_t kInlineNs = 3'000;
};

// One data packet: when it left the sending device and when the receiving
// side took it.
struct DelaySample {
  int64_t xmit_ns = 0;
  int64_t recv_ns = 0;
  bool operator==(const DelaySample& o) const { return xmit_ns == o.xmit_ns && recv_ns == o.recv_ns; }
};

// Parses ftrace's text output (`trace` file): each net_dev_start_xmit on
// `send_dev` is paired with the next netif_receive_skb on `recv_dev` of the
// same skbaddr, in the order the receiving side took them. Other lines,
// events and devices are ignored; timestamps are the seconds.microseconds
// field. Malformed event lines are errors.
absl::StatusOr<std::vector<DelaySample>> ParseDelayTrace(absl::string_view trace, absl::string_view send_dev,
                                                         absl::string_view recv_dev);
// Delay percentiles by rank (p5 = sorted[n * 5 / 100]) and mean; all zero
// for no samples. The queue view: a packet sent before the previous one
// was taken waited behind it, and the gap between the two takes is one
// service time (mean of those gaps, the largest 5 % left out as the CPU
// doing something else); a packet sent after the previous
// one was taken and served found the CPU idle, and its delay minus p5 is
// one wakeup (mean of those). The first packet counts as idle.
DelaySummary SummarizeDelays(const std::vector<DelaySample>& samples);

// Turns the two events on in tracefs (`root`, normally /sys/kernel/tracing)
// for data-sized packets, and the send-family syscall events for the call
// holds (call_trace.h) where the kernel has them, with a larger ring, and
// undoes every write on Stop or through `cleanup`. kernelcmp writes nothing
// else there.
class DelayTrace {
 public:
  static absl::StatusOr<DelayTrace> Start(const std::string& root, CleanupStack* cleanup);
  // Disables the events, reads and parses the trace, restores tracefs. With
  // `holds`, also the socket calls of thread `tid` on socket `fd`; *holds is
  // left empty (calls == 0) when the syscall events were not available.
  absl::StatusOr<DelaySummary> Stop(absl::string_view send_dev, absl::string_view recv_dev, int64_t tid = 0,
                                    int fd = -1, HoldSummary* holds = nullptr);

 private:
  DelayTrace(std::string root, CleanupStack* cleanup, CleanupStack::Id undo, bool syscalls)
      : root_(std::move(root)), cleanup_(cleanup), undo_(undo), syscalls_(syscalls) {}
  std::string root_;
  CleanupStack* cleanup_;
  CleanupStack::Id undo_;
  bool syscalls_;  // the syscall events are on
};

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_
