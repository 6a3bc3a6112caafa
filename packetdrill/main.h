#ifndef SENDSIM_PACKETDRILL_MAIN_H_
#define SENDSIM_PACKETDRILL_MAIN_H_

#include <ostream>
#include <string>
#include <vector>

#include "packetdrill/outbound.h"

namespace sendsim::packetdrill {

// `sendsim packetdrill FILE...`: runs each script on the model with kernel
// profile `kernel` and prints "PASS path", "FAIL path: reason" or
// "SKIP path: reason" per script, then "N passed, N failed, N skipped".
// Returns the process exit code: 0 iff nothing failed (an unknown profile
// or no files is a failure, 2).
int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel);
int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, std::ostream& out,
                    std::ostream& err);
// With the command line's tolerance and --strict_segments.
int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, const MatchRules& rules,
                    std::ostream& out, std::ostream& err);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_MAIN_H_
