#ifndef SENDSIM_TOOLS_KERNELCMP_TRAFFIC_H_
#define SENDSIM_TOOLS_KERNELCMP_TRAFFIC_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "tools/kernelcmp/call_fit.h"
#include "tools/kernelcmp/testbed.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

inline constexpr uint16_t kReceiverPort = 6800;  // ceph OSD's first port; private to the netns
// The kernel's default pipe holds 16 pages, so splice moves at most 64 KiB per call.
inline constexpr uint32_t kSpliceChunkBytes = 64 * 1024;

struct TrafficResult {
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t reads = 0;          // recv calls that returned data (each may send a window-update ACK)
  int64_t read_cpu_ns = 0;     // receiver thread CPU time inside recv
  uint64_t send_calls = 0;     // send-family calls and TCP_CORK setsockopts (EAGAIN returns included)
  int64_t send_cpu_ns = 0;     // sender thread CPU time inside them
  int64_t sender_thread_cpu_ns = 0;  // ... and in all of the replay (calls, the loop between them)
  // The sender thread's time runnable but not running over the replay
  // (schedstat run_delay): its CPU taken by ksoftirqd and other tasks.
  // -1 when unreadable.
  int64_t sender_run_delay_ns = -1;
  CallCostFit call_fit;        // sampled calls: CPU against segments sent (call_fit.h)
  uint32_t mss = 0;            // tcpi_snd_mss after the handshake
  uint16_t sender_port = 0;    // ephemeral port (for the capture filter)
  int64_t sender_tid = 0;      // the sender thread and its socket (for the call trace)
  int sender_fd = -1;
  uint64_t would_block = 0;    // EAGAIN or short counts the non-blocking sender waited on
  uint32_t total_retrans = 0;  // tcpi_total_retrans at the end
  uint32_t snd_cwnd = 0;       // tcpi_snd_cwnd at the end
  uint32_t rtt_us = 0;         // tcpi_rtt (smoothed) at the end
  // The namespaces' MIB counters over the run (/proc/net/netstat), -1 when
  // unreadable: times autocork set TSQ_THROTTLED on the sender
  // (TCPAutoCorking), ACKs the receiver's delayed-ACK timer sent (DelayedACKs).
  int64_t autocorks = -1;
  int64_t delayed_acks = -1;
};

// Connects a sender socket in the sender namespace to a receiver in the
// receiver namespace (cubic per socket via TCP_CONGESTION, TCP_NODELAY on the
// sender as libceph sets it), replays `w` with the call pattern of `variant`
// from a thread pinned to the sender CPU while a thread pinned to the
// receiver CPU reads everything, and returns when the receiver saw EOF.
absl::StatusOr<TrafficResult> RunTraffic(const Testbed& tb, const Workload& w, Variant variant,
                                         IoMode io);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_TRAFFIC_H_
