#ifndef SENDSIM_NETDEV_TUN_H_
#define SENDSIM_NETDEV_TUN_H_

// Opening a tun device in the calling process's network namespace.

#include "absl/status/statusor.h"

namespace sendsim::netdev {

// Opens /dev/net/tun (with `open_flags` besides O_RDWR | O_CLOEXEC) and
// attaches it to the device `name` with `flags` (IFF_TUN, IFF_NO_PI,
// ...). The fd, owned by the caller; the device goes with it unless made
// persistent.
absl::StatusOr<int> OpenTun(const char* name, short flags, int open_flags = 0);

}  // namespace sendsim::netdev

#endif  // SENDSIM_NETDEV_TUN_H_
