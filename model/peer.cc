#include "model/peer.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "model/constants.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kTcpHeaderBase = 20;
constexpr uint32_t kTcpNumSacks = 4;        // TCP_NUM_SACKS
constexpr uint32_t kMaxTcpOptionSpace = 40;  // MAX_TCP_OPTION_SPACE
constexpr uint32_t kTcpRemnant = kTcpFin | kTcpSyn | kTcpPsh;  // TCP_REMNANT (URG not modelled)

}  // namespace

Peer::Peer(EventLoop* loop, const ConnectionConfig& cfg, const Profile& profile, Link* reverse, Observer* obs,
           uint32_t initial_rcv_nxt)
    : loop_(loop),
      reverse_(reverse),
      obs_(obs),
      pcfg_(cfg.peer),
      backlog_coalesce_(profile.rcv_backlog_coalesce),
      backlog_ack_defer_(profile.rcv_backlog_ack_defer),
      drs_skips_queued_(profile.rcv_drs_skips_queued),
      drs_no_cushion_(profile.rcv_drs_no_cushion),
      app_read_wakeup_ns_(cfg.host.app_read_wakeup_ns),
      sack_(cfg.sack),
      timestamps_(cfg.timestamps) {
  // Ranges are ValidateConfig's job; the peer does not clamp.
  assert(cfg.hz > 0 && cfg.peer.wscale <= 14 && cfg.peer.ack_every_segs > 0);
  assert(cfg.peer.gro_flush_ns >= 0 && cfg.peer.ack_proc_ns >= 0);
  const int hz = cfg.hz;
  jiffy_ns_ = kNsPerSec / hz;
  ato_min_ = static_cast<uint32_t>(hz / kTcpAtoMinHzDivisor);
  delack_max_ = static_cast<uint32_t>(hz / kTcpDelackMaxHzDivisor);
  // The receiver has no RTT samples of its own data: icsk_rto stays at its
  // post-handshake value, modelled as TCP_RTO_MIN (deliberate simplification).
  rto_jiffies_ = delack_max_;
  // srtt from the handshake (tcp_synack_rtt_meas): one round trip, rounded up
  // to jiffies as usecs_to_jiffies does.
  const TimeNs rtt = 2 * cfg.one_way_delay_ns;
  srtt_jiffies_ = static_cast<uint32_t>((rtt + jiffy_ns_ - 1) / jiffy_ns_);
  srtt_ns_ = rtt;
  const uint32_t ts = timestamps_ ? kTcpTimestampOptionBytes : 0;
  advmss_ = cfg.mss + ts;  // advertised MSS excludes options
  tcp_header_len_ = kTcpHeaderBase + ts;

  wscale_ = pcfg_.wscale;
  // Receive memory is counted as payload with truesize = 2 * payload, so the
  // window available from a buffer is exactly tcp_win_from_space(rcvbuf)
  // minus the queued payload. Unless autotuning is on, the buffer is fixed
  // (a receiver with SO_RCVBUF set) -- deliberate simplification.
  SetRcvbuf(pcfg_.rcvbuf_autotune_initial != 0 ? std::min(pcfg_.rcvbuf_autotune_initial, pcfg_.rcvbuf) : pcfg_.rcvbuf);

  // tcp_select_initial_window: space rounded down to a multiple of the MSS
  // (advmss minus timestamps), capped at init_rcv_wnd * mss.
  const uint32_t mss = cfg.mss;
  uint32_t space = window_clamp_;
  if (space > mss) space = space / mss * mss;
  uint32_t wnd = space;
  uint32_t init_segs = pcfg_.init_rcv_wnd_segs;
  if (init_segs == 2 * kTcpInitCwnd && mss > 1460) {
    // The default (no route initrwnd) is tcp_default_init_rwnd: 20 segments
    // of up to 1460 bytes, i.e. fewer segments with jumbo frames, at least 2.
    init_segs = std::max<uint32_t>(1460 * init_segs / mss, 2);
  }
  if (init_segs > 0) wnd = static_cast<uint32_t>(std::min<uint64_t>(wnd, uint64_t{init_segs} * mss));
  if (wscale_ == 0) wnd = std::min<uint32_t>(wnd, 65535);
  rcv_wnd_ = wnd;
  rcv_ssthresh_ = wnd;
  initial_window_ = std::min<uint32_t>(wnd, 65535);  // SYN-ACK windows are never scaled
  rcv_wnd_ = initial_window_;

  // tcp_initialize_rcv_mss: min(advmss, mss_cache, rcv_wnd/2, TCP_MSS_DEFAULT), >= TCP_MIN_MSS.
  uint32_t hint = std::min(advmss_, cfg.mss);
  hint = std::min(hint, rcv_wnd_ / 2);
  hint = std::min(hint, kTcpMssDefaultRcv);
  rcv_mss_ = std::max(hint, kTcpMinRcvMss);

  rcv_nxt_ = initial_rcv_nxt;
  rcv_wup_ = rcv_nxt_;
  copied_seq_ = rcv_nxt_;
  now_ = loop_->now();
  // tcp_init_buffer_space: the first measurement expects the initial window,
  // at most TCP_INIT_CWND segments (a 6.18 receiver's tcp_rcvbuf_grow trace
  // shows 14480 = 10 x 1448). Only with rcv_rtt_from_window; the path-RTT
  // autotuning keeps the whole initial window (simplification).
  rcvq_space_ = std::max<uint64_t>(
      pcfg_.rcv_rtt_from_window ? std::min<uint64_t>(wnd, uint64_t{kTcpInitCwnd} * cfg.mss) : wnd, 1);
  rcvq_seq_ = copied_seq_;
  rcvq_time_ = now_;
}

