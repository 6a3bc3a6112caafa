#ifndef SENDSIM_NETDEV_IP_CMD_H_
#define SENDSIM_NETDEV_IP_CMD_H_

// Configuring a network namespace through iproute2: a fixed argv is run
// directly (fork/execvp, no shell), so nothing in an address or a device
// name is ever interpreted.

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace sendsim::netdev {

// Runs `argv` with its output discarded; its exit status, -1 when it could
// not be started or did not exit normally (127: not found).
int RunArgv(const std::vector<std::string>& argv);

// RunArgv, any non-zero status an UnavailableError naming the command.
absl::Status RunIp(const std::vector<std::string>& argv);

}  // namespace sendsim::netdev

#endif  // SENDSIM_NETDEV_IP_CMD_H_
