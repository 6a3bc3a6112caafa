#ifndef SENDSIM_TOOLS_KERNELCMP_TESTBED_H_
#define SENDSIM_TOOLS_KERNELCMP_TESTBED_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "netdev/host_lock.h"
#include "tools/kernelcmp/cleanup.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

struct TestbedOptions {
  bool tso = false;                     // TSO+GSO on the veth (GRO stays off)
  uint32_t mtu = 1500;
  uint32_t netdev_max_backlog = 30000;  // raised for the run (global sysctl), restored after
  int sender_cpu = 0;
  int receiver_cpu = 1;
  std::string name_prefix = "kcmp";     // namespaces are <prefix>-<pid>-s / -r
};

// Why kernelcmp cannot run here, or OK. Checked before touching anything.
absl::Status CheckCanRun(const TestbedOptions& opts);

// Two network namespaces joined by a veth pair (TEST-NET-1 addresses that
// exist only inside them), offloads set, RPS steering per placement. Every
// change is registered on a CleanupStack before the next one is made, so the
// destructor or a signal undoes exactly what was done.
class Testbed {
 public:
  static constexpr const char* kSenderIp = "192.0.2.1";
  static constexpr const char* kReceiverIp = "192.0.2.2";
  static constexpr const char* kSenderDev = "kc-s";
  static constexpr const char* kReceiverDev = "kc-r";

  static absl::StatusOr<std::unique_ptr<Testbed>> Create(const TestbedOptions& opts,
                                                         CleanupStack* cleanup);
  Testbed(const Testbed&) = delete;
  Testbed& operator=(const Testbed&) = delete;
  ~Testbed();

  // Writes rps_cpus of both veth ends' rx-0 so all receive processing runs on
  // the chosen CPU, and reads it back.
  absl::Status SetPlacement(Placement p);

  // Runs `fn` on a short-lived thread that has joined namespace `ns` (sockets
  // created there stay in it).
  absl::Status RunInNetns(const std::string& ns, const std::function<absl::Status()>& fn) const;

  const std::string& sender_ns() const { return sender_ns_; }
  const std::string& receiver_ns() const { return receiver_ns_; }
  const TestbedOptions& options() const { return opts_; }

 private:
  Testbed(const TestbedOptions& opts, CleanupStack* cleanup) : opts_(opts), cleanup_(cleanup) {}
  absl::Status Build();
  absl::Status SetOffloads(const std::string& ns, const std::string& dev);
  absl::Status RaiseBacklog();

  TestbedOptions opts_;
  CleanupStack* cleanup_;
  std::string sender_ns_;
  std::string receiver_ns_;
  std::vector<CleanupStack::Id> undo_;  // in the order the changes were made
  // Held for the testbed's life: one run on this kernel at a time
  // (netdev/host_lock.h); released once the destructor has undone the rest.
  std::optional<netdev::HostLock> host_lock_;
};

// Names in `ip netns list` (first word of each line).
absl::StatusOr<std::vector<std::string>> ListNetns();

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_TESTBED_H_
