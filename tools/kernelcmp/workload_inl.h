#ifndef SENDSIM_TOOLS_KERNELCMP_WORKLOAD_INL_H_
#define SENDSIM_TOOLS_KERNELCMP_WORKLOAD_INL_H_

#include <algorithm>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sendsim::kernelcmp {

template <typename T, typename ParseFn>
absl::StatusOr<std::vector<T>> ParseList(absl::string_view text, ParseFn parse,
                                         const std::vector<T>& all) {
  if (text == "all") return all;
  std::vector<T> out;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    absl::StatusOr<T> v = parse(item);
    if (!v.ok()) return v.status();
    if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
  }
  if (out.empty()) return absl::InvalidArgumentError(absl::StrFormat("empty list \"%s\"", text));
  return out;
}

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_WORKLOAD_INL_H_
