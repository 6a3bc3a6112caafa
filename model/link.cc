#include "model/link.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace sendsim::model {

LinkOptions LinkOptionsFor(const ConnectionConfig& cfg, Direction dir) {
  LinkOptions o;
  o.timestamps = cfg.timestamps;
  if (dir == Direction::kData) o.drop_data_segments = cfg.drop_data_segments;
  return o;
}

Link::Link(EventLoop* loop, uint64_t bps, TimeNs delay, Direction dir, SegmentSinkFn deliver, Observer* obs,
           LinkOptions opts)
    : loop_(loop),
      bps_(bps),
      delay_(delay),
      dir_(dir),
      obs_(obs),
      opts_(std::move(opts)),
      ip_base_bytes_(kIpTcpHeaderBytes + (opts_.timestamps ? kTcpTimestampOptionBytes : 0)),
      arrivals_(loop, std::move(deliver)) {
  assert(bps_ > 0 && "ValidateConfig rejects link_bps == 0");
  assert(delay_ >= 0);
  std::sort(opts_.drop_data_segments.begin(), opts_.drop_data_segments.end());
  opts_.drop_data_segments.erase(std::unique(opts_.drop_data_segments.begin(), opts_.drop_data_segments.end()),
                                 opts_.drop_data_segments.end());
}

TimeNs Link::SendAt(TimeNs ready, Segment&& seg) {
  if (ready < loop_->now()) ready = loop_->now();
  const TimeNs first_bit = Serialize(ready, seg);
  const TimeNs last_bit = busy_until();
  const TimeNs arrival = last_bit + delay_;
  last_arrival_ = arrival;
  seg.sent_at = first_bit;
  const bool drop = CountAndDrop(seg);
  Report(seg);
  if (wire_sink_ != nullptr) {
    wire_sink_(wire_ctx_, arrival, seg, drop);
    return last_bit;
  }
  if (drop) return last_bit;

  if (lookahead_ptr_ != nullptr) {
    lookahead_ptr_(lookahead_ctx_, arrival, seg);
    return last_bit;
  }
  if (lookahead_) {
    lookahead_(arrival, seg);
    return last_bit;
  }
  // Arrivals are non-decreasing (FIFO, constant delay).
  arrivals_.Push(arrival, std::move(seg));
  return last_bit;
}

TimeNs Link::Serialize(TimeNs ready, const Segment& seg) {
  // Start = max(ready, exact end of the previous frame).
  TimeNs start_ns = busy_ns_;
  uint64_t start_rem = busy_rem_;
  if (ready > busy_ns_ || (ready == busy_ns_ && busy_rem_ == 0)) {
    start_ns = ready;
    start_rem = 0;
  }
  // Serialization time bits * 1e9 / bps ns as quotient + remainder; the last
  // frame size's division is cached (nearly all frames of one direction are
  // the same size), so the common case needs no division.
  const uint64_t bits = static_cast<uint64_t>(WireBytes(seg)) * 8;
  if (bits != cached_bits_) {
    const uint64_t num = bits * static_cast<uint64_t>(kNsPerSec);
    cached_bits_ = bits;
    cached_q_ = num / bps_;
    cached_r_ = num % bps_;
  }
  // rem < 2 * bps; the carry is computed without a branch (it is taken on
  // a data-dependent fraction of frames, so a branch mispredicts).
  uint64_t rem = start_rem + cached_r_;
  const uint64_t carry = rem >= bps_ ? 1 : 0;
  rem -= bps_ & (0 - carry);
  busy_ns_ = start_ns + static_cast<TimeNs>(cached_q_ + carry);
  busy_rem_ = rem;
  return start_ns + (start_rem != 0 ? 1 : 0);
}

bool Link::CountAndDrop(const Segment& seg) {
  ++packets_;
  payload_bytes_ += seg.len;
  if (dir_ != Direction::kData || seg.len == 0) return false;
  const uint64_t idx = data_segments_++;
  const auto& d = opts_.drop_data_segments;
  if (next_drop_ < d.size() && d[next_drop_] == idx) {
    ++next_drop_;
    ++dropped_;
    return true;
  }
  return false;
}

void Link::Report(const Segment& seg) {
  if (obs_ == nullptr) return;
  WirePacket p;
  p.time = seg.sent_at;
  p.dir = dir_;
  p.seq = seg.seq;
  p.ack = seg.ack;
  p.len = seg.len;
  p.flags = seg.flags;
  p.win = seg.win;
  p.reason = seg.reason;
  p.tag = seg.tag;
  p.psh_forced = seg.psh_forced;
  obs_->OnWirePacket(p);
}

}  // namespace sendsim::model
