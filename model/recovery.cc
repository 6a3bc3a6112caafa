// Loss recovery (tcp_input.c's tcp_fastretrans_alert and its helpers, and
// RACK from tcp_recovery.c): the congestion state machine Open ->
// Disorder -> Recovery (or CWR on ECN, Loss on an RTO) and back, with the
// proportional rate reduction of ecn.cc's tcp_cwnd_reduction.
//
// Undo of a spurious reduction and F-RTO's undo: undo.cc.
//
// Simplifications (README "Model limits"): no
// SACK reneging, RACK's reo_wnd never grows by D-SACK (steps stay 1), no
// MTU-probe-failure path (tcp_mtup_probe_failed), tcp_recovery = 1 (RACK)
// on every profile.

#include <algorithm>

#include "model/recovery_flags.h"
#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kTcpTimeoutMinUs = 2000;  // TCP_TIMEOUT_MIN_US

}  // namespace

// tcp_fastretrans_alert, in the kernel's order. Runs for a "dubious" ACK:
// a duplicate, one with SACK, D-SACK or ECE, or any ACK outside Open.
// `rexmit` becomes kRexmitLost when lost skbs should be retransmitted,
// kRexmitNew when F-RTO sends new data instead.
void TcpSock::FastretransAlert(uint64_t prior_snd_una, uint32_t num_dupack, int* flag, int* rexmit) {
  const bool ece = (*flag & kFlagEce) != 0;
  if (packets_out_ == 0 && sacked_out_ != 0) sacked_out_ = 0;
  // A. ECE proves congestion: the reduction cannot be undone.
  if (ece) prior_ssthresh_ = 0;
  // D. State exit once high_seq is acknowledged.
  if (ca_state_ == CaState::kOpen) {
    retrans_stamp_ = 0;
  } else if (snd_una_ >= high_seq_) {
    if (ca_state_ == CaState::kCwr) {
      // CWR holds until data above high_seq is acked, so that the CWR bit
      // reached the receiver.
      if (snd_una_ != high_seq_) {
        EndCwndReduction();
        SetCaState(CaState::kOpen);
      }
    } else if (ca_state_ == CaState::kRecovery) {
      if (!IsSack()) sacked_out_ = 0;  // tcp_reset_reno_sack
      if (TryUndoRecovery()) return;
      EndCwndReduction();
    }
  }
  // E. Process the state.
  switch (ca_state_) {
    case CaState::kRecovery:
      if (!(*flag & kFlagSndUnaAdvanced)) {
        if (!IsSack()) AddRenoSack(num_dupack, ece);
      } else if (TryUndoPartial(prior_snd_una)) {
        return;
      }
      if (TryUndoDsack()) TryToOpen(*flag);
      IdentifyPacketLoss(flag);
      if (ca_state_ != CaState::kRecovery) {
        // Undone: a loss in evidence starts a new recovery.
        if (!TimeToRecover()) return;
        EnterRecovery(ece);
      }
      break;
    case CaState::kLoss:
      ProcessLoss(*flag, num_dupack, rexmit);
      IdentifyPacketLoss(flag);
      if (!(ca_state_ == CaState::kOpen || (*flag & kFlagLostRetrans))) return;
      // Recovered or undone, or a retransmission was lost again.
      [[fallthrough]];
    default:
      if (!IsSack()) {
        if (*flag & kFlagSndUnaAdvanced) sacked_out_ = 0;
        AddRenoSack(num_dupack, ece);
      }
      if (ca_state_ <= CaState::kDisorder) TryUndoDsack();
      IdentifyPacketLoss(flag);
      if (!TimeToRecover()) {
        TryToOpen(*flag);
        return;
      }
      EnterRecovery(ece);
  }
  *rexmit = kRexmitLost;
}

