// TCP_USER_TIMEOUT and the timeouts that make tcp_timer.c give up on a
// connection: tcp_write_timeout's retransmits_timed_out (tcp_retries2, or
// the user timeout since the first retransmission), tcp_rtx_probe0_timed_out
// (RTOs into a zero window), tcp_probe_timer's tests (zero-window probes),
// the clamps that make the next timer fire when the user timeout runs out,
// and tcp_write_err. No RST is sent: tcp_write_err is tcp_done with the
// error (checked on 6.1, 6.12 and 6.18: user_timeout_rto.pkt).

#include <algorithm>
#include <cstdint>

#include "model/tcp_sock.h"

namespace sendsim::model {

// msecs_to_jiffies: rounds up.
uint32_t TcpSock::MsecsToJiffies(uint32_t ms) const {
  return static_cast<uint32_t>((static_cast<uint64_t>(ms) * config_.hz + 999) / 1000);
}

// tcp_clamp_rto_to_user_timeout: the RTO, or what is left of the user
// timeout since the first retransmission (retrans_stamp, ms) if less; one
// jiffy once it has passed.
uint32_t TcpSock::ClampRtoToUserTimeout() const {
  if (uto_.user_timeout_ms == 0) return rto_jiffies_;
  const int32_t elapsed = static_cast<int32_t>(TcpTimeStamp() - retrans_stamp_);
  const int64_t remaining = static_cast<int64_t>(uto_.user_timeout_ms) - elapsed;
  if (remaining <= 0) return 1;
  return std::min(rto_jiffies_, MsecsToJiffies(static_cast<uint32_t>(remaining)));
}

// tcp_clamp_probe0_to_user_timeout: once the probe timer has run
// (icsk_probes_tstamp), the next probe comes no later than the user timeout's
// end, but at least TCP_TIMEOUT_MIN (2 jiffies) from now.
// Simplification: 6.1.192 takes that minimum as unsigned, so a timeout already
// past leaves `when` unclamped; the model follows 6.12 (2 jiffies). The probe
// timer aborts at its next run either way.
uint32_t TcpSock::ClampProbe0ToUserTimeout(uint32_t when) const {
  if (uto_.user_timeout_ms == 0 || uto_.probes_tstamp == 0) return when;
  const int32_t elapsed = std::max<int32_t>(0, static_cast<int32_t>(Jiffies() - uto_.probes_tstamp));
  const int64_t remaining = std::max<int64_t>(static_cast<int64_t>(MsecsToJiffies(uto_.user_timeout_ms)) - elapsed, 2);
  return static_cast<uint32_t>(std::min<int64_t>(remaining, when));
}

// retransmits_timed_out(sk, tcp_retries2, icsk_user_timeout) for an
// established socket: only after an RTO (icsk_retransmits), once the time
// since the first retransmission (ms) reaches the user timeout, or without
// one tcp_model_timeout's estimate of tcp_retries2 backed-off RTOs from
// TCP_RTO_MIN (about 924.6 s for 15).
bool TcpSock::RetransmitsTimedOut() const {
  if (retransmits_ == 0) return false;
  uint64_t timeout_ms = uto_.user_timeout_ms;
  if (timeout_ms == 0) {
    const uint64_t rto_base = NsToJiffiesCeil(kTcpRtoMinNs);
    const uint64_t rto_max = NsToJiffiesCeil(kTcpRtoMaxNs);
    uint32_t thresh = 0;  // ilog2(TCP_RTO_MAX / rto_base)
    while ((rto_max / rto_base) >> (thresh + 1)) ++thresh;
    uint64_t jiffies;
    if (kTcpRetries2 <= thresh) {
      jiffies = ((uint64_t{2} << kTcpRetries2) - 1) * rto_base;
    } else {
      jiffies = ((uint64_t{2} << thresh) - 1) * rto_base + (kTcpRetries2 - thresh) * rto_max;
    }
    timeout_ms = jiffies * 1000 / static_cast<uint64_t>(config_.hz);
  }
  return static_cast<int32_t>(TcpTimeStamp() - retrans_stamp_ - static_cast<uint32_t>(timeout_ms)) >= 0;
}

// tcp_rtx_probe0_timed_out: RTOs into a zero window resend the head as a
// window probe and normally never time out while the peer answers; with a
// user timeout the connection dies once the retransmissions have lasted
// longer than it. Else, once the peer has been silent (rcv_tstamp) for more
// than the user timeout (at most 2 * TCP_RTO_MAX) and the retransmissions
// have lasted as long.
bool TcpSock::RtxProbe0TimedOut() const {
  if (rtx_queue_.empty()) return false;
  const uint32_t start_ms =
      retrans_stamp_ != 0 ? retrans_stamp_ : static_cast<uint32_t>(rtx_queue_.front().sent_ns / kNsPerMs);
  const uint32_t delta_ms = TcpTimeStamp() - start_ms;
  // Before v6.7 the time is converted to jiffies first and then compared
  // with the user timeout in ms (Profile::probe0_timeout_in_ms).
  const uint32_t delta_jiffies = MsecsToJiffies(delta_ms);
  int64_t timeout = 2 * static_cast<int64_t>(NsToJiffiesCeil(kTcpRtoMaxNs));
  if (uto_.user_timeout_ms != 0) {
    const uint32_t first = profile_.probe0_timeout_in_ms ? delta_ms : delta_jiffies;
    if (first > uto_.user_timeout_ms) return true;
    timeout = std::min<int64_t>(timeout, MsecsToJiffies(uto_.user_timeout_ms));
  }
  const uint32_t icsk_timeout = static_cast<uint32_t>(xmit_timer_.expires_ns / JiffyNs());
  const int32_t rcv_delta = static_cast<int32_t>(icsk_timeout - rcv_tstamp_);
  if (rcv_delta <= timeout) return false;
  return delta_jiffies > timeout;
}

// tcp_probe_timer's abort tests: the first run stamps icsk_probes_tstamp;
// a later one aborts once the user timeout has passed since, and any run
// once tcp_retries2 probes went unanswered (icsk_probes_out; every ACK
// clears it).
bool TcpSock::ProbeTimerTimedOut() {
  if (uto_.probes_tstamp == 0) {
    uto_.probes_tstamp = std::max<uint32_t>(1, Jiffies());  // the kernel's jiffies are never 0 here
  } else if (uto_.user_timeout_ms != 0 &&
             static_cast<int32_t>(Jiffies() - uto_.probes_tstamp) >= static_cast<int32_t>(MsecsToJiffies(uto_.user_timeout_ms))) {
    return true;
  }
  return uto_.probes_out >= kTcpRetries2;
}

// tcp_write_err: tcp_done with sk_err_soft (never set: no ICMP here) or
// ETIMEDOUT.
void TcpSock::WriteErr() {
  Abort(kEtimedout);
  if (timeout_fn_) timeout_fn_(kEtimedout);
}

}  // namespace sendsim::model
