#ifndef SENDSIM_REALSOCK_CAPTURE_H_
#define SENDSIM_REALSOCK_CAPTURE_H_

// A packet socket on one device (both directions), read by the driver as
// packets arrive: the same TcpSegment records kernelcmp reads from tcpdump's
// pcap, without a second process (which would need its own clock and CPU in
// a virtual-time guest). A capture that dropped anything is an error.

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/kernelcmp/pcap.h"

namespace sendsim::realsock {

class Capture {
 public:
  // Opens the socket in the calling thread's network namespace.
  static absl::StatusOr<std::unique_ptr<Capture>> Open(const std::string& device);
  ~Capture();
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  int fd() const { return fd_; }
  // Reads every packet queued now (non-blocking).
  absl::Status Drain();
  // Drains, then checks the kernel dropped nothing (PACKET_STATISTICS).
  absl::Status Finish();
  const std::vector<kernelcmp::TcpSegment>& segments() const { return segments_; }

 private:
  explicit Capture(int fd) : fd_(fd) {}
  int fd_;
  uint64_t drops_ = 0;
  std::vector<kernelcmp::TcpSegment> segments_;
};

// Parses one IPv4 packet (from its IP header) into a TcpSegment; false if it
// is not IPv4/TCP or is cut short. `ip_len` is the captured length.
bool ParseIpv4Tcp(const uint8_t* ip, size_t ip_len, kernelcmp::TcpSegment* out);

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_CAPTURE_H_
