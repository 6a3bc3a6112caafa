#ifndef SENDSIM_MODEL_TYPES_H_
#define SENDSIM_MODEL_TYPES_H_

#include <cstdint>
#include <string_view>

#include "model/event_loop.h"

namespace sendsim::model {

// A page handed to sendpage / MSG_SPLICE_PAGES. The model keeps the reference
// (as the kernel keeps a page reference) until the peer has received the
// bytes; `data` must stay valid until then. `data` may be null when the run
// does not track payload bytes (histogram-only runs).
struct Page {
  uint64_t id = 0;                 // identity, used for frag coalescing
  const uint8_t* data = nullptr;   // kPageSize bytes, or null
};

// One ITER_KVEC element (copy path).
struct Iovec {
  const uint8_t* base = nullptr;
  uint64_t len = 0;
};

// One ITER_BVEC element (a piece of one page).
struct BioVec {
  Page page;
  uint32_t offset = 0;
  uint32_t len = 0;
};

// Why a wire packet left: the push path, timer or event whose
// tcp_write_xmit call transmitted it. Every packet carries one.
enum class PushReason : uint8_t {
  kEndOfCall,      // tcp_push at the end of sendpage/sendmsg
  kPushOne,        // tcp_push_one inside a call (skb reached size_goal at the head)
  kForcedPush,     // forced_push() inside a call
  kFragLimit,      // 17-frag limit inside a call (mark_push + new skb); sent by a later path
  kSndbufFull,     // wait path push (sk_stream_memory_free failed)
  kAck,            // tcp_data_snd_check after an ACK processed in softirq
  kBacklog,        // ACK processed from the backlog at release_sock
  kTsq,            // TSQ handler after a TX completion (autocork or TSQ limit)
  kTsqDeferred,    // TSQ_DEFERRED handled at release_sock
  kSetsockopt,     // TCP_CORK cleared / TCP_NODELAY set
  kProbe0,         // zero-window / probe0 timer (tcp_write_wakeup)
  kTlp,            // tail loss probe
  kRto,            // retransmission timeout
  kRetransmit,     // fast retransmit
  kControl,        // pure ACKs, SYN/FIN, window updates sent by the peer or socket
  kCount,
};

std::string_view PushReasonName(PushReason r);

// TCP header flags as on the wire.
inline constexpr uint8_t kTcpFin = 0x01;
inline constexpr uint8_t kTcpSyn = 0x02;
inline constexpr uint8_t kTcpRst = 0x04;
inline constexpr uint8_t kTcpPsh = 0x08;
inline constexpr uint8_t kTcpAck = 0x10;
inline constexpr uint8_t kTcpEce = 0x40;
inline constexpr uint8_t kTcpCwr = 0x80;

enum class Direction : uint8_t { kData, kAck };  // sender->peer, peer->sender

// One packet as a capture on the wire would see it.
struct WirePacket {
  TimeNs time = 0;            // first bit on the wire at the sender's NIC
  Direction dir = Direction::kData;
  uint32_t seq = 0;           // relative sequence number (ISN = 0)
  uint32_t ack = 0;
  uint32_t len = 0;           // TCP payload bytes
  uint8_t flags = 0;          // kTcp* bits
  uint32_t win = 0;           // advertised window (unscaled bytes)
  PushReason reason = PushReason::kControl;
  uint64_t tag = 0;           // application tag of the call that queued the last byte
  // The PSH in `flags` was forced on a multi-segment TSO packet
  // (__tcp_transmit_skb), not set by a push of the sender.
  bool psh_forced = false;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_TYPES_H_
