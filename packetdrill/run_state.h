#ifndef SENDSIM_PACKETDRILL_RUN_STATE_H_
#define SENDSIM_PACKETDRILL_RUN_STATE_H_

// The state of one script run that the runner's parts share: upstream
// packetdrill's `struct state`. It holds the plan the script sets up (its
// options, the settings its commands make, the kernel profile), the clock
// (the model's event loop), the packets the tun device captured and the
// script has not matched yet, the one outstanding blocking system call, and
// the local TCP socket as the script's packets and calls have shaped it. The
// parts are runner.cc (the walk over the events), inject.cc (inbound
// packets), match.cc (outbound packets), syscalls.cc (system calls) and
// code.cc (%{ }% blocks); this file also holds the little they all need:
// advancing time, completing a blocking call, writing our control segments
// to the tun device, and FAIL/SKIP statuses that name the script line.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/event_loop.h"
#include "model/profile.h"
#include "model/types.h"
#include "packetdrill/ast.h"
#include "packetdrill/config.h"
#include "packetdrill/endpoint.h"
#include "packetdrill/handshake.h"
#include "packetdrill/outbound.h"
#include "packetdrill/receive_ofo.h"
#include "packetdrill/socket_config.h"

namespace sendsim::packetdrill {

// An outstanding blocking call.
struct Pending {
  int line = 0;
  std::string name;
  const SyscallEvent* sc = nullptr;
  bool annotated = false;   // written with "..."
  model::TimeNs end_lo = 0, end_hi = 0;
  std::string expected_end;
  bool done = false;
  int64_t ret = 0;
  model::TimeNs done_at = 0;
  // For waits the runner resolves itself (accept, connect, poll): polled after
  // every model event.
  std::function<bool()> ready;
  std::function<int64_t()> finish;
  model::TimeNs timeout_at = -1;   // poll timeout
};

// How far the script's one TCP socket has come.
enum class SocketPhase { kNone, kCreated, kListen, kSynRcvd, kSynSent, kEstablished, kClosed };

// The local TCP socket: upstream's `struct socket`. The model socket (`ep`)
// exists from the end of the handshake on; the rest is what Linux's TCP
// would know around it that the model does not track: the handshake's
// choices, the script-relative sequence numbers of both sides, the FINs, and
// the last ACK seen (for duplicate-ACK detection and tcpi_state).
struct ScriptSocket {
  SocketPhase phase = SocketPhase::kNone;
  SockOpts listen_opts;  // set on the socket() fd before the connection exists, inherited by it
  SockOpts conn_opts;    // the connection's options (inherited, then its own setsockopt calls)
  Negotiated neg;
  bool active_open = false;
  model::TimeNs syn_at = 0;     // our SYN left (active open)
  model::TimeNs synack_at = 0;  // our SYN-ACK left (passive open)
  uint32_t rcv_nxt = 1;
  uint32_t snd_nxt = 1;                 // script sequence after the highest byte sent
  std::optional<uint32_t> fin_seq;      // sequence number of our FIN
  bool peer_fin = false;
  uint64_t errqueue_reports = 0;  // sk_error_report wakeups already given (zerocopy completions)
  bool peer_fin_first = false;  // the peer's FIN arrived before our close (CLOSE_WAIT)
  bool rcv_shutdown = false;    // shutdown(SHUT_RD/SHUT_RDWR): RCV_SHUTDOWN set by the application
  bool reset = false;           // reset either way: TCP_CLOSE, unhashed (reset.cc)
  bool orphan = false;          // close() returned: SOCK_DEAD, no descriptor (teardown.cc)
  // The timewait socket that replaces the whole one (tcp_time_wait,
  // teardown.cc); the whole socket is TCP_CLOSE (`reset`) meanwhile.
  struct TimeWait {
    bool alive = false;
    bool fin_wait2 = false;     // tw_substate FIN_WAIT2: the peer's FIN is still to come
    model::EventLoop::EventId timer = 0;
    std::optional<int64_t> last_oow_ack_jiffies;  // tw_last_oow_ack_time
  } tw;
  int sk_err = 0;               // pending error before the model socket exists (refused or timed-out connect)
  bool disconnected = false;    // a blocking connect() failed: tcp_disconnect cleared sk_shutdown
  // Our SYN's retransmission timer (syn_retransmit.cc): icsk_rto, the
  // retransmissions so far (icsk_retransmits = tp->total_rto in SYN-SENT),
  // icsk_backoff, and when the latest SYN left.
  model::EventLoop::EventId syn_timer = 0;
  model::TimeNs syn_rto = 0;
  uint32_t syn_retransmits = 0;
  uint32_t syn_backoff = 0;
  model::TimeNs last_syn_at = 0;
  // Passive open: the listener's request socket while the handshake is
  // pending (syn_retransmit.cc). syn_retransmits above is its num_retrans
  // (the child's total_retrans); num_timeout counts only the timer's
  // resends. The peer's ISN (script value) and its SYN's TS val
  // (req->ts_recent, echoed by every SYN-ACK), and last_oow_ack_time.
  struct Request {
    uint32_t isn = 0;
    uint32_t ts_recent = 0;
    uint32_t num_timeout = 0;
    std::optional<int64_t> last_oow_ack_jiffies;
  } req;
  bool listening = false;       // the listener's descriptor is open
  // tp->last_oow_ack_time in jiffies: the last challenge ACK (tcp_oow_rate_limited).
  std::optional<int64_t> last_oow_ack_jiffies;
  int hz = 250;                 // jiffies of the receive-side timers (the model's hz)
  // The keepalive timer (keepalive.cc): its event, and the keepalive
  // probes sent since the peer's last ACK (icsk_probes_out) with the
  // rcv_tstamp (jiffies) the last one saw.
  struct Keepalive {
    model::EventLoop::EventId timer = 0;
    uint32_t probes_out = 0;
    int64_t probe_rcv_tstamp = 0;
  } ka;
  model::EventLoop::EventId delack_event = 0;
  // The receive side (receive.cc): Linux's icsk_ack state and the unread
  // bytes of the peer's data.
  struct Receive {
    uint64_t queued = 0;         // received, not yet read
    uint32_t wup = 1;            // tp->rcv_wup: rcv_nxt when our last ACK left
    uint32_t wnd = 0;            // tp->rcv_wnd: the window offered then, in bytes
    bool wnd_unknown = false;    // Linux's offer may differ since (RunState::SelectWindow)
    uint32_t mss = 0;            // icsk_ack.rcv_mss (0 until the first data)
    uint32_t quick = 0;          // icsk_ack.quick: quick ACKs left
    int64_t ato = 0;             // icsk_ack.ato in jiffies (0 until the first data)
    int64_t lrcv_jiffies = 0;    // icsk_ack.lrcvtime
    int64_t delack_timeout = 0;  // icsk_ack.timeout in jiffies, while delack_event is pending
    bool pingpong = false;       // interactive: ACKs wait to ride on replies
    bool ack_sched = false;      // ICSK_ACK_SCHED: data not yet acknowledged
    bool pushed = false;         // ICSK_ACK_PUSHED / PUSHED2: short segments seen
    bool pushed2 = false;
    bool ack_now = false;        // ICSK_ACK_NOW: the next ACK check sends at once
    OfoQueue ofo;                // out-of-order data, SACK and D-SACK blocks
    // __tcp_ack_snd_check's SACK compression: duplicate ACKs sent at
    // compressed_ack_rcv_nxt (tp->dup_ack_counter).
    uint32_t dup_ack_counter = 0;
    uint32_t compressed_ack_rcv_nxt = 0;
    // tcp_rcv_rtt_measure: the rcv_nxt whose arrival gives a receive RTT
    // sample (0: none armed), and whether one may have been taken (also by
    // tcp_rcv_rtt_measure_ts); tp->rcv_rtt_last_tsecr, the TS ecr of the
    // last segment tcp_rcv_established accepted.
    uint32_t rtt_est_seq = 0;
    bool rtt_sampled = false;
    uint32_t rtt_last_tsecr = 0;
    // tcp_info's receive-side record (code.cc): out-of-order segments
    // (tp->rcv_ooopack), a data segment of 128 bytes or more or one out of
    // order (tcp_grow_window may have raised rcv_ssthresh by a truesize
    // rule), one of at least rcv_mss (tcp_measure_rcv_mss, which from v6.6
    // rescales the window clamp by len / truesize).
    uint32_t ooopack = 0;
    bool grow_window_ran = false;
    bool full_segment_seen = false;
    // The model sent a segment longer than Linux's MSS less our SACK
    // option (match.cc's OnXmit): the runner skips.
    bool sack_shrinks_mss = false;
  } rcv;
  // Classic ECN (tp->ecn_flags): our SYN asked for it; the peer's CE mark
  // awaits its CWR (TCP_ECN_DEMAND_CWR: our segments carry ECE); ECT or CE
  // data arrived (TCP_ECN_SEEN).
  bool ecn_syn = false;
  bool ecn_demand_cwr = false;
  bool ecn_seen = false;
  // The connection's segment counters that the model socket does not see
  // (code.cc adds its own): every segment the socket took (tcp_segs_in)
  // and those with payload, and what it sent that the runner builds (our
  // SYN, ACKs, a RST: __tcp_transmit_skb's segs_out).
  struct SegCounts {
    uint64_t segs_in = 0;
    uint64_t data_segs_in = 0;
    uint64_t segs_out = 0;
  } tcpi;
  bool have_last_ack = false;
  uint32_t last_ack = 0;
  uint32_t last_win = 0;
  // snd_wl1 and snd_wnd as Linux keeps them (tcp_ack_update_window), for
  // tcp_disordered_ack: the seq of the last segment allowed to update the
  // window, and that window in bytes.
  uint32_t snd_wl1 = 0;
  uint32_t snd_wnd = 0;
  uint32_t last_peer_tsval = 0;
  model::TimeNs ts_recent_at = 0;  // when last_peer_tsval was stored (ts_recent_stamp)
  std::unique_ptr<Endpoint> ep;
  // Wakes the connection's (or the listener's) waiters with a poll key
  // (sk_data_ready, sk_write_space, sk_state_change; 0: every event). Set by
  // the system-call driver, which keeps the epoll instances.
  std::function<void(bool connection, int64_t key)> wakeup;
  void Wakeup(bool connection, int64_t key) const {
    if (wakeup) wakeup(connection, key);
  }

