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
// The link is only the wire: what the receiving host does with a segment
// (which CPU takes it, when) is the host stage's (model/host/host_stage.h),
// which takes the segments off the link through set_wire_sink.
//
// Delivery modes:
//  - event mode (default): `deliver` runs at the arrival time (last bit +
//    delay) from an EventLoop event, with loop->now() == arrival
//    (ArrivalQueue below).
//  - lookahead mode (set_lookahead_sink): the sink runs synchronously inside
//    Send() and gets the arrival time explicitly. Only valid for a sink whose
//    state nobody else touches and whose outputs leave through another Link
//    (the Peer): then processing early gives exactly the state evolution of
//    per-segment events, because every segment with arrival <= T was sent
//    (and so processed) before loop time T (arrival > send time). See
//    Peer::OnSegmentAt for the peer side of that argument.
//  - wire sink (set_wire_sink): like lookahead, for every segment, the lost
//    ones included (flagged), so that the next stage decides what a segment
//    costs the receiving host even when it never gets there.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/constants.h"
#include "model/event_loop.h"
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

// Segments handed on at their arrival times, one EventLoop event each. Each
// delivery sorts where ScheduleAt(arrival) would have put it when it was
// queued; arrivals must be non-decreasing (a FIFO), so the keys increase and
// only the head's event needs to be in the loop's queue (no heap allocation
// per packet when payload/SACK vectors are empty).
class ArrivalQueue {
 public:
  using SinkPtr = void (*)(void* ctx, const Segment& seg);

  // `loop` must outlive the queue.
  ArrivalQueue(EventLoop* loop, SegmentSinkFn deliver)
      : loop_(loop), deliver_(std::move(deliver)), timer_(loop, &ArrivalQueue::DeliverEvent, this) {}
  ArrivalQueue(const ArrivalQueue&) = delete;
  ArrivalQueue& operator=(const ArrivalQueue&) = delete;

  // Replaces `deliver` with a plain function and its context.
  void set_sink(SinkPtr sink, void* ctx) {
    deliver_ = nullptr;
    deliver_ptr_ = sink;
    deliver_ctx_ = ctx;
  }
  // Delivers `seg` (moved from) at `arrival`, after the segments queued before.
  void Push(TimeNs arrival, Segment&& seg) {
    const EventLoop::Key key = loop_->ReserveKey(arrival);
    InFlight& slot = in_flight_.next_slot();
    slot.key = key;
    slot.seg = std::move(seg);
    if (!timer_.pending()) timer_.ArmAtKey(key);
  }

 private:
  struct InFlight {
    EventLoop::Key key;  // arrival time and the event order it was queued in
    Segment seg;
  };
  static void DeliverEvent(void* q) { static_cast<ArrivalQueue*>(q)->DeliverHead(); }
  void DeliverHead() {
    InFlight f = std::move(in_flight_.front());
    in_flight_.pop_front();
    // Re-arm before delivering: the sink may queue again.
    if (!in_flight_.empty()) timer_.ArmAtKey(in_flight_.front().key);
    if (deliver_ptr_ != nullptr) {
      deliver_ptr_(deliver_ctx_, f.seg);
    } else if (deliver_) {
      deliver_(f.seg);
    }
  }

  EventLoop* loop_;
  SegmentSinkFn deliver_;
  SinkPtr deliver_ptr_ = nullptr;
  void* deliver_ctx_ = nullptr;
  RingQueue<InFlight> in_flight_;
  EventLoop::Timer timer_;
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
};

// Options for the direction `dir` of a connection.
LinkOptions LinkOptionsFor(const ConnectionConfig& cfg, Direction dir);

class Link {
 public:
  using LookaheadSinkFn = std::function<void(TimeNs arrival, const Segment& seg)>;
  // The same as a plain function and its context (no std::function call).
  using LookaheadSinkPtr = void (*)(void* ctx, TimeNs arrival, const Segment& seg);
  using SinkPtr = ArrivalQueue::SinkPtr;
  // Every segment at its arrival (last bit + delay), `lost` when the link
  // drops it; the sink may move from `seg`.
  using WireSinkPtr = void (*)(void* ctx, TimeNs arrival, Segment& seg, bool lost);

  // `loop` and `obs` (may be null) must outlive the link. `deliver` may be
  // empty when a lookahead or wire sink is installed.
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
  void set_deliver_sink(SinkPtr sink, void* ctx) { arrivals_.set_sink(sink, ctx); }
  void set_lookahead_sink(LookaheadSinkPtr sink, void* ctx) {
    lookahead_ = nullptr;
    lookahead_ptr_ = sink;
    lookahead_ctx_ = ctx;
  }
  // Hands every segment to `sink` inside Send() (see above); replaces the
  // other sinks.
  void set_wire_sink(WireSinkPtr sink, void* ctx) {
    wire_sink_ = sink;
    wire_ctx_ = ctx;
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
  // Arrival time (last bit + delay) of the last frame sent.
  TimeNs last_arrival() const { return last_arrival_; }

 private:
  // Puts a frame of `seg`'s size on the wire at max(ready, end of the previous
  // frame); returns its first bit and advances busy_ns_/busy_rem_.
  TimeNs Serialize(TimeNs ready, const Segment& seg);
  // Counts the frame; true when it is one of the data segments to drop.
  bool CountAndDrop(const Segment& seg);
  void Report(const Segment& seg);

  EventLoop* loop_;
  uint64_t bps_;
  TimeNs delay_;
  Direction dir_;
  LookaheadSinkFn lookahead_;
  LookaheadSinkPtr lookahead_ptr_ = nullptr;
  void* lookahead_ctx_ = nullptr;
  WireSinkPtr wire_sink_ = nullptr;
  void* wire_ctx_ = nullptr;
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

  // Event mode: segments not yet delivered.
  ArrivalQueue arrivals_;

  uint64_t packets_ = 0;
  uint64_t payload_bytes_ = 0;
  uint64_t data_segments_ = 0;
  uint64_t dropped_ = 0;
  TimeNs last_arrival_ = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_LINK_H_
