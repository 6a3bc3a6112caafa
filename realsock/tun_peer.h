#ifndef SENDSIM_REALSOCK_TUN_PEER_H_
#define SENDSIM_REALSOCK_TUN_PEER_H_

// The model's receiver as the far end of a kernel TCP connection. The
// kernel's socket connects to kTunPeerIp, routed to a tun device; this
// process reads the kernel's outgoing IP packets from the tun and feeds
// them to the model's own forward Link and Peer (the case's ACK policy,
// receive window, delays, GRO), whose ACKs leave through the model's
// reverse Link and are written back into the tun as IP packets. Everything
// runs on the model's EventLoop against CLOCK_MONOTONIC (the caller's
// driver sleeps in ppoll, never spins). So only the sender differs between
// a kernel run and a model run.
//
// The tun carries plain IPv4 (IFF_TUN | IFF_NO_PI, no offloads): the kernel
// segments its GSO skbs in software before the device (validate_xmit_skb),
// so each read is one wire segment, and tun_net_xmit orphans every skb at
// once (skb_orphan: tcp_wfree runs before the packet is read).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/config.h"
#include "model/event_loop.h"
#include "model/link.h"
#include "model/peer.h"
#include "model/profile.h"

namespace sendsim::realsock {

inline constexpr char kTunDev[] = "sstun0";
inline constexpr char kTunLocalIp[] = "198.18.7.1";  // the kernel sender's address
inline constexpr char kTunPeerIp[] = "198.18.8.2";   // the model peer's, routed to the tun
inline constexpr uint32_t kTunMtu = 9216;            // above every MSS a case draws (<= 9001 + 52)

// One IPv4/TCP segment, payload length only.
struct TunSegment {
  uint32_t saddr = 0, daddr = 0;  // host order
  uint16_t sport = 0, dport = 0;
  uint32_t seq = 0, ack = 0;
  uint8_t flags = 0;
  uint16_t win = 0;  // raw field
  uint32_t len = 0;  // payload bytes (zeros when built)
  // Options (-1 / false: absent).
  int mss = -1;
  int wscale = -1;
  bool sack_ok = false;
  bool has_ts = false;
  uint32_t tsval = 0, tsecr = 0;
};

// Parses an IPv4 packet carrying TCP; false otherwise or when cut short.
bool ParseTunSegment(const uint8_t* ip, size_t n, TunSegment* out);
// The packet for `s` with valid IP and TCP checksums (options: MSS, SACK
// permitted, timestamps, window scale, as set).
std::vector<uint8_t> BuildTunPacket(const TunSegment& s);

// The tun device with its address and the peer's route. Closing it removes
// the device (not persistent); Create restores nothing else, SetRoute's
// route goes with the device.
class TunDevice {
 public:
  static absl::StatusOr<std::unique_ptr<TunDevice>> Create();
  ~TunDevice();
  TunDevice(const TunDevice&) = delete;
  TunDevice& operator=(const TunDevice&) = delete;

  int fd() const { return fd_; }
  // The peer's route with the case's initial cwnd (tcp_init_cwnd reads
  // RTAX_INITCWND); the TCP metrics cache is flushed.
  absl::Status SetRoute(uint32_t initcwnd);
  // One packet, non-blocking: nullopt when none is queued; non-TCP packets
  // come back with len 0 and saddr 0.
  absl::StatusOr<std::optional<TunSegment>> Read();
  absl::Status Write(const TunSegment& s);

 private:
  explicit TunDevice(int fd) : fd_(fd) {}
  int fd_;
  bool have_route_ = false;
  uint32_t route_initcwnd_ = 0;
  std::vector<uint8_t> buf_;
};

// What the handshake left: the kernel's ISN and timestamp, the ports.
struct TunHandshake {
  uint16_t local_port = 0, peer_port = 0;
  uint32_t kernel_isn = 0;
  uint32_t peer_isn = 0;
  uint32_t last_tsval = 0;
};

// The SYN-ACK the model's peer would send for `syn`: MSS (mss + 12 for the
// timestamp option, so the kernel's mss_cache is `mss`), the peer's window
// scale and initial window (tcp_select_initial_window), SACK permitted and
// timestamps as configured.
TunSegment SynAckFor(const TunSegment& syn, const model::ConnectionConfig& cfg, const model::Profile& profile,
                     uint32_t peer_isn, uint32_t tsval);

// One kernel data segment as the tun read it (first transmissions and
// retransmissions), time since the connection was established.
struct KernelPacket {
  model::TimeNs t = 0;
  uint32_t seq = 0;  // relative to the first data byte
  uint32_t len = 0;
  uint8_t flags = 0;
  bool retransmit = false;
};

class TunPeer {
 public:
  // The model's Link pair and Peer on `loop` (time 0 = the connection's
  // establishment), answering the connection `hs` describes.
  TunPeer(model::EventLoop* loop, TunDevice* dev, const model::ConnectionConfig& cfg, const model::Profile& profile,
          const TunHandshake& hs);
  TunPeer(const TunPeer&) = delete;
  TunPeer& operator=(const TunPeer&) = delete;

  // A segment the kernel sent, read now (loop->now()). Other flows, SYNs
  // and RSTs are ignored.
  void OnKernelSegment(const TunSegment& s);

  const std::vector<KernelPacket>& packets() const { return packets_; }
  // Stream bytes covered by the last ACK written into the tun.
  uint64_t acked() const { return acked_; }
  const absl::Status& error() const { return error_; }
  const model::Peer& peer() const { return *peer_; }
  // Called with every ACK as it is written (stream bytes it covers, raw
  // window field): for tracing a run.
  void set_ack_trace(std::function<void(uint64_t acked, uint32_t win)> fn) { ack_trace_ = std::move(fn); }

 private:
  void WriteAck(const model::Segment& a);  // the reverse link's delivery: into the tun

  model::EventLoop* loop_;
  TunDevice* dev_;
  TunHandshake hs_;
  uint8_t wscale_;
  std::unique_ptr<model::Link> rev_;
  std::unique_ptr<model::Link> fwd_;
  std::unique_ptr<model::Peer> peer_;
  std::vector<KernelPacket> packets_;
  uint64_t snd_max_ = 0;  // relative end of the highest byte seen
  uint64_t acked_ = 0;
  uint32_t ts_recent_ = 0;
  absl::Status error_;
  std::function<void(uint64_t, uint32_t)> ack_trace_;
};

// Milliseconds of CLOCK_MONOTONIC as a TCP timestamp value.
uint32_t TunTsval();

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_TUN_PEER_H_
