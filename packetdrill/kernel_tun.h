#ifndef SENDSIM_PACKETDRILL_KERNEL_TUN_H_
#define SENDSIM_PACKETDRILL_KERNEL_TUN_H_

// The tun device of the kernel target (kernel_run.h): what upstream
// packetdrill's netdev does. In the calling process's network namespace it
// creates tun0 with a virtio-net header and TSO offloads (so outbound TSO
// skbs arrive whole, as packetdrill sees them), addresses it, writes the
// script's inbound packets into it and reads the kernel's outbound TCP
// packets on a reader thread, timestamped.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

// The local (kernel) end, its gateway on tun0 and the remote (script) end.
// Upstream packetdrill uses 192.168.0.1, gateway 192.168.0.2 and remote
// 192.0.2.1; the local side here is in the benchmarking range instead of a
// private one, and commands naming upstream's local addresses are rewritten
// (kernel_script.cc).
inline constexpr char kKernelLocalAddr[] = "198.18.0.1";
inline constexpr char kKernelGatewayAddr[] = "198.18.0.2";
inline constexpr char kKernelRemoteAddr[] = "192.0.2.1";

// One TCP/IPv4 segment with absolute numbers.
struct WireTcp {
  int64_t t_ns = 0;  // when it was read (ns since the device was created)
  uint16_t sport = 0, dport = 0;
  uint32_t seq = 0, ack = 0;
  uint8_t flags = 0;
  uint16_t win = 0;
  uint32_t len = 0;  // payload bytes (zeros when written)
  uint8_t ecn = 0;   // the IP header's ECN field
  std::vector<TcpOption> options;
};

class TunDevice {
 public:
  static absl::StatusOr<std::unique_ptr<TunDevice>> Create();
  ~TunDevice();
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;

  // Nanoseconds since Create (CLOCK_MONOTONIC).
  int64_t Now() const;
  // A segment from the remote address to the local one.
  absl::Status Write(const WireTcp& p);
  // An ICMP error from the remote address to the local one (type, code and
  // the header's second word, e.g. the next-hop MTU of "fragmentation
  // needed" in its low 16 bits), quoting the IPv4 header and the TCP
  // header (20 bytes, no options) of `quoted`, one of our segments.
  absl::Status WriteIcmp(uint8_t type, uint8_t code, uint32_t rest, const WireTcp& quoted);
  // The oldest captured outbound segment, waiting for one until `deadline`
  // (Now() time); nullopt if none came.
  std::optional<WireTcp> Peek(int64_t deadline);
  void Pop();

 private:
  TunDevice(int fd, int64_t t0) : fd_(fd), t0_(t0) {}
  void ReadLoop();

  const int fd_;
  const int64_t t0_;
  std::thread reader_;
  absl::Mutex mu_;
  std::deque<WireTcp> captured_ ABSL_GUARDED_BY(mu_);
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
};

// Options as they go on the wire (NOPs and EOLs included).
std::vector<uint8_t> EncodeTcpOptions(const std::vector<TcpOption>& options);
std::vector<TcpOption> DecodeTcpOptions(const uint8_t* p, size_t n);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_KERNEL_TUN_H_
