#ifndef SENDSIM_TOOLS_KERNELCMP_CALL_TRACE_H_
#define SENDSIM_TOOLS_KERNELCMP_CALL_TRACE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/kernelcmp/call_fit.h"

namespace sendsim::kernelcmp {

// How long the sender's socket calls hold the socket, from syscall
// tracepoints: the time between a call's sys_enter and sys_exit (sendto,
// sendmsg, sendfile64, splice into the socket, setsockopt on it). The
// model's call_cost_ns and xmit_cost_ns are that hold (lock_sock ..
// release_sock), which the thread's CPU time around a call overstates:
// softirq work that interrupts the thread (receive processing steered to
// its CPU) is charged to it, and so are the timing syscalls themselves.
struct CallHold {
  int64_t ns = 0;
  uint32_t segments = 0;   // data packets the sender's device sent inside the call, in its context
  uint32_t received = 0;   // data packets taken by the receiving side inside the call, in its context
  bool operator==(const CallHold& o) const {
    return ns == o.ns && segments == o.segments && received == o.received;
  }
};

// Parses ftrace text output (`trace` file) for the calls of thread `tid` on
// socket `fd`: each sys_enter of a traced call on `fd` (splice: fd_out) is
// paired with that thread's next sys_exit; net_dev_start_xmit on `send_dev`
// and netif_receive_skb on `recv_dev` lines of the same thread between the
// two are counted. Other threads, sockets, events and devices are ignored;
// timestamps are the seconds.microseconds field. A malformed line of a
// traced event is an error.
absl::StatusOr<std::vector<CallHold>> ParseCallHolds(absl::string_view trace, int64_t tid, int fd,
                                                     absl::string_view send_dev, absl::string_view recv_dev);

// The holds of one run: their mean over all calls, and base + per segment
// by least squares over the calls that took no receive processing inline
// (those that did are counted apart: their extra is the softirq's, which
// the model runs on the receiving CPU's queue).
struct HoldSummary {
  uint64_t calls = 0;
  double mean_ns = 0;
  uint64_t calls_with_receive = 0;
  // Over the calls without receive work; its mean_cpu_ns() is their mean
  // hold, what the fitted line reproduces on average.
  CallCostFit fit;
};
HoldSummary SummarizeHolds(const std::vector<CallHold>& holds);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_CALL_TRACE_H_
