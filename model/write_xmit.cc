#include "model/write_xmit.h"

#include <algorithm>
#include <utility>

#include "model/tcp_sock.h"
#include "model/timers.h"

namespace sendsim::model {

uint32_t TsoAutosizeRule(uint64_t pacing_rate, uint32_t mss_now, bool rtt_term, uint32_t min_rtt_us, int tso_rtt_log,
                         uint32_t min_tso_segs) {
  uint64_t bytes = pacing_rate >> kSkPacingShift;
  if (rtt_term) {
    const uint32_t r = min_rtt_us >> tso_rtt_log;
    if (r < 32) bytes += static_cast<uint64_t>(kGsoMaxSize) >> r;
    bytes = std::min<uint64_t>(bytes, kGsoMaxSize);
  } else {
    bytes = std::min<uint64_t>(bytes, kGsoMaxSize - 1 - kMaxTcpHeader);
  }
  const uint64_t segs = std::max<uint64_t>(bytes / mss_now, min_tso_segs);
  return static_cast<uint32_t>(std::min<uint64_t>(segs, kGsoMaxSegs));
}

uint32_t TcpSock::TsoSegs(uint32_t mss_now) const {
  return TsoAutosizeRule(pacing_rate_, mss_now, profile_.autosize_rtt_term, min_rtt_us_, profile_.tso_rtt_log,
                         config_.sysctl.min_tso_segs);
}

// tcp_init_tso_segs.
uint32_t TcpSock::InitTsoSegs(Skb& skb, uint32_t mss_now) {
  if (skb.pcount == 0 || (skb.pcount > 1 && skb.gso_size != mss_now)) {
    skb.pcount = TsoSegsForLen(skb.len(), mss_now);
    skb.gso_size = skb.pcount > 1 ? mss_now : 0;
  }
  return skb.pcount;
}

uint32_t TcpSock::CwndTest(const Skb& skb) const {
  // The final FIN goes past a full cwnd (Profile::fin_cwnd_exempt).
  if (profile_.fin_cwnd_exempt && (skb.tcp_flags & kTcpFin) && skb.pcount == 1) return 1;
  return CwndQuotaRule(PacketsInFlight(), snd_cwnd_);
}

// tcp_snd_wnd_test: only the first segment has to fit.
bool TcpSock::SndWndTest(const Skb& skb, uint32_t mss_now) const {
  const uint64_t end = skb.len() > mss_now ? skb.seq + mss_now : skb.end_seq;
  return end <= snd_una_ + snd_wnd_;
}

bool TcpSock::MinshallCheck() const { return snd_una_ < snd_sml_ && snd_sml_ <= snd_nxt_; }

bool TcpSock::NagleCheck(bool partial, int nonagle) const {
  return NagleCheckRule(partial, nonagle, packets_out_, MinshallCheck());
}

// tcp_nagle_test.
bool TcpSock::NagleTest(const Skb& skb, uint32_t mss_now, int nonagle) const {
  if (nonagle & kTcpNaglePush) return true;
  if (skb.tcp_flags & kTcpFin) return true;
  return !NagleCheck(skb.len() < mss_now, nonagle);
}

// tcp_tso_should_defer (v4.19; v4.20+ ending and EDT "recent" test by profile).
bool TcpSock::TsoShouldDefer(const Skb& skb, uint32_t max_segs, bool* is_cwnd_limited, bool* is_rwnd_limited) {
  const bool v420 = profile_.tso_defer_v420_ending;
  if (!v420 && (skb.tcp_flags & kTcpFin)) return false;
  if (ca_state_ >= CaState::kRecovery) return false;
  // Defer only if the last transmission was recent.
  if (profile_.tso_defer_recent_is_1ms) {
    if (loop_->now() - last_xmit_ns_ > kNsPerMs) return false;
  } else if (static_cast<int32_t>(Jiffies() - lsndtime_) > 0) {
    return false;
  }
  const uint32_t in_flight = PacketsInFlight();
  const uint64_t send_win = snd_una_ + snd_wnd_ - skb.seq;
  const uint64_t cong_win = static_cast<uint64_t>(snd_cwnd_ - in_flight) * mss_cache_;
  const uint64_t limit = std::min(send_win, cong_win);
  if (limit >= static_cast<uint64_t>(max_segs) * mss_cache_) return false;
  if (&skb != &write_queue_.back() && limit >= skb.len()) return false;
  if (config_.sysctl.tso_win_divisor != 0) {
    const uint64_t chunk =
        std::min<uint64_t>(snd_wnd_, static_cast<uint64_t>(snd_cwnd_) * mss_cache_) / config_.sysctl.tso_win_divisor;
    if (limit >= chunk) return false;
  } else if (limit > 3ULL * mss_cache_) {
    return false;  // tcp_max_tso_deferred_mss: at most 3 MSS wait for more
  }
  if (rtx_queue_.empty()) return false;
  // The next ACK is not expected soon: sending now is better than waiting.
  if (!TsoDeferAckDueSoonRule(loop_->now(), rtx_queue_.front().sent_ns, srtt_us_,
                              profile_.tso_defer_ack_due_capped_1ms)) {
    return false;
  }
  if (v420) {
    if (cong_win < send_win) {
      if (cong_win <= skb.len()) {
        *is_cwnd_limited = true;
        return true;
      }
    } else if (send_win <= skb.len()) {
      *is_rwnd_limited = true;
      return true;
    }
    if ((skb.tcp_flags & kTcpFin) || (profile_.tso_defer_eor_sends && skb.eor)) return false;
    return true;
  }
  if (cong_win < send_win && cong_win <= skb.len()) *is_cwnd_limited = true;
  return true;
}

// tcp_mss_split_point.
uint32_t TcpSock::MssSplitPoint(const Skb& skb, uint32_t mss_now, uint32_t max_segs, int nonagle) const {
  const uint64_t window = snd_una_ + snd_wnd_ - skb.seq;
  const uint64_t max_len = static_cast<uint64_t>(mss_now) * max_segs;
  if (max_len <= window && &skb != &write_queue_.back()) return static_cast<uint32_t>(max_len);
  const uint64_t needed = std::min<uint64_t>(skb.len(), window);
  if (max_len <= needed) return static_cast<uint32_t>(max_len);
  const uint64_t partial = needed % mss_now;
  // The nonagle argument applies even to the tail skb.
  if (NagleCheck(partial != 0, nonagle)) return static_cast<uint32_t>(needed - partial);
  return static_cast<uint32_t>(needed);
}

namespace {

// tcp_fragment's frag split: `skb` keeps the frags below `len`, `buff` gets
// the rest (a frag straddling `len` is in both), and `nsize` linear bytes.
void SplitFrags(Skb& skb, Skb& buff, uint32_t len, uint32_t nsize) {
  buff.linear_len = nsize;
  const uint32_t old_linear = skb.linear_len;
  skb.linear_len = std::min(skb.linear_len, len);
  skb.linear_room = 0;
  uint8_t keep = 0;
  uint32_t start = old_linear;
  for (uint8_t i = 0; i < skb.nr_frags; ++i) {
    const uint32_t end = skb.frag_end[i];
    if (end <= len) {
      keep = i + 1;
    } else if (start >= len) {
      buff.frag_end[buff.nr_frags++] = end - len;
    } else {
      keep = i + 1;  // split frag: the head's part ends at len
      buff.frag_end[buff.nr_frags++] = end - len;
    }
    start = end;
  }
  if (keep > 0) skb.frag_end[keep - 1] = std::min(skb.frag_end[keep - 1], len);
  skb.nr_frags = keep;
  buff.last_frag_page = skb.last_frag_page;
  buff.last_frag_end = skb.last_frag_end;
  skb.last_frag_page = 0;
  skb.last_frag_end = 0;
}

// The payload pieces (ConnectionConfig::track_payload) follow the same cut.
void SplitPayload(Skb& skb, Skb& buff, uint32_t len) {
  if (skb.payload.empty()) return;
  uint32_t off = 0;
  size_t i = 0;
  for (; i < skb.payload.size(); ++i) {
    PayloadPiece& p = skb.payload[i];
    if (off + p.len > len) {
      const uint32_t head = len - off;
      buff.payload.push_back(PayloadPiece{p.data == nullptr ? nullptr : p.data + head, p.len - head});
      p.len = head;
      ++i;
      break;
    }
    off += p.len;
    if (off == len) {
      ++i;
      break;
    }
  }
  for (size_t j = i; j < skb.payload.size(); ++j) buff.payload.push_back(skb.payload[j]);
  size_t new_size = i;
  while (new_size > 0 && skb.payload[new_size - 1].len == 0) --new_size;
  skb.payload.resize(new_size);
}

}  // namespace

// tso_fragment / tcp_fragment: q[idx] keeps [seq, seq+len); a new skb with the
// rest, PSH/FIN/eor and T0 of its own, follows it in the same queue.
// Simplification: a split linear head gets T0 like a frag-only skb.
void TcpSock::SplitSkb(std::deque<Skb>& q, size_t idx, uint32_t len, uint32_t mss_now) {
  Skb& skb = q[idx];
  Skb buff;
  const uint32_t total = skb.len();
  const uint32_t nlen = total - len;
  const uint32_t old_pcount = skb.pcount;
  buff.seq = skb.seq + len;
  buff.end_seq = skb.end_seq;
  const uint32_t nsize = skb.linear_len > len ? skb.linear_len - len : 0;  // linear bytes moving
  const uint32_t nlen_frags = nlen - nsize;
  buff.truesize = profile_.skb_head_truesize + nlen_frags;
  skb.truesize -= nlen_frags;
  wmem_queued_ += profile_.skb_head_truesize;
  buff.tcp_flags = skb.tcp_flags;
  skb.tcp_flags &= ~(kTcpFin | kTcpPsh);
  buff.eor = skb.eor;
  skb.eor = false;
  buff.sacked = skb.sacked;
  buff.lost = skb.lost;
  buff.retrans = skb.retrans;
  buff.ever_retrans = skb.ever_retrans;
  buff.tag = skb.tag;
  buff.zc_uarg = skb.zc_uarg;  // skb_split -> skb_zerocopy_clone: both halves reference it
  buff.sent_ns = skb.sent_ns;
  FragmentTstamp(skb, buff);
  SplitFrags(skb, buff, len, nsize);
  SplitPayload(skb, buff, len);
  skb.end_seq = skb.seq + len;
  skb.pcount = TsoSegsForLen(len, mss_now);
  skb.gso_size = skb.pcount > 1 ? mss_now : 0;
  buff.pcount = TsoSegsForLen(nlen, mss_now);
  buff.gso_size = buff.pcount > 1 ? mss_now : 0;
  // tcp_adjust_pcount for skbs already counted in packets_out.
  if (&q == &rtx_queue_ && old_pcount != 0) {
    const int32_t diff = static_cast<int32_t>(old_pcount) - static_cast<int32_t>(skb.pcount + buff.pcount);
    packets_out_ -= diff;
    if (skb.sacked) sacked_out_ -= diff;
    if (skb.lost) lost_out_ -= diff;
    if (skb.retrans) retrans_out_ -= diff;
  }
  if (idx == 0) {
    // Keep references to the other elements valid (deque push_front).
    Skb head = std::move(q.front());
    q.pop_front();
    q.push_front(std::move(buff));
    q.push_front(std::move(head));
  } else {
    q.insert(q.begin() + static_cast<std::ptrdiff_t>(idx) + 1, std::move(buff));
  }
}

// tcp_grow_skb (v6.10+): before the send head is tested, up to `amount`
// bytes of the next unsent skb move into it (skb_shift: frags only, all or
// nothing), so that skbs built one MSS at a time (a small size goal) leave
// as one TSO skb of the cwnd quota; a drained next skb is freed with its
// flags and eor passing to the head (tcp_eat_one_skb). Simplification: the
// next skb's first frag is never coalesced with the head's last one, so the
// MAX_SKB_FRAGS test counts it as a new frag.
void TcpSock::GrowSkb(uint32_t amount) {
  if (write_queue_.size() < 2) return;  // tcp_skb_is_last
  Skb& skb = write_queue_[0];
  Skb& next = write_queue_[1];
  if (skb.eor || next.linear_len > 0) return;  // tcp_skb_can_collapse, skb_headlen
  if (skb.zc_uarg != 0 || next.zc_uarg != 0) return;  // skb_shift refuses zerocopy skbs
  const uint32_t nlen = std::min(amount, next.len());
  if (nlen == 0) return;
  uint8_t moved = 0;
  for (uint32_t start = 0; moved < next.nr_frags && start < nlen; start = next.frag_end[moved++]) {
  }
  if (moved == 0 || skb.nr_frags + moved > kMaxSkbFrags) return;
  const uint32_t base = skb.len();
  for (uint8_t i = 0; i < moved; ++i) skb.frag_end[skb.nr_frags++] = base + std::min(next.frag_end[i], nlen);
  const uint8_t keep_from = next.frag_end[moved - 1] <= nlen ? moved : moved - 1;
  uint8_t n = 0;
  for (uint8_t i = keep_from; i < next.nr_frags; ++i) next.frag_end[n++] = next.frag_end[i] - nlen;
  next.nr_frags = n;
  if (!next.payload.empty()) {
    uint32_t left = nlen;
    size_t i = 0;
    for (; i < next.payload.size() && left > 0; ++i) {
      PayloadPiece& p = next.payload[i];
      const uint32_t take = std::min(left, p.len);
      skb.payload.push_back(PayloadPiece{p.data, take});
      left -= take;
      if (take < p.len) {
        p = PayloadPiece{p.data == nullptr ? nullptr : p.data + take, p.len - take};
        break;
      }
    }
    next.payload.erase(next.payload.begin(), next.payload.begin() + static_cast<std::ptrdiff_t>(i));
  }
  skb.end_seq += nlen;
  next.seq += nlen;
  skb.truesize += nlen;  // skb_len_add moves truesize with the bytes
  next.truesize -= nlen;
  skb.pcount = 0;  // tcp_set_skb_tso_segs recounts it
  if (next.len() > 0) return;
  skb.end_seq = next.end_seq;  // a FIN's sequence number
  skb.tcp_flags |= next.tcp_flags;
  skb.eor = next.eor;
  CollapseTstamp(skb, next);
  skb.last_frag_page = next.last_frag_page;
  skb.last_frag_end = next.last_frag_end;
  wmem_queued_ -= next.truesize;
  // Keep references to the later skbs valid (no erase inside a deque).
  Skb head = std::move(write_queue_.front());
  write_queue_.pop_front();
  write_queue_.pop_front();
  write_queue_.push_front(std::move(head));
}

// tcp_small_queue_check (factor 0, new data).
bool TcpSock::SmallQueueCheck(const Skb& skb) {
  uint64_t limit = std::max<uint64_t>(2ULL * skb.truesize, pacing_rate_ >> kSkPacingShift);
  limit = std::min<uint64_t>(limit, profile_.tsq_limit_output_bytes);
  if (wmem_alloc_ > limit) {
    // Always send when the rtx queue is empty (v6.x: or holds a single skb):
    // no TX completion would call us back.
    if (rtx_queue_.empty() || (profile_.tsq_exempt_single_skb && rtx_queue_.size() == 1)) return false;
    tsq_.throttled = true;
    if (wmem_alloc_ > limit) return true;
  }
  return false;
}

// tcp_transmit_skb of a clone: charged to sk_wmem_alloc until tcp_wfree.
void TcpSock::TransmitSkb(Skb& skb, PushReason reason, bool retransmit) {
  DstCheck();  // ip_queue_xmit
  const TimeNs now = loop_->now();
  if (!retransmit) {
    if (skb.end_seq > snd_una_ + snd_wnd_ && reason != PushReason::kProbe0) NoteViolation("new data sent beyond the peer's window");
  }
  if (skb.len() > mss_cache_ && skb.gso_size != mss_cache_ && !skb.mtu_probe)
    NoteViolation("skb larger than MSS without gso_size == mss");
  if (retransmit) {  // __tcp_retransmit_skb
    total_retrans_ += skb.pcount;
    bytes_retrans_ += skb.len();
  }
  XmitSkb x;
  x.seq = static_cast<uint32_t>(skb.seq);
  x.len = skb.len();
  x.gso_size = skb.len() > mss_cache_ && !skb.mtu_probe ? mss_cache_ : 0;
  x.tcp_flags = skb.tcp_flags;
  // __tcp_transmit_skb (v4.11 on, so every profile): a transmitted clone of
  // more than one segment always carries PSH, so that the receiver's GRO
  // flushes at its end. Only the clone is marked: the queued skb keeps its
  // flags for splits and retransmissions (checked on 6.18 over tun,
  // docs/notes/2026-12-03-packetdrill-psh-window-connect.md).
  if (skb.pcount > 1 && (skb.tcp_flags & kTcpPsh) == 0) {
    x.tcp_flags |= kTcpPsh;
    x.psh_forced = true;
  }
  x.truesize = skb.truesize;
  x.ack = 0;
  x.win = 65535;
  x.reason = reason;
  x.tag = skb.tag;
  x.retransmit = retransmit;
  EcnSend(x, skb, retransmit);
  if (config_.track_payload) x.payload = skb.payload;
  wmem_alloc_ += skb.truesize;
  // tcp_event_data_sent: CA_EVENT_TX_START when nothing was in flight.
  if (PacketsInFlight() == 0 && config_.cc == CongestionControl::kCubic && cubic_.epoch_start != 0) {
    const int32_t delta = static_cast<int32_t>(Jiffies() - lsndtime_);
    if (delta > 0) {
      cubic_.epoch_start += delta;
      if (static_cast<int32_t>(cubic_.epoch_start - Jiffies()) > 0) cubic_.epoch_start = Jiffies();
    }
  }
  lsndtime_ = Jiffies();
  last_xmit_ns_ = now;
  skb.sent_ns = now;
  RateSkbSent(skb);
  // __tcp_transmit_skb: every segment counts in segs_out, those with
  // payload (not a bare FIN) in data_segs_out too.
  segs_out_ += skb.pcount;
  if (skb.len() != 0) data_segs_out_ += skb.pcount;
  ChargeXmit(skb.pcount);
  TstampXmit(skb);
  xmit_(std::move(x));
}

// The CPU of transmitting (HostCpu): the caller's, in a call or the
// release_sock it runs, added to its hold; otherwise the softirq's, which
// HostCpu charges where it runs.
void TcpSock::ChargeXmit(uint32_t segs) {
  if (!cpu_->xmit_costs()) return;
  if (in_call_) {
    call_xmit_ns_ += cpu_->XmitCost(segs);
  } else {
    cpu_->ChargeSoftirqXmit(loop_->now(), segs);
  }
}

// tcp_event_new_data_sent: the head moves to the rtx queue.
void TcpSock::EventNewDataSent() {
  Skb& skb = write_queue_.front();
  const uint32_t prior_packets = packets_out_;
  snd_nxt_ = skb.end_seq;
  packets_out_ += skb.pcount;
  if (skb.zc_uarg != 0) zc_.MarkCopied(skb.zc_uarg);  // see ZerocopyState::MarkCopied
  rtx_queue_.push_back(std::move(skb));
  write_queue_.pop_front();
  if (prior_packets == 0 || xmit_timer_.kind == XmitTimer::kLossProbe) RearmRto();
  if (profile_.check_space_on_new_data) CheckSpace();
}

// tcp_write_xmit. push_one: 0 normal, 1 tcp_push_one, 2 TLP probe.
// Returns true when "stuck": nothing in flight but data queued.
bool TcpSock::TcpWriteXmit(uint32_t mss_now, int nonagle, int push_one, PushReason reason) {
  ++counters_.pushes_by_reason[static_cast<int>(reason)];
  uint32_t sent_pkts = 0;
  uint32_t fin_over_cwnd = 0;  // tcp_cwnd_test lets a FIN skb past a full cwnd
  bool is_cwnd_limited = false;
  bool is_rwnd_limited = false;
  const uint32_t max_segs = TsoSegs(mss_now);
  if (push_one == 0 && mtup_.enabled) {
    const int r = MtuProbe(reason);
    if (r == 0) return false;
    if (r > 0) sent_pkts = 1;
  }
  while (!write_queue_.empty()) {
    Skb* skb = &write_queue_.front();
    uint32_t tso_segs = InitTsoSegs(*skb, mss_now);
    uint32_t cwnd_quota = CwndTest(*skb);
    if (cwnd_quota == 0) {
      if (push_one == 2) {
        cwnd_quota = 1;  // force out a loss probe
      } else {
        break;
      }
    }
    if (profile_.grow_skb_at_xmit) {
      const uint64_t want = static_cast<uint64_t>(std::min(cwnd_quota, max_segs)) * mss_now;
      if (want > skb->len()) {
        GrowSkb(static_cast<uint32_t>(want - skb->len()));
        skb = &write_queue_.front();
      }
      skb->pcount = 0;  // tcp_set_skb_tso_segs: recounted on every pass
      tso_segs = InitTsoSegs(*skb, mss_now);
    }
    if (!SndWndTest(*skb, mss_now)) {
      is_rwnd_limited = true;
      break;
    }
    if (tso_segs == 1) {
      const int mode = write_queue_.size() == 1 ? nonagle : kTcpNaglePush;
      if (!NagleTest(*skb, mss_now, mode)) {
        if (mode & kTcpNagleCork) {
          ++counters_.cork_holds;
        } else {
          ++counters_.nagle_holds;
        }
        break;
      }
    } else if (push_one == 0 && TsoShouldDefer(*skb, max_segs, &is_cwnd_limited, &is_rwnd_limited)) {
      ++counters_.tso_deferrals;
      break;
    }
    uint32_t limit = mss_now;
    if (tso_segs > 1) limit = MssSplitPoint(*skb, mss_now, std::min(cwnd_quota, max_segs), nonagle);
    if (skb->len() > limit) {
      SplitSkb(write_queue_, 0, limit, mss_now);
      skb = &write_queue_.front();
    }
    if (SmallQueueCheck(*skb)) {
      ++counters_.tsq_throttles;
      break;
    }
    if (skb->end_seq == skb->seq) break;  // empty skb of a writer sleeping in sendmsg
    if ((skb->tcp_flags & kTcpFin) && CwndQuotaRule(PacketsInFlight(), snd_cwnd_) == 0) fin_over_cwnd = 1;
    TransmitSkb(*skb, reason, false);
    const uint32_t pcount = skb->pcount;
    // tcp_minshall_update.
    if (skb->len() < pcount * mss_now) snd_sml_ = skb->end_seq;
    EventNewDataSent();
    sent_pkts += pcount;
    if (push_one) break;
  }
  if (is_rwnd_limited) {
    ChronoStart(Chrono::kRwndLimited);
  } else {
    ChronoStop(Chrono::kRwndLimited);
  }
  if (sent_pkts > 0) {
    if (InCwndReduction()) prr_out_ += sent_pkts;
    if (push_one != 2) ScheduleLossProbe(false);
    if (push_one != 2 && PacketsInFlight() > snd_cwnd_ + fin_over_cwnd) NoteViolation("packets in flight exceed cwnd after tcp_write_xmit");
    is_cwnd_limited |= PacketsInFlight() >= snd_cwnd_;
    CwndValidate(is_cwnd_limited);
    return false;
  }
  return packets_out_ == 0 && !write_queue_.empty();
}

// tcp_cwnd_validate (RFC 2861 bookkeeping).
void TcpSock::CwndValidate(bool is_cwnd_limited) {
  if (snd_una_ >= max_packets_seq_ || packets_out_ > max_packets_out_) {
    max_packets_out_ = packets_out_;
    max_packets_seq_ = snd_nxt_;
    is_cwnd_limited_ = is_cwnd_limited;
  }
  if (IsCwndLimited()) {
    snd_cwnd_used_ = 0;
    snd_cwnd_stamp_ = Jiffies();
  } else {
    if (packets_out_ > snd_cwnd_used_) snd_cwnd_used_ = packets_out_;
    if (config_.slow_start_after_idle && static_cast<int32_t>(Jiffies() - snd_cwnd_stamp_) >= static_cast<int32_t>(rto_jiffies_))
      CwndApplicationLimited();
    // The application hit the send buffer (SOCK_NOSPACE) and everything
    // it queued is out: the sender is sndbuf-limited.
    if (write_queue_.empty() && sock_nospace_ && !send_shutdown_) ChronoStart(Chrono::kSndbufLimited);
  }
}

// tcp_is_cwnd_limited: in slow start, grow while cwnd < 2 * max_packets_out.
bool TcpSock::IsCwndLimited() const {
  if (snd_cwnd_ < snd_ssthresh_) return snd_cwnd_ < 2 * max_packets_out_;
  return is_cwnd_limited_;
}

// tcp_wfree: the clone's truesize leaves sk_wmem_alloc; a THROTTLED socket
// is queued for the TSQ tasklet.
void TcpSock::OnTxCompletion(uint32_t truesize) {
  if (truesize >= wmem_alloc_) {
    NoteViolation("sk_wmem_alloc would drop below 1");
    wmem_alloc_ = 1;
  } else {
    wmem_alloc_ -= truesize;
  }
  if (tsq_.throttled && !tsq_.queued) {
    tsq_.throttled = false;
    tsq_.queued = true;
    loop_->ScheduleAfter(0, [this] { TsqHandler(); });
  }
}

// tcp_tasklet_func -> tcp_tsq_handler.
void TcpSock::TsqHandler() {
  tsq_.queued = false;
  if (IsOwned()) {
    tsq_.deferred = true;
    EnsureReleaseEvent();
  } else {
    TsqWrite(PushReason::kTsq);
  }
}

// tcp_tsq_write: lost data first, then new data with the socket's Nagle mode.
void TcpSock::TsqWrite(PushReason reason) {
  if (lost_out_ > retrans_out_ && snd_cwnd_ > PacketsInFlight()) XmitRetransmitQueue();
  TcpWriteXmit(CurrentMss(), nonagle_, 0, reason);
}

// tcp_slow_start_after_idle_check -> tcp_cwnd_restart (RFC 2861).
void TcpSock::SlowStartAfterIdleCheck() {
  if (!config_.slow_start_after_idle || packets_out_ != 0) return;
  int32_t delta = static_cast<int32_t>(Jiffies() - lsndtime_);
  if (delta <= static_cast<int32_t>(rto_jiffies_)) return;
  const uint32_t restart_cwnd0 = InitCwnd();
  uint32_t cwnd = snd_cwnd_;
  snd_ssthresh_ = CurrentSsthresh();
  const uint32_t restart_cwnd = std::min(restart_cwnd0, cwnd);
  while ((delta -= static_cast<int32_t>(rto_jiffies_)) > 0 && cwnd > restart_cwnd) cwnd >>= 1;
  snd_cwnd_ = std::max(cwnd, restart_cwnd);
  snd_cwnd_stamp_ = Jiffies();
  snd_cwnd_used_ = 0;
}

// tcp_cwnd_application_limited.
void TcpSock::CwndApplicationLimited() {
  if (ca_state_ == CaState::kOpen && !sock_nospace_) {
    const uint32_t win_used = std::max(snd_cwnd_used_, InitCwnd());
    if (win_used < snd_cwnd_) {
      snd_ssthresh_ = CurrentSsthresh();
      snd_cwnd_ = (snd_cwnd_ + win_used) >> 1;
    }
    snd_cwnd_used_ = 0;
  }
  snd_cwnd_stamp_ = Jiffies();
}

// tcp_xmit_retransmit_queue: lost skbs in order, neither SACKed nor
// already retransmitted, while cwnd allows and lost ones are left, at most
// tcp_tso_segs segments each; in a cwnd reduction they count in prr_out.
// Resending the head restarts the RTO (not while RACK's timer waits).
// Simplification: no TSQ check (tcp_small_queue_check) and no pacing.
void TcpSock::XmitRetransmitQueue() {
  if (packets_out_ == 0) return;
  bool rearm_timer = false;
  const uint32_t max_segs = TsoSegs(CurrentMss());  // tcp_tso_segs(sk, tcp_current_mss(sk))
  for (size_t i = 0; i < rtx_queue_.size(); ++i) {
    const uint32_t in_flight = PacketsInFlight();
    if (in_flight >= snd_cwnd_) break;
    if (retrans_out_ >= lost_out_) break;
    if (!rtx_queue_[i].lost || rtx_queue_[i].sacked || rtx_queue_[i].retrans) continue;
    // __tcp_retransmit_skb: -EAGAIN beyond a (shrunk) window, except the head,
    // which also serves as a zero-window probe after an RTO.
    if (rtx_queue_[i].seq >= snd_una_ + snd_wnd_ && rtx_queue_[i].seq != snd_una_) break;
    const uint32_t segs = std::min(snd_cwnd_ - in_flight, max_segs);
    const uint32_t mss = CurrentMss();  // __tcp_retransmit_skb's cur_mss
    const uint32_t len = segs * mss;
    if (rtx_queue_[i].len() > len) {
      SplitSkb(rtx_queue_, i, len, mss);
    } else {
      RecountSegs(rtx_queue_[i], mss);
    }
    Skb& skb = rtx_queue_[i];
    skb.retrans = true;
    skb.ever_retrans = true;
    retrans_out_ += skb.pcount;
    TransmitSkb(skb, PushReason::kRto, true);
    NoteRetransmit(skb);
    if (InCwndReduction()) prr_out_ += skb.pcount;
    if (i == 0 && xmit_timer_.kind != XmitTimer::kReoTimeout) rearm_timer = true;
  }
  if (rearm_timer) ResetXmitTimer(XmitTimer::kRetrans, rto_jiffies_);
}

// __tcp_retransmit_skb's unsplit skb: tcp_set_skb_tso_segs for the current
// MSS (which changes after a PMTU drop or a route change), and
// tcp_adjust_pcount for the counters it is in. An MTU probe resent this
// way is an ordinary skb of that MSS.
void TcpSock::RecountSegs(Skb& skb, uint32_t mss) {
  const uint32_t old_pcount = skb.pcount;
  skb.pcount = TsoSegsForLen(skb.len(), mss);
  skb.gso_size = skb.pcount > 1 ? mss : 0;
  if (skb.pcount > 1) skb.mtu_probe = false;
  const int32_t diff = static_cast<int32_t>(old_pcount) - static_cast<int32_t>(skb.pcount);
  if (diff == 0) return;
  packets_out_ -= diff;
  if (skb.sacked) sacked_out_ -= diff;
  if (skb.lost) lost_out_ -= diff;
  if (skb.retrans) retrans_out_ -= diff;
}

// __tcp_push_pending_frames: a "stuck" queue (nothing in flight) arms probe0.
void TcpSock::PushPendingFrames(uint32_t mss_now, int nonagle, PushReason reason) {
  if (TcpWriteXmit(mss_now, nonagle, 0, reason)) CheckProbeTimer();
}

// tcp_push_pending_frames: with the socket's own Nagle mode.
void TcpSock::TcpPushPendingFrames(PushReason reason) {
  if (!write_queue_.empty()) PushPendingFrames(CurrentMss(), nonagle_, reason);
}

// tcp_push_one: the head skb only, no TSO deferral, Nagle overridden.
void TcpSock::TcpPushOne(uint32_t mss_now) { TcpWriteXmit(mss_now, kTcpNaglePush, 1, PushReason::kPushOne); }

// tcp_release_cb: deferred TSQ write while still owned, then ownership is
// dropped, then deferred timer handlers.
void TcpSock::TcpReleaseCb() {
  if (tsq_.deferred) {
    tsq_.deferred = false;
    TsqWrite(PushReason::kTsqDeferred);
  }
  in_call_ = false;
  owned_until_ = 0;
  if (tsq_.write_timer_deferred) {
    tsq_.write_timer_deferred = false;
    WriteTimerHandler();
  }
}

}  // namespace sendsim::model
