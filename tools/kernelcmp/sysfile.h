#ifndef SENDSIM_TOOLS_KERNELCMP_SYSFILE_H_
#define SENDSIM_TOOLS_KERNELCMP_SYSFILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sendsim::kernelcmp {

// Whole contents of a small file (procfs, sysfs, tracefs).
absl::StatusOr<std::string> ReadSysFile(const std::string& path);
// One write of `value` into an existing file, truncating it (O_TRUNC, never
// O_CREAT): what `echo value > path` does for procfs, sysfs and tracefs.
absl::Status WriteSysFile(const std::string& path, absl::string_view value);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_SYSFILE_H_