void Peer::AttachLookahead(Link* data_link) {
  data_link->set_lookahead_sink(
      [](void* peer, TimeNs arrival, const Segment& seg) { static_cast<Peer*>(peer)->OnSegmentAt(arrival, seg); },
      this);
}

uint64_t Peer::Unwrap(uint32_t seq) const {
  const int32_t diff = static_cast<int32_t>(seq - static_cast<uint32_t>(rcv_nxt_));
  return static_cast<uint64_t>(static_cast<int64_t>(rcv_nxt_) + diff);
}

// ---------------------------------------------------------------------------
// Clock and deadlines

void Peer::RunDeadlines(TimeNs t) {
  for (;;) {
    const TimeNs d = NextDeadline();
    if (d < 0 || d > t) return;
    now_ = std::max(now_, d);
    // Ties: data first (GRO flush), then the delayed-ACK timer, the SACK
    // compression timer, then the reader.
    if (gro_open_ && gro_last_ + pcfg_.gro_flush_ns == d) {
      GroFlush();
    } else if ((pending_ & kAckTimer) && JiffyTime(delack_timeout_) == d) {
      DelackTimer();
    } else if (sack_timer_armed_ && sack_timer_at_ == d) {
      CompressedAckTimer();
    } else if (reading_ && read_done_ == d) {
      // tcp_recvmsg: the copy ends with tcp_cleanup_rbuf, then release_sock
      // runs what arrived meanwhile.
      reading_ = false;
      AppRead(read_chunk_);
      ReleaseSock();
      StartReadChunk(/*awake=*/true);
    } else {
      waking_ = false;
      StartReadChunk(/*awake=*/true);
    }
  }
}

void Peer::ArmWakeup() {
  const TimeNs d = NextDeadline();
  if (d < 0) return;
  if (armed_at_ >= 0 && armed_at_ <= d) return;
  armed_at_ = d;
  loop_->ScheduleAt(d, [this] { Wakeup(); });
}

