#include "packetdrill/script_header.h"

#include <algorithm>
#include <sstream>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/profile.h"

namespace sendsim::packetdrill {

absl::StatusOr<std::vector<std::string>> HeaderProfiles(std::string_view text) {
  constexpr std::string_view kKey = "// profiles:";
  std::istringstream in{std::string(text)};
  std::string line;
  const std::vector<std::string> known = model::ProfileNames();
  while (std::getline(in, line) && line.rfind("//", 0) == 0) {
    if (line.rfind(kKey, 0) != 0) continue;
    std::istringstream names(line.substr(kKey.size()));
    std::vector<std::string> out;
    for (std::string n; names >> n;) {
      if (std::find(known.begin(), known.end(), n) == known.end()) {
        return absl::InvalidArgumentError(absl::StrFormat("// profiles: \"%s\" is not a kernel profile (known: %s)",
                                                          n.substr(0, 40), absl::StrJoin(known, ", ")));
      }
      out.push_back(n);
    }
    if (out.empty()) return absl::InvalidArgumentError("// profiles: names no profile");
    return out;
  }
  return std::vector<std::string>{};
}

}  // namespace sendsim::packetdrill
