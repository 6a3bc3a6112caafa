#ifndef SENDSIM_MODEL_CONNECTION_H_
#define SENDSIM_MODEL_CONNECTION_H_

// One simulated TCP connection: sending socket + NIC/qdisc + link in both
// directions + receiving peer, on a shared EventLoop. The connection starts
// ESTABLISHED (handshake done at t=0) unless built by the packetdrill runner.

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "model/config.h"
#include "model/event_loop.h"
#include "model/histogram.h"
#include "model/observer.h"
#include "model/profile.h"
#include "model/socket.h"

namespace sendsim::model {

class Connection {
 public:
  // `loop` and `observer` (may be null) must outlive the connection.
  static absl::StatusOr<std::unique_ptr<Connection>> Create(EventLoop* loop, const ConnectionConfig& config,
                                                            const Profile& profile, Observer* observer);
  virtual ~Connection() = default;

  virtual Socket& socket() = 0;
  // Bytes written by the application and not yet cumulatively acknowledged.
  virtual uint64_t unacked_bytes() const = 0;
  // Checks the model's invariants (sequence space, memory accounting, cwnd);
  // returns the first violation. Debug builds also check after every event.
  virtual absl::Status CheckInvariants() const = 0;
  // Data packets on the wire by payload length (retransmissions included).
  virtual const PacketHistogram& histogram() const = 0;
  // Data bytes the peer has received in order.
  virtual uint64_t delivered_bytes() const = 0;
  // ACKs the peer's delayed-ACK timer sent (the kernel's DelayedACKs MIB).
  virtual uint64_t peer_delayed_acks() const = 0;
  // (first bit, arrival at the peer) per data segment, in sending order;
  // empty unless ConnectionConfig::record_data_timing.
  virtual const std::vector<std::pair<TimeNs, TimeNs>>& data_timing() const = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CONNECTION_H_