  // sk_err: the model socket's once it exists, else the runner's own.
  bool HasSockError() const { return ep ? ep->HasSockError() : sk_err != 0; }
  int TakeSockError() {
    if (ep) return ep->TakeSockError();
    const int e = sk_err;
    sk_err = 0;
    return e;
  }
  // Ended before the handshake completed (connect refused or timed out):
  // no model socket, TCP_CLOSE with SHUTDOWN_MASK (tcp_done).
  bool RefusedOrAborted() const { return reset && !ep; }

  // The peer's window field in bytes.
  uint32_t PeerWindow(uint32_t field) const { return neg.wscale_ok ? (field << neg.snd_wscale) : field; }
  // tcp_ack: an ACK below snd_una (old_ack) changes neither snd_una nor
  // the window.
  // snd_una as the runner sees it: the highest ACK so far, or our ISN + 1.
  uint32_t SndUna() const { return have_last_ack ? last_ack : 1; }
  // tcp_may_update_window: the ACK advances, or the segment is newer than
  // snd_wl1, or as new with a larger (or zero) window.
  bool MayUpdateWindow(uint32_t ack, uint32_t seq, uint32_t nwin) const {
    return static_cast<int32_t>(ack - SndUna()) > 0 || static_cast<int32_t>(seq - snd_wl1) > 0 ||
           (seq == snd_wl1 && (nwin > snd_wnd || nwin == 0));
  }
  // tcp_ack_update_window (and tcp_ack's fast path, tcp_update_wl): run
  // before RecordAck, for a segment tcp_ack takes.
  void UpdateWindow(uint32_t ack, uint32_t seq, uint32_t nwin) {
    if (!MayUpdateWindow(ack, seq, nwin)) return;
    snd_wl1 = seq;
    snd_wnd = nwin;
  }
  void RecordAck(uint32_t ack, uint32_t win) {
    if (have_last_ack && static_cast<int32_t>(ack - last_ack) < 0) return;
    have_last_ack = true;
    last_ack = ack;
    last_win = win;
  }
};

// tp->rcv_wnd as tcp_select_initial_window left it (at most 65535 on
// v4.20..v6.5 profiles). An active open chose it in tcp_connect_init, before
// it knew whether timestamps would be used: the space is rounded down to
// whole advmss (the timestamp option is taken off only for a reused
// timewait's ts_recent_stamp), not to advmss less the option as a passive
// open's tcp_openreq_init_rwin does.
uint32_t InitialRcvWnd(const ScriptSocket& s, const model::Profile& profile);
// tcp_acceptable_seq, the sequence number of our bare ACKs and RSTs:
// snd_nxt, unless the peer's window (snd_una + snd_wnd) ends before it by
// at least 1 << (our receive window scale) bytes with window scaling (or at
// all without): then the window's end.
uint32_t AcceptableSeq(const ScriptSocket& sock);

// tp->rcv_ssthresh after tcp_init_buffer_space, from the initial window.
uint32_t InitRcvSsthresh(const Negotiated& neg, uint32_t init_wnd);

// One script run. Its parts keep no copies of this state: they are handed
// the run and read and change it directly.
struct RunState {
  RunState(const Script& s, const model::Profile& p, const EndpointFactory& f, const MatchRules& r)
      : script(s), profile(p), factory(f), rules(r) {}

