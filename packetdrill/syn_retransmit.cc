#include "packetdrill/syn_retransmit.h"

#include <algorithm>
#include <cstdint>

#include "model/constants.h"
#include "packetdrill/reset.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

constexpr TimeNs kTimeoutInit = model::kNsPerSec;  // TCP_TIMEOUT_INIT
constexpr TimeNs kRtoMax = 120 * model::kNsPerSec;  // TCP_RTO_MAX
constexpr int64_t kTimeoutMinJiffies = 2;           // TCP_TIMEOUT_MIN

void Fire(RunState& run);

// The tick a timer armed now for `delta` jiffies fires on. The timer wheel
// (kernel/time/timer.c calc_index) never fires early: it rounds the expiry
// up to the next multiple of its level's granularity, 8^level jiffies, the
// level being the first whose range (63 << 3 * level) holds delta. So a
// 2-jiffy timer fires 3 ticks on (measured: a SYN 11.7 ms after the RST on
// UML 6.1 and 6.12, HZ 250) and a 1 s one up to 8 ticks late. Measured on
// UML 6.1, unanswered SYNs 1.024, 2.016, 4.096, 8.192 and 16.128 s apart:
// this rule exactly, with the guest's jiffies at 8 mod 64 when the script
// starts. The runner starts at jiffy 0 (a simplification: a timer of the
// 64-jiffy level and up may fire one granule apart from the kernel's).
int64_t WheelTick(int64_t now_jiffies, int64_t delta) {
  int shift = 0;
  while (shift < 24 && delta >= (int64_t{63} << shift)) shift += 3;
  return (((now_jiffies + delta) >> shift) + 1) << shift;
}

// inet_csk_reset_xmit_timer.
void ArmAfter(RunState& run, int64_t jiffies) {
  ScriptSocket& sock = run.sock;
  if (sock.syn_timer != 0) run.loop.Cancel(sock.syn_timer);
  const TimeNs jiffy = model::kNsPerSec / sock.hz;
  const TimeNs at = WheelTick(run.loop.now() / jiffy, jiffies) * jiffy;
  sock.syn_timer = run.loop.ScheduleAt(at, [&run] {
    run.sock.syn_timer = 0;
    Fire(run);
  });
}

int64_t Jiffies(const RunState& run, TimeNs t) { return t / (model::kNsPerSec / run.sock.hz); }

// tcp_model_timeout with TCP_TIMEOUT_INIT as the base: the time `boundary`
// exponentially backed-off retransmissions take, the doubling capped at
// TCP_RTO_MAX (linear after ilog2(120) = 6 doublings).
int64_t ModelTimeoutMs(uint32_t boundary) {
  constexpr int64_t kBaseMs = 1000, kMaxMs = 120000, kThresh = 6;
  if (boundary <= kThresh) return ((int64_t{2} << boundary) - 1) * kBaseMs;
  return ((int64_t{2} << kThresh) - 1) * kBaseMs + (boundary - kThresh) * kMaxMs;
}

// reqsk_timeout: TCP_TIMEOUT_INIT << num_timeout, capped at TCP_RTO_MAX.
TimeNs ReqskTimeout(uint32_t num_timeout) {
  return num_timeout >= 7 ? kRtoMax : std::min(kTimeoutInit << num_timeout, kRtoMax);
}

// inet_rtx_syn_ack -> tcp_rtx_synack: the SYN-ACK built afresh
// (tcp_make_synack: same options and window, a new TS val echoing
// req->ts_recent); num_retrans counts it (the child's total_retrans).
void ResendSynAck(RunState& run) {
  ScriptSocket& sock = run.sock;
  run.EmitSyn(kFlagSyn | kFlagAck | (sock.neg.ecn ? kFlagEce : 0), sock.rcv_nxt, sock.req.ts_recent);
  sock.last_syn_at = run.loop.now();
  ++sock.syn_retransmits;
}

// reqsk_timer_handler: the listener's request socket in SYN-RECV resends
// its SYN-ACK. syn_ack_recalc drops the request once num_timeout reaches
// tcp_synack_retries (silently: a later ACK finds only the listener, which
// answers with a RST). Otherwise the SYN-ACK goes again and the timer is
// rearmed for reqsk_timeout after ++num_timeout.
void FireSynAck(RunState& run) {
  ScriptSocket& sock = run.sock;
  if (sock.req.num_timeout >= run.settings.tcp_synack_retries) {
    sock.phase = SocketPhase::kListen;
    return;
  }
  ResendSynAck(run);
  ++sock.req.num_timeout;
  sock.syn_rto = ReqskTimeout(sock.req.num_timeout);
  ArmAfter(run, Jiffies(run, sock.syn_rto));
}

