#include "packetdrill/keepalive.h"

#include <algorithm>
#include <cstdint>

#include "model/constants.h"
#include "model/socket.h"
#include "packetdrill/ast.h"
#include "packetdrill/reset.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

// MAX_TCP_KEEPIDLE, MAX_TCP_KEEPINTVL, MAX_TCP_KEEPCNT (include/net/tcp.h).
constexpr int64_t kMaxKeepIdle = 32767, kMaxKeepIntvl = 32767, kMaxKeepCnt = 127;

int64_t JiffyNs(const RunState& run) { return model::kNsPerSec / run.sock.hz; }
int64_t NowJiffies(const RunState& run) { return run.loop.now() / JiffyNs(run); }

// keepalive_time_when, keepalive_intvl_when (jiffies) and keepalive_probes:
// the socket's own value, else the sysctl's, read now.
int64_t KeepaliveTimeWhen(const RunState& run) {
  const SockOpts& o = run.sock.conn_opts;
  return int64_t{o.keepidle != 0 ? o.keepidle : run.settings.tcp_keepalive_time} * run.sock.hz;
}
int64_t KeepaliveIntvlWhen(const RunState& run) {
  const SockOpts& o = run.sock.conn_opts;
  return int64_t{o.keepintvl != 0 ? o.keepintvl : run.settings.tcp_keepalive_intvl} * run.sock.hz;
}
uint32_t KeepaliveProbes(const RunState& run) {
  const SockOpts& o = run.sock.conn_opts;
  return o.keepcnt != 0 ? o.keepcnt : run.settings.tcp_keepalive_probes;
}

// tp->rcv_tstamp in jiffies: the model's time of the last acceptable ACK.
int64_t RcvTstamp(const RunState& run) {
  const model::TcpInfo i = run.sock.ep->socket().info();
  return NowJiffies(run) - int64_t{i.last_ack_recv_ms} * run.sock.hz / 1000;
}

// keepalive_time_elapsed: since the last data (icsk_ack.lrcvtime, the
// runner's receive side once data came) or the last ACK, whichever is later.
int64_t KeepaliveTimeElapsed(const RunState& run) {
  const int64_t now = NowJiffies(run);
  int64_t elapsed = now - RcvTstamp(run);
  if (run.sock.rcv.ato != 0) elapsed = std::min(elapsed, now - run.sock.rcv.lrcv_jiffies);
  return std::max<int64_t>(elapsed, 0);
}

// The connection whose keepalive timer may run: established (the model
// socket exists), not reset or timed out, still owned by the application
// (an orphan's FIN_WAIT2 timer is teardown.cc's).
bool Live(const RunState& run) { return run.sock.ep && !run.sock.reset && !run.sock.orphan; }

void OnKeepaliveTimer(RunState& run);

// inet_csk_reset_keepalive_timer: fires `len` jiffies from now (on a tick;
// the timer wheel's slack is not modelled).
void ResetKeepaliveTimer(RunState& run, int64_t len) {
  ScriptSocket::Keepalive& ka = run.sock.ka;
  if (ka.timer != 0) run.loop.Cancel(ka.timer);
  const model::TimeNs at = (NowJiffies(run) + len) * JiffyNs(run);
  ka.timer = run.loop.ScheduleAt(at, [&run] { OnKeepaliveTimer(run); });
}

// inet_csk_delete_keepalive_timer.
void DeleteKeepaliveTimer(RunState& run) {
  if (run.sock.ka.timer != 0) run.loop.Cancel(run.sock.ka.timer);
  run.sock.ka.timer = 0;
}

