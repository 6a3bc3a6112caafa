// The SACK scoreboard (tcp_input.c): SACK blocks tag skbs of the
// retransmit queue SACKED_ACKED, splitting a TSO skb at a multiple of its
// segment size where a block ends inside it; sacked_out/lost_out/
// retrans_out follow the tags. Without SACK (Reno), duplicate ACKs count
// as emulated SACKs in sacked_out.
//
// Simplifications (README "Model limits"): no reneging, no tcp_shift_skb_data (SACKed skbs
// are never merged), no recv_sack_cache (every block walks the queue, with
// the same outcome).

#include <algorithm>
#include <utility>
#include <vector>

#include "model/recovery_flags.h"
#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kTcpMaxReordering = 300;  // sysctl_tcp_max_reordering

}  // namespace

// tcp_sacktag_write_queue. Runs after snd_una took the ACK's value and
// before tcp_clean_rtx_queue. A D-SACK block (tcp_check_dsack) counts
// toward undo; its skbs still queued are tagged too (SacktagOne).
int TcpSock::SacktagWriteQueue(const Segment& seg, uint64_t prior_snd_una, SacktagState* state) {
  state->reord = snd_nxt_;
  if (sacked_out_ == 0) highest_sack_end_ = snd_una_;  // tcp_highest_sack_reset
  // Blocks are 32-bit sequence numbers; the model's are 64-bit, with no
  // wrap: place each one near snd_una.
  auto widen = [this](uint32_t s) {
    return static_cast<uint64_t>(static_cast<int64_t>(snd_una_) + static_cast<int32_t>(s - static_cast<uint32_t>(snd_una_)));
  };
  std::vector<std::pair<uint64_t, uint64_t>> wire;
  for (const auto& [a, b] : seg.sack) wire.emplace_back(widen(a), widen(b));
  const bool found_dup_sack = CheckDsack(wire, widen(seg.ack), prior_snd_una, state);
  if (packets_out_ == 0) return state->flag;
  struct Block {
    uint64_t start, end;
    bool dup;
  };
  std::vector<Block> blocks;
  for (size_t i = 0; i < wire.size(); ++i) {
    const auto [start, end] = wire[i];
    const bool dup_sack = i == 0 && found_dup_sack;
    if (!SackblockValid(dup_sack, start, end)) continue;
    if (end <= prior_snd_una) continue;  // very old: nothing left to tag
    blocks.push_back({start, end, dup_sack});
  }
  // The kernel sorts the blocks by start before walking the queue.
  std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.start < b.start; });
  for (const Block& b : blocks) {
    // tcp_sacktag_skip + tcp_sacktag_walk.
    for (size_t i = 0; i < rtx_queue_.size(); ++i) {
      if (rtx_queue_[i].end_seq <= b.start) continue;
      if (rtx_queue_[i].seq >= b.end) break;
      const int in_sack = MatchSkbToSack(i, b.start, b.end);
      if (in_sack < 0) break;
      if (in_sack == 0) continue;
      Skb& skb = rtx_queue_[i];
      SacktagOne(skb, b.dup, state);
      RateSkbDelivered(skb, &rate_sample_);  // tcp_sacktag_walk
      if (skb.seq >= HighestSackSeq()) highest_sack_end_ = skb.end_seq;  // tcp_advance_highest_sack
    }
  }
  // Outside Loss, or in Loss with undo_marker set.
  if (ca_state_ != CaState::kLoss || undo_marker_set_) CheckSackReordering(state->reord);
  return state->flag;
}

// tcp_match_skb_to_sack: 1 when rtx_queue_[idx] lies inside [start, end),
// 0 when not, -1 to stop. A TSO skb that the block covers in part is
// split so that the SACKed part is whole segments (or the short tail);
// the first of the two pieces stays at idx.
int TcpSock::MatchSkbToSack(size_t idx, uint64_t start_seq, uint64_t end_seq) {
  Skb& skb = rtx_queue_[idx];
  bool in_sack = start_seq <= skb.seq && end_seq >= skb.end_seq;
  if (skb.pcount > 1 && !in_sack && skb.end_seq > start_seq) {
    const uint32_t mss = skb.gso_size != 0 ? skb.gso_size : mss_cache_;  // tcp_skb_mss
    in_sack = start_seq <= skb.seq;
    uint32_t pkt_len;
    if (!in_sack) {
      pkt_len = std::max(static_cast<uint32_t>(start_seq - skb.seq), mss);
    } else {
      pkt_len = static_cast<uint32_t>(end_seq - skb.seq);
      if (pkt_len < mss) return -1;
    }
    if (pkt_len > mss) {
      uint32_t new_len = (pkt_len / mss) * mss;
      if (!in_sack && new_len < pkt_len) new_len += mss;
      pkt_len = new_len;
    }
    if (pkt_len >= skb.len() && !in_sack) return 0;
    SplitSkb(rtx_queue_, idx, pkt_len, mss);  // tcp_fragment(TCP_FRAG_IN_RTX_QUEUE)
  }
  return in_sack ? 1 : 0;
}

