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
  // The loss probe keeps icsk_pending until it decides (tcp_rearm_rto offsets
  // the remaining RTO when no probe could be sent).
  if (kind != XmitTimer::kLossProbe) xmit_timer_.kind = XmitTimer::kNone;
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
  }
}

// tcp_rto_delta_us: time left until the RTO of the rtx head.
int64_t TcpSock::RtoDeltaUs() const {
  if (rtx_queue_.empty()) return 0;
  const int64_t rto_us = static_cast<int64_t>(rto_jiffies_) * (JiffyNs() / kNsPerUs);
  return rtx_queue_.front().sent_ns / kNsPerUs + rto_us - loop_->now() / kNsPerUs;
}

// tcp_rearm_rto.
void TcpSock::RearmRto() {
  if (packets_out_ == 0) {
    ClearXmitTimer();
    return;
  }
  uint32_t rto = rto_jiffies_;
  if (xmit_timer_.kind == XmitTimer::kLossProbe) {
    // Offset the time already elapsed since the regular RTO was installed.
    rto = UsToJiffies(static_cast<uint64_t>(std::max<int64_t>(RtoDeltaUs(), 1)));
  }
  ResetXmitTimer(XmitTimer::kRetrans, rto);
}

// tcp_set_xmit_timer.
void TcpSock::SetXmitTimer() {
  if (!ScheduleLossProbe(true)) RearmRto();
}

// tcp_schedule_loss_probe (tcp_early_retrans = 3).
bool TcpSock::ScheduleLossProbe(bool advancing_rto) {
  if (packets_out_ == 0 || !config_.sack || in_loss_) return false;
  uint32_t timeout = TlpTimeoutJiffiesRule(srtt_us_, packets_out_, config_.hz);
  const int64_t rto_delta_us = advancing_rto ? static_cast<int64_t>(rto_jiffies_) * (JiffyNs() / kNsPerUs) : RtoDeltaUs();
  if (rto_delta_us > 0) timeout = std::min(timeout, UsToJiffies(static_cast<uint64_t>(rto_delta_us)));
  ResetXmitTimer(XmitTimer::kLossProbe, timeout);
  return true;
}

// tcp_check_probe_timer.
void TcpSock::CheckProbeTimer() {
  if (packets_out_ == 0 && xmit_timer_.kind == XmitTimer::kNone)
    ResetXmitTimer(XmitTimer::kProbe0, std::max(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMinNs)));
}

// tcp_retransmit_timer -> tcp_enter_loss (simplified: every outstanding
// segment is marked lost and resent in order as cwnd allows, go-back-N).
void TcpSock::RetransmitTimer() {
  if (packets_out_ == 0) return;
  ++counters_.rto_fires;
  // With a zero window the retransmission doubles as a window probe: Linux
  // resends the head without counting a retransmit round, and before v6.5
  // without counting a backoff (Profile::rto_zero_window_counts_backoff).
  const bool zero_window = snd_wnd_ == 0;
  if (!zero_window) ++retransmits_;
  if (!in_loss_) {
    snd_ssthresh_ = RecalcSsthresh();
    if (config_.cc == CongestionControl::kCubic) {
      // bictcp_recalc_ssthresh with fast convergence; a new epoch starts.
      if (snd_cwnd_ < cubic_.last_max_cwnd) {
        cubic_.last_max_cwnd = (snd_cwnd_ * (1024 + 717)) / (2 * 1024);
      } else {
        cubic_.last_max_cwnd = snd_cwnd_;
      }
    }
  }
  cubic_.epoch_start = 0;
  // tcp_set_ca_state(TCP_CA_Loss), on every RTO.
  if (config_.cc == CongestionControl::kCubic) CubicReset();
  snd_cwnd_ = 1;
  snd_cwnd_cnt_ = 0;
  snd_cwnd_stamp_ = Jiffies();
  in_loss_ = true;
  high_seq_ = snd_nxt_;
  retrans_out_ = 0;
  lost_out_ = 0;
  for (Skb& skb : rtx_queue_) {
    skb.lost = true;
    skb.retrans = false;
    lost_out_ += skb.pcount;
  }
  XmitRetransmitQueue();
  if (!zero_window || profile_.rto_zero_window_counts_backoff) ++backoff_;
  rto_jiffies_ = std::min(rto_jiffies_ << 1, NsToJiffiesCeil(kTcpRtoMaxNs));
  ResetXmitTimer(XmitTimer::kRetrans, rto_jiffies_);
}

