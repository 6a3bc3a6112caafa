#ifndef SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_
#define SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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
};

// Parses ftrace's text output (`trace` file): each net_dev_start_xmit on
// `send_dev` is paired with the next netif_receive_skb on `recv_dev` of the
// same skbaddr. Other lines, events and devices are ignored; timestamps are
// the seconds.microseconds field. Malformed event lines are errors.
absl::StatusOr<std::vector<int64_t>> ParseDelayTrace(absl::string_view trace, absl::string_view send_dev,
                                                     absl::string_view recv_dev);
// Percentiles by rank (p5 = sorted[n * 5 / 100]); all zero for no samples.
DelaySummary SummarizeDelays(std::vector<int64_t> delays_ns);

// Turns the two events on in tracefs (`root`, normally /sys/kernel/tracing)
// for data-sized packets, with a larger ring, and undoes every write on
// Stop or through `cleanup`. kernelcmp writes nothing else there.
class DelayTrace {
 public:
  static absl::StatusOr<DelayTrace> Start(const std::string& root, CleanupStack* cleanup);
  // Disables the events, reads and parses the trace, restores tracefs.
  absl::StatusOr<DelaySummary> Stop(absl::string_view send_dev, absl::string_view recv_dev);

 private:
  DelayTrace(std::string root, CleanupStack* cleanup, CleanupStack::Id undo)
      : root_(std::move(root)), cleanup_(cleanup), undo_(undo) {}
  std::string root_;
  CleanupStack* cleanup_;
  CleanupStack::Id undo_;
};

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_DELAY_TRACE_H_