void Peer::Wakeup() {
  const TimeNs t = loop_->now();
  if (armed_at_ >= 0 && t >= armed_at_) armed_at_ = -1;
  // In lookahead mode now_ may already be past t; every deadline <= t was
  // then processed before the later input (see OnSegmentAt).
  RunDeadlines(t);
  ArmWakeup();
}

// ---------------------------------------------------------------------------
// Input

void Peer::OnSegmentAt(TimeNs arrival, const Segment& seg) {
  RunDeadlines(arrival);
  now_ = std::max(now_, arrival);
  ++stats_.segments;

  if (pcfg_.gro != GroMode::kBatch || seg.len == 0) {
    if (gro_open_) GroFlush();
    RxSkb skb;
    skb.seq = Unwrap(seg.seq);
    skb.len = seg.len;
    skb.flags = seg.flags;
    if (backlog_coalesce_ && reading_) {
      skb.payload = seg.payload;
      TcpV4Rcv(std::move(skb), 1);
    } else {
      ProcessSkb(skb, seg.payload);
    }
    ArmWakeup();
    return;
  }

  // tcp_gro_receive: a segment joins the held aggregate if it is contiguous,
  // not larger than the aggregate's gso_size and keeps it below 64 KB (IP and
  // TCP headers of the first segment included); arrival within gro_flush_ns
  // of the previous segment stands for "same NAPI poll".
  const uint64_t seq = Unwrap(seg.seq);
  const uint32_t hdr = tcp_header_len_ + 20;
  const bool can_merge = gro_open_ && seq == gro_.seq + gro_.len && seg.len <= gro_.gso_size &&
                         hdr + gro_.len + seg.len < kGroMaxBytes;
  if (gro_open_ && !can_merge) GroFlush();
  if (can_merge) {
    gro_.len += seg.len;
    gro_.flags |= static_cast<uint8_t>(seg.flags & (kTcpPsh | kTcpFin));
    gro_.payload.insert(gro_.payload.end(), seg.payload.begin(), seg.payload.end());
    ++gro_segs_;
  } else {
    gro_open_ = true;
    gro_.seq = seq;
    gro_.len = seg.len;
    gro_.gso_size = seg.len;
    gro_.flags = seg.flags;
    gro_.payload = seg.payload;
    gro_segs_ = 1;
  }
  gro_last_ = arrival;
  // A segment shorter than gso_size, or one with PSH/FIN/SYN/RST, is merged
  // and then flushes the aggregate (out_check_final).
  if (seg.len < gro_.gso_size || (seg.flags & (kTcpPsh | kTcpFin | kTcpSyn | kTcpRst))) GroFlush();
  ArmWakeup();
}

void Peer::GroFlush() {
  if (!gro_open_) return;
  gro_open_ = false;
  if (gro_segs_ == 1) gro_.gso_size = 0;  // a lone segment is not a GSO skb
  RxSkb skb = std::move(gro_);
  gro_ = RxSkb{};
  TcpV4Rcv(std::move(skb), gro_segs_);
}

void Peer::TcpV4Rcv(RxSkb skb, uint32_t frags) {
  if (backlog_coalesce_ && reading_) {
    AddBacklog(std::move(skb), frags);
    return;
  }
  ProcessSkb(skb, skb.payload);
}

