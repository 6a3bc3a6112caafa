#ifndef SENDSIM_PACKETDRILL_SYN_RETRANSMIT_H_
#define SENDSIM_PACKETDRILL_SYN_RETRANSMIT_H_

// Our SYN's retransmission timer in SYN-SENT (tcp_connect arms it with
// TCP_TIMEOUT_INIT; tcp_retransmit_timer resends the SYN and backs off;
// tcp_write_timeout ends the connect with ETIMEDOUT), and on a passive open
// the request socket's SYN-ACK timer (reqsk_timer_handler: 1 s, doubling,
// dropped after tcp_synack_retries). The connection established after a
// retransmitted SYN or SYN-ACK starts from the retransmission count (and, on
// an active open, the backoff) kept here
// (model::TcpSock::Options::syn_retransmits).

#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// tcp_connect: the SYN just left; the timer fires after 1 s.
void ArmSynRetransmit(RunState& run);

// Passive open: our SYN-ACK just left, answering the peer's SYN with
// sequence number `isn` (script value) and TS val `ts_recent`; the
// request's timer fires after 1 s (inet_csk_reqsk_queue_hash_add with
// tcp_timeout_init).
void ArmSynAckRetransmit(RunState& run, uint32_t isn, uint32_t ts_recent);

// tcp_check_req: the peer's SYN again while ours is pending (SYN-RECV).
// True when it is a pure retransmission (the same ISN): then, unless
// tcp_oow_rate_limited holds it back, the SYN-ACK is resent and the
// request's timer moved. False for anything else (a skip for the caller).
bool OnRepeatedSyn(RunState& run, uint32_t seq);

// The peer's RST with an unacceptable ACK in SYN-SENT
// (tcp_rcv_synsent_state_process): before any retransmission the timer is
// rearmed to TCP_TIMEOUT_MIN (2 jiffies).
void SynRetransmitSoon(RunState& run);

// The SYN-SENT or SYN-RECV state ended (SYN-ACK or handshake ACK, reset,
// close): the timer stops.
void StopSynRetransmit(RunState& run);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SYN_RETRANSMIT_H_