// tcp_keepalive_timer for a connection the application holds. The socket
// is never owned here (the runner's calls take no time), so the HZ/20 retry
// is not needed.
void OnKeepaliveTimer(RunState& run) {
  ScriptSocket& sock = run.sock;
  ScriptSocket::Keepalive& ka = sock.ka;
  ka.timer = 0;
  if (!Live(run) || !sock.conn_opts.keepalive) return;
  const model::TcpInfo info = sock.ep->socket().info();
  // "Alive without keepalive": data in flight or queued.
  if (info.unacked != 0 || info.notsent_bytes != 0) {
    ResetKeepaliveTimer(run, KeepaliveTimeWhen(run));
    return;
  }
  // tcp_ack clears icsk_probes_out on every acceptable ACK; one came after
  // our last probe when rcv_tstamp moved.
  const int64_t rcv_tstamp = RcvTstamp(run);
  if (rcv_tstamp > ka.probe_rcv_tstamp) ka.probes_out = 0;
  const int64_t elapsed = KeepaliveTimeElapsed(run);
  const int64_t when = KeepaliveTimeWhen(run);
  if (elapsed < when) {
    ResetKeepaliveTimer(run, when - elapsed);
    return;
  }
  // With TCP_USER_TIMEOUT the connection dies once it has been idle that
  // long and a probe went unanswered; without, after keepalive_probes
  // unanswered probes. tcp_send_active_reset (RST|ACK at
  // tcp_acceptable_seq, snd_nxt here: nothing is in flight), then
  // tcp_write_err (ETIMEDOUT).
  const uint32_t user_timeout_ms = sock.conn_opts.user_timeout_ms;
  const int64_t user_timeout_jiffies = (int64_t{user_timeout_ms} * sock.hz + 999) / 1000;  // msecs_to_jiffies
  if ((user_timeout_ms != 0 && elapsed >= user_timeout_jiffies && ka.probes_out > 0) ||
      (user_timeout_ms == 0 && ka.probes_out >= KeepaliveProbes(run))) {
    run.EmitReset(sock.snd_nxt, kFlagRst | kFlagAck, sock.rcv_nxt, true);
    TcpDone(run, model::kEtimedout);
    return;
  }
  // tcp_write_wakeup with an empty write queue: tcp_xmit_probe_skb, a bare
  // ACK at snd_una - 1 that the peer must answer with an ACK.
  run.EmitReset(sock.snd_nxt - 1, kFlagAck, sock.rcv_nxt, true);
  ++ka.probes_out;
  ka.probe_rcv_tstamp = rcv_tstamp;
  ResetKeepaliveTimer(run, KeepaliveIntvlWhen(run));
}

}  // namespace

bool IsKeepaliveOption(const std::string& opt) {
  return opt == "SO_KEEPALIVE" || opt == "TCP_KEEPIDLE" || opt == "TCP_KEEPINTVL" || opt == "TCP_KEEPCNT";
}

int SetKeepaliveOption(RunState& run, SockOpts& o, bool on_conn, const std::string& opt, int64_t value) {
  const bool live = on_conn && Live(run);
  if (opt == "SO_KEEPALIVE") {
    // sock_setsockopt -> tcp_set_keepalive (not in CLOSE or LISTEN): arms
    // the timer when turned on (keepalive_time_when), deletes it when off.
    const bool on = value != 0;
    if (live && on && !o.keepalive) ResetKeepaliveTimer(run, KeepaliveTimeWhen(run));
    if (live && !on) DeleteKeepaliveTimer(run);
    o.keepalive = on;
    return 0;
  }
  if (opt == "TCP_KEEPIDLE") {
    // tcp_sock_set_keepidle_locked: 1..MAX_TCP_KEEPIDLE s; a running
    // keepalive is re-armed for the new idle time less the time idle so far.
    if (value < 1 || value > kMaxKeepIdle) return -kErrEinval;
    o.keepidle = static_cast<uint32_t>(value);
    if (live && o.keepalive) {
      const int64_t when = KeepaliveTimeWhen(run), elapsed = KeepaliveTimeElapsed(run);
      ResetKeepaliveTimer(run, when > elapsed ? when - elapsed : 0);
    }
    return 0;
  }
  if (opt == "TCP_KEEPINTVL") {
    // tcp_sock_set_keepintvl: 1..MAX_TCP_KEEPINTVL s, used from the next probe.
    if (value < 1 || value > kMaxKeepIntvl) return -kErrEinval;
    o.keepintvl = static_cast<uint32_t>(value);
    return 0;
  }
  // TCP_KEEPCNT: tcp_sock_set_keepcnt, 1..MAX_TCP_KEEPCNT.
  if (value < 1 || value > kMaxKeepCnt) return -kErrEinval;
  o.keepcnt = static_cast<uint32_t>(value);
  return 0;
}

int64_t GetKeepaliveOption(const RunState& run, const SockOpts& o, const std::string& opt) {
  // sock_getsockopt: sock_flag(SOCK_KEEPOPEN); do_tcp_getsockopt:
  // keepalive_time_when / HZ, keepalive_intvl_when / HZ, keepalive_probes.
  if (opt == "SO_KEEPALIVE") return o.keepalive ? 1 : 0;
  if (opt == "TCP_KEEPIDLE") return o.keepidle != 0 ? o.keepidle : run.settings.tcp_keepalive_time;
  if (opt == "TCP_KEEPINTVL") return o.keepintvl != 0 ? o.keepintvl : run.settings.tcp_keepalive_intvl;
  return o.keepcnt != 0 ? o.keepcnt : run.settings.tcp_keepalive_probes;
}

void StartConnectionTimers(RunState& run) {
  run.sock.ep->SetTimeoutHandler([&run](int err) { TcpDone(run, err); });
  run.sock.ka.probes_out = 0;
  if (run.sock.conn_opts.keepalive) ResetKeepaliveTimer(run, KeepaliveTimeWhen(run));
}

}  // namespace sendsim::packetdrill
