#include "model/nic.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace sendsim::model {

Nic::Nic(EventLoop* loop, const ConnectionConfig& cfg, Link* link, TxCompletionFn on_complete)
    : loop_(loop),
      tso_(cfg.tso),
      tx_completion_ns_(cfg.tx_completion_ns),
      orphan_at_xmit_(cfg.host.tx_orphan_at_xmit),
      link_(link),
      on_complete_(std::move(on_complete)),
      completion_timer_(loop, &Nic::CompleteEvent, this) {
  assert(tx_completion_ns_ >= 0 && "ValidateConfig rejects negative tx_completion_ns");
}

void Nic::Transmit(const XmitSkb& skb) {
  ++skbs_;
  pending_truesize_ += skb.truesize;
  const uint32_t mss = (skb.gso_size == 0 || skb.len <= skb.gso_size) ? skb.len : skb.gso_size;
  const uint32_t nsegs = (skb.len == 0 || mss == 0) ? 1 : (skb.len + mss - 1) / mss;
  const bool track = !skb.payload.empty();

  size_t piece = 0;     // payload cursor: current piece and offset in it
  uint32_t piece_off = 0;
  uint32_t offset = 0;  // bytes of the skb already cut
  uint32_t truesize_given = 0;
  // One Segment refilled per cut (the link only reads it in lookahead mode
  // and moves from it in event mode, leaving its vectors empty).
  Segment seg;
  seg.ack = skb.ack;
  seg.win = skb.win;
  seg.reason = skb.reason;
  seg.tag = skb.tag;
  seg.retransmit = skb.retransmit;
  for (uint32_t i = 0; i < nsegs; ++i) {
    const bool last = i + 1 == nsegs;
    const uint32_t len = last ? skb.len - offset : mss;
    seg.sent_at = 0;
    seg.seq = skb.seq + offset;
    seg.len = len;
    // tcp_gso_segment: PSH/FIN (and CWR) only on the last segment.
    seg.flags = last ? skb.tcp_flags : static_cast<uint8_t>(skb.tcp_flags & ~(kTcpPsh | kTcpFin));
    seg.psh_forced = last && skb.psh_forced;
    seg.payload.clear();
    seg.sack.clear();
    if (track) {
      uint32_t need = len;
      while (need > 0 && piece < skb.payload.size()) {
        const PayloadPiece& p = skb.payload[piece];
        const uint32_t take = std::min(need, p.len - piece_off);
        seg.payload.push_back(PayloadPiece{p.data == nullptr ? nullptr : p.data + piece_off, take});
        need -= take;
        piece_off += take;
        if (piece_off == p.len) {
          ++piece;
          piece_off = 0;
        }
      }
    }
    offset += len;
    ++segments_;
    const TimeNs last_bit = link_->Send(std::move(seg));
    if (orphan_at_xmit_) {
      continue;  // no completion event: tcp_wfree below, once per skb
    } else if (!tso_) {
      // Software GSO: proportional truesize share; the running floor makes
      // the shares sum to skb.truesize exactly.
      const uint32_t upto = skb.len == 0
                                ? skb.truesize
                                : static_cast<uint32_t>(static_cast<uint64_t>(skb.truesize) * offset / skb.len);
      const uint32_t share = last ? skb.truesize - truesize_given : upto - truesize_given;
      truesize_given += share;
      QueueCompletion(CompletionBase(last_bit) + tx_completion_ns_, share);
    } else if (last) {
      QueueCompletion(CompletionBase(last_bit) + tx_completion_ns_, skb.truesize);
    }
  }
  if (orphan_at_xmit_) {
    // tun_net_xmit -> skb_orphan -> tcp_wfree: the charge leaves the socket
    // as the device takes the skb (the segments above still serialize).
    pending_truesize_ -= skb.truesize;
    if (on_complete_) on_complete_(skb.truesize);
  }
}

void Nic::QueueCompletion(TimeNs at, uint32_t truesize) {
  // Sorts where ScheduleAt(at) would put it now. Completion times are
  // non-decreasing in transmission order (FIFO link, constant completion
  // delay), so the keys in completions_ increase and the head's event is
  // always the next one due.
  const EventLoop::Key key = loop_->ReserveKey(at);
  completions_.push_back(Completion{key, truesize});
  if (!completion_timer_.pending()) completion_timer_.ArmAtKey(key);
}

void Nic::Complete() {
  const Completion c = completions_.front();
  completions_.pop_front();
  if (!completions_.empty()) completion_timer_.ArmAtKey(completions_.front().key);
  pending_truesize_ -= c.truesize;
  if (on_complete_) on_complete_(c.truesize);
}

}  // namespace sendsim::model
