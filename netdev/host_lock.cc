#include "netdev/host_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"

namespace sendsim::netdev {
namespace {

// What the holder wrote into the file: its pid, or "unknown".
std::string Holder(int fd) {
  char buf[32] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  int pid = 0;
  if (n > 0 && absl::SimpleAtoi(absl::StripAsciiWhitespace(absl::string_view(buf, n)), &pid)) {
    return absl::StrFormat("pid %d", pid);
  }
  return "an unknown process";
}

}  // namespace

std::string DefaultHostLockPath() {
  struct stat st {};
  const bool run_lock = stat("/run/lock", &st) == 0 && S_ISDIR(st.st_mode);
  return std::string(run_lock ? "/run/lock" : "/tmp") + "/sendsim-host-kernel.lock";
}

absl::StatusOr<HostLock> HostLock::Acquire(const std::string& path, int wait_s) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return absl::UnavailableError(absl::StrFormat("cannot open %s: %s", path, std::strerror(errno)));
  constexpr long kPollNs = 10'000'000;
  const long polls = static_cast<long>(wait_s) * (1'000'000'000 / kPollNs);
  for (long i = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; ++i) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const int err = errno;
      close(fd);
      return absl::UnavailableError(absl::StrFormat("cannot lock %s: %s", path, std::strerror(err)));
    }
    if (i >= polls) {
      const std::string who = Holder(fd);
      close(fd);
      return absl::UnavailableError(absl::StrFormat(
          "another run on this host's kernel (%s) has held %s for over %d s", who, path, wait_s));
    }
    if (i > 0 && i % 3000 == 0) {
      std::fprintf(stderr, "waiting for %s, held by another run on this host's kernel (%s)\n", path.c_str(),
                   Holder(fd).c_str());
    }
    timespec ts{0, kPollNs};
    nanosleep(&ts, nullptr);
  }
  const std::string pid = absl::StrFormat("%d\n", getpid());
  if (ftruncate(fd, 0) == 0) {
    const ssize_t unused = pwrite(fd, pid.data(), pid.size(), 0);
    (void)unused;  // the pid only improves a waiter's message
  }
  return HostLock(fd);
}

HostLock& HostLock::operator=(HostLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

HostLock::~HostLock() {
  if (fd_ >= 0) close(fd_);  // closing the last descriptor drops the flock
}

}  // namespace sendsim::netdev