// tcp_enter_recovery: undo starts over (prior_ssthresh only without ECE);
// PRR starts from the current cwnd unless a reduction (CWR) is already
// under way; ssthresh from the congestion control.
void TcpSock::EnterRecovery(bool ece_ack) {
  RetransStampCleanup();  // the clock starts with our fast retransmit
  prior_ssthresh_ = 0;
  InitUndo();
  if (!InCwndReduction()) {
    if (!ece_ack) prior_ssthresh_ = CurrentSsthresh();
    InitCwndReduction();
  }
  SetCaState(CaState::kRecovery);
}

// tcp_any_retrans_done.
bool TcpSock::AnyRetransDone() const {
  return retrans_out_ != 0 || (!rtx_queue_.empty() && rtx_queue_.front().ever_retrans);
}

// tcp_try_keep_open: Disorder while SACKed or lost segments are
// outstanding (or a retransmission), else Open.
void TcpSock::TryKeepOpen() {
  const CaState state = (sacked_out_ + lost_out_ != 0 || AnyRetransDone()) ? CaState::kDisorder : CaState::kOpen;
  if (ca_state_ != state) {
    SetCaState(state);
    high_seq_ = snd_nxt_;
  }
}

// tcp_try_to_open: ECE enters CWR; otherwise Open or Disorder.
void TcpSock::TryToOpen(int flag) {
  if (!AnyRetransDone()) retrans_stamp_ = 0;
  if (flag & kFlagEce) EnterCwr();
  if (ca_state_ != CaState::kCwr) TryKeepOpen();
}

// tcp_process_loss: Loss ends once high_seq is acked, or earlier when
// the RTO proves spurious (undo, F-RTO RFC 5682 3.1 with SACK's
// enhancement); otherwise lost skbs go out again. F-RTO: the first ACK
// that advances snd_una sends new data instead (step 2.b, REXMIT_NEW);
// an ACK after that which (s)acks never-retransmitted data shows the RTO
// spurious (3.b), a SACK or duplicate ACK shows the loss real (3.a).
void TcpSock::ProcessLoss(int flag, uint32_t num_dupack, int* rexmit) {
  const bool recovered = snd_una_ >= high_seq_;
  if ((flag & kFlagSndUnaAdvanced) && TryUndoLoss(false)) return;
  if (frto_) {
    if ((flag & kFlagOrigSackAcked) && TryUndoLoss(true)) return;  // 3.b
    if (snd_nxt_ > high_seq_) {
      if ((flag & kFlagDataSacked) || num_dupack != 0) frto_ = false;  // 3.a
    } else if ((flag & kFlagSndUnaAdvanced) && !recovered) {
      high_seq_ = snd_nxt_;
      // 2.b: new data if any is queued and the window has room for it
      // (sent by XmitRecovery once tcp_ack updated cwnd).
      if (!write_queue_.empty() && snd_una_ + snd_wnd_ > snd_nxt_) {
        *rexmit = kRexmitNew;
        return;
      }
      frto_ = false;
    }
  }
  if (recovered) {
    TryUndoRecovery();  // 2.a and the first part of 3.a
    return;
  }
  if (!IsSack()) {
    // A Reno duplicate ACK after F-RTO's new data: it was delivered.
    if (snd_nxt_ > high_seq_ && num_dupack != 0) {
      AddRenoSack(num_dupack, (flag & kFlagEce) != 0);
    } else if (flag & kFlagSndUnaAdvanced) {
      sacked_out_ = 0;
    }
  }
  *rexmit = kRexmitLost;
}

// tcp_xmit_recovery: after tcp_ack updated cwnd, F-RTO's new data (all
// that cwnd and the window allow, Nagle off) or the lost skbs again. When
// no new data could go, F-RTO ends and the retransmissions go instead.
void TcpSock::XmitRecovery(int rexmit) {
  if (rexmit == kRexmitNone) return;
  if (rexmit == kRexmitNew) {
    PushPendingFrames(CurrentMss(), kTcpNagleOff, PushReason::kAck);
    if (snd_nxt_ > high_seq_) return;
    frto_ = false;
  }
  XmitRetransmitQueue();
}

