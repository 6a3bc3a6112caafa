#ifndef SENDSIM_PACKETDRILL_ASSERTS_H_
#define SENDSIM_PACKETDRILL_ASSERTS_H_

// Evaluates the Python in "%{ ... }%" blocks, restricted to what send-path
// scripts use: lines "assert <cond>[, <message>]" where <cond> is one or more
// (chained) comparisons joined by "and", over integers and tcpi_* names with
// + - * / // %. Anything else is reported as unsupported.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace sendsim::packetdrill {

// OK(nullopt): all assertions hold. OK(text): the first failing assertion.
// UnimplementedError: a construct outside the subset (message = reason).
// `absent`: tcp_info fields without a value here (name -> why, e.g.
// "tcpi_total_rto is not in linux-6.1's struct tcp_info"); naming one is a
// SKIP with that reason.
absl::StatusOr<std::optional<std::string>> EvalAssertBlock(std::string_view code,
                                                           const std::map<std::string, int64_t>& vars,
                                                           const std::map<std::string, std::string>& absent = {});

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_ASSERTS_H_
