#ifndef SENDSIM_MODEL_SKB_H_
#define SENDSIM_MODEL_SKB_H_

// The model's sk_buff of the write and retransmit queues (tcp_sock.h).

#include <cstdint>
#include <vector>

#include "model/constants.h"
#include "model/types.h"
#include "model/wire.h"

namespace sendsim::model {

// One sk_buff of the write or retransmit queue (only what the send path reads).
struct Skb {
  uint64_t seq = 0;
  uint64_t end_seq = 0;
  uint32_t truesize = 0;
  uint32_t linear_len = 0;   // bytes in the linear head (sendmsg first skb)
  uint32_t linear_room = 0;  // skb_availroom
  uint32_t pcount = 0;       // tcp_skb_pcount; 0 = recompute (tcp_init_tso_segs)
  uint32_t gso_size = 0;
  uint8_t nr_frags = 0;
  uint8_t tcp_flags = kTcpAck;
  bool eor = false;
  bool sacked = false;        // TCPCB_SACKED_ACKED (counted in sacked_out)
  bool lost = false;          // TCPCB_LOST
  bool retrans = false;       // TCPCB_RETRANS (counted in retrans_out)
  bool ever_retrans = false;  // TCPCB_EVER_RETRANS (Karn: no RTT sample)
  bool mtu_probe = false;     // built by tcp_mtu_probe: one segment larger than mss_cache
  // Identity of the last frag, for skb_can_coalesce.
  uint64_t last_frag_page = 0;
  uint32_t last_frag_end = 0;
  // Cumulative end offset (from seq) of each frag; frags follow the linear head.
  uint32_t frag_end[kMaxSkbFrags] = {};
  uint64_t tag = 0;
  uint32_t zc_uarg = 0;  // MSG_ZEROCOPY uarg the skb references (zerocopy.h); 0: none
  // SO_TIMESTAMPING's mark (tx_timestamp.h): skb_shinfo tx_flags (SKBTX_*),
  // TCP_SKB_CB txstamp_ack, and the key (the stamped byte's sequence number).
  uint8_t tx_flags = 0;
  bool txstamp_ack = false;
  uint64_t tskey = 0;
  TimeNs sent_ns = 0;  // skb_mstamp of the last (re)transmission
  // tcp_rate_skb_sent's snapshot (TCP_SKB_CB(skb)->tx): the socket's
  // first_tx_mstamp, delivered_mstamp (-1: none, or spent by a SACK),
  // delivered and app_limited when the skb was (re)sent.
  TimeNs tx_first_ns = 0;
  TimeNs tx_delivered_ns = -1;
  uint32_t tx_delivered = 0;
  bool tx_app_limited = false;
  std::vector<PayloadPiece> payload;  // only when payload is tracked

  // skb->len: a FIN occupies a sequence number (end_seq) but no payload byte.
  uint32_t len() const { return static_cast<uint32_t>(end_seq - seq) - ((tcp_flags & kTcpFin) ? 1 : 0); }
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_SKB_H_
