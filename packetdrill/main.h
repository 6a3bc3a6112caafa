#ifndef SENDSIM_PACKETDRILL_MAIN_H_
#define SENDSIM_PACKETDRILL_MAIN_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "packetdrill/outbound.h"

namespace sendsim::packetdrill {

// Scripts larger than this are refused (our largest is a few KiB).
inline constexpr uint64_t kMaxScriptBytes = 1 << 20;

// `sendsim packetdrill FILE...`: runs each script on the model with kernel
// profile `kernel` and prints "PASS path", "FAIL path: reason" or
// "SKIP path: reason" per script, then "N passed, N failed, N skipped".
// A script whose "// profiles:" header does not name `kernel` runs on the
// header's first profile ("PASS path (linux-6.8)") unless `kernel_given`
// (--kernel named it), where it is a SKIP naming the header's profiles.
// A script that cannot be read, does not parse, has no events or names an
// unknown profile is bad input: one line on `err` ("sendsim packetdrill:
// ..."), counted as failed, and the exit code is 2.
// Returns 0 iff nothing failed, 1 when a script failed, 2 on bad input
// (an unknown profile, no files, a bad script). `rules`: the command line's
// tolerance and --strict_segments (a script's option lines override them).
// The profile scripts run on when --kernel is not given: the newest, as
// upstream packetdrill's scripts are kept passing on the current kernel
// (and this machine's --target=kernel is 6.18). sendsim's own default,
// model::kDefaultProfile, is the 2018 measurement's era instead.
inline constexpr std::string_view kDefaultScriptProfile = "linux-6.18";

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, bool kernel_given,
                    std::ostream& out, std::ostream& err, const MatchRules& rules = {});
// `kernel_given` true.
int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel);
int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, std::ostream& out,
                    std::ostream& err);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_MAIN_H_