  // tcp_select_window for a segment the socket sends now: its window field,
  // with rcv_wnd and rcv_wup updated. The offer depends on rcv_ssthresh and
  // the free space, which the runner knows only until a data segment of 128
  // bytes or more arrives (tcp_grow_window and, from v6.6, the scaling
  // ratio weigh its truesize) and while no unread data takes buffer space
  // the offer would need; from then on sock.rcv.wnd_unknown is set and a
  // script line that checks our window SKIPs (match.cc).
  uint32_t SelectWindow();

  // The plan.
  const Script& script;
  const model::Profile profile;
  const EndpointFactory& factory;
  Settings settings;
  MatchRules rules;  // tolerance and --strict_segments (the caller's, then the script's)

  model::EventLoop loop;
  std::deque<Capture> out;                // captured on the tun device, not matched yet
  std::optional<absl::Status> failure;    // found while time ran (a blocking call's result)
  std::optional<Pending> pending;
  ScriptSocket sock;

  // "path:line: msg" as a FAIL (FailedPrecondition) or a SKIP (Unimplemented).
  absl::Status Fail(int line, const std::string& msg) const;
  absl::Status Skip(int line, const std::string& msg) const;
  // Re-labels a status from a helper with the script location.
  absl::Status At(int line, const absl::Status& st) const;

