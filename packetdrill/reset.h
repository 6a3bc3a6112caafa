#ifndef SENDSIM_PACKETDRILL_RESET_H_
#define SENDSIM_PACKETDRILL_RESET_H_

// Connection reset, both ways. Inbound: the peer's RST on a synchronized
// connection (tcp_validate_incoming, RFC 5961: the exact sequence number
// resets, another one in the window draws a rate-limited challenge ACK, one
// outside is dropped), and segments that find no socket (tcp_v4_send_reset
// answers them with a RST; a listener answers only ACKs). Outbound: close()
// with unread data or with SO_LINGER {onoff=1, linger=0}
// (tcp_send_active_reset).

#include <cstdint>
#include <optional>


#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// tcp_done after a reset or a timeout: TCP_CLOSE, unhashed (later segments
// find no socket), timers stopped (delayed ACK, SYN retransmission), `err`
// pending for the application (the model socket's, or before the handshake
// completed the runner's), pollers and a blocked call woken
// (sk_state_change).
void TcpDone(RunState& run, int err);

// __tcp_oow_rate_limited: true when an answer to an out-of-window segment
// was sent less than tcp_invalid_ratelimit ago (per socket, in jiffies,
// `last_jiffies` the socket's or timewait socket's record); else records
// now and returns false.
bool OowRateLimited(const RunState& run, std::optional<int64_t>* last_jiffies);

// tcp_send_challenge_ack: a bare ACK, rate-limited per socket.
void ChallengeAck(RunState& run);

// No socket takes the connection's segments any more: it was reset, closed
// before it was established, or its listener was closed.
bool ConnectionGone(const RunState& run);

// A segment for a connection that is gone (ConnectionGone).
absl::Status OnStraySegment(RunState& run, const Event& e, const PacketEvent& p);

// The peer's RST on the established or closing connection.
absl::Status OnInboundRst(RunState& run, const Event& e, const PacketEvent& p);

// A RST before the connection is synchronized: in SYN-SENT (a refused
// connect) or to the listener's pending handshake (SYN-RECV); the caller
// checks the phase is one of these.
absl::Status OnHandshakeRst(RunState& run, const PacketEvent& p);

// close() on the connection: when tcp_close resets it instead of sending a
// FIN, sends the RST, tears the socket down and sets `*reset`. A skip
// status for a close the runner does not model.
absl::Status CloseWithReset(RunState& run, int line, bool* reset);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RESET_H_
