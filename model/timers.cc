#include "model/timers.h"

#include <algorithm>

#include "model/tcp_sock.h"

namespace sendsim::model {

uint32_t TlpTimeoutJiffiesRule(uint32_t srtt_us_x8, uint32_t packets_out, int hz) {
  const uint64_t jiffy_us = 1000000 / static_cast<uint64_t>(hz);
  if (srtt_us_x8 == 0) return static_cast<uint32_t>(hz);  // TCP_TIMEOUT_INIT = 1 s
  uint32_t timeout = static_cast<uint32_t>(((srtt_us_x8 >> 2) + jiffy_us - 1) / jiffy_us);
  if (packets_out == 1) {
    timeout += static_cast<uint32_t>(hz / 5);  // TCP_RTO_MIN
  } else {
    timeout += kTcpTimeoutMinJiffies;
  }
  return timeout;
}

// inet_csk_reset_xmit_timer: icsk_pending = kind, expiry on a jiffy tick.
// Like mod_timer, re-arming later than the already scheduled event keeps
// that event and lets it re-arm itself (no dead heap entries per ACK).
void TcpSock::ResetXmitTimer(XmitTimer kind, uint32_t when_jiffies) {
  when_jiffies = std::min(when_jiffies, NsToJiffiesCeil(kTcpRtoMaxNs));
  xmit_timer_.kind = kind;
  xmit_timer_.expires_ns = static_cast<TimeNs>(Jiffies() + when_jiffies) * JiffyNs();
  if (xmit_timer_.event != 0) {
    if (xmit_timer_.event_at <= xmit_timer_.expires_ns) return;
    loop_->Cancel(xmit_timer_.event);
  }
  xmit_timer_.event_at = xmit_timer_.expires_ns;
  xmit_timer_.event = loop_->ScheduleAt(xmit_timer_.expires_ns, [this] { OnXmitTimer(); });
}

// inet_csk_clear_xmit_timer (a scheduled event finds kNone and stops).
void TcpSock::ClearXmitTimer() { xmit_timer_.kind = XmitTimer::kNone; }

// tcp_write_timer: deferred to release_sock while the socket is owned.
void TcpSock::OnXmitTimer() {
  xmit_timer_.event = 0;
  if (xmit_timer_.kind == XmitTimer::kNone) return;
  if (xmit_timer_.expires_ns > loop_->now()) {
    xmit_timer_.event_at = xmit_timer_.expires_ns;
    xmit_timer_.event = loop_->ScheduleAt(xmit_timer_.expires_ns, [this] { OnXmitTimer(); });
    return;
  }
  if (IsOwned()) {
    tsq_.write_timer_deferred = true;
    EnsureReleaseEvent();
    return;
  }
  WriteTimerHandler();
}

// tcp_write_timer_handler.
void TcpSock::WriteTimerHandler() {
  const XmitTimer kind = xmit_timer_.kind;
  // The loss probe and the reordering timer keep icsk_pending while they
  // run, so that tcp_rearm_rto afterwards offsets what is left of the rtx
  // head's RTO (tcp_rto_delta_us) instead of starting a full one.
  if (kind != XmitTimer::kLossProbe && kind != XmitTimer::kReoTimeout) xmit_timer_.kind = XmitTimer::kNone;
  switch (kind) {
    case XmitTimer::kNone:
      return;
    case XmitTimer::kLossProbe:
      SendLossProbe();
      return;
    case XmitTimer::kRetrans:
      RetransmitTimer();
      return;
    case XmitTimer::kProbe0:
      ProbeTimer();
      return;
    case XmitTimer::kReoTimeout:
      RackReoTimeout();
      return;
  }
}

// tcp_rto_delta_us: time left until the RTO of the rtx head.
int64_t TcpSock::RtoDeltaUs() const {
  if (rtx_queue_.empty()) return 0;
  const int64_t rto_us = static_cast<int64_t>(rto_jiffies_) * (JiffyNs() / kNsPerUs);
  return rtx_queue_.front().sent_ns / kNsPerUs + rto_us - loop_->now() / kNsPerUs;
}

// tcp_check_probe_timer.
void TcpSock::CheckProbeTimer() {
  if (packets_out_ == 0 && xmit_timer_.kind == XmitTimer::kNone)
    ResetXmitTimer(XmitTimer::kProbe0, std::max(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMinNs)));
}

// tcp_update_rto_stats: the first RTO of a series (icsk_retransmits 0)
// starts an RTO recovery and its clock (ms); each counts in total_rto.
void TcpSock::UpdateRtoStats() {
  if (retransmits_ == 0) {
    ++total_rto_recoveries_;
    rto_stamp_ms_ = TcpTimeStamp();
  }
  ++retransmits_;
  ++total_rto_;
}

// tcp_retransmit_timer -> tcp_enter_loss (recovery.cc), then the lost
// skbs are resent in order as cwnd allows (go-back-N).
void TcpSock::RetransmitTimer() {
  if (packets_out_ == 0) return;
  ++counters_.rto_fires;
  // With a zero window the retransmission doubles as a window probe: Linux
  // resends the head without counting a retransmit round, and before v6.5
  // without counting a backoff (Profile::rto_zero_window_counts_backoff).
  const bool zero_window = snd_wnd_ == 0;
  // tcp_rtx_probe0_timed_out / tcp_write_timeout (user_timeout.cc).
  if (zero_window ? RtxProbe0TimedOut() : RetransmitsTimedOut()) {
    WriteErr();
    return;
  }
  EnterLoss();
  if (!zero_window) UpdateRtoStats();  // after tcp_enter_loss
  XmitRetransmitQueue();
  if (!zero_window || profile_.rto_zero_window_counts_backoff) ++backoff_;
  rto_jiffies_ = std::min(rto_jiffies_ << 1, NsToJiffiesCeil(kTcpRtoMaxNs));
  ResetXmitTimer(XmitTimer::kRetrans, ClampRtoToUserTimeout());
}

// tcp_probe_timer -> tcp_send_probe0. Every probe that went out (data or a
// window probe) doubles the next interval (icsk_backoff, capped by
// tcp_retries2 = 15, and the interval by TCP_RTO_MAX); the local-congestion
// branch (TCP_RESOURCE_PROBE_INTERVAL) cannot happen in the model.
// The abort after tcp_retries2 unanswered probes or the user timeout:
// ProbeTimerTimedOut (user_timeout.cc).
void TcpSock::ProbeTimer() {
  if (packets_out_ != 0 || write_queue_.empty()) {
    uto_.probes_out = 0;
    uto_.probes_tstamp = 0;
    return;
  }
  if (ProbeTimerTimedOut()) {
    WriteErr();
    return;
  }
  ++counters_.probe0_fires;
  WriteWakeup();
  if (packets_out_ != 0 || write_queue_.empty()) {
    uto_.probes_out = 0;
    backoff_ = 0;
    uto_.probes_tstamp = 0;
    return;
  }
  ++uto_.probes_out;
  if (backoff_ < kTcpRetries2) ++backoff_;
  const uint64_t base = std::max(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMinNs));
  const uint32_t when = static_cast<uint32_t>(std::min<uint64_t>(base << backoff_, NsToJiffiesCeil(kTcpRtoMaxNs)));
  ResetXmitTimer(XmitTimer::kProbe0, ClampProbe0ToUserTimeout(when));
}

}  // namespace sendsim::model
