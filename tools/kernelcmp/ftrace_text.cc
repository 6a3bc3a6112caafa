#include "tools/kernelcmp/ftrace_text.h"

#include "absl/strings/numbers.h"

namespace sendsim::kernelcmp {

bool ParseTraceTimestamp(absl::string_view t, int64_t* ns) {
  const size_t dot = t.find('.');
  if (dot == absl::string_view::npos || t.size() - dot - 1 != 6) return false;
  int64_t s = 0, us = 0;
  if (!absl::SimpleAtoi(t.substr(0, dot), &s) || !absl::SimpleAtoi(t.substr(dot + 1), &us)) return false;
  *ns = s * 1'000'000'000 + us * 1'000;
  return true;
}

}  // namespace sendsim::kernelcmp