// tcp_add_backlog (v5.0+): a data skb that directly continues the backlog's
// tail, with the same flags apart from PSH (ORed in) and no SYN/RST/FIN,
// joins it while the frags fit (skb_try_coalesce); the merged skb keeps the
// largest gso_size. Simplified: no backlog byte limit (the model's reader
// always releases the socket within one read chunk).
void Peer::AddBacklog(RxSkb skb, uint32_t frags) {
  ++stats_.backlogged;
  if (!backlog_.empty() && skb.len > 0) {
    auto& [tail, tail_frags] = backlog_.back();
    constexpr uint8_t kNoCoalesce = kTcpSyn | kTcpRst | kTcpFin;  // (the model sends no URG)
    if (tail.len > 0 && tail.seq + tail.len == skb.seq &&
        ((tail.flags | skb.flags) & kNoCoalesce) == 0 &&
        ((tail.flags ^ skb.flags) & ~kTcpPsh) == 0 && tail_frags + frags <= static_cast<uint32_t>(kMaxSkbFrags)) {
      const uint32_t tail_gso = tail.gso_size != 0 ? tail.gso_size : tail.len;
      const uint32_t skb_gso = skb.gso_size != 0 ? skb.gso_size : skb.len;
      tail.gso_size = std::max(tail_gso, skb_gso);
      tail.len += skb.len;
      tail.flags |= skb.flags;
      tail.payload.insert(tail.payload.end(), skb.payload.begin(), skb.payload.end());
      tail_frags += frags;
      ++stats_.coalesced;
      return;
    }
  }
  backlog_.emplace_back(std::move(skb), frags);
}

void Peer::ReleaseSock() {
  std::vector<std::pair<RxSkb, uint32_t>> batch;
  batch.swap(backlog_);
  in_release_ = true;
  for (const auto& [skb, frags] : batch) ProcessSkb(skb, skb.payload);
  in_release_ = false;
  if (ack_deferred_) {
    // tcp_release_cb, still the reader's release_sock.
    ack_deferred_ = false;
    in_read_ = true;
    if (pending_ & kAckSched) SendAck();
    in_read_ = false;
  }
}

void Peer::ProcessSkb(const RxSkb& skb, const std::vector<PayloadPiece>& payload) {
  ++stats_.batches;
  const uint64_t end = skb.seq + skb.len;
  if (skb.len == 0) {
    // A zero-length segment below rcv_nxt (zero-window probe) gets a dup ACK
    // (tcp_sequence failure -> tcp_send_dupack); a pure ACK needs nothing.
    if (skb.seq < rcv_nxt_) SendAck();
    return;
  }
  if (end <= rcv_nxt_) {
    // tcp_data_queue: a retransmit below rcv_nxt forces an immediate ACK via
    // quick-ACK mode (tcp_enter_quickack_mode). D-SACK not modelled.
    ++stats_.dup_segments;
    IncrQuickack(static_cast<uint32_t>(kTcpMaxQuickacks));
    ato_ = ato_min_;
    pending_ |= kAckSched;
    AckSndCheck();
    return;
  }
  if (skb.seq <= rcv_nxt_) {
    // In sequence (possibly with an already received head): queue_and_out.
    Deliver(rcv_nxt_, static_cast<uint32_t>(end - rcv_nxt_), payload, skb.seq);
    EventDataRecv(skb);
    if (!ofo_.empty()) {
      OfoQueue();
      // RFC 5681 4.2: ACK at once when the gap is filled.
      if (ofo_.empty()) pending_ |= kAckNow;
    }
  } else {
    // tcp_data_queue_ofo.
    ++stats_.ofo_segments;
    pending_ |= kAckSched;
    auto it = ofo_.find(skb.seq);
    if (it == ofo_.end() || it->second.len < skb.len) {
      if (it != ofo_.end()) {
        ofo_bytes_ -= it->second.len;
        ofo_.erase(it);
      }
      RxSkb& stored = ofo_.emplace(skb.seq, skb).first->second;
      stored.payload = payload;
      ofo_bytes_ += skb.len;
    }
    if (sack_) {
      // tcp_sack_new_ofo_skb: extend/merge a block (moved to the front) or
      // add a new block at the front, dropping the oldest beyond 4.
      uint64_t s = skb.seq, e = end;
      std::vector<std::pair<uint64_t, uint64_t>> rest;
      for (const auto& b : sack_blocks_) {
        if (s <= b.second && e >= b.first) {
          s = std::min(s, b.first);
          e = std::max(e, b.second);
        } else {
          rest.push_back(b);
        }
      }
      sack_blocks_.clear();
      sack_blocks_.push_back({s, e});
      for (const auto& b : rest) {
        if (sack_blocks_.size() >= kTcpNumSacks) break;
        sack_blocks_.push_back(b);
      }
    }
    if (skb.len >= 128) GrowWindow(skb);
  }
  AckSndCheck();
  if (pcfg_.app_read_bytes_per_sec == 0) {
    if (unread_ > 0) AppRead(unread_);
  } else {
    StartReadChunk(/*awake=*/false);
  }
}

