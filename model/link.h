#ifndef SENDSIM_MODEL_LINK_H_
#define SENDSIM_MODEL_LINK_H_

// One direction of the wire: a work-conserving FIFO that serializes frames at
// a fixed bit rate, followed by a constant propagation delay.
//
// Framing (what one TCP segment costs on the wire), modelled by default:
//   IP+TCP headers 40 + TCP options (12 with timestamps, + 4 + 8*n for n SACK
//   blocks) + payload, padded to the 46-byte Ethernet minimum, + Ethernet
//   header 14 + FCS 4 + preamble/SFD 8 + inter-frame gap 12.
// A full 1448-byte segment with timestamps is 1538 byte times: 1230.4 ns at
// 10 Gb/s, 12304 ns at 1 Gb/s. Time is kept exactly (integer ns plus a
// remainder in 1/bps units); reported times are rounded up to the next ns
// (an event never happens before the instant it models).
//
// Delivery modes:
//  - event mode (default): `deliver` runs at the arrival time (last bit +
//    delay) from an EventLoop event, with loop->now() == arrival. One event
//    per segment, ordered as if each were scheduled when it was sent; the
//    segments wait in a FIFO and only the head's event is in the loop's
//    queue (no heap allocation per packet when payload/SACK vectors are
//    empty).
//  - lookahead mode (set_lookahead_sink): the sink runs synchronously inside
//    Send() and gets the arrival time explicitly. Only valid for a sink whose
//    state nobody else touches and whose outputs leave through another Link
//    (the Peer): then processing early gives exactly the state evolution of
//    per-segment events, because every segment with arrival <= T was sent
//    (and so processed) before loop time T (arrival > send time). See
//    Peer::OnSegmentAt for the peer side of that argument.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/exp_draw.h"
#include "model/host/rps_backlog.h"
#include "model/observer.h"
#include "model/types.h"
#include "model/wire.h"

namespace sendsim::model {

// FIFO on a power-of-two ring: after warm-up, push/pop never touch the heap
// (std::deque allocates a node every few elements in steady state).
template <typename T>
class RingQueue {
 public:
  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  T& front() { return buf_[head_ & mask_]; }
  void push_back(T v) { next_slot() = std::move(v); }
  // Appends and returns the new last element (for in-place filling); it
  // holds whatever the slot held before.
  T& next_slot() {
    if (tail_ - head_ == buf_.size()) Grow();
    return buf_[tail_++ & mask_];
  }
  void pop_front() { ++head_; }

 private:
  void Grow() {
    std::vector<T> next(buf_.empty() ? 16 : buf_.size() * 2);
    for (size_t i = head_; i != tail_; ++i) next[i - head_] = std::move(buf_[i & mask_]);
    tail_ -= head_;
    head_ = 0;
    buf_ = std::move(next);
    mask_ = buf_.size() - 1;
  }
  std::vector<T> buf_;
  size_t mask_ = 0;  // buf_.size() - 1 (a power of two), kept to spare the division by sizeof(T)
  size_t head_ = 0;
  size_t tail_ = 0;
};

// Per-frame byte costs (IEEE 802.3 + IPv4/TCP without IP options).
inline constexpr uint32_t kTcpSackBaseBytes = 4;          // TCPOLEN_SACK_BASE_ALIGNED
inline constexpr uint32_t kTcpSackPerBlockBytes = 8;      // TCPOLEN_SACK_PERBLOCK
inline constexpr uint32_t kEthMinPayloadBytes = 46;       // 64-byte minimum frame
inline constexpr uint32_t kEthHeaderFcsBytes = 14 + 4;
inline constexpr uint32_t kEthPreambleIfgBytes = 8 + 12;

struct LinkOptions {
  bool timestamps = true;         // 12 option bytes per segment
  bool ethernet_framing = true;   // false: only IP bytes are serialized
  // 0-based indices (among data segments, len > 0, retransmissions included)
  // of segments lost after leaving the sender: serialized and reported to the
  // observer (a sender-side capture sees them) but never delivered.
  std::vector<uint64_t> drop_data_segments;
  // ConnectionConfig::data_delay_spread_ns / link_seed (data direction only).
  TimeNs delay_spread_ns = 0;
  // ConnectionConfig::rx_cpu_service_ns / rx_cpu_wakeup_ns (data direction).
  TimeNs rx_cpu_service_ns = 0;
  TimeNs rx_cpu_wakeup_ns = 0;
  uint64_t seed = 1;
  bool record_timing = false;  // ConnectionConfig::record_data_timing
};

// Options for the direction `dir` of a connection.
LinkOptions LinkOptionsFor(const ConnectionConfig& cfg, Direction dir);

class Link {
 public:
  using LookaheadSinkFn = std::function<void(TimeNs arrival, const Segment& seg)>;
  // The same as a plain function and its context (no std::function call).
  using LookaheadSinkPtr = void (*)(void* ctx, TimeNs arrival, const Segment& seg);
  using SinkPtr = void (*)(void* ctx, const Segment& seg);

