#ifndef SENDSIM_NETDEV_HOST_LOCK_H_
#define SENDSIM_NETDEV_HOST_LOCK_H_

// One run on the host's own kernel at a time. The kernel targets
// (packetdrill --target=kernel, the realsock and kernelcmp testbeds) change
// host-wide state that no network namespace isolates (net.core.wmem_max,
// netdev_max_backlog, ...) and judge real-time behaviour. Two at once
// restore each other's sysctls to the wrong values and delay each other's
// kernel timers: two concurrent runs of the packetdrill kernel scripts each
// failed a script on a timer 4 ms late, which neither fails alone
// (docs/notes/2026-12-07-kernel-target-under-load.md). An flock(2) on one
// file serialises them across processes; the kernel drops it when the
// holder dies, so a crashed run never wedges the next one.

#include <string>

#include "absl/status/statusor.h"

namespace sendsim::netdev {

// How long a run waits for another on this kernel: longer than any of our
// scripts or testbed runs takes, short of a hang.
inline constexpr int kHostLockWaitS = 900;

// /run/lock/sendsim-host-kernel.lock (/tmp/ when /run/lock is missing).
std::string DefaultHostLockPath();

class HostLock {
 public:
  // Takes the lock on `path`, waiting up to `wait_s` seconds for another
  // holder (a line on stderr every 30 s names it); then an
  // UnavailableError naming the holder's pid.
  static absl::StatusOr<HostLock> Acquire(const std::string& path, int wait_s);

  HostLock(HostLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  HostLock& operator=(HostLock&& o) noexcept;
  HostLock(const HostLock&) = delete;
  HostLock& operator=(const HostLock&) = delete;
  ~HostLock();

 private:
  explicit HostLock(int fd) : fd_(fd) {}
  int fd_ = -1;  // close-on-exec: commands a run starts never inherit it
};

}  // namespace sendsim::netdev

#endif  // SENDSIM_NETDEV_HOST_LOCK_H_
