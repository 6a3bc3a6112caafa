#include "model/host/host_stage.h"

#include <algorithm>
#include <utility>

namespace sendsim::model {

HostStage::Options HostStage::OptionsFor(const HostConfig& host, uint64_t seed, bool record_timing,
                                         Direction dir) {
  Options o;
  if (dir == Direction::kData) {
    o.delay_spread_ns = host.data_delay_spread_ns;
    o.rx_cpu_service_ns = host.rx_cpu_service_ns;
    o.rx_cpu_wakeup_ns = host.rx_cpu_wakeup_ns;
    o.seed = seed;
    o.record_timing = record_timing;
  }
  return o;
}

HostStage::HostStage(EventLoop* loop, Direction dir, Options opts)
    : loop_(loop), dir_(dir), opts_(opts), arrivals_(loop, SegmentSinkFn()), rng_(opts.seed) {}

void HostStage::OnWire(TimeNs arrival, Segment& seg, bool lost) {
  const TimeNs taken = Place(arrival, seg);
  last_taken_ = taken;
  if (opts_.record_timing && seg.len > 0) timing_.emplace_back(seg.sent_at, taken);
  if (lost) return;
  ChargeSoftirq(taken, seg);
  if (lookahead_ != nullptr) {
    lookahead_(lookahead_ctx_, taken, seg);
    return;
  }
  // Taken times never decrease (each is at least the one before), so the
  // deliveries stay a FIFO.
  arrivals_.Push(taken, std::move(seg));
}

TimeNs HostStage::Place(TimeNs arrival, const Segment& seg) {
  if (rps_ != nullptr) {
    // The sender transmits data from its own CPU; ACKs come from softirq
    // there too, or from the reader's CPU.
    const bool remote = dir_ == Direction::kAck && seg.from_reader;
    return std::max(remote ? rps_->Remote(arrival) : rps_->Local(arrival), last_taken_);
  }
  if (opts_.rx_cpu_service_ns > 0 || opts_.rx_cpu_wakeup_ns > 0) {
    return std::max(RxCpuStart(arrival), last_taken_);
  }
  if (opts_.delay_spread_ns > 0) {
    // FIFO: a later segment is never processed before an earlier one.
    if (seg.len > 0) arrival += rng_.Draw(opts_.delay_spread_ns);
    return std::max(arrival, last_taken_);
  }
  return arrival;
}

// A segment reaching an idle CPU waits for it to wake; one reaching a busy
// CPU waits for the segments ahead of it (process_backlog takes them in
// order). Either way the CPU is then busy for one service time.
TimeNs HostStage::RxCpuStart(TimeNs arrival) {
  TimeNs start;
  if (arrival >= rx_cpu_free_at_) {
    start = arrival + (opts_.rx_cpu_wakeup_ns > 0 ? rng_.Draw(opts_.rx_cpu_wakeup_ns) : 0);
  } else {
    start = rx_cpu_free_at_;
  }
  rx_cpu_free_at_ = start + opts_.rx_cpu_service_ns;
  return start;
}

// The softirq that takes the segment: the sender's own ACK processing, or
// the receiver's processing of a data segment (only segments with payload:
// the receiver's pure ACK-path input is not charged).
void HostStage::ChargeSoftirq(TimeNs at, const Segment& seg) {
  if (cpu_ == nullptr) return;
  if (dir_ == Direction::kAck) {
    cpu_->ChargeAckRx(at);
  } else if (seg.len > 0) {
    cpu_->ChargePeerRx(at);
  }
}

}  // namespace sendsim::model
