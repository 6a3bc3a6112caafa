#include "realsock/receiver.h"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sendsim::realsock {

model::TimeNs MonotonicNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<model::TimeNs>(ts.tv_sec) * model::kNsPerSec + ts.tv_nsec;
}

Receiver::Receiver(int fd, model::TimeNs origin)
    : fd_(fd), event_fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)), origin_(origin) {
  thread_ = std::thread([this] { Loop(); });
}

Receiver::~Receiver() {
  if (thread_.joinable()) {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
  }
  close(fd_);
  close(event_fd_);
}

void Receiver::Loop() {
  std::vector<uint8_t> buf(1 << 18);
  for (;;) {
    const ssize_t r = recv(fd_, buf.data(), buf.size(), 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r < 0) {
        std::lock_guard<std::mutex> l(mu_);
        status_ = absl::InternalError(absl::StrFormat("receiver recv: %s", std::strerror(errno)));
      }
      return;
    }
    Chunk c{MonotonicNs() - origin_, std::vector<uint8_t>(buf.begin(), buf.begin() + r)};
    {
      std::lock_guard<std::mutex> l(mu_);
      queue_.push_back(std::move(c));
    }
    const uint64_t one = 1;
    (void)!write(event_fd_, &one, sizeof(one));
  }
}

std::vector<Chunk> Receiver::Take() {
  uint64_t n;
  (void)!read(event_fd_, &n, sizeof(n));
  std::lock_guard<std::mutex> l(mu_);
  std::vector<Chunk> out(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
  queue_.clear();
  return out;
}

absl::Status Receiver::Join() {
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> l(mu_);
  return status_;
}

}  // namespace sendsim::realsock
