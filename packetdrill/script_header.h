#ifndef SENDSIM_PACKETDRILL_SCRIPT_HEADER_H_
#define SENDSIM_PACKETDRILL_SCRIPT_HEADER_H_

// What a script's leading comment block says about where it applies.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sendsim::packetdrill {

// The profiles of a "// profiles: A B ..." line in the leading "//" comment
// block: the script pins a rule that differs between kernels and its
// expectations hold only there. Empty: no such line (every profile).
// InvalidArgument for a name that is not a kernel profile or an empty list.
absl::StatusOr<std::vector<std::string>> HeaderProfiles(std::string_view text);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SCRIPT_HEADER_H_
