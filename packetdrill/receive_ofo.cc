#include "packetdrill/receive_ofo.h"

#include <algorithm>
#include <utility>

namespace sendsim::packetdrill {
namespace {

// tcp_sack_extend: widens `b` by [seq, end_seq) when the two touch or
// overlap.
bool SackExtend(SackBlock* b, uint32_t seq, uint32_t end_seq) {
  if (SeqAfter(seq, b->end) || SeqAfter(b->start, end_seq)) return false;
  if (SeqBefore(seq, b->start)) b->start = seq;
  if (SeqAfter(end_seq, b->end)) b->end = end_seq;
  return true;
}

// tcp_ooo_try_coalesce: a segment that starts where `to` ends joins it
// (nothing joins a segment that ends with a FIN).
bool TryCoalesce(OfoQueue::Segment* to, uint32_t seq, uint32_t end_seq, bool fin) {
  if (seq != to->end_seq || to->fin) return false;
  to->end_seq = end_seq;
  to->fin = fin;
  return true;
}

}  // namespace

void OfoQueue::DsackExtend(uint32_t seq, uint32_t end_seq) {
  if (!dsack_) {
    DsackSet(seq, end_seq);
    return;
  }
  SackExtend(&*dsack_, seq, end_seq);
}

void OfoQueue::Queue(uint32_t seq, uint32_t end_seq, bool fin, bool sack, bool dsack) {
  const Segment in{seq, end_seq, fin};
  if (segs_.empty()) {
    // The first out-of-order segment: one SACK block.
    if (sack) sacks_ = {SackBlock{seq, end_seq}};
    segs_.push_back(in);
    return;
  }
  auto add_sack = [&] {
    if (sack) SackNewOfoSkb(seq, end_seq);
  };
  // The usual case first: the segment extends or follows the highest one.
  if (TryCoalesce(&segs_.back(), seq, end_seq, fin)) return add_sack();
  size_t pos = 0;
  if (!SeqBefore(seq, segs_.back().end_seq)) {
    segs_.push_back(in);
    return add_sack();
  }
  // The segment before it (seq at or below ours), if any.
  size_t n = 0;
  while (n < segs_.size() && !SeqBefore(seq, segs_[n].seq)) ++n;
  if (n == 0) {
    segs_.insert(segs_.begin(), in);
    pos = 0;
  } else {
    Segment& prev = segs_[n - 1];
    if (SeqBefore(seq, prev.end_seq)) {
      if (!SeqAfter(end_seq, prev.end_seq)) {
        // Every byte is queued already: dropped, reported as a duplicate.
        if (dsack) DsackSet(seq, end_seq);
        return add_sack();
      }
      if (SeqAfter(seq, prev.seq)) {
        // It overlaps the end of the one before: the overlap is a duplicate.
        if (dsack) DsackSet(seq, prev.end_seq);
        segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(n), in);
        pos = n;
      } else {
        // Same start, longer: it replaces the one before.
        if (dsack) DsackExtend(prev.seq, prev.end_seq);
        prev = in;
        pos = n - 1;
      }
    } else if (TryCoalesce(&prev, seq, end_seq, fin)) {
      return add_sack();
    } else {
      segs_.insert(segs_.begin() + static_cast<std::ptrdiff_t>(n), in);
      pos = n;
    }
  }
  // Segments it covers go (duplicates); one it reaches into is cut short in
  // the D-SACK block only.
  while (pos + 1 < segs_.size()) {
    const Segment next = segs_[pos + 1];
    if (!SeqAfter(end_seq, next.seq)) break;
    if (SeqBefore(end_seq, next.end_seq)) {
      if (dsack) DsackExtend(next.seq, end_seq);
      break;
    }
    segs_.erase(segs_.begin() + static_cast<std::ptrdiff_t>(pos + 1));
    if (dsack) DsackExtend(next.seq, next.end_seq);
  }
  add_sack();
}

// tcp_sack_new_ofo_skb. Linux also flushes a compressed SACK when the block
// was not among the first two; the runner never compresses (receive.cc).
void OfoQueue::SackNewOfoSkb(uint32_t seq, uint32_t end_seq) {
  for (size_t i = 0; i < sacks_.size(); ++i) {
    if (SackExtend(&sacks_[i], seq, end_seq)) {
      // The block that grew becomes the first.
      std::rotate(sacks_.begin(), sacks_.begin() + static_cast<std::ptrdiff_t>(i),
                  sacks_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      if (sacks_.size() > 1) SackMaybeCoalesce();
      return;
    }
  }
  // A new block in front; with all four in use the oldest is forgotten.
  if (sacks_.size() >= static_cast<size_t>(kNumSacks)) sacks_.pop_back();
  sacks_.insert(sacks_.begin(), SackBlock{seq, end_seq});
}

// tcp_sack_maybe_coalesce: the first block swallows those it now touches.
void OfoQueue::SackMaybeCoalesce() {
  for (size_t i = 1; i < sacks_.size();) {
    if (SackExtend(&sacks_[0], sacks_[i].start, sacks_[i].end)) {
      sacks_.erase(sacks_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    ++i;
  }
}

bool OfoQueue::Drain(uint32_t* rcv_nxt, bool dsack) {
  const uint32_t dsack_high = *rcv_nxt;
  while (!segs_.empty()) {
    const Segment s = segs_.front();
    if (SeqAfter(s.seq, *rcv_nxt)) break;
    if (SeqBefore(s.seq, dsack_high) && dsack) {
      DsackExtend(s.seq, SeqBefore(s.end_seq, dsack_high) ? s.end_seq : dsack_high);
    }
    segs_.erase(segs_.begin());
    if (!SeqAfter(s.end_seq, *rcv_nxt)) continue;  // wholly received already
    *rcv_nxt = s.end_seq;
    if (s.fin) return true;
  }
  return false;
}

void OfoQueue::SackRemove(uint32_t rcv_nxt) {
  if (segs_.empty()) {
    sacks_.clear();
    return;
  }
  std::erase_if(sacks_, [rcv_nxt](const SackBlock& b) { return !SeqBefore(rcv_nxt, b.start); });
}

void OfoQueue::Reset() {
  segs_.clear();
  sacks_.clear();
  dsack_.reset();
}

std::vector<SackBlock> OfoQueue::OptionBlocks(int max_blocks) const {
  std::vector<SackBlock> v;
  if (dsack_) v.push_back(*dsack_);
  v.insert(v.end(), sacks_.begin(), sacks_.end());
  const size_t max = static_cast<size_t>(std::max(max_blocks, 0));
  if (v.size() > max) v.resize(max);
  return v;
}

std::optional<uint32_t> OfoQueue::FinSeq() const {
  for (const Segment& s : segs_) {
    if (s.fin) return s.end_seq - 1;
  }
  return std::nullopt;
}

}  // namespace sendsim::packetdrill