// tcp_identify_packet_loss: NewReno without SACK, RACK with it.
void TcpSock::IdentifyPacketLoss(int* flag) {
  if (rtx_queue_.empty()) return;
  if (!IsSack()) {
    NewrenoMarkLost((*flag & kFlagSndUnaAdvanced) != 0);
    return;
  }
  const uint32_t prior_retrans = retrans_out_;
  if (RackMarkLost()) *flag &= ~kFlagSetXmitTimer;  // the REO timer is armed
  if (prior_retrans > retrans_out_) *flag |= kFlagLostRetrans;
}

// tcp_process_tlp_ack: an ACK above the probe's high mark after a
// retransmitted probe proves one loss, which costs one cwnd reduction at
// once (CWR entered and ended). (Before v5.9 only a retransmitted probe
// sets tlp_high_seq: tlp_retrans_ is then always true here.)
void TcpSock::ProcessTlpAck(uint64_t ack, int flag) {
  if (ack < tlp_high_seq_) return;
  if (!tlp_retrans_) {
    tlp_high_seq_ = 0;  // a probe of new data was acknowledged
  } else if (flag & kFlagDsackTlp) {
    tlp_high_seq_ = 0;  // original and probe both arrived
  } else if (ack > tlp_high_seq_) {
    InitCwndReduction();  // clears tlp_high_seq
    SetCaState(CaState::kCwr);
    EndCwndReduction();
    TryKeepOpen();
  } else if (!(flag & (kFlagSndUnaAdvanced | kFlagNotDup | kFlagDataSacked))) {
    tlp_high_seq_ = 0;  // a pure duplicate: original and probe both arrived
  }
}

// tcp_enter_loss (the RTO). Every skb not SACKed is marked lost
// (simplification: tcp_timeout_mark_lost spares skbs sent within the last
// RACK RTT); ssthresh drops unless this window was reduced already; cwnd
// restarts from one segment (packets in flight are all lost).
void TcpSock::EnterLoss() {
  const bool new_recovery = ca_state_ < CaState::kRecovery;
  if (!IsSack()) sacked_out_ = 0;  // tcp_reset_reno_sack
  for (Skb& skb : rtx_queue_) MarkSkbLost(skb);
  if (ca_state_ <= CaState::kDisorder || high_seq_ <= snd_una_ || (ca_state_ == CaState::kLoss && retransmits_ == 0)) {
    prior_ssthresh_ = CurrentSsthresh();
    prior_cwnd_ = snd_cwnd_;
    snd_ssthresh_ = CaSsthresh();
    InitUndo();
  }
  cubic_.epoch_start = 0;
  snd_cwnd_ = PacketsInFlight() + 1;
  snd_cwnd_cnt_ = 0;
  snd_cwnd_stamp_ = Jiffies();
  // Duplicate ACKs before a timeout overstated the reordering.
  if (ca_state_ <= CaState::kDisorder && sacked_out_ >= kTcpReorderingDefault) {
    reordering_ = std::min(reordering_, kTcpReorderingDefault);
  }
  // tcp_set_ca_state(TCP_CA_Loss): CUBIC forgets its state on every RTO.
  SetCaState(CaState::kLoss);
  if (config_.cc == CongestionControl::kCubic) CubicReset();
  high_seq_ = snd_nxt_;
  tlp_high_seq_ = 0;
  if (config_.ecn) ecn_queue_cwr_ = true;  // tcp_ecn_queue_cwr
  // F-RTO (RFC 5682 3.1 step 1) unless a recovery was under way, except
  // for a repeated timeout of the same snd_una (3.2); never with an MTU
  // probe out.
  frto_ = config_.sysctl.frto != 0 && (new_recovery || retransmits_ != 0) && mtup_.probe_size == 0;
}

