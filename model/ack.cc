#include "model/ack.h"

#include <algorithm>

#include "model/recovery_flags.h"
#include "model/tcp_sock.h"
#include "model/write_xmit.h"

namespace sendsim::model {
namespace {

// tcp_cubic.c parameters (module defaults).
constexpr uint32_t kBetaScale = 1024;   // BICTCP_BETA_SCALE
constexpr uint32_t kBeta = 717;         // beta
constexpr uint32_t kBicScale = 41;      // bic_scale
constexpr int kBictcpHz = 10;           // BICTCP_HZ
constexpr uint64_t kCubeRttScale = kBicScale * 10;
constexpr uint32_t kBetaScaleFriendly = 8 * (kBetaScale + kBeta) / 3 / (kBetaScale - kBeta);  // beta_scale

// HyStart module defaults (hystart = 1, hystart_detect = both detectors).
constexpr uint32_t kHystartLowWindow = 16;  // hystart_low_window: no test below
constexpr uint8_t kHystartMinSamples = 8;   // samples before the delay test
// The delay test's margin over delay_min is delay_min / 8, kept within
// 4..16 ms: in us from the v5.6-v5.10 rework, in ms << 3 before it.
constexpr uint32_t kHystartDelayMinUs = 4000;
constexpr uint32_t kHystartDelayMaxUs = 16000;
constexpr uint32_t kHystartDelayMinMs8 = 4 << 3;
constexpr uint32_t kHystartDelayMaxMs8 = 16 << 3;
// ACKs closer together than this belong to one train (hystart_ack_delta_us;
// before the rework hystart_ack_delta, 2 ms on a millisecond clock).
constexpr uint32_t kHystartAckDeltaUs = 2000;
constexpr uint32_t kHystartAckDeltaMs = 2;
// sk_gso_max_size of an IPv4 socket on a 64 KiB-GSO device, for
// hystart_ack_delay: 65536 in 6.12.118's sk_setup_caps. 6.1.192's takes
// MAX_TCP_HEADER + 1 off it (65215), a 0.5 % shorter ack delay, only below
// the 1 ms cap (rates above 262 MB/s): ignored.
constexpr uint64_t kSkGsoMaxSize = kGsoMaxSize;

uint32_t RoundupPow2(uint32_t x) {
  uint32_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

}  // namespace

uint32_t SndbufPerMss(uint32_t mss_clamp) {
  return RoundupPow2(mss_clamp + kMaxTcpHeader + kSkbSharedInfoSize) + kSkBuffSize;
}

uint32_t CubicRoot(uint64_t a) {
  // Exact floor cube root; the kernel's table + Newton step can differ by one
  // (deliberate simplification).
  uint64_t lo = 0, hi = 2097152;  // 2^21 > cbrt(2^64)
  while (lo < hi) {
    const uint64_t mid = (lo + hi + 1) / 2;
    if (mid * mid * mid <= a) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return static_cast<uint32_t>(lo);
}

void TcpSock::OnAckSegment(const Segment& seg) {
  if (aborted_) return;  // no socket takes it any more
  if (IsOwned()) {
    backlog_.push_back(seg);
    ++counters_.backlog_acks;
    EnsureReleaseEvent();
    return;
  }
  TcpRcvEstablished(seg, PushReason::kAck);
}

// tcp_rcv_established for a pure ACK: tcp_ack, then tcp_data_snd_check
// (tcp_push_pending_frames + tcp_check_space).
void TcpSock::TcpRcvEstablished(const Segment& seg, PushReason reason) {
  TcpAck(seg);
  TcpPushPendingFrames(reason);
  CheckSpace();
}

// tcp_ack, in the kernel's order: window, SACK blocks
// (tcp_sacktag_write_queue), tcp_clean_rtx_queue with the RTT samples,
// tcp_process_tlp_ack, tcp_fastretrans_alert for a dubious ACK, the
// xmit timer, tcp_cong_control (PRR in a reduction, else cong_avoid), then
// tcp_xmit_recovery. Simplification: an ACK below snd_una (old_ack) is
// ignored, its SACK blocks included.
void TcpSock::TcpAck(const Segment& seg) {
  const int64_t delta = static_cast<int32_t>(seg.ack - static_cast<uint32_t>(snd_una_));
  if (delta < 0) return;  // old ACK
  const uint64_t ack = snd_una_ + static_cast<uint64_t>(delta);
  if (ack > snd_nxt_) return;  // acks data never sent
  const uint32_t prior_packets = packets_out_;
  const uint64_t prior_una = snd_una_;
  const uint32_t prior_delivered = delivered_;
  const uint32_t prior_lost = lost_;
  // tcp_ecn_rcv_ecn_echo (FLAG_ECE): only on an ECN connection.
  const bool ece = config_.ecn && (seg.flags & kTcpEce) != 0;
  int flag = 0;
  // tcp_ack: FLAG_DATA when the segment's seq != end_seq, and a FIN takes a
  // sequence number: a bare FIN is no duplicate ACK.
  if (seg.len != 0 || (seg.flags & kTcpFin)) flag |= kFlagData;
  if (ack > snd_una_) {
    flag |= kFlagSndUnaAdvanced;
    retransmits_ = 0;  // tcp_ack: FLAG_SND_UNA_ADVANCED ends the RTO series
  }
  const uint64_t prior_fack = IsSack() ? HighestSackSeq() : snd_una_;
  // tcp_ack_update_window: the window updates when the ACK advances, the
  // peer's seq passed snd_wl1, or at snd_wl1 the window grows or is zero
  // (tcp_may_update_window). The model's own peer sends every ACK at seq 0.
  const int32_t seq_delta = static_cast<int32_t>(seg.seq - snd_wl1_);
  if (ack > snd_una_ || seq_delta > 0 || (seq_delta == 0 && (seg.win > snd_wnd_ || seg.win == 0))) {
    flag |= kFlagWinUpdate;
    snd_wl1_ = seg.seq;  // tcp_update_wl
    const bool changed = seg.win != snd_wnd_;
    snd_wnd_ = seg.win;
    // tcp_ack_update_window: a changed window with data queued checks for
    // restart after idle too (a zero-window stall sends no data).
    if (changed && !write_queue_.empty()) SlowStartAfterIdleCheck();
    if (seg.win > max_window_) {
      max_window_ = seg.win;
      // tcp_ack_update_window re-syncs the MSS on a new max_window: a
      // larger window loosens tcp_bound_to_half_wnd.
      SyncMss();
    }
  }
  snd_una_ = ack;
  rate_sample_ = RateSample();
  rcv_tsecr_ = seg.tsecr;  // tcp_fast_parse_options: this ACK's TS ecr (0: none)
  SacktagState sack_state;
  if (IsSack() && !seg.sack.empty()) flag |= SacktagWriteQueue(seg, prior_una, &sack_state);
  if (ece) flag |= kFlagEce;
  if (sack_state.sack_delivered != 0) CountDelivered(sack_state.sack_delivered, ece);
  uto_.probes_out = 0;  // tcp_ack: any acceptable ACK answers the window probes
  rcv_tstamp_ = Jiffies();
  if (prior_packets == 0) {
    // no_queue: tcp_ack_probe.
    if (!write_queue_.empty()) {
      if (write_queue_.front().end_seq <= snd_una_ + snd_wnd_) {
        backoff_ = 0;
        uto_.probes_tstamp = 0;
        ClearXmitTimer();
      } else {
        const uint64_t when = std::min<uint64_t>(static_cast<uint64_t>(std::max(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMinNs))) << backoff_,
                                                 NsToJiffiesCeil(kTcpRtoMaxNs));
        ResetXmitTimer(XmitTimer::kProbe0, ClampProbe0ToUserTimeout(static_cast<uint32_t>(when)));
      }
    }
    if (tlp_high_seq_ != 0) ProcessTlpAck(ack, flag);
    // A D-SACK may still undo a reduction.
    if (flag & kFlagDsackingAck) {
      int rexmit = kRexmitNone;
      FastretransAlert(prior_una, 0, &flag, &rexmit);
    }
    return;
  }
  TimeNs first_ackt = -1, last_ackt = -1;
  uint32_t acked = 0;
  CleanRtxQueue(&flag, &first_ackt, &acked, &last_ackt, prior_fack, ece, prior_una);
  // tcp_clean_rtx_queue: the whole probe acknowledged.
  if (acked > 0 && mtup_.probe_size != 0 && snd_una_ >= mtup_.probe_seq_end) MtupProbeSuccess();
  // tcp_ack_update_rtt: the cumulative sample (none when retransmitted
  // data was acked: Karn), else the SACK one; CUBIC takes the newest
  // (s)acked skb's RTT (ca_rtt_us).
  TimeNs seq_t = first_ackt, ca_t = last_ackt;
  if (sack_state.first_sackt >= 0) {
    if (seq_t < 0) seq_t = sack_state.first_sackt;
    ca_t = sack_state.last_sackt;
  }
  if (seq_t >= 0) {
    RttEstimator(static_cast<uint64_t>((loop_->now() - seq_t) / kNsPerUs));
    SetRto();
    backoff_ = 0;
  }
  // tcp_clean_rtx_queue: an ACK that acks nothing cumulatively still
  // re-arms the xmit timer when its SACK RTT sample is older than the rtx
  // head's last transmission (SACKed data sent before the head was last
  // resent); a SACK of data sent after it does not, so that the RTO cannot
  // keep moving out during recovery.
  if (!(flag & kFlagAcked) && seq_t >= 0 && sack_state.first_sackt >= 0 && !rtx_queue_.empty()) {
    const int64_t now_us = loop_->now() / kNsPerUs;
    const int64_t sack_rtt_us = now_us - sack_state.first_sackt / kNsPerUs;
    if (sack_rtt_us > now_us - rtx_queue_.front().sent_ns / kNsPerUs) flag |= kFlagSetXmitTimer;
  }
  if (ca_t >= 0 && config_.cc == CongestionControl::kCubic) {
    CubicAcked(static_cast<uint64_t>((loop_->now() - ca_t) / kNsPerUs));
  }
  ReleaseCopyStore();
  if (tlp_high_seq_ != 0) ProcessTlpAck(ack, flag);
  int rexmit = kRexmitNone;
  // tcp_ack_is_dubious: a duplicate, SACK or ECE news, or not Open.
  if (!(flag & kFlagNotDup) || (flag & kFlagCaAlert) || ca_state_ != CaState::kOpen) {
    const uint32_t num_dupack = (flag & (kFlagSndUnaAdvanced | kFlagNotDup | kFlagDsackingAck)) ? 0 : 1;
    const bool was_loss = ca_state_ == CaState::kLoss;
    FastretransAlert(prior_una, num_dupack, &flag, &rexmit);
    // tcp_fastretrans_alert: leaving Loss ends the RTO recovery's clock.
    if (was_loss && ca_state_ != CaState::kLoss) UpdateRtoTime();
  }
  if (flag & kFlagSetXmitTimer) SetXmitTimer();
  // tcp_cong_control with what this ACK delivered (acked and SACKed) and
  // newly marked lost: PRR in CWR/Recovery, else tcp_may_raise_cwnd
  // (in-order delivery, or any progress once reordering was raised).
  const uint32_t delivered = delivered_ - prior_delivered;
  RateGen(delivered, &rate_sample_);
  if (InCwndReduction()) {
    CwndReduction(delivered, lost_ - prior_lost, flag);
  } else if (flag & (reordering_ > kTcpReorderingDefault ? kFlagForwardProgress : kFlagDataAcked)) {
    CongAvoid(delivered);
  }
  UpdatePacingRate();
  XmitRecovery(rexmit);
}

// tcp_count_delivered.
void TcpSock::CountDelivered(uint32_t n, bool ece) {
  delivered_ += n;
  if (ece) delivered_ce_ += n;
}

// tcp_clean_rtx_queue: free fully acked skbs, trim a partially acked TSO skb
// (tcp_tso_acked), count acked segments, take the RTT of the oldest
// never-retransmitted skb acked, advance RACK, and check the hole it
// filled for reordering.
void TcpSock::CleanRtxQueue(int* flag, TimeNs* first_ackt, uint32_t* acked_total, TimeNs* last_ackt,
                            uint64_t prior_fack, bool ece, uint64_t prior_snd_una) {
  uint64_t reord = snd_nxt_;  // lowest acked never-retransmitted, never-SACKed seq
  while (!rtx_queue_.empty()) {
    Skb& skb = rtx_queue_.front();
    uint32_t acked_pcount;
    bool fully_acked = true;
    const uint64_t start_seq = skb.seq;
    if (skb.end_seq > snd_una_) {
      if (skb.pcount == 1 || snd_una_ <= skb.seq) break;
      // tcp_trim_head: frag bytes eaten give back truesize.
      const uint32_t eat = static_cast<uint32_t>(snd_una_ - skb.seq);
      uint32_t linear_eat = std::min(eat, skb.linear_len);
      const uint32_t frag_eat = eat - linear_eat;
      skb.linear_len -= linear_eat;
      uint8_t drop = 0;
      while (drop < skb.nr_frags && skb.frag_end[drop] <= eat) ++drop;
      for (uint8_t i = drop; i < skb.nr_frags; ++i) skb.frag_end[i - drop] = skb.frag_end[i] - eat;
      skb.nr_frags -= drop;
      if (!skb.payload.empty()) {
        uint32_t left = eat;
        size_t i = 0;
        while (i < skb.payload.size() && skb.payload[i].len <= left) left -= skb.payload[i++].len;
        skb.payload.erase(skb.payload.begin(), skb.payload.begin() + static_cast<std::ptrdiff_t>(i));
        if (left > 0 && !skb.payload.empty()) {
          if (skb.payload[0].data != nullptr) skb.payload[0].data += left;
          skb.payload[0].len -= left;
        }
      }
      skb.seq = snd_una_;
      if (frag_eat > 0) {
        skb.truesize -= frag_eat;
        wmem_queued_ -= frag_eat;
        queue_shrunk_ = true;
      }
      const uint32_t old = skb.pcount;
      const uint32_t mss = skb.gso_size != 0 ? skb.gso_size : mss_cache_;
      skb.pcount = TsoSegsForLen(skb.len(), mss);
      skb.gso_size = skb.pcount > 1 ? mss : 0;
      acked_pcount = old - skb.pcount;
      if (acked_pcount == 0) break;
      fully_acked = false;
    } else {
      acked_pcount = skb.pcount;
    }
    if (skb.retrans || skb.ever_retrans) {  // TCPCB_RETRANS
      if (skb.retrans) retrans_out_ -= std::min(retrans_out_, acked_pcount);
      *flag |= kFlagRetransDataAcked;
    } else if (!skb.sacked) {
      if (*first_ackt < 0) *first_ackt = skb.sent_ns;
      *last_ackt = skb.sent_ns;
      reord = std::min(reord, start_seq);
      if (skb.end_seq <= high_seq_) *flag |= kFlagOrigSackAcked;
    }
    if (skb.sacked) {
      sacked_out_ -= std::min(sacked_out_, acked_pcount);
    } else if (IsSack()) {
      CountDelivered(acked_pcount, ece);
      RackAdvance(skb.retrans || skb.ever_retrans, skb.end_seq, skb.sent_ns);
    }
    if (skb.lost) lost_out_ -= std::min(lost_out_, acked_pcount);
    packets_out_ -= acked_pcount;
    *acked_total += acked_pcount;
    *flag |= kFlagDataAcked;
    RateSkbDelivered(skb, &rate_sample_);
    if (!fully_acked) break;
    AckTstamp(skb, prior_snd_una);
    wmem_queued_ -= skb.truesize;
    queue_shrunk_ = true;
    rtx_queue_.pop_front();
  }
  // tcp_clean_rtx_queue: the skb the walk stopped at (partly acked, or not
  // at all) is offered to tcp_ack_tstamp too: a key inside it that the ACK
  // covered (the tail skb took more bytes after the marking call) is stamped.
  if (!rtx_queue_.empty()) AckTstamp(rtx_queue_.front(), prior_snd_una);
  // tcp_clean_rtx_queue: all sent data acknowledged.
  if (rtx_queue_.empty()) ChronoStop(Chrono::kBusy);
  // Karn: no cumulative RTT sample when retransmitted data was acked.
  if (*flag & kFlagRetransDataAcked) *first_ackt = *last_ackt = -1;
  if (*flag & kFlagAcked) {
    *flag |= kFlagSetXmitTimer;  // set the TLP or RTO timer
    if (!IsSack()) {
      RemoveRenoSacks(*acked_total, ece);
      // Reno cannot tell an original's delivery from a retransmission's.
      if (*flag & kFlagRetransDataAcked) *flag &= ~kFlagOrigSackAcked;
    } else if (reord < prior_fack) {
      CheckSackReordering(reord);  // a never-retransmitted hole got filled
    }
  }
}

// tcp_update_rto_time: the RTO recovery's time joins total_rto_time.
void TcpSock::UpdateRtoTime() {
  if (rto_stamp_ms_ < 0) return;
  total_rto_time_ms_ += TcpTimeStamp() - rto_stamp_ms_;  // tcp_time_stamp_ms
  rto_stamp_ms_ = -1;
}

// tcp_rtt_estimator (Jacobson/Karels with Linux's mdev_max tracking).
void TcpSock::RttEstimator(uint64_t mrtt_us) {
  int64_t m = static_cast<int64_t>(mrtt_us);
  int64_t srtt = srtt_us_;
  const uint32_t rto_min_us = static_cast<uint32_t>(kTcpRtoMinNs / kNsPerUs);
  if (srtt != 0) {
    m -= (srtt >> 3);
    srtt += m;
    if (m < 0) {
      m = -m;
      m -= (mdev_us_ >> 2);
      if (m > 0) m >>= 3;
    } else {
      m -= (mdev_us_ >> 2);
    }
    mdev_us_ = static_cast<uint32_t>(static_cast<int64_t>(mdev_us_) + m);
    if (mdev_us_ > mdev_max_us_) {
      mdev_max_us_ = mdev_us_;
      if (mdev_max_us_ > rttvar_us_) rttvar_us_ = mdev_max_us_;
    }
    if (snd_una_ > rtt_seq_) {
      if (mdev_max_us_ < rttvar_us_) rttvar_us_ -= (rttvar_us_ - mdev_max_us_) >> 2;
      rtt_seq_ = snd_nxt_;
      mdev_max_us_ = rto_min_us;
    }
  } else {
    srtt = m << 3;
    mdev_us_ = static_cast<uint32_t>(m << 1);
    rttvar_us_ = std::max(mdev_us_, rto_min_us);
    mdev_max_us_ = rttvar_us_;
    rtt_seq_ = snd_nxt_;
  }
  srtt_us_ = std::max<uint32_t>(1, static_cast<uint32_t>(srtt));
  // Simplification: min_rtt is the all-time minimum, not a windowed filter.
  min_rtt_us_ = std::min<uint32_t>(min_rtt_us_, static_cast<uint32_t>(mrtt_us));
}

// bictcp_acked / cubictcp_acked: the minimum delay, in microseconds or in
// ms << 3 by version, ignoring samples within a second of a new epoch; then
// HyStart while in slow start. After the v5.6-v5.10 rework, hystart_update
// runs until it has found the exit and itself skips small windows; before,
// bictcp_acked skips them and hystart_update returns once found.
void TcpSock::CubicAcked(uint64_t rtt_us) {
  Cubic& ca = cubic_;
  if (ca.epoch_start != 0 && static_cast<int32_t>(Jiffies() - ca.epoch_start) < config_.hz) return;
  uint64_t delay = profile_.cubic_usec_clock ? rtt_us : (rtt_us << 3) / 1000;
  delay = std::clamp<uint64_t>(delay, 1, UINT32_MAX);
  if (ca.delay_min == 0 || ca.delay_min > delay) ca.delay_min = static_cast<uint32_t>(delay);
  const bool slow_start = snd_cwnd_ < snd_ssthresh_;  // tcp_in_slow_start
  if (profile_.cubic_usec_clock) {
    if (!ca.found && slow_start) HystartUpdate(static_cast<uint32_t>(delay));
  } else if (slow_start && snd_cwnd_ >= kHystartLowWindow) {
    HystartUpdate(static_cast<uint32_t>(delay));
  }
}

// bictcp_clock_us (tcp_mstamp: the ACK's arrival in us) from the rework;
// before it bictcp_clock, in ms: wall-clock ms below HZ 1000, else jiffies
// converted to ms.
uint32_t TcpSock::HystartClock() const {
  if (profile_.cubic_usec_clock) return static_cast<uint32_t>(loop_->now() / kNsPerUs);
  if (config_.hz < 1000) return TcpTimeStamp();
  return static_cast<uint32_t>(static_cast<uint64_t>(Jiffies()) * 1000 / static_cast<uint64_t>(config_.hz));
}

// bictcp_hystart_reset: a new round ends when everything sent so far is
// acked. The round's minimum starts "unset": ~0 after the rework, 0 before.
void TcpSock::HystartReset() {
  Cubic& ca = cubic_;
  ca.round_start = ca.last_ack = HystartClock();
  ca.end_seq = snd_nxt_;
  ca.curr_rtt = profile_.cubic_usec_clock ? UINT32_MAX : 0;
  ca.sample_cnt = 0;
}

// hystart_ack_delay: a cushion for TSO/GRO aggregation, the time four
// GSO-sized skbs take at the pacing rate, at most 1 ms (0 before the first
// rate; the initial ~0 rate gives 0 too).
uint32_t TcpSock::HystartAckDelayUs() const {
  if (pacing_rate_ == 0) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(1000, kSkGsoMaxSize * 4 * 1000000 / pacing_rate_));
}

// hystart_update: either detector ends slow start with ssthresh = cwnd.
// - ACK train: ACKs each within 2 ms of the previous one, the train
//   reaching half of delay_min (after the rework: of delay_min plus the
//   aggregation cushion, halved only without pacing, sk_pacing_status
//   SK_PACING_NONE; the model has no fq and no SO_MAX_PACING_RATE, so always).
// - Delay: after 8 samples of a round, the round's minimum RTT exceeds
//   delay_min by more than clamp(delay_min / 8, 4 ms, 16 ms).
// After the rework the round restarts here (so also when not cwnd-limited),
// cwnd below hystart_low_window stops after that, and the round's minimum
// takes every sample; before, CubicCongAvoid restarts the round, and only
// the first 8 samples count.
void TcpSock::HystartUpdate(uint32_t delay) {
  Cubic& ca = cubic_;
  const bool usec = profile_.cubic_usec_clock;
  if (usec) {
    if (snd_una_ > ca.end_seq) HystartReset();
    if (snd_cwnd_ < kHystartLowWindow) return;
  } else if (ca.found) {
    return;
  }
  // Either detector: slow start ends here (ssthresh = cwnd).
  auto exit_slow_start = [&](uint64_t* counter) {
    ca.found = true;
    snd_ssthresh_ = snd_cwnd_;
    ++*counter;
  };
  const uint32_t now = HystartClock();
  if (static_cast<int32_t>(now - ca.last_ack) <= static_cast<int32_t>(usec ? kHystartAckDeltaUs : kHystartAckDeltaMs)) {
    ca.last_ack = now;
    // Old: delay_min (ms << 3) >> 4 is half of delay_min in ms.
    const uint32_t threshold = usec ? (ca.delay_min + HystartAckDelayUs()) >> 1 : ca.delay_min >> 4;
    if (static_cast<int32_t>(now - ca.round_start) > static_cast<int32_t>(threshold)) {
      exit_slow_start(&counters_.hystart_train_exits);
    }
  }
  if (usec) ca.curr_rtt = std::min(ca.curr_rtt, delay);
  if (ca.sample_cnt < kHystartMinSamples) {
    if (!usec && (ca.curr_rtt == 0 || ca.curr_rtt > delay)) ca.curr_rtt = delay;
    ++ca.sample_cnt;
    return;
  }
  const uint32_t margin = usec ? std::clamp(ca.delay_min >> 3, kHystartDelayMinUs, kHystartDelayMaxUs)
                               : std::clamp(ca.delay_min >> 3, kHystartDelayMinMs8, kHystartDelayMaxMs8);
  if (ca.curr_rtt > ca.delay_min + margin) exit_slow_start(&counters_.hystart_delay_exits);
}

// bictcp_state / cubictcp_state: entering TCP_CA_Loss forgets everything,
// the remembered peak (last_max_cwnd), delay_min and HyStart's verdict
// included (bictcp_reset), and starts a HyStart round (bictcp_hystart_reset).
void TcpSock::CubicReset() {
  cubic_ = Cubic();
  HystartReset();
}

// tcp_set_rto: srtt + rttvar, rounded up to jiffies, bounded by TCP_RTO_MAX.
void TcpSock::SetRto() {
  rto_jiffies_ = UsToJiffies((srtt_us_ >> 3) + rttvar_us_);
  rto_jiffies_ = std::min(rto_jiffies_, NsToJiffiesCeil(kTcpRtoMaxNs));
}

void TcpSock::CongAvoid(uint32_t acked) {
  if (!IsCwndLimited()) return;
  if (config_.cc == CongestionControl::kReno) {
    RenoCongAvoid(acked);
  } else {
    CubicCongAvoid(acked);
  }
}

uint32_t TcpSock::SlowStart(uint32_t acked) {
  const uint32_t cwnd = SlowStartRule(snd_cwnd_, snd_ssthresh_, &acked);
  snd_cwnd_ = std::min(cwnd, snd_cwnd_clamp_);
  return acked;
}

// tcp_cong_avoid_ai: +1 per w segments acked.
void TcpSock::CongAvoidAi(uint32_t w, uint32_t acked) {
  if (snd_cwnd_cnt_ >= w) {
    snd_cwnd_cnt_ = 0;
    ++snd_cwnd_;
  }
  snd_cwnd_cnt_ += acked;
  if (snd_cwnd_cnt_ >= w) {
    const uint32_t d = snd_cwnd_cnt_ / w;
    snd_cwnd_cnt_ -= d * w;
    snd_cwnd_ += d;
  }
  snd_cwnd_ = std::min(snd_cwnd_, snd_cwnd_clamp_);
}

// tcp_reno_cong_avoid.
void TcpSock::RenoCongAvoid(uint32_t acked) {
  if (snd_cwnd_ < snd_ssthresh_) {
    acked = SlowStart(acked);
    if (acked == 0) return;
  }
  CongAvoidAi(snd_cwnd_, acked);
}

// bictcp_cong_avoid + bictcp_update. Before the HyStart rework, a
// cwnd-limited ACK past the round's end_seq starts the next round here.
void TcpSock::CubicCongAvoid(uint32_t acked) {
  if (snd_cwnd_ < snd_ssthresh_) {
    if (!profile_.cubic_usec_clock && snd_una_ > cubic_.end_seq) HystartReset();
    acked = SlowStart(acked);
    if (acked == 0) return;
  }
  Cubic& ca = cubic_;
  const uint32_t cwnd = snd_cwnd_;
  const uint32_t now = Jiffies();
  const uint32_t hz = static_cast<uint32_t>(config_.hz);
  ca.ack_cnt += acked;
  bool recompute = true;
  if (ca.last_cwnd == cwnd && static_cast<int32_t>(now - ca.last_time) <= static_cast<int32_t>(hz / 32)) {
    CongAvoidAi(std::max<uint32_t>(ca.cnt, 2), acked);
    return;
  }
  if (ca.epoch_start != 0 && now == ca.last_time) recompute = false;
  if (recompute) {
    ca.last_cwnd = cwnd;
    ca.last_time = now;
    if (ca.epoch_start == 0) {
      ca.epoch_start = now == 0 ? 1 : now;  // 0 means "no epoch"
      ca.ack_cnt = acked;
      ca.tcp_cwnd = cwnd;
      if (ca.last_max_cwnd <= cwnd) {
        ca.bic_k = 0;
        ca.bic_origin_point = cwnd;
      } else {
        const uint64_t cube_factor = (1ULL << (10 + 3 * kBictcpHz)) / kCubeRttScale;
        ca.bic_k = CubicRoot(cube_factor * (ca.last_max_cwnd - cwnd));
        ca.bic_origin_point = ca.last_max_cwnd;
      }
    }
    // Time since the epoch plus one minimal RTT, in 1/1024 s (bictcp_update).
    uint64_t t = static_cast<uint32_t>(now - ca.epoch_start);
    if (profile_.cubic_usec_clock) {
      t = t * (1000000 / hz) + ca.delay_min;
      t = (t << kBictcpHz) / 1000000;
    } else {
      t += ((ca.delay_min >> 3) * hz + 999) / 1000;  // msecs_to_jiffies(delay_min >> 3)
      t = (t << kBictcpHz) / hz;
    }
    const uint64_t offs = t < ca.bic_k ? ca.bic_k - t : t - ca.bic_k;
    const uint64_t delta = (kCubeRttScale * offs * offs * offs) >> (10 + 3 * kBictcpHz);
    const uint64_t target = t < ca.bic_k ? ca.bic_origin_point - delta : ca.bic_origin_point + delta;
    if (target > cwnd) {
      ca.cnt = static_cast<uint32_t>(cwnd / (target - cwnd));
    } else {
      ca.cnt = 100 * cwnd;
    }
    if (ca.last_max_cwnd == 0 && ca.cnt > 20) ca.cnt = 20;
  }
  // TCP friendliness.
  const uint32_t d = (cwnd * kBetaScaleFriendly) >> 3;
  while (d > 0 && ca.ack_cnt > d) {
    ca.ack_cnt -= d;
    ++ca.tcp_cwnd;
  }
  if (ca.tcp_cwnd > cwnd) {
    const uint32_t max_cnt = cwnd / (ca.tcp_cwnd - cwnd);
    if (ca.cnt > max_cnt) ca.cnt = max_cnt;
  }
  ca.cnt = std::max<uint32_t>(ca.cnt, 2);
  CongAvoidAi(ca.cnt, acked);
}

// ca_ops->ssthresh on loss: Reno halves; CUBIC keeps beta = 717/1024 and
// records W_max (fast convergence).
uint32_t TcpSock::RecalcSsthresh() const {
  if (config_.cc == CongestionControl::kReno) return std::max(snd_cwnd_ >> 1, 2U);
  return std::max((snd_cwnd_ * kBeta) / kBetaScale, 2U);
}

// bictcp_recalc_ssthresh (with fast convergence: W_max remembered, a new
// epoch starts) or tcp_reno_ssthresh.
uint32_t TcpSock::CaSsthresh() {
  if (config_.cc == CongestionControl::kCubic) {
    cubic_.epoch_start = 0;
    if (snd_cwnd_ < cubic_.last_max_cwnd) {
      cubic_.last_max_cwnd = (snd_cwnd_ * (kBetaScale + kBeta)) / (2 * kBetaScale);
    } else {
      cubic_.last_max_cwnd = snd_cwnd_;
    }
  }
  return RecalcSsthresh();
}

// tcp_current_ssthresh: in a cwnd reduction (CWR, Recovery) ssthresh itself.
uint32_t TcpSock::CurrentSsthresh() const {
  if (InCwndReduction()) return snd_ssthresh_;
  return std::max(snd_ssthresh_, (snd_cwnd_ >> 1) + (snd_cwnd_ >> 2));
}

// tcp_update_pacing_rate: factor x mss x max(cwnd, packets_out) / srtt.
void TcpSock::UpdatePacingRate() {
  uint64_t rate = static_cast<uint64_t>(mss_cache_) * ((1000000 / 100) << 3);
  rate *= snd_cwnd_ < snd_ssthresh_ / 2 ? config_.sysctl.pacing_ss_ratio : config_.sysctl.pacing_ca_ratio;
  rate *= std::max(snd_cwnd_, packets_out_);
  if (srtt_us_ != 0) rate /= srtt_us_;
  pacing_rate_ = rate;
}

// tcp_check_space. Up to v5.15 it acts only after an ACK freed skbs
// (SOCK_QUEUE_SHRUNK). v5.16 dropped that flag and made
// tcp_event_new_data_sent call it (profile check_space_on_new_data), so an
// ACK that frees nothing but lets unsent data leave (a window update under
// TCP_NOTSENT_LOWAT) also wakes a writer: epoll_notsent_lowat.pkt on 6.1,
// 6.12 and 6.18.
void TcpSock::CheckSpace() {
  if (!profile_.check_space_on_new_data) {
    if (!queue_shrunk_) return;
    queue_shrunk_ = false;
  }
  if (sock_nospace_) {
    NewSpace();
    if (!sock_nospace_) ChronoStop(Chrono::kSndbufLimited);
  }
}

// tcp_new_space: maybe grow sndbuf, then sk_write_space.
void TcpSock::NewSpace() {
  // tcp_should_expand_sndbuf (no memory pressure modelled).
  if (!sndbuf_locked_ && PacketsInFlight() < snd_cwnd_) {
    SndbufExpand();
    snd_cwnd_stamp_ = Jiffies();
  }
  WriteSpace();
}

// tcp_sndbuf_expand.
void TcpSock::SndbufExpand() {
  const uint32_t per_mss = SndbufPerMss(std::max(config_.mtu - 40, mss_cache_));
  uint32_t nr_segs = std::max<uint32_t>(kTcpInitCwnd, snd_cwnd_);
  nr_segs = std::max<uint32_t>(nr_segs, kTcpReorderingDefault + 1);
  const uint64_t sndmem = 2ULL * nr_segs * per_mss;
  if (sndbuf_ < sndmem) sndbuf_ = static_cast<uint32_t>(std::min<uint64_t>(sndmem, config_.sysctl.wmem[2]));
}

// sk_stream_write_space / ceph_sock_write_space: wake only when the free
// space is at least half of what is queued and the stream is memory-free.
void TcpSock::WriteSpace() {
  if (!StreamWriteableRule(sndbuf_, wmem_queued_) || !StreamMemoryFree(1)) return;
  sock_nospace_ = false;
  ++counters_.write_space_calls;
  if (pending_call_ && !pending_call_->resume_scheduled) {
    pending_call_->resume_scheduled = true;
    loop_->ScheduleAfter(0, [this] { ResumeBlockedCall(); });
  }
  if (write_space_) write_space_();
}

// tcp_rearm_rto.
void TcpSock::RearmRto() {
  if (packets_out_ == 0) {
    ClearXmitTimer();
    return;
  }
  uint32_t rto = rto_jiffies_;
  if (xmit_timer_.kind == XmitTimer::kLossProbe || xmit_timer_.kind == XmitTimer::kReoTimeout) {
    // Offset the time already elapsed since the regular RTO was installed.
    rto = UsToJiffies(static_cast<uint64_t>(std::max<int64_t>(RtoDeltaUs(), 1)));
  }
  ResetXmitTimer(XmitTimer::kRetrans, rto);
}

// tcp_set_xmit_timer.
void TcpSock::SetXmitTimer() {
  if (!ScheduleLossProbe(true)) RearmRto();
}

// tcp_mtup_probe_success: cwnd rescaled to the new packet size (the old
// ssthresh kept as prior_ssthresh, for undo), the probe size becomes
// search_low and the MSS follows (tcp_sync_mss).
void TcpSock::MtupProbeSuccess() {
  prior_ssthresh_ = CurrentSsthresh();
  const uint64_t cwnd = static_cast<uint64_t>(snd_cwnd_) * MssToMtu(mss_cache_) / mtup_.probe_size;
  snd_cwnd_ = static_cast<uint32_t>(std::max<uint64_t>(cwnd, 1));
  snd_cwnd_cnt_ = 0;
  snd_cwnd_stamp_ = Jiffies();
  snd_ssthresh_ = CurrentSsthresh();
  mtup_.search_low = mtup_.probe_size;
  mtup_.probe_size = 0;
  SyncMss();
}

}  // namespace sendsim::model