// tcp_probe_timer -> tcp_send_probe0. Every probe that went out (data or a
// window probe) doubles the next interval (icsk_backoff, capped by
// tcp_retries2 = 15, and the interval by TCP_RTO_MAX); the local-congestion
// branch (TCP_RESOURCE_PROBE_INTERVAL) cannot happen in the model.
// Simplification: no abort after tcp_retries2 unanswered probes.
void TcpSock::ProbeTimer() {
  if (packets_out_ != 0 || write_queue_.empty()) {
    probes_out_ = 0;
    return;
  }
  ++counters_.probe0_fires;
  WriteWakeup();
  if (packets_out_ != 0 || write_queue_.empty()) {
    probes_out_ = 0;
    backoff_ = 0;
    return;
  }
  ++probes_out_;
  if (backoff_ < 15) ++backoff_;
  const uint64_t base = std::max(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMinNs));
  ResetXmitTimer(XmitTimer::kProbe0,
                 static_cast<uint32_t>(std::min<uint64_t>(base << backoff_, NsToJiffiesCeil(kTcpRtoMaxNs))));
}

// tcp_write_wakeup: when the head starts inside the window, up to one MSS of
// it (less if the window is smaller), PSH set, ignoring Nagle, cork and cwnd;
// otherwise (zero window, or a window ending before the head) a window probe.
int TcpSock::WriteWakeup() {
  if (write_queue_.empty() || write_queue_.front().seq >= snd_una_ + snd_wnd_) {
    XmitProbeSkb();
    return 0;
  }
  Skb* skb = &write_queue_.front();
  const uint64_t wnd_end = snd_una_ + snd_wnd_;
  const uint32_t mss = mss_cache_;
  uint64_t seg_size = wnd_end - skb->seq;
  if (pushed_seq_ < skb->end_seq) pushed_seq_ = skb->end_seq;
  if (seg_size < skb->end_seq - skb->seq || skb->len() > mss) {
    seg_size = std::min<uint64_t>(seg_size, mss);
    skb->tcp_flags |= kTcpPsh;
    SplitSkb(write_queue_, 0, static_cast<uint32_t>(seg_size), mss);
    skb = &write_queue_.front();
  } else if (skb->pcount == 0) {
    InitTsoSegs(*skb, mss);
  }
  if (skb->len() == 0) return -1;
  skb->tcp_flags |= kTcpPsh;
  ++counters_.pushes_by_reason[static_cast<int>(PushReason::kProbe0)];
  TransmitSkb(*skb, PushReason::kProbe0, false);
  EventNewDataSent();
  return 0;
}

// tcp_xmit_probe_skb(sk, 0): a data-less ACK one below snd_una, which the
// peer finds out of window and answers with an ACK carrying its current
// window (tcp_send_dupack). It is not queued, not counted in packets_out and
// freed by __sock_wfree (no TSQ involvement): truesize 0 here.
void TcpSock::XmitProbeSkb() {
  XmitSkb x;
  x.seq = static_cast<uint32_t>(snd_una_ - 1);
  x.len = 0;
  x.tcp_flags = kTcpAck;
  x.truesize = 0;
  x.win = 65535;
  x.reason = PushReason::kProbe0;
  x.tag = call_tag_;
  xmit_(std::move(x));
}

// tcp_send_loss_probe: new data if the window allows, else the last
// segment again.
void TcpSock::SendLossProbe() {
  if (tlp_high_seq_ == 0) {
    if (!write_queue_.empty() && SndWndTest(write_queue_.front(), mss_cache_)) {
      const uint32_t before = packets_out_;
      TcpWriteXmit(mss_cache_, kTcpNagleOff, 2, PushReason::kTlp);
      if (packets_out_ > before) {
        ++counters_.tlp_fires;
        xmit_timer_.kind = XmitTimer::kNone;
      }
    } else if (!rtx_queue_.empty() &&
               (rtx_queue_.back().seq < snd_una_ + snd_wnd_ || rtx_queue_.back().seq == snd_una_)) {
      // (__tcp_retransmit_skb refuses an skb beyond the window: no probe.)
      // Simplification: skb_still_in_host_queue is not checked.
      size_t idx = rtx_queue_.size() - 1;
      const uint32_t pcount = rtx_queue_[idx].pcount;
      const uint32_t mss = mss_cache_;
      if (pcount > 1 && rtx_queue_[idx].len() > (pcount - 1) * mss) {
        SplitSkb(rtx_queue_, idx, (pcount - 1) * mss, mss);
        ++idx;
      }
      Skb& skb = rtx_queue_[idx];
      skb.ever_retrans = true;
      TransmitSkb(skb, PushReason::kTlp, true);
      tlp_high_seq_ = snd_nxt_;
      ++counters_.tlp_fires;
      xmit_timer_.kind = XmitTimer::kNone;
    }
  }
  RearmRto();
}

}  // namespace sendsim::model
