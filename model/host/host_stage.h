#ifndef SENDSIM_MODEL_HOST_HOST_STAGE_H_
#define SENDSIM_MODEL_HOST_HOST_STAGE_H_

// The receiving host of one direction, between the wire and the protocol:
// it takes each segment off a Link (Link::set_wire_sink) at its arrival and
// hands it to the receiver (the peer for data, the socket's ACK path for
// ACKs) at the time the host gets to it:
//  - plain host: at arrival;
//  - data_delay_spread_ns: arrival plus an exponential draw per data
//    segment, never before the segment ahead of it;
//  - rx_cpu_service_ns / rx_cpu_wakeup_ns: the receiving CPU as a queue (a
//    segment waits for the ones ahead of it, or for an idle CPU to wake);
//  - an RpsBacklog (both directions on the sender's CPU): its Local/Remote
//    times, shared by the two stages.
// It also reports the softirq work of each segment it hands on to the
// sender's CPU (HostCpu), and keeps the (first bit, handed-on time) of data
// segments when asked (ConnectionConfig::record_data_timing).
//
// A segment the link lost still takes its place (its draw, its CPU service
// time) and its timing entry, and is then discarded: loss then leaves the
// other segments' draws where a lossless run puts them. Simplification: a
// lost frame costs the receiving CPU nothing in Linux.

#include <cstdint>
#include <utility>
#include <vector>

#include "model/event_loop.h"
#include "model/exp_draw.h"
#include "model/host/host.h"
#include "model/host/host_cpu.h"
#include "model/host/rps_backlog.h"
#include "model/link.h"
#include "model/wire.h"

namespace sendsim::model {

class HostStage {
 public:
  // Synchronous receiver (the peer): gets each segment inside the link's
  // Send(), with the time the host takes it (lookahead, see model/link.h).
  using LookaheadSinkPtr = Link::LookaheadSinkPtr;
  using SinkPtr = ArrivalQueue::SinkPtr;

  struct Options {
    TimeNs delay_spread_ns = 0;    // HostConfig::data_delay_spread_ns
    TimeNs rx_cpu_service_ns = 0;  // HostConfig::rx_cpu_service_ns
    TimeNs rx_cpu_wakeup_ns = 0;   // HostConfig::rx_cpu_wakeup_ns
    uint64_t seed = 1;             // ConnectionConfig::link_seed
    bool record_timing = false;    // ConnectionConfig::record_data_timing
  };
  // The placement of direction `dir`: data segments get the receiving
  // host's spread or CPU queue, ACKs only the RPS backlog.
  static Options OptionsFor(const HostConfig& host, uint64_t seed, bool record_timing, Direction dir);

  // `loop` must outlive the stage. Delivers by events (at the placed time)
  // unless a lookahead sink is set.
  HostStage(EventLoop* loop, Direction dir, Options opts);
  HostStage(const HostStage&) = delete;
  HostStage& operator=(const HostStage&) = delete;

  // Takes `link`'s segments (its wire sink); the link must not outlive it.
  void Attach(Link* link) { link->set_wire_sink(&HostStage::OnWireThunk, this); }
  void set_lookahead_sink(LookaheadSinkPtr sink, void* ctx) {
    lookahead_ = sink;
    lookahead_ctx_ = ctx;
  }
  void set_deliver_sink(SinkPtr sink, void* ctx) { arrivals_.set_sink(sink, ctx); }
  // Both directions' receive processing on one CPU's backlog; replaces the
  // rx_cpu queue. `backlog` must outlive the stage.
  void set_rps_backlog(RpsBacklog* backlog) { rps_ = backlog; }
  // The sender's CPU, charged for the softirq work of each segment handed
  // on (may be null: it runs elsewhere).
  void set_host_cpu(HostCpu* cpu) { cpu_ = cpu; }

  // A segment off the wire at `arrival`; `lost`: the link dropped it.
  void OnWire(TimeNs arrival, Segment& seg, bool lost);

  // When the host took the last segment (arrival, for a plain host).
  TimeNs last_taken() const { return last_taken_; }
  // (first bit, taken) of each segment with payload, when recorded.
  const std::vector<std::pair<TimeNs, TimeNs>>& timing() const { return timing_; }

 private:
  static void OnWireThunk(void* stage, TimeNs arrival, Segment& seg, bool lost) {
    static_cast<HostStage*>(stage)->OnWire(arrival, seg, lost);
  }
  // When the receiving host takes a segment arriving at `arrival`.
  TimeNs Place(TimeNs arrival, const Segment& seg);
  // When the receiving CPU takes a segment that reaches it at `arrival`
  // (Options::rx_cpu_*).
  TimeNs RxCpuStart(TimeNs arrival);
  void ChargeSoftirq(TimeNs at, const Segment& seg);

  EventLoop* loop_;
  Direction dir_;
  Options opts_;
  RpsBacklog* rps_ = nullptr;
  HostCpu* cpu_ = nullptr;
  LookaheadSinkPtr lookahead_ = nullptr;
  void* lookahead_ctx_ = nullptr;
  ArrivalQueue arrivals_;
  ExpDraw rng_;  // the delay spread's and the wakeup's draws
  TimeNs rx_cpu_free_at_ = 0;  // the receiving CPU is done with the segments so far
  TimeNs last_taken_ = 0;
  std::vector<std::pair<TimeNs, TimeNs>> timing_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HOST_HOST_STAGE_H_
