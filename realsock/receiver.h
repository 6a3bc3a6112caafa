#ifndef SENDSIM_REALSOCK_RECEIVER_H_
#define SENDSIM_REALSOCK_RECEIVER_H_

// The receiving application: a thread reading the accepted socket as fast as
// the kernel delivers (the model's peer with an instant reader) and handing
// each read, stamped with the clock, to the driver through a queue and an
// eventfd the driver polls.

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "model/event_loop.h"

namespace sendsim::realsock {

// Nanoseconds of CLOCK_MONOTONIC since `origin` (also CLOCK_MONOTONIC ns).
model::TimeNs MonotonicNs();

struct Chunk {
  model::TimeNs t = 0;  // since the run's origin
  std::vector<uint8_t> bytes;
};

class Receiver {
 public:
  // Takes ownership of `fd`; reads until EOF on its own thread.
  Receiver(int fd, model::TimeNs origin);
  ~Receiver();
  Receiver(const Receiver&) = delete;
  Receiver& operator=(const Receiver&) = delete;

  // Readable when chunks are queued.
  int event_fd() const { return event_fd_; }
  // Takes the queued chunks (clears the eventfd).
  std::vector<Chunk> Take();
  // Waits for the thread (after the sender closed); the read error, if any.
  absl::Status Join();

 private:
  void Loop();

  int fd_;
  int event_fd_;
  model::TimeNs origin_;
  std::mutex mu_;
  std::deque<Chunk> queue_;
  absl::Status status_;
  std::thread thread_;
};

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_RECEIVER_H_