void Peer::Deliver(uint64_t seq, uint32_t len, const std::vector<PayloadPiece>& payload, uint64_t payload_seq) {
  if (obs_ != nullptr) {
    if (payload.empty()) {
      obs_->OnDeliver(now_, static_cast<uint32_t>(seq), nullptr, len);
    } else {
      uint64_t pos = payload_seq;
      uint32_t left = len;
      for (const PayloadPiece& p : payload) {
        if (left == 0) break;
        const uint64_t pend = pos + p.len;
        if (pend > seq) {
          const uint32_t skip = pos < seq ? static_cast<uint32_t>(seq - pos) : 0;
          const uint32_t take = std::min(p.len - skip, left);
          const uint64_t at = pos + skip;
          obs_->OnDeliver(now_, static_cast<uint32_t>(at), p.data == nullptr ? nullptr : p.data + skip, take);
          left -= take;
        }
        pos = pend;
      }
    }
  }
  rcv_nxt_ = seq + len;
  unread_ += len;
  // tcp_sack_remove: blocks now covered by rcv_nxt go away.
  if (!sack_blocks_.empty()) {
    sack_blocks_.erase(std::remove_if(sack_blocks_.begin(), sack_blocks_.end(),
                                      [this](const auto& b) { return b.first <= rcv_nxt_; }),
                       sack_blocks_.end());
  }
}

void Peer::OfoQueue() {
  while (!ofo_.empty() && ofo_.begin()->first <= rcv_nxt_) {
    auto node = ofo_.extract(ofo_.begin());
    const RxSkb& s = node.mapped();
    ofo_bytes_ -= s.len;
    const uint64_t end = s.seq + s.len;
    if (end > rcv_nxt_) Deliver(rcv_nxt_, static_cast<uint32_t>(end - rcv_nxt_), s.payload, s.seq);
  }
}

// ---------------------------------------------------------------------------
// Delayed-ACK engine

void Peer::EventDataRecv(const RxSkb& skb) {
  pending_ |= kAckSched;  // inet_csk_schedule_ack
  MeasureRcvMss(skb);
  const uint64_t now_j = Jiffies(now_);
  if (ato_ == 0) {
    // First data segment: start in quick-ACK mode.
    IncrQuickack(static_cast<uint32_t>(kTcpMaxQuickacks));
    ato_ = ato_min_;
  } else {
    const uint64_t m = now_j - lrcvtime_;
    if (m <= ato_min_ / 2) {
      ato_ = (ato_ >> 1) + ato_min_ / 2;
    } else if (m < ato_) {
      ato_ = (ato_ >> 1) + static_cast<uint32_t>(m);
      if (ato_ > rto_jiffies_) ato_ = rto_jiffies_;
    } else if (m > rto_jiffies_) {
      IncrQuickack(static_cast<uint32_t>(kTcpMaxQuickacks));
    }
  }
  lrcvtime_ = now_j;
  if (skb.len >= 128) GrowWindow(skb);
  if (pcfg_.rcv_rtt_from_window) RcvRttMeasure();
}

// tcp_rcv_rtt_measure: the time from one measurement to rcv_nxt passing the
// right edge offered then (one window of data); only smaller samples are
// taken (win_dep: a window-based sample overestimates when the sender is
// not window-limited).
void Peer::RcvRttMeasure() {
  if (rcv_rtt_time_ >= 0) {
    if (rcv_nxt_ < rcv_rtt_seq_) return;
    const TimeNs sample = now_ - rcv_rtt_time_;
    if (rcv_rtt_ns_ == 0 || sample < rcv_rtt_ns_) rcv_rtt_ns_ = std::max<TimeNs>(sample, 1);
  }
  rcv_rtt_seq_ = rcv_nxt_ + rcv_wnd_;
  rcv_rtt_time_ = now_;
}

