#include "cli/working_dir.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sendsim::cli {

absl::Status EnterUserWorkingDirectory() {
  const char* dir = std::getenv("BUILD_WORKING_DIRECTORY");
  if (dir == nullptr || *dir == '\0') return absl::OkStatus();
  if (chdir(dir) != 0) {
    return absl::FailedPreconditionError(
        absl::StrFormat("cannot enter BUILD_WORKING_DIRECTORY %s: %s", dir, std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace sendsim::cli
