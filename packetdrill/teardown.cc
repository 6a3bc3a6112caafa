#include "packetdrill/teardown.h"

#include <cstdint>

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

// tcp_timewait_check_oow_rate_limit (__tcp_oow_rate_limited): an answer
// to a segment that occupies no sequence space (a bare ACK or RST) leaves
// at most once per tcp_invalid_ratelimit; one with data or FIN always.
void TwOowAck(RunState& run, uint32_t seq, uint32_t end_seq) {
  if (seq == end_seq && OowRateLimited(run, &run.sock.tw.last_oow_ack_jiffies)) return;
  TwAck(run);
}

// tcp_v4_send_reset for a segment the timewait socket refuses (TCP_TW_RST):
// R at its ack (the segment has ACK here).
void TwReset(RunState& run, const PacketEvent& p) {
  run.EmitReset(*p.ack, kFlagRst, 0, false);
  TwKill(run);
}

void RecordPeerTsval(RunState& run, const PacketEvent& p) {
  for (const TcpOption& o : p.options) {
    if (o.kind == TcpOption::Kind::kTimestamp) run.sock.last_peer_tsval = o.ts_val;
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

// tcp_timewait_state_process. PAWS (tcp_paws_reject) is not modelled: a
// script's timestamps do not go back.
absl::Status OnTimeWaitSegment(RunState& run, const Event& e, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  ScriptSocket::TimeWait& tw = sock.tw;
  const bool rst = p.flags & kFlagRst, syn = p.flags & kFlagSyn, ack = p.flags & kFlagAck, fin = p.flags & kFlagFin;
  if (ack && !p.ack) return run.Fail(e.line, "inbound packet with the ACK flag '.' needs 'ack N'");
  const uint32_t seq = p.seq_start, end_seq = EndSeq(p);
  if (tw.fin_wait2) {
    // The checks of tcp_rcv_state_process, repeated. tw_rcv_wnd: the
    // window last advertised (tcp_receive_window).
    const int64_t right = static_cast<int64_t>(sock.rcv.wup) + sock.neg.rcv_wnd - sock.rcv_nxt;
    const uint32_t rcv_wnd = right > 0 ? static_cast<uint32_t>(right) : 0;
    if (!SeqInWindow(seq, end_seq, sock.rcv_nxt, sock.rcv_nxt + rcv_wnd)) {
      TwOowAck(run, seq, end_seq);
      return absl::OkStatus();
    }
    if (rst) {
      TwKill(run);
      return absl::OkStatus();
    }
    if (syn && !SeqBefore(seq, sock.rcv_nxt)) return run.Skip(e.line, "a SYN to a timewait socket is not modelled");
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
  // TIME_WAIT. An in-window RST or bare ACK: the RST kills the timewait
  // socket (tcp_rfc1337 = 0, not a runner sysctl), the ACK restarts its
  // timer; neither is answered.
  if (seq == sock.rcv_nxt && (seq == end_seq || rst)) {
    if (rst) {
      TwKill(run);
    } else {
      TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
    }
    return absl::OkStatus();
  }
  if (syn && !rst && !ack) return run.Skip(e.line, "a SYN to a timewait socket is not modelled");
  if (!rst) {
    // Anything else (a retransmitted FIN, old or future data): the timer
    // restarts when it carries ACK, and the timewait ACK answers it.
    if (ack) TwSchedule(run, kTcpTimewaitLenSecs * model::kNsPerSec);
    TwOowAck(run, seq, end_seq);
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
