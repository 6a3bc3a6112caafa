#ifndef SENDSIM_PACKETDRILL_RECEIVE_H_
#define SENDSIM_PACKETDRILL_RECEIVE_H_

// The receive side of the script's connection: the model is a sender and
// has no receive path, so the runner keeps what Linux's TCP does with the
// peer's data around it, enough for scripts that read a request before they
// write a reply: rcv_nxt, the bytes waiting for read(), and the ACK
// decisions (tcp_event_data_recv, __tcp_ack_snd_check, tcp_send_delayed_ack,
// the delayed-ACK timer, tcp_cleanup_rbuf after a read, pingpong mode from
// tcp_event_data_sent) and classic ECN's echo (tcp_ecn_check_ce,
// tcp_ecn_accept_cwr), the out-of-order queue with its SACK and D-SACK
// blocks (receive_ofo.h) and the FIN at the end of the data.
// Simplifications: the advertised window does not shrink with unread or
// out-of-order data (nor grow: no rcv_ssthresh, so no quick ACK from
// tcp_grow_window), the "more than one MSS unacked" rule ignores its
// window-edge test, and data beyond the window or beyond a queued FIN is
// not received (a skip).

#include <cstdint>

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// A segment with data or a FIN (other than the peer's FIN again, which
// teardown.cc answers) on an established connection: what the runner cannot
// receive, as a skip reason.
absl::Status UnmodelledData(const RunState& run, const PacketEvent& p);

// What tcp_data_queue did with a segment.
struct DataArrival {
  bool fin = false;      // the peer's FIN was reached (tcp_fin is due: the caller's)
  bool discard = false;  // wholly below rcv_wup: tcp_validate_incoming drops it
                         // whole after a duplicate ACK (tcp_send_dupack), which the
                         // caller sends; its ACK field is ignored
};

// tcp_data_queue (and tcp_sequence's old-segment test) for a segment with
// data or a FIN, before its ACK part goes to the model socket (so that what
// the model sends acknowledges it): in order, its data joins the bytes
// read() returns and rcv_nxt moves over it and over the out-of-order data it
// reaches (tcp_ofo_queue); beyond rcv_nxt, it waits in the out-of-order
// queue with a SACK block (tcp_data_queue_ofo); below rcv_nxt, a duplicate,
// it gets a D-SACK block and quick-ACK mode.
DataArrival DataQueue(RunState& run, const PacketEvent& p);

// __tcp_ack_snd_check after the segment (tcp_ack_snd_check: only with an
// ACK still owed): at once, or the delayed-ACK timer. A skip when Linux
// would compress SACKs with an RTT estimate the runner lacks.
absl::Status AckSndCheck(RunState& run);

// tcp_sequence's first test: the segment ends before rcv_wup, so
// tcp_validate_incoming drops it (after a duplicate ACK) before tcp_ack
// sees its ACK, timestamp or CWR.
bool OldSequence(const ScriptSocket& sock, const PacketEvent& p);

// tcp_paws_discard for a segment on the established connection (not a
// SYN or RST: the caller's): its TS val is more than TCP_PAWS_WINDOW (1)
// behind ts_recent, which is not 0, and it is no disordered ACK.
bool PawsDiscard(const RunState& run, const PacketEvent& p);

// tcp_disordered_ack: a duplicate pure ACK at rcv_nxt that may not update
// the window, with a TS val at most the replay window (about one RTO in
// ms) behind ts_recent, passes PAWS.
bool DisorderedAck(const RunState& run, const PacketEvent& p, uint32_t ts_val);

// tcp_send_dupack: the ACK for a segment tcp_validate_incoming drops;
// data reaching below rcv_nxt also enters quick-ACK mode and gets a D-SACK
// block.
void SendDupAck(RunState& run, const PacketEvent& p);

// The peer's segment carries CWR (tcp_ecn_accept_cwr, in tcp_ack after its
// old-ACK test): called, for a segment that passed tcp_validate_incoming and
// acknowledges at least snd_una, before its data is queued.
void EcnAcceptCwr(RunState& run, const PacketEvent& p);

// tcp_rcv_rtt_measure_ts, for a segment tcp_rcv_established accepted (after
// tcp_ack, before tcp_data_queue): a timestamp echo that changed, on a
// segment of at least rcv_mss, may give a receive RTT sample (which makes
// compressed SACKs wait: AckSndCheck skips).
void RcvRttMeasureTs(RunState& run, const PacketEvent& p);

// A segment of ours left now carrying the ACK field (tcp_event_ack_sent).
void OnAckSent(RunState& run);

// One of our segments with data left now (tcp_event_data_sent: pingpong).
void OnDataSent(RunState& run);

// read() took `n` bytes from the queue (tcp_cleanup_rbuf may ACK now).
void OnRead(RunState& run, uint64_t n);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RECEIVE_H_