void Peer::MeasureRcvMss(const RxSkb& skb) {
  const uint32_t lss = last_seg_size_;
  last_seg_size_ = 0;
  uint32_t len = skb.gso_size != 0 ? skb.gso_size : skb.len;
  if (len >= rcv_mss_) {
    rcv_mss_ = std::min(len, advmss_);
    return;
  }
  // Sub-rcv_mss segment: two equal-sized ones in a row that are not PSH
  // remnants (or are large) become the new rcv_mss; otherwise it counts as a
  // pushed short segment.
  len += tcp_header_len_;
  if (len >= kTcpMssDefaultRcv + kTcpHeaderBase ||
      (len >= kTcpMinRcvMss + kTcpHeaderBase && !(skb.flags & kTcpRemnant))) {
    len -= tcp_header_len_;
    last_seg_size_ = len;
    if (len == lss) {
      rcv_mss_ = len;
      return;
    }
  }
  if (pending_ & kAckPushed) pending_ |= kAckPushed2;
  pending_ |= kAckPushed;
}

void Peer::IncrQuickack(uint32_t max_quickacks) {
  uint32_t q = rcv_wnd_ / (2 * rcv_mss_);
  if (q == 0) q = 2;
  q = std::min(q, max_quickacks);
  if (q > quick_) quick_ = q;
}

void Peer::GrowWindow(const RxSkb& skb) {
  // tcp_grow_window. With truesize = 2 * payload, check #2 always passes
  // (tcp_win_from_space(truesize) <= len), so incr = 2 * advmss.
  if (rcv_ssthresh_ < window_clamp_ && rcv_ssthresh_ < FreeSpace()) {
    const uint32_t incr = std::max(2 * advmss_, 2 * skb.len);
    rcv_ssthresh_ = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{rcv_ssthresh_} + incr, window_clamp_));
    quick_ |= 1;  // get the larger window to the sender soon
  }
}

bool Peer::AckThresholdReached() const {
  const uint32_t n = pcfg_.ack_every_segs;
  return rcv_nxt_ - rcv_wup_ > uint64_t{n - 1} * rcv_mss_;
}

void Peer::AckSndCheck() {
  if (!(pending_ & kAckSched)) return;  // tcp_ack_snd_check
  // __tcp_ack_snd_check. The peer never sends data, so it is never in
  // ping-pong mode; SO_RCVLOWAT is 1.
  const bool full_frames = AckThresholdReached() && (rcv_nxt_ - copied_seq_ < 1 || SelectWindowRaw() >= rcv_wnd_);
  if (!pcfg_.delayed_ack || full_frames || quick_ > 0 || (pending_ & kAckNow)) {
    if (in_release_ && backlog_ack_defer_) {
      ack_deferred_ = true;  // sent by ReleaseSock (tcp_release_cb)
      return;
    }
    if (quick_ > 0 && !full_frames) ++stats_.quick_acks;
    SendAck();
    return;
  }
  if (ofo_.empty()) {
    SendDelayedAck();
    return;
  }
  // Out-of-order data present: SACK compression (tcp_sack_compress, with the
  // "defer after DupThresh" fix of v4.20/4.19-stable): the first three dup
  // ACKs for one rcv_nxt leave at once, later ones are held up to 5% of the
  // RTT (at most 1 ms) or until 44 are pending.
  if (!sack_ || compressed_ack_ >= kTcpCompSackNr) {
    SendAck();
    return;
  }
  if (compressed_ack_rcv_nxt_ != rcv_nxt_) {
    compressed_ack_rcv_nxt_ = rcv_nxt_;
    compressed_ack_ = 0;
  }
  if (++compressed_ack_ <= kTcpFastretransThresh) {
    SendAck();
    return;
  }
  if (sack_timer_armed_) return;
  sack_timer_armed_ = true;
  sack_timer_at_ = now_ + std::min<TimeNs>(kTcpCompSackDelayNs, srtt_ns_ / 20);
}

