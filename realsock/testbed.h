#ifndef SENDSIM_REALSOCK_TESTBED_H_
#define SENDSIM_REALSOCK_TESTBED_H_

// Two network namespaces joined by a veth pair, in the kernel this process
// runs on (the host, or a user-mode Linux guest): the sender's and the
// receiver's sockets live in different namespaces so that every packet
// crosses the veth, where a packet socket sees it. Optionally netem on both
// ends gives the path its one-way delay and the sender's side its rate.
// Every change is on the CleanupStack before the next is made.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "netdev/host_lock.h"
#include "tools/kernelcmp/cleanup.h"

namespace sendsim::realsock {

struct TestbedOptions {
  uint32_t mtu = 1500;
  // netem: delay on each end's egress (half the RTT) and the sender's rate;
  // off where the kernel has no netem (then the path is the veth alone).
  bool shape = true;
  uint64_t one_way_delay_ns = 25000;
  uint64_t rate_mbps = 10000;
  // The receiving side takes a whole window at one virtual instant when the
  // CPU costs nothing; 1000 (the default) would drop.
  uint32_t netdev_max_backlog = 100000;
};

// Why the testbed cannot be built here (Unavailable: not root, no
// namespaces, no `ip` or `tc`); OK otherwise. Changes nothing.
absl::Status CheckCanRun(const TestbedOptions& opts);

class Testbed {
 public:
  static constexpr const char* kSenderIp = "192.0.2.1";
  static constexpr const char* kReceiverIp = "192.0.2.2";
  static constexpr const char* kSenderDev = "rs-s";
  static constexpr const char* kReceiverDev = "rs-r";

  static absl::StatusOr<std::unique_ptr<Testbed>> Create(const TestbedOptions& opts,
                                                         kernelcmp::CleanupStack* cleanup);
  ~Testbed();
  Testbed(const Testbed&) = delete;
  Testbed& operator=(const Testbed&) = delete;

  // Runs `fn` on a thread that joined namespace `ns` (sockets it creates
  // stay in that namespace).
  absl::Status RunInNetns(const std::string& ns, const std::function<absl::Status()>& fn) const;

  const std::string& sender_ns() const { return sender_ns_; }
  const std::string& receiver_ns() const { return receiver_ns_; }

 private:
  Testbed(const TestbedOptions& opts, kernelcmp::CleanupStack* cleanup) : opts_(opts), cleanup_(cleanup) {}
  absl::Status Build();

  TestbedOptions opts_;
  kernelcmp::CleanupStack* cleanup_;
  std::string sender_ns_;
  std::string receiver_ns_;
  std::vector<kernelcmp::CleanupStack::Id> undo_;
  // Held for the testbed's life: one run on this kernel at a time
  // (netdev/host_lock.h); released once the destructor has undone the rest.
  std::optional<netdev::HostLock> host_lock_;
};

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_TESTBED_H_
