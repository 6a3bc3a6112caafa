#ifndef SENDSIM_PACKETDRILL_INJECT_H_
#define SENDSIM_PACKETDRILL_INJECT_H_

// The inbound side: the script's packets ("< ...") written into the local
// TCP, as packetdrill writes them into its tun device. The model starts from
// an established socket, so here the runner plays the part of Linux's TCP
// before that: the three-way handshake (a SYN is answered with a SYN-ACK, a
// SYN-ACK with the handshake ACK; the handshake's last segment builds the
// model socket with the negotiated values). After it, every inbound ACK goes
// to the model socket as a segment, and the peer's FIN is acknowledged as
// tcp_fin would. A RST and segments for a connection that is gone go to
// reset.cc. What the model cannot receive (out-of-order data, SACK blocks,
// duplicate ACKs) makes the script SKIP.

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// Injects the inbound packet `p` of event `e` now.
absl::Status InjectPacket(RunState& run, const Event& e, const PacketEvent& p);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_INJECT_H_