void Peer::CompressedAckTimer() {
  // tcp_compressed_ack_kick.
  sack_timer_armed_ = false;
  if (compressed_ack_ > 0) {
    --compressed_ack_;
    SendAck();
  }
}

void Peer::SendDelayedAck() {
  uint32_t ato = ato_;
  if (ato > ato_min_) {
    uint32_t max_ato = static_cast<uint32_t>(kNsPerSec / 2 / jiffy_ns_);  // HZ/2
    if (pending_ & kAckPushed) max_ato = delack_max_;
    const uint32_t rtt = std::max(srtt_jiffies_, ato_min_);
    if (rtt < max_ato) max_ato = rtt;
    ato = std::min(ato, max_ato);
  }
  const uint64_t now_j = Jiffies(now_);
  uint64_t timeout = now_j + ato;
  if (pending_ & kAckTimer) {
    // An older timer that is due within ato/4 means: ACK now.
    if (delack_timeout_ <= now_j + (ato >> 2)) {
      SendAck();
      return;
    }
    if (timeout >= delack_timeout_) timeout = delack_timeout_;
  }
  pending_ |= kAckSched | kAckTimer;
  delack_timeout_ = timeout;
}

void Peer::DelackTimer() {
  pending_ &= static_cast<uint8_t>(~kAckTimer);
  if (pending_ & kAckSched) {
    // Delayed ACK missed: inflate ATO (not in ping-pong mode).
    ato_ = std::min(ato_ << 1, rto_jiffies_);
    ++stats_.delayed_acks;
    SendAck();
  }
}

void Peer::SendAck() {
  // Every field is set here: a fresh Segment would cost a 96-byte memset per
  // ACK. Never re-entered: the reverse link delivers ACKs by events.
  Segment& ack = ack_;
  ack.sent_at = 0;
  ack.seq = 0;
  ack.len = 0;
  ack.flags = kTcpAck;
  ack.tag = 0;
  ack.retransmit = false;
  ack.from_reader = in_read_ || in_release_;
  ack.payload.clear();
  ack.sack.clear();
  ack.ack = static_cast<uint32_t>(rcv_nxt_);
  ack.win = SelectWindow();
  ack.reason = PushReason::kControl;
  if (sack_ && !sack_blocks_.empty()) {
    const uint32_t room = (kMaxTcpOptionSpace - (timestamps_ ? kTcpTimestampOptionBytes : 0) - kTcpSackBaseBytes) /
                          kTcpSackPerBlockBytes;
    const size_t n = std::min<size_t>(room, sack_blocks_.size());
    for (size_t i = 0; i < n; ++i) {
      ack.sack.emplace_back(static_cast<uint32_t>(sack_blocks_[i].first), static_cast<uint32_t>(sack_blocks_[i].second));
    }
  }
  // tcp_event_ack_sent: one ACK skb (pcount 1) leaves quick-ACK mode by one;
  // the delayed-ACK state is cleared.
  if (quick_ > 0) {
    if (quick_ <= 1) {
      quick_ = 0;
      ato_ = ato_min_;
    } else {
      --quick_;
    }
  }
  pending_ = 0;
  if (compressed_ack_ > kTcpFastretransThresh) {
    compressed_ack_ = kTcpFastretransThresh;
    sack_timer_armed_ = false;  // hrtimer cancelled
  }
  ++stats_.acks;
  reverse_->SendAt(now_ + pcfg_.ack_proc_ns, std::move(ack));
}

}  // namespace sendsim::model