  // max(--tolerance_usecs, --tolerance_percent of `gap`): ToleranceNs.
  model::TimeNs Tolerance(model::TimeNs gap) const;

  // Runs model events up to `deadline` (inclusive), or until `stop` holds,
  // completing the pending call when its wait is over.
  void Advance(model::TimeNs deadline, const std::function<bool()>& stop);
  void AdvanceTo(model::TimeNs t) { Advance(t, nullptr); }
  // The pending blocking call returned `r` now.
  void Complete(int64_t r);
  // A FAIL when `r` is not the result the script expects of the call.
  absl::Status CheckReturn(int line, const std::string& name, const SyscallEvent& sc, int64_t r) const;

  // Our segments that the model socket does not send, captured now: our SYN
  // (flags kFlagSyn, ack 0, ecr 0) or SYN-ACK with the negotiated options in
  // tcp_options_write's order (SYN windows are never scaled), and ACKs
  // (tcp_send_ack: a bare ACK at snd_nxt) of the handshake and the peer's FIN.
  void EmitSyn(uint8_t flags, uint32_t ack, uint32_t ts_ecr);
  void EmitAck();
  // A RST: from the connection (tcp_send_active_reset: our window and
  // options) or, with `from_socket` false, from no socket
  // (tcp_v4_send_reset: window 0, no options).
  void EmitReset(uint32_t seq, uint8_t flags, uint32_t ack, bool from_socket);
  // Options of an established segment sent now.
  std::vector<TcpOption> DataOptionsNow() const;
  // The same with the receive side's SACK blocks, which the segment
  // reports (its D-SACK block is then spent: tcp_options_write).
  std::vector<TcpOption> SegmentOptionsNow();
};

std::string TimeText(model::TimeNs t);

// Urgent data on a script packet (either direction) or an inbound ECN
// marking that names no single codepoint: a skip reason.
absl::Status UrgentOrEcn(const PacketEvent& p);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RUN_STATE_H_
