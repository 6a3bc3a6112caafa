// The probes of tcp_output.c: the tail loss probe (tcp_schedule_loss_probe,
// tcp_send_loss_probe) and the window probes of the zero-window timer
// (tcp_write_wakeup, tcp_xmit_probe_skb). They send through
// tcp_write_xmit's machinery (write_xmit.cc).

#include <algorithm>
#include <cstdint>
#include <utility>

#include "model/tcp_sock.h"
#include "model/timers.h"

namespace sendsim::model {

// tcp_schedule_loss_probe (tcp_early_retrans = 3).
bool TcpSock::ScheduleLossProbe(bool advancing_rto) {
  if (packets_out_ == 0 || !config_.sack || (ca_state_ != CaState::kOpen && ca_state_ != CaState::kCwr)) return false;
  uint32_t timeout = TlpTimeoutJiffiesRule(srtt_us_, packets_out_, config_.hz);
  const int64_t rto_delta_us = advancing_rto ? static_cast<int64_t>(rto_jiffies_) * (JiffyNs() / kNsPerUs) : RtoDeltaUs();
  if (rto_delta_us > 0) timeout = std::min(timeout, UsToJiffies(static_cast<uint64_t>(rto_delta_us)));
  ResetXmitTimer(XmitTimer::kLossProbe, timeout);
  return true;
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
  const uint32_t mss = CurrentMss();
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
  DstCheck();  // ip_queue_xmit
  XmitSkb x;
  x.seq = static_cast<uint32_t>(snd_una_ - 1);
  x.len = 0;
  x.tcp_flags = kTcpAck;
  x.truesize = 0;
  x.win = 65535;
  x.reason = PushReason::kProbe0;
  x.tag = call_tag_;
  ++segs_out_;  // tcp_transmit_skb counts it (no payload: not in data_segs_out)
  xmit_(std::move(x));
}

// tcp_send_loss_probe: new data if the window allows, else the last
// segment again. Since v5.9 at most one probe per flight
// (Profile::tlp_one_per_flight); before, only a retransmitted probe waited
// for the outstanding one and set tlp_high_seq.
void TcpSock::SendLossProbe() {
  const bool one_per_flight = profile_.tlp_one_per_flight;
  if (one_per_flight && tlp_high_seq_ != 0) {
    RearmRto();
    return;
  }
  if (one_per_flight) tlp_retrans_ = false;
  const uint32_t mss = CurrentMss();
  if (!write_queue_.empty() && SndWndTest(write_queue_.front(), mss)) {
    const uint32_t before = packets_out_;
    TcpWriteXmit(mss, kTcpNagleOff, 2, PushReason::kTlp);
    if (packets_out_ > before) {
      if (one_per_flight) tlp_high_seq_ = snd_nxt_;  // probe_sent
      ++counters_.tlp_fires;
      xmit_timer_.kind = XmitTimer::kNone;
    }
  } else if (!rtx_queue_.empty() && tlp_high_seq_ == 0 &&
             (rtx_queue_.back().seq < snd_una_ + snd_wnd_ || rtx_queue_.back().seq == snd_una_)) {
    // (__tcp_retransmit_skb refuses an skb beyond the window: no probe.)
    // Simplification: skb_still_in_host_queue is not checked.
    size_t idx = rtx_queue_.size() - 1;
    const uint32_t pcount = rtx_queue_[idx].pcount;
    if (pcount > 1 && rtx_queue_[idx].len() > (pcount - 1) * mss) {
      SplitSkb(rtx_queue_, idx, (pcount - 1) * mss, mss);
      ++idx;
    }
    Skb& skb = rtx_queue_[idx];
    skb.ever_retrans = true;
    TransmitSkb(skb, PushReason::kTlp, true);
    NoteRetransmit(skb);
    tlp_retrans_ = true;  // before v5.9 every tlp_high_seq is a retransmission's
    tlp_high_seq_ = snd_nxt_;
    ++counters_.tlp_fires;
    xmit_timer_.kind = XmitTimer::kNone;
  }
  RearmRto();
}

}  // namespace sendsim::model