  // `loop` and `obs` (may be null) must outlive the link. `deliver` may be
  // empty when a lookahead sink is installed.
  Link(EventLoop* loop, uint64_t bps, TimeNs delay, Direction dir, SegmentSinkFn deliver, Observer* obs,
       LinkOptions opts = {});

  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  // Delivers synchronously inside Send() instead of via events (see above).
  void set_lookahead_sink(LookaheadSinkFn sink) {
    lookahead_ = std::move(sink);
    lookahead_ptr_ = nullptr;
  }
  // Replaces the event-mode `deliver` with a plain function and its context.
  void set_deliver_sink(SinkPtr sink, void* ctx) {
    deliver_ = nullptr;
    deliver_ptr_ = sink;
    deliver_ctx_ = ctx;
  }
  // Both directions' receive processing on one CPU's backlog
  // (ConnectionConfig::rps_backlog_on_sender_cpu); replaces the rx_cpu
  // queue. `backlog` must outlive the link.
  void set_rps_backlog(RpsBacklog* backlog) { rps_ = backlog; }
  void set_lookahead_sink(LookaheadSinkPtr sink, void* ctx) {
    lookahead_ = nullptr;
    lookahead_ptr_ = sink;
    lookahead_ctx_ = ctx;
  }

  // Queues `seg` behind the frames already on the link, ready at now().
  // Sets seg.sent_at (first bit), reports it to the observer, delivers it at
  // arrival. Returns the time its last bit leaves (rounded up).
  // Lookahead mode only reads `seg`; event mode moves from it.
  TimeNs Send(Segment&& seg) { return SendAt(loop_->now(), std::move(seg)); }
  // Same, for a frame that becomes ready at `ready` >= now() (the peer's ACK
  // processing latency). Calls must come in non-decreasing `ready` order.
  TimeNs SendAt(TimeNs ready, Segment&& seg);

  // Wire bytes (byte times) one segment occupies.
  uint32_t WireBytes(const Segment& seg) const {
    uint32_t ip = ip_base_bytes_ + seg.len;
    if (!seg.sack.empty()) {
      ip += kTcpSackBaseBytes + kTcpSackPerBlockBytes * static_cast<uint32_t>(seg.sack.size());
    }
    if (!opts_.ethernet_framing) return ip;
    return std::max(ip, kEthMinPayloadBytes) + kEthHeaderFcsBytes + kEthPreambleIfgBytes;
  }

  uint64_t bps() const { return bps_; }
  TimeNs delay() const { return delay_; }
  uint64_t packets() const { return packets_; }
  uint64_t payload_bytes() const { return payload_bytes_; }
  uint64_t data_segments() const { return data_segments_; }
  uint64_t dropped() const { return dropped_; }
  // Time the link becomes idle (last bit of the last queued frame, rounded up).
  TimeNs busy_until() const { return busy_ns_ + (busy_rem_ != 0 ? 1 : 0); }
  // Arrival time at the peer of the last frame sent.
  TimeNs last_arrival() const { return last_arrival_; }
  // (first bit, arrival) of each segment with payload, when recorded.
  const std::vector<std::pair<TimeNs, TimeNs>>& timing() const { return timing_; }

 private:
  // A draw from an exponential of mean `mean_ns` (splitmix64 stream).
  TimeNs DrawExponential(TimeNs mean_ns);
  // When the receiving CPU takes a segment that reaches it at `arrival`
  // (LinkOptions::rx_cpu_*).
  TimeNs RxCpuStart(TimeNs arrival);
  TimeNs rx_cpu_free_at_ = 0;  // the receiving CPU is done with the segments so far
  RpsBacklog* rps_ = nullptr;
  std::vector<std::pair<TimeNs, TimeNs>> timing_;
  struct InFlight {
    EventLoop::Key key;  // arrival time and the event order it was sent in
    Segment seg;
  };
  static void DeliverEvent(void* link) { static_cast<Link*>(link)->DeliverHead(); }
  void DeliverHead();

  EventLoop* loop_;
  uint64_t bps_;
  TimeNs delay_;
  Direction dir_;
  SegmentSinkFn deliver_;
  SinkPtr deliver_ptr_ = nullptr;
  void* deliver_ctx_ = nullptr;
  LookaheadSinkFn lookahead_;
  LookaheadSinkPtr lookahead_ptr_ = nullptr;
  void* lookahead_ctx_ = nullptr;
  Observer* obs_;
  LinkOptions opts_;
  uint32_t ip_base_bytes_;  // IP + TCP headers and the timestamp option
  size_t next_drop_ = 0;  // index into opts_.drop_data_segments (sorted)

  // Exact end of the last frame: busy_ns_ + busy_rem_ / bps_.
  TimeNs busy_ns_ = 0;
  uint64_t busy_rem_ = 0;
  // bits -> (bits * 1e9) / bps_ and % bps_ for the last frame size.
  uint64_t cached_bits_ = 0;
  uint64_t cached_q_ = 0;
  uint64_t cached_r_ = 0;

  // Event mode: segments not yet delivered, and one event for the head.
  RingQueue<InFlight> in_flight_;
  EventLoop::Timer deliver_timer_;

  uint64_t packets_ = 0;
  uint64_t payload_bytes_ = 0;
  uint64_t data_segments_ = 0;
  uint64_t dropped_ = 0;
  TimeNs last_arrival_ = 0;
  ExpDraw rng_;  // the delay spread's and the wakeup's draws
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_LINK_H_
