#include "packetdrill/reset.h"

#include <algorithm>
#include <cstdint>

#include "model/constants.h"
#include "packetdrill/seq.h"
#include "packetdrill/syn_retransmit.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/teardown.h"

namespace sendsim::packetdrill {
namespace {




}  // namespace

bool OowRateLimited(const RunState& run, std::optional<int64_t>* last_jiffies) {
  const int64_t jiffy = model::kNsPerSec / run.sock.hz;
  const int64_t now = run.loop.now() / jiffy;
  const int64_t ratelimit = (int64_t{run.settings.tcp_invalid_ratelimit} * run.sock.hz + 999) / 1000;
  if (*last_jiffies && now - **last_jiffies < ratelimit) return true;
  *last_jiffies = now;
  return false;
}

void TcpDone(RunState& run, int err) {
  ScriptSocket& sock = run.sock;
  sock.reset = true;
  if (sock.delack_event != 0) {
    run.loop.Cancel(sock.delack_event);
    sock.delack_event = 0;
  }
  StopSynRetransmit(run);
  if (sock.ep) {
    sock.ep->Abort(err);
  } else {
    // Before the handshake completed there is no model socket to hold the
    // error.
    sock.sk_err = err;
    sock.phase = SocketPhase::kClosed;
  }
  sock.Wakeup(true, 0);
}

// tcp_send_challenge_ack: a bare ACK (tcp_send_ack), at most one per
// tcp_invalid_ratelimit (500 ms by default, read live, kept in jiffies by
// proc_dointvec_ms_jiffies, i.e. rounded up) per socket
// (__tcp_oow_rate_limited; 0 turns the limit off). The per-namespace
// tcp_challenge_ack_limit (at least 500 a second) is not reached by a
// script.
void ChallengeAck(RunState& run) {
  if (OowRateLimited(run, &run.sock.last_oow_ack_jiffies)) return;
  run.EmitAck();
}

bool ConnectionGone(const RunState& run) {
  return run.sock.reset || (run.sock.phase == SocketPhase::kClosed && !run.sock.ep);
}

// tcp_v4_rcv without an established socket. A listener on the port takes
// the segment first (tcp_rcv_state_process in LISTEN): an ACK is answered
// with a RST, a RST and anything else without SYN are dropped. Without one,
// tcp_v4_send_reset answers every segment but a RST: a segment with ACK with
// seq = its ack and no ACK flag, one without with seq 0 and an ACK of all
// it occupied (SYN, data, FIN).
absl::Status OnStraySegment(RunState& run, const Event& e, const PacketEvent& p) {
  const bool ack = p.flags & kFlagAck, syn = p.flags & kFlagSyn;
  if (p.flags & kFlagRst) return absl::OkStatus();
  if (run.sock.listening) {
    if (syn && !ack) return run.Skip(e.line, "a second connection on the listener is not modelled");
    if (!ack) return absl::OkStatus();
  }
  if (ack) {
    run.EmitReset(*p.ack, kFlagRst, 0, false);
  } else {
    const uint32_t occupied = p.len + (syn ? 1 : 0) + ((p.flags & kFlagFin) ? 1 : 0);
    run.EmitReset(0, kFlagRst | kFlagAck, p.seq_start + occupied, false);
  }
  return absl::OkStatus();
}

// tcp_validate_incoming's RST check (RFC 5961 3.2), after tcp_sequence's
// window test: a RST at exactly rcv_nxt (or rcv_nxt - 1 in CLOSE_WAIT,
// tcp_reset_check) resets; another one inside the window draws a challenge
// ACK; one outside it is dropped without an answer. tcp_reset's error:
// EPIPE in CLOSE_WAIT, ECONNRESET otherwise (also CLOSING and LAST_ACK,
// where rcv_nxt - 1 resets too).
absl::Status OnInboundRst(RunState& run, const Event& /*e*/, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  // After the peer's FIN the whole socket is in CLOSE_WAIT, CLOSING or
  // LAST_ACK (TIME_WAIT is the timewait socket's, teardown.cc).
  const bool close_wait = sock.peer_fin && !sock.fin_seq;
  const uint32_t seq = p.seq_start, end_seq = p.seq_start + p.len;
  if (seq == sock.rcv_nxt || (sock.peer_fin && seq == sock.rcv_nxt - 1)) {
    TcpDone(run, close_wait ? model::kEpipe : model::kEconnreset);
    return absl::OkStatus();
  }
  // tcp_sequence: not entirely before rcv_wup, not starting after the
  // window we advertised (tcp_receive_window).
  const int64_t right = static_cast<int64_t>(sock.rcv.wup) + sock.rcv.wnd - sock.rcv_nxt;
  const uint32_t rcv_wnd = static_cast<uint32_t>(std::max<int64_t>(right, 0));
  if (SeqBefore(end_seq, sock.rcv.wup) || SeqAfter(seq, sock.rcv_nxt + rcv_wnd)) return absl::OkStatus();
  ChallengeAck(run);
  return absl::OkStatus();
}

// tcp_rcv_synsent_state_process: a RST without ACK is discarded, and so is
// one whose ACK does not cover exactly our SYN (snd_una < ack <= snd_nxt;
// tcp_v4_send_reset never answers a RST). An acceptable one is tcp_reset in
// SYN-SENT: ECONNREFUSED, tcp_done. tcp_check_req (SYN-RECV, the listener's
// request): a RST whose ACK is not our SYN-ACK's + 1 goes to the listener,
// which drops it; one in the request's window (tcp_in_window: at rcv_nxt,
// or overlapping [rcv_nxt, rcv_nxt + window)) drops the request
// (embryonic_reset, inet_csk_reqsk_queue_drop), and the listener waits for
// another SYN; outside it the RST is dropped unanswered.
absl::Status OnHandshakeRst(RunState& run, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  const bool ack = p.flags & kFlagAck;
  if (sock.phase == SocketPhase::kSynSent) {
    if (!ack) return absl::OkStatus();
    // The bad ACK also rearms the SYN's retransmit timer to TCP_TIMEOUT_MIN
    // when it has not fired yet: the SYN leaves again 2 jiffies later.
    if (*p.ack != 1) {
      SynRetransmitSoon(run);
      return absl::OkStatus();
    }
    TcpDone(run, kErrEconnrefused);
    return absl::OkStatus();
  }
  if (ack && *p.ack != 1) return absl::OkStatus();
  const uint32_t seq = p.seq_start, end_seq = p.seq_start + p.len;
  const uint32_t s_win = sock.rcv_nxt, e_win = sock.rcv_nxt + sock.neg.rcv_wnd;
  if (SeqInWindow(seq, end_seq, s_win, e_win)) sock.phase = SocketPhase::kListen;
  return absl::OkStatus();
}

// tcp_close: unread data (the FIN not counted) resets the connection
// (tcp_send_active_reset) whatever else holds; so does SO_LINGER with a zero
// time, through tcp_disconnect, in the states tcp_need_reset names
// (ESTABLISHED, CLOSE_WAIT, FIN_WAIT1/2). The RST carries our ACK and the
// sequence number tcp_acceptable_seq gives; nothing queued is sent.
absl::Status CloseWithReset(RunState& run, int /*line*/, bool* reset) {
  ScriptSocket& sock = run.sock;
  *reset = false;
  const SockOpts& o = sock.conn_opts;
  const bool unread = sock.rcv.queued > 0;
  if (!unread && !o.linger) return absl::OkStatus();
  // A lingering close sends its FIN and waits (teardown.cc).
  if (!unread && o.linger_secs != 0) return absl::OkStatus();
  if (!unread && sock.peer_fin && sock.fin_seq) {
    // tcp_disconnect in CLOSING or LAST_ACK: no RST, the socket closes.
    DisconnectAfterFins(run);
    *reset = true;
    return absl::OkStatus();
  }
  run.EmitReset(AcceptableSeq(sock), kFlagRst | kFlagAck, sock.rcv_nxt, true);
  TcpDone(run, 0);
  *reset = true;
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