// tcp_rack_advance: remember the most recently sent skb that was
// delivered, and its RTT. A retransmitted skb acked sooner than min_rtt
// may be the original's delivery: ignored.
void TcpSock::RackAdvance(bool ever_retransmitted, uint64_t end_seq, TimeNs xmit_ns) {
  const uint32_t rtt_us = static_cast<uint32_t>(loop_->now() / kNsPerUs - xmit_ns / kNsPerUs);
  if (rtt_us < min_rtt_us_ && ever_retransmitted) return;
  rack_.advanced = true;
  rack_.rtt_us = rtt_us;
  // tcp_skb_sent_after(xmit, rack.mstamp, end_seq, rack.end_seq).
  if (xmit_ns / kNsPerUs > rack_.mstamp / kNsPerUs ||
      (xmit_ns / kNsPerUs == rack_.mstamp / kNsPerUs && end_seq > rack_.end_seq)) {
    rack_.mstamp = xmit_ns;
    rack_.end_seq = end_seq;
  }
}

// tcp_rack_reo_wnd: no settling time in Recovery, or once reordering
// duplicate ACKs' worth is SACKed, unless reordering was seen; otherwise
// min_rtt / 4, at most srtt (reo_wnd_steps stays 1: no D-SACK).
uint32_t TcpSock::RackReoWndUs() const {
  if (reord_seen_ == 0) {
    if (ca_state_ >= CaState::kRecovery) return 0;
    if (sacked_out_ >= reordering_) return 0;
  }
  const uint32_t min_rtt = min_rtt_us_ == UINT32_MAX ? 0 : min_rtt_us_;
  return std::min(min_rtt >> 2, srtt_us_ >> 3);
}

// tcp_rack_detect_loss: an skb sent before the most recently delivered
// one is lost once rack.rtt + reo_wnd has passed since it was sent.
// Skbs are visited in sending order in the kernel (tsorted_sent_queue);
// the test is the same per skb, so the rtx queue's order does. Returns
// the longest remaining wait in us (0: none).
uint32_t TcpSock::RackDetectLoss() {
  uint32_t reo_timeout = 0;
  const uint32_t reo_wnd = RackReoWndUs();
  const int64_t now_us = loop_->now() / kNsPerUs;
  for (Skb& skb : rtx_queue_) {
    if (skb.sacked) continue;                // off the tsorted list
    if (skb.lost && !skb.retrans) continue;  // lost, not yet retransmitted
    const int64_t sent_us = skb.sent_ns / kNsPerUs;
    const int64_t rack_us = rack_.mstamp / kNsPerUs;
    if (!(rack_us > sent_us || (rack_us == sent_us && rack_.end_seq > skb.end_seq))) continue;
    const int64_t remaining = static_cast<int64_t>(rack_.rtt_us) + reo_wnd - (now_us - sent_us);
    if (remaining <= 0) {
      MarkSkbLost(skb);
    } else {
      reo_timeout = std::max(reo_timeout, static_cast<uint32_t>(remaining));
    }
  }
  return reo_timeout;
}

// tcp_rack_mark_lost: after the ACK advanced RACK; an skb not yet overdue
// arms the reordering timer (its wait plus TCP_TIMEOUT_MIN, 2 ms).
bool TcpSock::RackMarkLost() {
  if (!rack_.advanced) return false;
  rack_.advanced = false;
  const uint32_t timeout = RackDetectLoss();
  if (timeout != 0) {
    ResetXmitTimer(XmitTimer::kReoTimeout, UsToJiffies(timeout + kTcpTimeoutMinUs));
  }
  return timeout != 0;
}

// tcp_rack_reo_timeout: the reordering window passed; what is overdue now
// is lost. Outside Recovery this starts it, with one PRR step.
void TcpSock::RackReoTimeout() {
  const uint32_t lost_before = lost_;
  const uint32_t prior_inflight = PacketsInFlight();
  RackDetectLoss();
  if (prior_inflight != PacketsInFlight()) {
    if (ca_state_ != CaState::kRecovery) {
      EnterRecovery(false);
      CwndReduction(1, lost_ - lost_before, 0);
    }
    XmitRetransmitQueue();
  }
  if (xmit_timer_.kind != XmitTimer::kRetrans) RearmRto();
}

}  // namespace sendsim::model
