#ifndef SENDSIM_PACKETDRILL_RECEIVE_H_
#define SENDSIM_PACKETDRILL_RECEIVE_H_

// The receive side of the script's connection: the model is a sender and
// has no receive path, so the runner keeps what Linux's TCP does with the
// peer's data around it, enough for scripts that read a request before they
// write a reply: rcv_nxt, the bytes waiting for read(), and the ACK
// decisions (tcp_event_data_recv, __tcp_ack_snd_check, tcp_send_delayed_ack,
// the delayed-ACK timer, tcp_cleanup_rbuf after a read, pingpong mode from
// tcp_event_data_sent) and classic ECN's echo (tcp_ecn_check_ce,
// tcp_ecn_accept_cwr). Simplifications: in-order data only, no FIN on a
// data segment, the advertised window does not shrink with unread data, and
// the "more than one MSS unacked" rule ignores its window-edge test.

#include <cstdint>

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// Peer data arrived (after its ACK part went to the model socket, which may
// already have sent data carrying the new rcv_nxt): queue it and ACK it now
// or later. `p` is in order (seq_start == rcv_nxt before the call).
void ReceiveData(RunState& run, const PacketEvent& p);

// The peer's segment carries CWR (tcp_ecn_accept_cwr): called before its
// data is queued.
void EcnAcceptCwr(RunState& run, const PacketEvent& p);

// Marks rcv_nxt as advanced by `len` bytes before the ACK part is processed,
// so that segments sent meanwhile acknowledge the data (tcp_data_queue runs
// before tcp_data_snd_check).
void QueueData(RunState& run, const PacketEvent& p);

// A segment of ours left now carrying the ACK field (tcp_event_ack_sent).
void OnAckSent(RunState& run);

// One of our segments with data left now (tcp_event_data_sent: pingpong).
void OnDataSent(RunState& run);

// read() took `n` bytes from the queue (tcp_cleanup_rbuf may ACK now).
void OnRead(RunState& run, uint64_t n);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RECEIVE_H_
