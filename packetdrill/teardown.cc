#include "packetdrill/teardown.h"

#include <cstdint>
#include <optional>

#include "model/constants.h"
#include "packetdrill/seq.h"
#include "packetdrill/reset.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;


// The timewait socket's timer fired (tw_timer_handler): it is gone, and
// later segments find no socket (reset.cc answers them).
void TwKill(RunState& run) {
  ScriptSocket::TimeWait& tw = run.sock.tw;
  if (tw.timer != 0) run.loop.Cancel(tw.timer);
  tw.timer = 0;
  tw.alive = false;
}

// inet_twsk_schedule / inet_twsk_reschedule. The timer wheel's slack (up
// to 1/8 of the time for long timers) is not modelled: the runner's timer
// fires on time.
void TwSchedule(RunState& run, TimeNs after) {
  ScriptSocket::TimeWait& tw = run.sock.tw;
  if (tw.timer != 0) run.loop.Cancel(tw.timer);
  tw.timer = run.loop.ScheduleAfter(after, [&run] {
    run.sock.tw.timer = 0;
    TwKill(run);
  });
}

// tcp_time_wait: a timewait socket takes the connection over, the whole
// socket is done (tcp_done: TCP_CLOSE, which tcpi_state then reads; no
// error). TIME_WAIT lasts TCP_TIMEWAIT_LEN; the FIN_WAIT2 substate (an
// orphan waiting for the peer's FIN) lasts tcp_fin_time: tcp_fin_timeout,
// 60 s by default (not a runner sysctl; 3.5 RTOs would matter only above
// 17 s).
void EnterTimeWait(RunState& run, bool fin_wait2) {
  TcpDone(run, 0);
  ScriptSocket::TimeWait& tw = run.sock.tw;
  tw.alive = true;
  tw.fin_wait2 = fin_wait2;
  tw.last_oow_ack_jiffies.reset();
  TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
}

// tcp_v4_timewait_ack: a bare ACK at tw_snd_nxt with ack tw_rcv_nxt (no
// SACK blocks: the timewait socket keeps none).
void TwAck(RunState& run) { run.EmitAck(); }

// tcp_timewait_check_oow_rate_limit (tcp_oow_rate_limited): an answer to
// a SYN or to a segment that occupies no sequence space (a bare ACK or
// RST) leaves at most once per tcp_invalid_ratelimit; one with data or FIN
// always.
void TwOowAck(RunState& run, const PacketEvent& p) {
  const bool limited = EndSeq(p) == p.seq_start || (p.flags & kFlagSyn);
  if (limited && OowRateLimited(run, &run.sock.tw.last_oow_ack_jiffies)) return;
  TwAck(run);
}

// The segment's TS val, if timestamps were agreed (tw_ts_recent_stamp set)
// and it carries one.
std::optional<uint32_t> TwTsVal(const RunState& run, const PacketEvent& p) {
  const TcpOption* ts = FindTimestamp(p);
  if (!run.sock.neg.timestamps || ts == nullptr) return std::nullopt;
  return ts->ts_val;
}

// tcp_paws_reject against tw_ts_recent (tcp_paws_check with window 0): a
// TS val behind it, unless ts_recent is 0; a RST passes once ts_recent is
// TCP_PAWS_MSL (60 s) old, counted in whole seconds of the runner's clock
// (Linux's ktime_get_seconds has another phase: within a second of that
// bound the two may differ).
bool TwPawsReject(const RunState& run, const PacketEvent& p) {
  const std::optional<uint32_t> ts_val = TwTsVal(run, p);
  const uint32_t ts_recent = run.sock.last_peer_tsval;
  if (!ts_val || ts_recent == 0 || static_cast<int32_t>(ts_recent - *ts_val) <= 0) return false;
  const int64_t age_s = run.loop.now() / model::kNsPerSec - run.sock.ts_recent_at / model::kNsPerSec;
  return !((p.flags & kFlagRst) && age_s >= kTcpPawsMslSecs);
}

// tcp_v4_send_reset for a segment the timewait socket refuses (TCP_TW_RST):
// R at its ack, or R. at its end without ACK (a SYN).
void TwReset(RunState& run, const PacketEvent& p) {
  if (p.flags & kFlagAck) {
    run.EmitReset(*p.ack, kFlagRst, 0, false);
  } else {
    run.EmitReset(0, kFlagRst | kFlagAck, EndSeq(p), false);
  }
  TwKill(run);
}

// tw_ts_recent and its stamp take an accepted segment's TS val.
void RecordPeerTsval(RunState& run, const PacketEvent& p) {
  if (const std::optional<uint32_t> ts_val = TwTsVal(run, p)) {
    run.sock.last_peer_tsval = *ts_val;
    run.sock.ts_recent_at = run.loop.now();
  }
}

}  // namespace

bool FinAcked(const ScriptSocket& s) {
  return s.fin_seq && s.have_last_ack && !SeqBefore(s.last_ack, *s.fin_seq + 1);
}

bool StreamClosing(const ScriptSocket& s) { return !s.reset && s.fin_seq && !FinAcked(s); }