// tcp_sacktag_one. A D-SACK of a retransmitted skb proves one
// retransmission spurious (undo_retrans).
void TcpSock::SacktagOne(Skb& skb, bool dup_sack, SacktagState* state) {
  if (dup_sack && (skb.retrans || skb.ever_retrans)) {
    if (undo_marker_set_ && undo_retrans_ > 0 && skb.end_seq > undo_marker_) {
      undo_retrans_ = std::max<int32_t>(0, undo_retrans_ - static_cast<int32_t>(skb.pcount));
    }
    if (skb.sacked && skb.seq < state->reord) state->reord = skb.seq;
  }
  if (skb.end_seq <= snd_una_) return;  // about to be cumulatively acked
  if (skb.sacked) return;
  const uint32_t pcount = skb.pcount;
  RackAdvance(skb.retrans || skb.ever_retrans, skb.end_seq, skb.sent_ns);
  if (skb.retrans) {
    // A retransmission still in flight unless the skb was marked lost.
    if (skb.lost) {
      skb.lost = false;
      skb.retrans = false;
      lost_out_ -= pcount;
      retrans_out_ -= pcount;
    }
  } else {
    if (!skb.ever_retrans) {
      // A never-retransmitted skb SACKed below the highest SACK: reordering.
      if (skb.seq < HighestSackSeq() && skb.seq < state->reord) state->reord = skb.seq;
      if (skb.end_seq <= high_seq_) state->flag |= kFlagOrigSackAcked;
      if (state->first_sackt < 0) state->first_sackt = skb.sent_ns;
      state->last_sackt = skb.sent_ns;
    }
    if (skb.lost) {
      skb.lost = false;
      lost_out_ -= pcount;
    }
  }
  skb.sacked = true;
  state->flag |= kFlagDataSacked;
  sacked_out_ += pcount;
  state->sack_delivered += pcount;
}

// tcp_check_sack_reordering: data below the highest SACK arrived late;
// reordering grows to the distance in segments (at most
// tcp_max_reordering).
void TcpSock::CheckSackReordering(uint64_t low_seq) {
  const uint64_t fack = HighestSackSeq();
  if (low_seq >= fack) return;
  const uint64_t metric = fack - low_seq;
  const uint32_t mss = mss_cache_;
  if (mss != 0 && metric > static_cast<uint64_t>(reordering_) * mss) {
    reordering_ = static_cast<uint32_t>(std::min<uint64_t>((metric + mss - 1) / mss, kTcpMaxReordering));
  }
  ++reord_seen_;
}

// tcp_mark_skb_lost.
void TcpSock::MarkSkbLost(Skb& skb) {
  if (skb.sacked) return;
  if (skb.lost) {
    if (skb.retrans) {
      // A retransmission lost again.
      skb.retrans = false;
      retrans_out_ -= skb.pcount;
      lost_ += skb.pcount;
    }
  } else {
    lost_out_ += skb.pcount;
    skb.lost = true;
    lost_ += skb.pcount;
  }
}

// tcp_limit_reno_sacked: at most packets_out minus the holes can be
// "SACKed" by duplicate ACKs.
bool TcpSock::LimitRenoSacked() {
  uint32_t holes = std::max(lost_out_, 1U);
  holes = std::min(holes, packets_out_);
  if (sacked_out_ + holes > packets_out_) {
    sacked_out_ = packets_out_ - holes;
    return true;
  }
  return false;
}

// tcp_check_reno_reordering.
void TcpSock::CheckRenoReordering(uint32_t addend) {
  if (!LimitRenoSacked()) return;
  reordering_ = std::min(packets_out_ + addend, kTcpMaxReordering);
  ++reord_seen_;
}

// tcp_add_reno_sack: each duplicate ACK stands for one segment received
// out of order.
void TcpSock::AddRenoSack(uint32_t num_dupack, bool ece) {
  if (num_dupack == 0) return;
  const uint32_t prior_sacked = sacked_out_;
  sacked_out_ += num_dupack;
  CheckRenoReordering(0);
  if (sacked_out_ > prior_sacked) CountDelivered(sacked_out_ - prior_sacked, ece);
}

// tcp_remove_reno_sacks: a cumulative ACK filled one hole; the rest of
// what it acked eats emulated SACKs.
void TcpSock::RemoveRenoSacks(uint32_t acked, bool ece) {
  if (acked > 0) {
    CountDelivered(std::max<int64_t>(static_cast<int64_t>(acked) - sacked_out_, 1), ece);
    if (acked - 1 >= sacked_out_) {
      sacked_out_ = 0;
    } else {
      sacked_out_ -= acked - 1;
    }
  }
  CheckRenoReordering(acked);
}

// tcp_newreno_mark_lost (RFC 6582): the head is lost after reordering
// duplicate ACKs, and again on each partial ACK in Recovery.
void TcpSock::NewrenoMarkLost(bool snd_una_advanced) {
  if ((ca_state_ < CaState::kRecovery && sacked_out_ >= reordering_) ||
      (ca_state_ == CaState::kRecovery && snd_una_advanced)) {
    Skb* skb = &rtx_queue_.front();
    if (skb->lost) return;
    const uint32_t mss = skb->gso_size != 0 ? skb->gso_size : mss_cache_;
    if (skb->pcount > 1 && skb->len() > mss) {
      SplitSkb(rtx_queue_, 0, mss, mss);
      skb = &rtx_queue_.front();
    }
    MarkSkbLost(*skb);
  }
}

}  // namespace sendsim::model
