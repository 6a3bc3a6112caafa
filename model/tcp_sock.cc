#include "model/tcp_sock.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"

namespace sendsim::model {

TcpSock::TcpSock(EventLoop* loop, const ConnectionConfig& config, const Profile& profile, Options opts, XmitFn xmit)
    : loop_(loop),
      config_(config),
      profile_(profile),
      jiffy_ns_(kNsPerSec / config.hz),
      jiffy_us_(static_cast<uint64_t>(kNsPerSec / config.hz / kNsPerUs)),
      xmit_(std::move(xmit)),
      own_cpu_(HostCpu::CallerOnly(config.host)),
      mss_cache_(config.mss) {
  nonagle_ = config.nodelay ? kTcpNagleOff : 0;
  full_mss_ = config.mss;
  // The handshake's route: tcp_sync_mss already ran with its MTU.
  dst_ = fib_dst_ = Dst{config.mtu, config.route_mtu_metric, false, config.route_mtu_locked};
  pmtu_cookie_ = config.mtu;
  MtupInit(opts.passive_open, opts.peer_dropped_timestamps);
  if (config.cwnd_clamp != 0) snd_cwnd_clamp_ = config.cwnd_clamp;
  snd_cwnd_ = InitCwnd();  // tcp_init_transfer -> tcp_init_cwnd
  snd_wnd_ = opts.initial_window;
  snd_wl1_ = opts.snd_wl1;
  max_window_ = opts.initial_window;
  // tcp_sync_mss at the end of the handshake runs after max_window is set
  // (tcp_rcv_synsent_state_process: the SYN-ACK's window; a passive child:
  // tcp_create_openreq_child takes the handshake ACK's, then
  // tcp_v4_syn_recv_sock syncs): the MSS is at most half of it.
  mss_cache_ = BoundToHalfWnd(mss_cache_);
  rto_jiffies_ = NsToJiffiesCeil(kTcpTimeoutInitNs);
  lsndtime_ = Jiffies();
  rcv_tstamp_ = Jiffies();  // the handshake's ACK or SYN-ACK (tcp_ack)
  created_jiffies_ = Jiffies();  // tcp_create_openreq_child / tcp_rcv_synsent_state_process
  snd_cwnd_stamp_ = Jiffies();
  // tcp_init_buffer_space -> tcp_sndbuf_expand unless SO_SNDBUF was set.
  sndbuf_ = config.sysctl.wmem[1];  // tcp_init_sock
  if (config.sndbuf != 0) {
    sndbuf_ = std::max(std::min(config.sndbuf, config.sysctl.wmem_max) * 2, kSockMinSndbuf);
    sndbuf_locked_ = true;
  } else {
    SndbufExpand();
  }
  // tcp_init_transfer -> tcp_init_congestion_control -> cubictcp_init: with
  // hystart on, the first HyStart round starts now, ending at snd_nxt.
  if (config.cc == CongestionControl::kCubic) HystartReset();
  // The handshake's SYN-ACK gives the first RTT sample, and tcp_ack on it
  // computes the pacing rate (tcp_cong_control -> tcp_update_pacing_rate).
  if (opts.handshake_rtt_ns > 0) {
    RttEstimator(static_cast<uint64_t>(opts.handshake_rtt_ns / kNsPerUs));
    SetRto();
    if (opts.passive_open) {
      UpdatePacingRate();
    } else {
      SynAckPacingRate();
    }
  }
  if (opts.syn_retransmits > 0) InitAfterSynRetransmit(opts);
  syn_retransmitted_ = opts.syn_retransmits > 0;
}

// The connection established after our SYN was retransmitted: each of the
// SYN's RTOs ran tcp_enter_loss in SYN-SENT, the SYN-ACK's tcp_ack took
// the SYN off the queue, then tcp_finish_connect -> tcp_init_transfer.
// Or, passive, after our SYN-ACK was: the request socket's timer resent it
// (no tcp_enter_loss, the child starts in Open), tcp_create_openreq_child
// set total_retrans from num_retrans and undo_marker, and the handshake ACK
// ran tcp_synack_rtt_meas, tcp_init_transfer, then tcp_update_pacing_rate.
// (Measured on 6.1, 6.12 and 6.18: syn_retransmit_*.pkt, synack_retransmit_*.pkt.)
void TcpSock::InitAfterSynRetransmit(const Options& opts) {
  total_retrans_ = opts.syn_retransmits;
  // tcp_init_transfer: cwnd 1 after more than one retransmission
  // (tp->total_retrans > 1 with undo_marker, which tcp_enter_loss set, or,
  // passive, a timeout of the request; the runner's peer echoes our latest
  // TS val, never the first SYN's, so tcp_try_undo_spurious_syn leaves it).
  // The initial cwnd otherwise.
  const bool undo_marker = opts.syn_retransmits > opts.synack_answers;
  if (opts.syn_retransmits > 1 && (undo_marker || !profile_.syn_cwnd_cut_needs_undo_marker)) snd_cwnd_ = 1;
  // tcp_init_metrics puts ssthresh back to TCP_INFINITE_SSTHRESH (already
  // so here). Without an RTT sample (Karn: the retransmitted SYN gives
  // none unless timestamps echo one) the RTO is TCP_TIMEOUT_FALLBACK, and
  // icsk_backoff stays as the SYN's RTOs left it (tcp_ack_update_rtt
  // clears it only with a sample).
  if (opts.handshake_rtt_ns == 0) {
    rto_jiffies_ = NsToJiffiesCeil(kTcpTimeoutFallbackNs);
    rttvar_us_ = static_cast<uint32_t>(kTcpTimeoutFallbackNs / kNsPerUs);
    mdev_us_ = rttvar_us_;
    mdev_max_us_ = rttvar_us_;
    backoff_ = opts.syn_backoff;
    // tcp_ack's tcp_cong_control still set a pacing rate (srtt 0: no
    // division by it).
    if (!opts.passive_open) SynAckPacingRate();
  }
  // Passive: tcp_rcv_state_process's tcp_update_pacing_rate comes after
  // tcp_init_transfer, so it sees the cwnd set above (and, without a
  // sample, srtt 0: the rate is not divided by it).
  if (opts.passive_open) UpdatePacingRate();
  // The SYN-ACK's tcp_fastretrans_alert -> tcp_process_loss, snd_una ==
  // high_seq: with SACK tcp_try_undo_recovery returns to Open; without
  // it Loss holds until data above high_seq is acked (ack.cc).
  if (!opts.passive_open && !config_.sack) {
    SetCaState(CaState::kLoss);
    high_seq_ = snd_nxt_;
  }
}

// tcp_rcv_synsent_state_process runs tcp_ack on the SYN-ACK before
// tcp_finish_connect -> tcp_init_transfer sets the route's initcwnd: the
// first pacing rate sees tcp_init_sock's TCP_INIT_CWND. It holds until the
// first ACK of data, and through tcp_tso_autosize it sizes the skbs of the
// first flight (UML 6.12: 3 segments per skb at a 5.2 ms RTT with mss 536
// and initcwnd 32, where cwnd 32 would give 12). The mss is the
// connection's: a jumbo-MSS replay (8948, 2 ms RTT) splits its first
// flight at 7 segments on UML 6.1 and 6.12, which tcp_connect_init's
// TCP_MSS_DEFAULT-clamped mss_cache (524) would hold to 2.
void TcpSock::SynAckPacingRate() {
  const uint32_t cwnd = snd_cwnd_;
  snd_cwnd_ = kTcpInitCwnd;
  UpdatePacingRate();
  snd_cwnd_ = cwnd;
}

uint32_t TcpSock::UsToJiffies(uint64_t us) const {
  return static_cast<uint32_t>((us + jiffy_us_ - 1) / jiffy_us_);
}

uint32_t TcpSock::NsToJiffiesCeil(TimeNs ns) const {
  return static_cast<uint32_t>((ns + JiffyNs() - 1) / JiffyNs());
}

// lock_sock. A call arriving while the previous one still holds the socket
// (the caller did not wait call_cost_ns) ends the previous hold first:
// deliberate simplification of lock_sock sleeping on the owner.
// A call at exactly the end of the previous hold also runs that hold's
// release_sock first when it is still pending: the caller's thread returns
// from release_sock (backlog, tcp_release_cb) before it can make its next
// call, so equal times must not let the new call's data in ahead of it.
void TcpSock::LockSock() {
  // The previous hold's release_sock transmits in this caller's time.
  call_xmit_ns_ = 0;
  if (IsOwned() || release_event_ != 0) {
    if (release_event_ != 0) loop_->Cancel(release_event_);
    release_event_ = 0;
    ReleaseSock();
  }
  in_call_ = true;
}

// The call's effects happened at call time; the socket stays owned until
// now + call_cost. release_sock only has work when something was deferred
// meanwhile, so its event is scheduled lazily by EnsureReleaseEvent.
void TcpSock::ScheduleRelease() {
  if (config_.call_cost_ns == 0 && !cpu_->xmit_costs()) {
    ReleaseSock();
    last_call_xmit_ns_ = 0;
    return;
  }
  in_call_ = false;
  last_call_xmit_ns_ = call_xmit_ns_;
  owned_until_ = loop_->now() + config_.call_cost_ns + call_xmit_ns_;
  call_xmit_ns_ = 0;
  if (!backlog_.empty() || tsq_.deferred || tsq_.write_timer_deferred) EnsureReleaseEvent();
}

void TcpSock::EnsureReleaseEvent() {
  if (release_event_ != 0 || in_call_) return;
  release_event_ = loop_->ScheduleAt(owned_until_, [this] {
    release_event_ = 0;
    ReleaseSock();
  });
}

// release_sock: drain the backlog (__release_sock), then tcp_release_cb.
void TcpSock::ReleaseSock() {
  in_call_ = true;  // still owned while the backlog drains
  ProcessBacklog(PushReason::kBacklog);
  TcpReleaseCb();
}

void TcpSock::ProcessBacklog(PushReason reason) {
  while (!backlog_.empty()) {
    backlog_batch_.swap(backlog_);
    for (const Segment& seg : backlog_batch_) TcpRcvEstablished(seg, reason);
    backlog_batch_.clear();
  }
}

int TcpSock::setsockopt(SockOpt opt, int64_t value) {
  // The option value is an int (do_tcp_setsockopt / sock_setsockopt read
  // sizeof(int)); a negative one is not refused in general: TCP_NOTSENT_LOWAT
  // stores it as unsigned (-1: no limit), SO_SNDBUF takes min_t(u32, ...),
  // TCP_NODELAY and TCP_CORK test it for non-zero.
  if (value < INT32_MIN || value > INT32_MAX) return -kEinval;
  const int32_t ival = static_cast<int32_t>(value);
  const uint32_t val = static_cast<uint32_t>(ival);
  switch (opt) {
    case SockOpt::kTcpMaxseg:
      // do_tcp_setsockopt: range check; the value is only used at the next
      // MSS sync (not modelled), as on an established kernel socket.
      if (ival != 0 && (ival < static_cast<int32_t>(kTcpMinMss) || ival > static_cast<int32_t>(kMaxTcpWindow))) {
        return -kEinval;
      }
      user_mss_ = val;
      return 0;
    case SockOpt::kSoSndbuf:
      // sock_setsockopt: capped by wmem_max, doubled, locked; wakes writers.
      sndbuf_locked_ = true;
      sndbuf_ = std::max(std::min(val, config_.sysctl.wmem_max) * 2, kSockMinSndbuf);
      WriteSpace();
      return 0;
    case SockOpt::kTcpNotsentLowat:
      notsent_lowat_ = val;
      WriteSpace();
      return 0;
    case SockOpt::kTcpUserTimeout:
      // do_tcp_setsockopt (tcp_sock_set_user_timeout): ms, not negative;
      // read by the next timer (user_timeout.cc).
      if (ival < 0) return -kEinval;
      uto_.user_timeout_ms = val;
      return 0;
    case SockOpt::kSoTimestamping:
      SetTimestamping(val);
      return 0;
    case SockOpt::kTcpNodelay:
    case SockOpt::kTcpCork:
      break;
  }
  // TCP_NODELAY / TCP_CORK run under lock_sock and may transmit.
  LockSock();
  if (opt == SockOpt::kTcpNodelay) {
    if (val) {
      nonagle_ |= kTcpNagleOff | kTcpNaglePush;
      TcpPushPendingFrames(PushReason::kSetsockopt);
    } else {
      nonagle_ &= ~kTcpNagleOff;
    }
  } else {
    if (val) {
      nonagle_ |= kTcpNagleCork;
    } else {
      nonagle_ &= ~kTcpNagleCork;
      if (nonagle_ & kTcpNagleOff) nonagle_ |= kTcpNaglePush;
      TcpPushPendingFrames(PushReason::kSetsockopt);
    }
  }
  ScheduleRelease();
  return 0;
}

TcpInfo TcpSock::info() const {
  TcpInfo i;
  i.snd_cwnd = snd_cwnd_;
  i.snd_ssthresh = snd_ssthresh_;
  i.snd_mss = mss_cache_;
  i.advmss = config_.mtu - 40;
  i.rtt_us = srtt_us_ >> 3;
  i.unacked = packets_out_;
  i.notsent_bytes = static_cast<uint32_t>(write_seq_ - snd_nxt_);
  i.bytes_sent = snd_nxt_;
  i.bytes_acked = snd_una_;
  i.segs_out = segs_out_;
  i.data_segs_out = data_segs_out_;
  i.snd_wnd = snd_wnd_;
  i.sndbuf = sndbuf_;
  i.wmem_queued = wmem_queued_;
  i.rto_us = static_cast<uint32_t>(rto_jiffies_ * jiffy_us_);
  i.ca_state = static_cast<uint8_t>(ca_state_);
  i.retransmits = static_cast<uint8_t>(std::min<uint32_t>(retransmits_, 255));
  i.probes = static_cast<uint8_t>(std::min<uint32_t>(uto_.probes_out, 255));
  i.backoff = static_cast<uint8_t>(std::min<uint32_t>(backoff_, 255));
  i.lost = lost_out_;
  i.sacked = sacked_out_;
  i.reordering = reordering_;
  i.retrans = retrans_out_;
  i.total_retrans = total_retrans_;
  i.delivered = delivered_;
  i.delivered_ce = delivered_ce_;
  i.dsack_dups = dsack_dups_;
  i.reord_seen = reord_seen_;
  i.delivery_rate = DeliveryRate();
  i.delivery_rate_app_limited = rate_app_limited_;
  i.pacing_rate = pacing_rate_;
  i.notsent_lowat = NotsentLowat();
  ChronoStats(&i);
  // tcp_get_info's counters and times.
  i.rttvar_us = mdev_us_ >> 2;
  i.min_rtt_us = min_rtt_us_;
  i.bytes_retrans = bytes_retrans_;
  i.total_rto_known = !syn_retransmitted_;
  i.total_rto = total_rto_;
  i.total_rto_recoveries = total_rto_recoveries_;
  uint64_t rto_ms = total_rto_time_ms_;
  if (rto_stamp_ms_ >= 0) rto_ms += TcpTimeStamp() - rto_stamp_ms_;
  i.total_rto_time_ms = static_cast<uint32_t>(rto_ms);
  // jiffies_to_msecs of the time since.
  i.last_data_sent_ms = static_cast<uint32_t>((Jiffies() - lsndtime_) * jiffy_us_ / 1000);
  i.last_ack_recv_ms = static_cast<uint32_t>((Jiffies() - rcv_tstamp_) * jiffy_us_ / 1000);
  i.last_data_recv_ms = static_cast<uint32_t>((Jiffies() - created_jiffies_) * jiffy_us_ / 1000);
  i.pmtu = pmtu_cookie_;
  return i;
}

void TcpSock::NoteViolation(const char* what) {
  if (violation_ == nullptr) violation_ = what;
}

absl::Status TcpSock::CheckInvariants() const {
  if (violation_ != nullptr) return absl::InternalError(violation_);
  // A reset purged the queues; the sequence variables keep their last values.
  if (aborted_) return wmem_queued_ == 0 ? absl::OkStatus() : absl::InternalError("memory queued after a reset");
  if (!(snd_una_ <= snd_nxt_ && snd_nxt_ <= write_seq_))
    return absl::InternalError(absl::StrFormat("sequence order: una %d nxt %d write %d", snd_una_, snd_nxt_, write_seq_));
  uint64_t truesize = 0;
  uint64_t pcount = 0;
  uint64_t expect = snd_una_;
  for (size_t i = 0; i < rtx_queue_.size(); ++i) {
    const Skb& s = rtx_queue_[i];
    if (i == 0 ? !(s.seq <= snd_una_ && snd_una_ < s.end_seq) : s.seq != expect)
      return absl::InternalError(absl::StrFormat("rtx queue not contiguous at skb %d (seq %d)", i, s.seq));
    expect = s.end_seq;
    truesize += s.truesize;
    pcount += s.pcount;
  }
  if (expect != snd_nxt_) return absl::InternalError(absl::StrFormat("rtx queue ends at %d, snd_nxt %d", expect, snd_nxt_));
  for (const Skb& s : write_queue_) {
    if (s.seq != expect) return absl::InternalError(absl::StrFormat("write queue not contiguous at seq %d", s.seq));
    expect = s.end_seq;
    truesize += s.truesize;
  }
  if (expect != write_seq_) return absl::InternalError(absl::StrFormat("write queue ends at %d, write_seq %d", expect, write_seq_));
  if (pcount != packets_out_)
    return absl::InternalError(absl::StrFormat("packets_out %d != sum of pcounts %d", packets_out_, pcount));
  if (truesize != wmem_queued_)
    return absl::InternalError(absl::StrFormat("sk_wmem_queued %d != sum of truesizes %d", wmem_queued_, truesize));
  if (wmem_alloc_ < 1) return absl::InternalError("sk_wmem_alloc dropped below 1");
  // tcp_verify_left_out, and each counter against the skbs' tags.
  if (sacked_out_ + lost_out_ > packets_out_ || retrans_out_ > lost_out_)
    return absl::InternalError(absl::StrFormat("loss counters: sacked %d lost %d retrans %d packets %d", sacked_out_, lost_out_,
                                               retrans_out_, packets_out_));
  uint64_t sacked = 0, lost = 0, retrans = 0;
  for (const Skb& s : rtx_queue_) {
    if (s.sacked) sacked += s.pcount;
    if (s.lost) lost += s.pcount;
    if (s.retrans) retrans += s.pcount;
  }
  if ((config_.sack && sacked != sacked_out_) || lost != lost_out_ || retrans != retrans_out_)
    return absl::InternalError(absl::StrFormat("skb tags: sacked %d/%d lost %d/%d retrans %d/%d", sacked, sacked_out_, lost,
                                               lost_out_, retrans, retrans_out_));
  return absl::OkStatus();
}

// Linux reads these sysctls at the point of use (tcp_tso_autosize,
// tcp_tso_should_defer, tcp_update_pacing_rate, tcp_sndbuf_expand,
// tcp_notsent_lowat, tcp_should_autocork, tcp_slow_start_after_idle_check),
// so a change applies to an established socket from its next use. A lower
// notsent_lowat or a larger limit may also change writability: as the kernel
// does nothing at the moment of the sysctl write, neither does the model.
void TcpSock::UpdateSysctls(const TcpSysctls& sysctl, bool autocorking, bool slow_start_after_idle) {
  config_.sysctl = sysctl;
  config_.autocorking = autocorking;
  config_.slow_start_after_idle = slow_start_after_idle;
}

}  // namespace sendsim::model
