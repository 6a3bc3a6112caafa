#include "netdev/tun.h"

#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace sendsim::netdev {

absl::StatusOr<int> OpenTun(const char* name, short flags, int open_flags) {
  const int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | open_flags);
  if (fd < 0) return absl::UnavailableError(absl::StrFormat("open /dev/net/tun: %s", std::strerror(errno)));
  ifreq ifr;
  std::memset(&ifr, 0, sizeof(ifr));
  std::strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
  ifr.ifr_flags = flags;
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
    const std::string e = std::strerror(errno);  // before close() can change errno
    close(fd);
    return absl::UnavailableError(absl::StrFormat("%s: TUNSETIFF: %s", name, e));
  }
  return fd;
}

}  // namespace sendsim::netdev