void AfterInboundAck(RunState& run) {
  ScriptSocket& sock = run.sock;
  if (sock.reset || sock.tw.alive || !FinAcked(sock)) return;
  if (sock.peer_fin && sock.peer_fin_first) {
    // tcp_rcv_state_process in LAST_ACK: our FIN is acknowledged, tcp_done.
    TcpDone(run, 0);
  } else if (sock.peer_fin) {
    // CLOSING with our FIN acknowledged, or FIN_WAIT2 that got the peer's
    // FIN (tcp_fin: its ACK left already): TIME_WAIT.
    EnterTimeWait(run, false);
  } else if (sock.orphan) {
    // FIN_WAIT1 -> FIN_WAIT2 on a closed socket: tcp_fin_time is not above
    // TCP_TIMEWAIT_LEN, so tcp_time_wait(TCP_FIN_WAIT2) at once.
    EnterTimeWait(run, true);
  }
  // A socket still open stays in FIN_WAIT2 (sk_state_change) for good.
}

// tcp_timewait_state_process.
absl::Status OnTimeWaitSegment(RunState& run, const Event& e, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  ScriptSocket::TimeWait& tw = sock.tw;
  const bool rst = p.flags & kFlagRst, syn = p.flags & kFlagSyn, ack = p.flags & kFlagAck, fin = p.flags & kFlagFin;
  if (ack && !p.ack) return run.Fail(e.line, "inbound packet with the ACK flag '.' needs 'ack N'");
  const uint32_t seq = p.seq_start, end_seq = EndSeq(p);
  const bool paws_reject = TwPawsReject(run, p);
  if (tw.fin_wait2) {
    // The checks of tcp_rcv_state_process, repeated. tw_rcv_wnd: the
    // window last advertised (tcp_receive_window).
    const int64_t right = static_cast<int64_t>(sock.rcv.wup) + sock.rcv.wnd - sock.rcv_nxt;
    const uint32_t rcv_wnd = right > 0 ? static_cast<uint32_t>(right) : 0;
    if (paws_reject || !SeqInWindow(seq, end_seq, sock.rcv_nxt, sock.rcv_nxt + rcv_wnd)) {
      TwOowAck(run, p);
      return absl::OkStatus();
    }
    if (rst) {
      TwKill(run);
      return absl::OkStatus();
    }
    // A SYN at or past rcv_nxt: TCP_TW_RST, and the timewait socket goes.
    if (syn && !SeqBefore(seq, sock.rcv_nxt)) {
      TwReset(run, p);
      return absl::OkStatus();
    }
    // A duplicate ACK, or a segment without ACK: dropped.
    if (!ack || !SeqAfter(end_seq, sock.rcv_nxt) || end_seq == seq) return absl::OkStatus();
    // New data after our close: reset.
    if (!fin || end_seq != sock.rcv_nxt + 1) {
      TwReset(run, p);
      return absl::OkStatus();
    }
    // The peer's FIN: the true TIME_WAIT, acknowledged at once (its
    // timestamp becomes tw_ts_recent).
    RecordPeerTsval(run, p);
    tw.fin_wait2 = false;
    sock.rcv_nxt = end_seq;
    sock.peer_fin = true;
    TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
    TwAck(run);
    return absl::OkStatus();
  }
  // TIME_WAIT. An in-window RST or bare ACK that passes PAWS: the RST
  // kills the timewait socket (tcp_rfc1337 = 0, not a runner sysctl), the
  // ACK restarts its timer and sets tw_ts_recent; neither is answered.
  if (!paws_reject && seq == sock.rcv_nxt && (seq == end_seq || rst)) {
    if (rst) {
      TwKill(run);
    } else {
      TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
      RecordPeerTsval(run, p);
    }
    return absl::OkStatus();
  }
  // A new SYN (past rcv_nxt, or with a newer timestamp): TCP_TW_SYN. A
  // listener on the port would take it as a new connection; without one
  // tcp_v4_rcv answers with the timewait ACK, not rate-limited.
  if (syn && !rst && !ack && !paws_reject) {
    const std::optional<uint32_t> ts_val = TwTsVal(run, p);
    if (SeqAfter(seq, sock.rcv_nxt) || (ts_val && static_cast<int32_t>(sock.last_peer_tsval - *ts_val) < 0)) {
      if (sock.listening) return run.Skip(e.line, "a SYN reopening a timewait connection on a listener is not modelled");
      TwAck(run);
      return absl::OkStatus();
    }
  }
  if (!rst) {
    // Anything else (a retransmitted FIN, old or future data, an old SYN,
    // a segment PAWS rejects): the timer restarts when it carries ACK or
    // was rejected, and the timewait ACK answers it.
    if (ack || paws_reject) TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
    TwOowAck(run, p);
  }
  return absl::OkStatus();
}

void OrphanOnClose(RunState& run) {
  ScriptSocket& sock = run.sock;
  sock.orphan = true;
  if (!sock.reset && !sock.tw.alive && FinAcked(sock) && !sock.peer_fin) EnterTimeWait(run, true);
}

void DisconnectAfterFins(RunState& run) { TcpDone(run, 0); }

bool LingerWaits(const RunState& run) {
  const SockOpts& o = run.sock.conn_opts;
  return o.linger && o.linger_secs > 0 && StreamClosing(run.sock);
}

// sk_lingertime: linger seconds in jiffies; sk_stream_wait_close sleeps at
// most that long.
int64_t LingerTimeoutNs(const RunState& run) {
  return int64_t{run.sock.conn_opts.linger_secs} * model::kNsPerSec;
}

}  // namespace sendsim::packetdrill
