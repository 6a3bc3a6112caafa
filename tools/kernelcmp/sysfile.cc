#include "tools/kernelcmp/sysfile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_format.h"

namespace sendsim::kernelcmp {

absl::StatusOr<std::string> ReadSysFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrFormat("cannot read %s", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

absl::Status WriteSysFile(const std::string& path, absl::string_view value) {
  int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return absl::InternalError(absl::StrFormat("open %s: %s", path, strerror(errno)));
  ssize_t n = write(fd, value.data(), value.size());
  int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(value.size())) {
    return absl::InternalError(absl::StrFormat("write %s: %s", path, strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace sendsim::kernelcmp
