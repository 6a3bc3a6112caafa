#ifndef SENDSIM_PACKETDRILL_RECEIVE_OFO_H_
#define SENDSIM_PACKETDRILL_RECEIVE_OFO_H_

// Linux's out-of-order queue and the SACK blocks it advertises, as sequence
// ranges (the runner keeps no payload): tcp_data_queue_ofo, tcp_ofo_queue,
// tcp_sack_new_ofo_skb, tcp_sack_maybe_coalesce, tcp_sack_remove,
// tcp_dsack_set/tcp_dsack_extend, and tcp_options_write's choice of blocks.
// Simplification: where Linux walks its rbtree to place a segment, this
// looks only at the segment before it (the one a tree walk meets for
// segments that do not overlap each other), and segments always coalesce
// when they touch (tcp_try_coalesce can refuse when an skb is full).

#include <cstdint>
#include <optional>
#include <vector>

#include "packetdrill/seq.h"

namespace sendsim::packetdrill {

struct SackBlock {
  uint32_t start = 0, end = 0;
  bool operator==(const SackBlock& o) const { return start == o.start && end == o.end; }
};

class OfoQueue {
 public:
  static constexpr int kNumSacks = 4;  // TCP_NUM_SACKS

  // One queued segment: [seq, end_seq), end_seq counting a FIN.
  struct Segment {
    uint32_t seq = 0, end_seq = 0;
    bool fin = false;
  };

  // tcp_data_queue_ofo: queues [seq, end_seq) beyond rcv_nxt, marking with
  // a D-SACK block what it duplicates (when `dsack`: SACK agreed and the
  // tcp_dsack sysctl) and, with `sack`, making the block that holds it the
  // first SACK block.
  void Queue(uint32_t seq, uint32_t end_seq, bool fin, bool sack, bool dsack);

  // tcp_ofo_queue after rcv_nxt advanced: moves what rcv_nxt reaches to the
  // receive queue, advancing *rcv_nxt, with D-SACK blocks for parts below
  // the rcv_nxt it started from. Returns true when a FIN was reached (it
  // stops there: tcp_fin purges the rest).
  bool Drain(uint32_t* rcv_nxt, bool dsack);

  // tcp_sack_remove: drops the SACK blocks rcv_nxt has reached (all of them
  // once the queue is empty).
  void SackRemove(uint32_t rcv_nxt);

  // tcp_dsack_set / tcp_dsack_extend (callers check SACK and tcp_dsack).
  void DsackSet(uint32_t seq, uint32_t end_seq) { dsack_ = SackBlock{seq, end_seq}; }
  void DsackExtend(uint32_t seq, uint32_t end_seq);
  // tcp_data_queue clears the D-SACK block of the previous segment; so does
  // sending it (tcp_options_write).
  void ClearDsack() { dsack_.reset(); }

  // tcp_fin: skb_rbtree_purge and tcp_sack_reset.
  void Reset();

  // The blocks a segment carries (tcp_established_options and
  // tcp_options_write): the D-SACK block first, then the SACK blocks, at
  // most `max_blocks`.
  std::vector<SackBlock> OptionBlocks(int max_blocks) const;

  bool empty() const { return segs_.empty(); }
  const std::vector<Segment>& segments() const { return segs_; }
  const std::vector<SackBlock>& sacks() const { return sacks_; }
  const std::optional<SackBlock>& dsack() const { return dsack_; }
  // The sequence number of a queued FIN.
  std::optional<uint32_t> FinSeq() const;

 private:
  void SackNewOfoSkb(uint32_t seq, uint32_t end_seq);
  void SackMaybeCoalesce();

  std::vector<Segment> segs_;     // sorted by seq
  std::vector<SackBlock> sacks_;  // tp->selective_acks, the most recent first
  std::optional<SackBlock> dsack_;
};

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RECEIVE_OFO_H_
