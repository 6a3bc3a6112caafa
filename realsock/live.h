#ifndef SENDSIM_REALSOCK_LIVE_H_
#define SENDSIM_REALSOCK_LIVE_H_

// The live comparison: every writer of the default scenario's workload on
// this kernel's sockets (RunWriter), and the model's figures for the same
// workload on the matching profile.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "realsock/compare.h"
#include "realsock/testbed.h"
#include "tools/kernelcmp/cleanup.h"

namespace sendsim::realsock {

struct LiveOptions {
  std::string kernel;   // uname -r
  std::string profile;  // model profile
  uint64_t messages = 200;
  std::vector<std::string> writers;
  TestbedOptions testbed;
};

// "6.1.0-..." -> 6 * 1000 + 1; 0 if it does not start with major.minor.
int KernelVersion(const std::string& release);
// The kernel's own profile when the model has it, else the nearest older one
// with the same page-send interface (->sendpage before 6.5).
std::string ProfileForKernel(const std::string& release);
// Known writers and profile, and the profile's page sends match the kernel's.
absl::Status ValidateLive(const LiveOptions& o);

absl::StatusOr<Recording> RunLive(const LiveOptions& o, kernelcmp::CleanupStack* cleanup);

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_LIVE_H_
