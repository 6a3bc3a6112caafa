#ifndef SENDSIM_TOOLS_KERNELREPLAY_KERNEL_CASE_H_
#define SENDSIM_TOOLS_KERNELREPLAY_KERNEL_CASE_H_

// One props case on this kernel's TCP: the case's writer (the messenger's
// CephConnection on an FdSocket) sends the case's messages over a socket
// connected to the model's peer behind a tun (realsock/tun_peer.h), with the
// case's socket options, sysctls and route; the same messages, costs and
// peer as props::RunCase gives the model.

#include <cstdint>
#include <cstdio>
#include <vector>

#include "absl/status/statusor.h"
#include "props/case.h"
#include "realsock/fd_socket.h"
#include "realsock/tun_peer.h"

namespace sendsim::kernelreplay {

struct KernelCaseRun {
  std::vector<realsock::KernelPacket> packets;  // data segments as the tun read them
  bool completed = false;                       // every byte written and acknowledged
  realsock::FdSocketStats socket;
  int64_t duration_ns = 0;
};

// What the kernel can express of a case over the tun: HZ is the kernel's
// (250), TCP always builds GSO skbs (sk_setup_caps), and a route's locked
// cwnd clamps only through a cached tcp_metrics entry (tcp_init_metrics
// looks one up without creating it; tcp_no_metrics_save=1 keeps runs
// independent, so there is none). A replayed case has hz 250, TSO on and no
// cwnd clamp, on both sides, and the model's device is a tun like the
// kernel's (tun=1: tun_net_xmit orphans every skb, so TSQ and autocorking
// never hold; the drawn tx completion then does not apply).
props::Case KernelExpressible(props::Case c);

// Runs `c` (its profile must match this kernel's page-send interface) over
// `tun`. Sets net.ipv4.tcp_autocorking and tcp_no_metrics_save; the caller
// restores them. A run that does not finish in the case's liveness horizon
// (virtual time) is returned with completed = false. With `trace`, one line
// per ACK written, data segment read and writer wake (loop time, monotonic
// time since establishment, what).
absl::StatusOr<KernelCaseRun> RunKernelCase(const props::Case& c, realsock::TunDevice* tun,
                                            std::FILE* trace = nullptr);

// Reads a sysctl file's first line / writes one; for saving and restoring.
absl::StatusOr<std::string> ReadSysctl(const std::string& path);
absl::Status WriteSysctl(const std::string& path, const std::string& value);

}  // namespace sendsim::kernelreplay

#endif  // SENDSIM_TOOLS_KERNELREPLAY_KERNEL_CASE_H_
