#include "tools/kernelcmp/netstat.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "tools/kernelcmp/sysfile.h"

namespace sendsim::kernelcmp {

absl::StatusOr<std::map<std::string, uint64_t>> ParseNetstat(absl::string_view text) {
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n', absl::SkipWhitespace());
  if (lines.size() % 2 != 0) return absl::InvalidArgumentError("netstat: header without a value line");
  std::map<std::string, uint64_t> out;
  for (size_t i = 0; i < lines.size(); i += 2) {
    std::vector<absl::string_view> names = absl::StrSplit(lines[i], ' ', absl::SkipEmpty());
    std::vector<absl::string_view> values = absl::StrSplit(lines[i + 1], ' ', absl::SkipEmpty());
    if (names.empty() || values.empty() || names[0] != values[0] || names.size() != values.size() ||
        names[0].back() != ':') {
      return absl::InvalidArgumentError(absl::StrFormat("netstat: mismatched lines for %s", names[0]));
    }
    const absl::string_view group = names[0].substr(0, names[0].size() - 1);
    for (size_t k = 1; k < names.size(); ++k) {
      uint64_t v = 0;
      if (!absl::SimpleAtoi(values[k], &v)) {
        return absl::InvalidArgumentError(absl::StrFormat("netstat: %s.%s is not a count", group, names[k]));
      }
      out[absl::StrFormat("%s.%s", group, names[k])] = v;
    }
  }
  return out;
}

absl::StatusOr<std::map<std::string, uint64_t>> ReadNetstat() {
  absl::StatusOr<std::string> text = ReadSysFile("/proc/thread-self/net/netstat");
  if (!text.ok()) return text.status();
  return ParseNetstat(*text);
}

}  // namespace sendsim::kernelcmp