// tcp_retransmit_timer in SYN-SENT.
void Fire(RunState& run) {
  ScriptSocket& sock = run.sock;
  if (sock.phase == SocketPhase::kSynRcvd && !sock.active_open && sock.listening) {
    FireSynAck(run);
    return;
  }
  if (sock.phase != SocketPhase::kSynSent) return;
  const Settings& s = run.settings;
  const bool linear = run.profile.syn_linear_timeouts;
  // tcp_write_timeout: tcp_syn_retries retransmissions (v6.5+: plus the
  // linear ones), or (retransmits_timed_out, once one was sent) the time
  // since the connect (retrans_stamp, in ms) reaching tcp_model_timeout of
  // tcp_syn_retries on the 1 s base; then tcp_write_err: ETIMEDOUT,
  // tcp_done, nothing sent.
  const uint32_t max_retransmits = s.tcp_syn_retries + (linear ? s.tcp_syn_linear_timeouts : 0);
  const int64_t elapsed_ms = run.loop.now() / 1000000 - sock.syn_at / 1000000;
  // TCP_USER_TIMEOUT, set before connect(), replaces that time (user_timeout.cc).
  const int64_t user_timeout_ms = sock.listen_opts.user_timeout_ms;
  const int64_t timeout_ms = user_timeout_ms != 0 ? user_timeout_ms : ModelTimeoutMs(s.tcp_syn_retries);
  const bool timed_out = sock.syn_retransmits > 0 && elapsed_ms >= timeout_ms;
  if (sock.syn_retransmits >= max_retransmits || timed_out) {
    TcpDone(run, kErrEtimedout);
    return;
  }
  // tcp_retransmit_skb on a SYN: tcp_ecn_clear_syn drops ECE|CWR
  // (tcp_ecn_fallback, on by default), so the peer may answer without ECN.
  run.EmitSyn(kFlagSyn, 0, 0);
  sock.last_syn_at = run.loop.now();
  ++sock.syn_retransmits;  // icsk_retransmits and tp->total_rto (tcp_update_rto_stats)
  // out_reset_timer: exponential backoff, except (v6.5+) while the SYN's
  // RTO count is within tcp_syn_linear_timeouts.
  if (!linear || sock.syn_retransmits > s.tcp_syn_linear_timeouts) {
    sock.syn_rto = std::min(sock.syn_rto * 2, kRtoMax);
    ++sock.syn_backoff;  // icsk_backoff
  }
  // tcp_clamp_rto_to_user_timeout: no later than the user timeout's end
  // (msecs_to_jiffies rounds up), one jiffy once it has passed.
  int64_t when = Jiffies(run, sock.syn_rto);
  if (user_timeout_ms != 0) {
    const int64_t remaining_ms = user_timeout_ms - elapsed_ms;
    when = remaining_ms <= 0 ? 1 : std::min(when, (remaining_ms * sock.hz + 999) / 1000);
  }
  ArmAfter(run, when);
}

}  // namespace

void ArmSynRetransmit(RunState& run) {
  run.sock.syn_rto = kTimeoutInit;
  run.sock.syn_retransmits = 0;
  run.sock.syn_backoff = 0;
  run.sock.last_syn_at = run.loop.now();
  ArmAfter(run, Jiffies(run, kTimeoutInit));
}

void ArmSynAckRetransmit(RunState& run, uint32_t isn, uint32_t ts_recent) {
  ScriptSocket& sock = run.sock;
  sock.syn_rto = kTimeoutInit;
  sock.syn_retransmits = 0;
  sock.syn_backoff = 0;
  sock.last_syn_at = run.loop.now();
  sock.req = ScriptSocket::Request();
  sock.req.isn = isn;
  sock.req.ts_recent = ts_recent;
  ArmAfter(run, Jiffies(run, kTimeoutInit));
}

// tcp_check_req's pure retransmitted SYN (its sequence number the request's
// rcv_isn, SYN alone of SYN/RST/ACK; a PAWS reject is not modelled): the
// SYN-ACK goes again unless the request's own tcp_oow_rate_limited holds it
// back (one per tcp_invalid_ratelimit: OowRateLimited), and the
// pending timer moves to now + reqsk_timeout (mod_timer_pending) without
// counting a timeout: num_retrans grows, num_timeout does not. Data on it
// is thrown away.
bool OnRepeatedSyn(RunState& run, uint32_t seq) {
  ScriptSocket& sock = run.sock;
  if (sock.phase != SocketPhase::kSynRcvd || seq != sock.req.isn) return false;
  if (OowRateLimited(run, &sock.req.last_oow_ack_jiffies)) return true;
  ResendSynAck(run);
  if (sock.syn_timer != 0) ArmAfter(run, Jiffies(run, ReqskTimeout(sock.req.num_timeout)));
  return true;
}

void SynRetransmitSoon(RunState& run) {
  if (run.sock.syn_retransmits == 0) ArmAfter(run, kTimeoutMinJiffies);
}

void StopSynRetransmit(RunState& run) {
  if (run.sock.syn_timer != 0) run.loop.Cancel(run.sock.syn_timer);
  run.sock.syn_timer = 0;
}

}  // namespace sendsim::packetdrill
