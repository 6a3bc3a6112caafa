#ifndef SENDSIM_PACKETDRILL_KERNEL_RUN_H_
#define SENDSIM_PACKETDRILL_KERNEL_RUN_H_

// The kernel target: a packetdrill script run against this machine's Linux
// TCP instead of the model, to check that a script's expectations are the
// kernel's. Each script runs in a child process in its own network
// namespace with a tun device (kernel_tun.h): the script's inbound packets
// are written into tun0, the kernel's outbound packets read from it and
// matched as the model runner matches captures (same times, tolerance,
// aggregation and verdicts; runner.h), and the system calls run on real
// sockets, the kernel doing the handshake. Root only.
//
// Subset: IPv4 (with the ECN field of the script's markings); socket,
// setsockopt/getsockopt (the options the model knows), bind, listen,
// accept, connect, fcntl, write, send, read, recv, open, sendfile, close,
// shutdown, ioctl SIOCINQ/SIOCOUTQ; %{ assert }% over TCP_INFO; commands:
// defaults.sh, set_sysctls.py and its restore script, sysctl, ethtool and
// ip on tun0, and the file commands rm, dd, truncate
// (run by /bin/sh). Anything else SKIPs with the reason. Sysctls are written
// in the script's namespace; one that is not per namespace (read-only there)
// is written in the host's, and the parent process puts it back when the
// child ends, however it ends (also on SIGINT, SIGTERM, SIGHUP). The default
// congestion control of a new network namespace cannot be set here, so every
// socket gets the script's (cubic, defaults.sh) with TCP_CONGESTION. The
// child runs at real-time priority, so that a loaded machine does not delay
// its captures and events past the tolerance.

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "packetdrill/outbound.h"
#include "packetdrill/runner.h"

namespace sendsim::packetdrill {

struct KernelOptions {
  // Tolerance and --strict_segments (a script's own option lines override them).
  MatchRules rules;
  // A script still running after this long is killed and FAILs.
  int timeout_s = 120;
};

// OK when scripts can run on the kernel here (root, /dev/net/tun, network
// namespaces); otherwise why not.
absl::Status CheckKernelTarget();

// Parses and runs one script on the kernel (in a child process).
Result RunScriptOnKernel(const std::string& path, const KernelOptions& opts);

// `packetdrill_run --target=kernel FILE...`: PacketdrillMain's output and
// exit codes (2 when the kernel target cannot run here).
int KernelPacketdrillMain(const std::vector<std::string>& files, const KernelOptions& opts, std::ostream& out,
                          std::ostream& err);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_KERNEL_RUN_H_
