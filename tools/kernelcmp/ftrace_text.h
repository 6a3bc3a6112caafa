#ifndef SENDSIM_TOOLS_KERNELCMP_FTRACE_TEXT_H_
#define SENDSIM_TOOLS_KERNELCMP_FTRACE_TEXT_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace sendsim::kernelcmp {

// ftrace's text output (the `trace` file) stamps each event
// "SECONDS.MICROSECONDS" (six digits): that field in ns. False when `t` is
// not of that form.
bool ParseTraceTimestamp(absl::string_view t, int64_t* ns);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_FTRACE_TEXT_H_
