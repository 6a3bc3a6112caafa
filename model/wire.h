#ifndef SENDSIM_MODEL_WIRE_H_
#define SENDSIM_MODEL_WIRE_H_

// The seam between the sending TCP (socket/xmit, tcp_output.c side) and the
// network below it (qdisc + NIC + link + peer). The sender hands skb clones to
// the Nic; the peer's ACKs come back through the reverse link to an AckSink.

#include <cstdint>
#include <functional>
#include <vector>

#include "model/event_loop.h"
#include "model/types.h"

namespace sendsim::model {

// A contiguous run of payload bytes (part of a page frag or linear area).
struct PayloadPiece {
  const uint8_t* data = nullptr;  // null when payload is not tracked
  uint32_t len = 0;
};

// What tcp_transmit_skb hands to the IP layer: one clone of a write-queue skb.
struct XmitSkb {
  uint32_t seq = 0;
  uint32_t len = 0;
  uint32_t gso_size = 0;        // MSS the skb is cut into (== mss_now); len <= gso_size: one segment
  uint8_t tcp_flags = kTcpAck;  // PSH/FIN as on the skb; segmentation keeps them on the last segment only
  uint32_t truesize = 0;        // charged to sk_wmem_alloc until TX completion (tcp_wfree)
  uint32_t ack = 0;             // rcv_nxt of the sender (ACK field)
  uint32_t win = 0;             // window the sender advertises (bytes)
  PushReason reason = PushReason::kControl;
  uint64_t tag = 0;             // tag of the call that queued the skb's last byte
  bool retransmit = false;
  // PSH comes only from __tcp_transmit_skb's rule for multi-segment clones,
  // not from a push of the sender (tcp_push / tcp_mark_push): not a flush
  // point of the stream.
  bool psh_forced = false;
  // ECT(0) in the IP header: new data on an ECN connection (tcp_ecn_send).
  bool ect = false;
  std::vector<PayloadPiece> payload;  // empty when not tracked; sums to len otherwise
};

// A segment on the wire (after TSO/GSO), either direction.
struct Segment {
  TimeNs sent_at = 0;           // first bit leaves the sending NIC
  uint32_t seq = 0;
  uint32_t len = 0;
  uint8_t flags = kTcpAck;
  uint32_t ack = 0;
  uint32_t win = 0;             // bytes, already unscaled
  PushReason reason = PushReason::kControl;
  uint64_t tag = 0;
  bool retransmit = false;
  bool psh_forced = false;  // XmitSkb::psh_forced, on the segment that carries the PSH
  // Peer -> sender: sent from the receiving application's context (its
  // recvmsg's tcp_cleanup_rbuf or release_sock), so from the reader's CPU,
  // not from softirq (RpsBacklog::Remote).
  bool from_reader = false;
  std::vector<PayloadPiece> payload;
  // SACK blocks (peer -> sender), [start, end) pairs; the first may be a
  // D-SACK (below the ACK, or inside the second block).
  std::vector<std::pair<uint32_t, uint32_t>> sack;
  // Peer -> sender: the TS ecr it echoes, in the sender's TS clock (ms,
  // TcpSock::TcpTimeStamp); 0 for none (the model's peer echoes none).
  uint32_t tsecr = 0;
};

// Receives TX completions (tcp_wfree) for the sender's clones.
using TxCompletionFn = std::function<void(uint32_t truesize)>;
// Receives segments arriving at an endpoint.
using SegmentSinkFn = std::function<void(const Segment& seg)>;

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_WIRE_H_
