#include "model/link.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace sendsim::model {

LinkOptions LinkOptionsFor(const ConnectionConfig& cfg, Direction dir) {
  LinkOptions o;
  o.timestamps = cfg.timestamps;
  if (dir == Direction::kData) {
    o.drop_data_segments = cfg.drop_data_segments;
    o.delay_spread_ns = cfg.host.data_delay_spread_ns;
    o.rx_cpu_service_ns = cfg.host.rx_cpu_service_ns;
    o.rx_cpu_wakeup_ns = cfg.host.rx_cpu_wakeup_ns;
    o.seed = cfg.link_seed;
    o.record_timing = cfg.record_data_timing;
  }
  return o;
}

Link::Link(EventLoop* loop, uint64_t bps, TimeNs delay, Direction dir, SegmentSinkFn deliver, Observer* obs,
           LinkOptions opts)
    : loop_(loop),
      bps_(bps),
      delay_(delay),
      dir_(dir),
      deliver_(std::move(deliver)),
      obs_(obs),
      opts_(std::move(opts)),
      ip_base_bytes_(kIpTcpHeaderBytes + (opts_.timestamps ? kTcpTimestampOptionBytes : 0)),
      deliver_timer_(loop, &Link::DeliverEvent, this),
      rng_(opts_.seed) {
  assert(bps_ > 0 && "ValidateConfig rejects link_bps == 0");
  assert(delay_ >= 0);
  std::sort(opts_.drop_data_segments.begin(), opts_.drop_data_segments.end());
  opts_.drop_data_segments.erase(std::unique(opts_.drop_data_segments.begin(), opts_.drop_data_segments.end()),
                                 opts_.drop_data_segments.end());
}

TimeNs Link::SendAt(TimeNs ready, Segment&& seg) {
  if (ready < loop_->now()) ready = loop_->now();
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
  const TimeNs end_ns = start_ns + static_cast<TimeNs>(cached_q_ + carry);
  busy_ns_ = end_ns;
  busy_rem_ = rem;
  const TimeNs first_bit = start_ns + (start_rem != 0 ? 1 : 0);
  const TimeNs last_bit = busy_ns_ + (busy_rem_ != 0 ? 1 : 0);
  TimeNs arrival = last_bit + delay_;
  if (rps_ != nullptr) {
    // The sender transmits data from its own CPU; ACKs come from softirq
    // there too, or from the reader's CPU.
    const bool remote = dir_ == Direction::kAck && seg.from_reader;
    arrival = std::max(remote ? rps_->Remote(arrival) : rps_->Local(arrival), last_arrival_);
  } else if (opts_.rx_cpu_service_ns > 0 || opts_.rx_cpu_wakeup_ns > 0) {
    arrival = std::max(RxCpuStart(arrival), last_arrival_);
  } else if (opts_.delay_spread_ns > 0) {
    // FIFO: a later segment is never processed before an earlier one.
    if (seg.len > 0) arrival += DrawExponential(opts_.delay_spread_ns);
    arrival = std::max(arrival, last_arrival_);
  }
  last_arrival_ = arrival;
  seg.sent_at = first_bit;
  if (opts_.record_timing && seg.len > 0) timing_.emplace_back(first_bit, arrival);

  ++packets_;
  payload_bytes_ += seg.len;
  bool drop = false;
  if (dir_ == Direction::kData && seg.len > 0) {
    const uint64_t idx = data_segments_++;
    const auto& d = opts_.drop_data_segments;
    if (next_drop_ < d.size() && d[next_drop_] == idx) {
      drop = true;
      ++next_drop_;
      ++dropped_;
    }
  }

  if (obs_ != nullptr) {
    WirePacket p;
    p.time = first_bit;
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
  if (drop) return last_bit;

  if (lookahead_ptr_ != nullptr) {
    lookahead_ptr_(lookahead_ctx_, arrival, seg);
    return last_bit;
  }
  if (lookahead_) {
    lookahead_(arrival, seg);
    return last_bit;
  }
  // The segment's delivery sorts where ScheduleAt(arrival) would put it now.
  // Arrivals are non-decreasing (FIFO, constant delay) and later keys have
  // later sequence numbers, so the keys in in_flight_ increase and the head's
  // event is always the next one due.
  const EventLoop::Key key = loop_->ReserveKey(arrival);
  InFlight& slot = in_flight_.next_slot();
  slot.key = key;
  slot.seg = std::move(seg);
  if (!deliver_timer_.pending()) deliver_timer_.ArmAtKey(key);
  return last_bit;
}

// A segment reaching an idle CPU waits for it to wake; one reaching a busy
// CPU waits for the segments ahead of it (process_backlog takes them in
// order). Either way the CPU is then busy for one service time.
TimeNs Link::RxCpuStart(TimeNs arrival) {
  TimeNs start;
  if (arrival >= rx_cpu_free_at_) {
    start = arrival + (opts_.rx_cpu_wakeup_ns > 0 ? DrawExponential(opts_.rx_cpu_wakeup_ns) : 0);
  } else {
    start = rx_cpu_free_at_;
  }
  rx_cpu_free_at_ = start + opts_.rx_cpu_service_ns;
  return start;
}

TimeNs Link::DrawExponential(TimeNs mean_ns) { return rng_.Draw(mean_ns); }

void Link::DeliverHead() {
  InFlight f = std::move(in_flight_.front());
  in_flight_.pop_front();
  // Re-arm before delivering: the sink may send on this link again.
  if (!in_flight_.empty()) deliver_timer_.ArmAtKey(in_flight_.front().key);
  if (deliver_ptr_ != nullptr) {
    deliver_ptr_(deliver_ctx_, f.seg);
  } else if (deliver_) {
    deliver_(f.seg);
  }
}

}  // namespace sendsim::model
