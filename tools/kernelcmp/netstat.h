#ifndef SENDSIM_TOOLS_KERNELCMP_NETSTAT_H_
#define SENDSIM_TOOLS_KERNELCMP_NETSTAT_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sendsim::kernelcmp {

// /proc/net/netstat: pairs of lines "Group: name name ..." and "Group: value
// value ...". Returns "Group.name" -> value (e.g. "TcpExt.TCPAutoCorking").
// A value line that does not match its header is an error.
absl::StatusOr<std::map<std::string, uint64_t>> ParseNetstat(absl::string_view text);

// The calling thread's network namespace's counters
// (/proc/thread-self/net/netstat).
absl::StatusOr<std::map<std::string, uint64_t>> ReadNetstat();

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_NETSTAT_H_
