#ifndef SENDSIM_PACKETDRILL_TEARDOWN_H_
#define SENDSIM_PACKETDRILL_TEARDOWN_H_

// Connection teardown after both sides' FINs: CLOSING, LAST_ACK and the
// timewait socket (tcp_time_wait, tcp_timewait_state_process), the orphaned
// FIN_WAIT2 that close() leaves (a timewait socket in its FIN_WAIT2
// substate), the peer's retransmitted FIN (answered at once, with a D-SACK
// block when SACK is on), and the lingering close() (SO_LINGER with a time:
// sk_stream_wait_close). Resets before both FINs are reset.cc's.

#include <cstdint>

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// TCP_TIMEWAIT_LEN; also tcp_fin_timeout's default (the orphaned FIN_WAIT2's
// lifetime).
inline constexpr int64_t kTcpTimewaitLenSecs = 60;
// TCP_PAWS_MSL: a RST older in timestamp passes PAWS once ts_recent is this old.
inline constexpr int64_t kTcpPawsMslSecs = 60;

// Our FIN is acknowledged.
bool FinAcked(const ScriptSocket& s);

// sk_stream_closing: FIN_WAIT1, CLOSING or LAST_ACK (our FIN is out and not
// yet acknowledged, the socket still whole).
bool StreamClosing(const ScriptSocket& s);

// After an inbound ACK was processed (tcp_rcv_state_process's state
// switch): LAST_ACK ends (tcp_done), CLOSING and FIN_WAIT2 with the peer's
// FIN become TIME_WAIT, an orphaned FIN_WAIT2 becomes a timewait socket.
void AfterInboundAck(RunState& run);

// A segment for the timewait socket (run.sock.tw.alive).
absl::Status OnTimeWaitSegment(RunState& run, const Event& e, const PacketEvent& p);

// close() returned: the socket is orphaned (sock_orphan); one in FIN_WAIT2
// becomes a timewait socket at once (__tcp_close's adjudge_to_death).
void OrphanOnClose(RunState& run);

// close() after both FINs with SO_LINGER {onoff=1, linger=0}: tcp_disconnect
// in CLOSING or LAST_ACK sends no RST (tcp_need_reset) and closes the
// socket.
void DisconnectAfterFins(RunState& run);

// The lingering close() waits: SO_LINGER with a time and our FIN not yet
// acknowledged (sk_stream_wait_close). Its timeout in ns.
bool LingerWaits(const RunState& run);
int64_t LingerTimeoutNs(const RunState& run);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_TEARDOWN_H_
