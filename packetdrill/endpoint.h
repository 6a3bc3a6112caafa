#ifndef SENDSIM_PACKETDRILL_ENDPOINT_H_
#define SENDSIM_PACKETDRILL_ENDPOINT_H_

// The seam between the packetdrill runner and the TCP under test. The runner
// plays the network and the peer: it completes the handshake itself, then
// builds an established sending socket through an EndpointFactory, feeds it
// the script's inbound segments and captures every skb it transmits.

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "model/config.h"
#include "model/event_loop.h"
#include "model/profile.h"
#include "model/socket.h"
#include "model/wire.h"

namespace sendsim::packetdrill {

struct EndpointParams {
  model::ConnectionConfig config;
  model::Profile profile;
  // Peer window from the handshake-completing segment, already scaled (bytes).
  uint32_t initial_window = 0;
  // SYN-ACK -> ACK (passive) or SYN -> SYN-ACK (active) time: the handshake RTT sample.
  model::TimeNs handshake_rtt_ns = 0;
  // Accepted from a listener rather than connected.
  bool passive_open = false;
  // Active open whose SYN offered timestamps (tcp_timestamps on) to a peer
  // that did not echo them (see model::TcpSock::Options).
  bool peer_dropped_timestamps = false;
  // Our SYN's (or, passive, SYN-ACK's) retransmissions and the icsk_backoff
  // the SYN's left (see model::TcpSock::Options).
  uint32_t syn_retransmits = 0;
  uint32_t syn_backoff = 0;
  // Passive: of those, the SYN-ACKs that answered the peer's repeated SYN.
  uint32_t synack_answers = 0;
  // The handshake-completing segment's seq, less one (Segment::seq's numbering).
  uint32_t snd_wl1 = 0;
};

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual model::Socket& socket() = 0;
  // A segment from the peer (the script). Sequence numbers are the model's
  // (first data byte = 0).
  virtual void OnSegment(const model::Segment& seg) = 0;
  // TX completion of a transmitted clone (tcp_wfree).
  virtual void OnTxCompletion(uint32_t truesize) = 0;
  // close() / shutdown(SHUT_WR): queue the FIN (tcp_send_fin). 0 or -errno.
  virtual int Shutdown() = 0;
  // tcp_poll's POLLOUT test on the connection; like tcp_poll it sets
  // SOCK_NOSPACE when the answer is no.
  virtual bool PollOut() = 0;
  // The connection is reset (see model::TcpSock::Abort): `err` becomes the
  // pending socket error (0: none).
  virtual void Abort(int err) = 0;
  // sock_error: the pending error (positive errno, 0: none), cleared.
  virtual int TakeSockError() = 0;
  virtual bool HasSockError() const = 0;
  // Sysctls changed by a mid-script command (see model::TcpSock::UpdateSysctls).
  virtual void UpdateSysctls(const model::ConnectionConfig& config) = 0;
  // `ip route change|replace` of the connection's route (see
  // model::TcpSock::RouteChange).
  virtual void RouteChange(uint32_t mtu, bool mtu_metric) = 0;
  // ICMP "fragmentation needed" (next-hop MTU `mtu`) quoting our segment at
  // `seq`, in the model's numbers (see model::TcpSock::IcmpFragNeeded).
  virtual void IcmpFragNeeded(uint32_t seq, uint32_t mtu) = 0;
  // `fn(err)` runs when the socket's own timers end the connection
  // (tcp_write_err after TCP_USER_TIMEOUT or tcp_retries2; see
  // model::TcpSock::set_timeout_callback). Endpoints without such timers
  // ignore it.
  virtual void SetTimeoutHandler(std::function<void(int err)> fn) { (void)fn; }
};

// Receives every skb clone the endpoint hands to the IP layer.
using XmitSink = std::function<void(const model::XmitSkb& skb)>;

using EndpointFactory = std::function<absl::StatusOr<std::unique_ptr<Endpoint>>(
    model::EventLoop* loop, const EndpointParams& params, XmitSink sink)>;

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_ENDPOINT_H_
