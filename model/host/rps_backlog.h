#ifndef SENDSIM_MODEL_HOST_RPS_BACKLOG_H_
#define SENDSIM_MODEL_HOST_RPS_BACKLOG_H_

#include <cstdint>

#include "model/event_loop.h"
#include "model/exp_draw.h"

namespace sendsim::model {

// The receive backlog of the CPU that RPS steers both directions of a veth
// pair to, when the sending application runs on that CPU too, as a 6.18
// softirq trace shows it
// (enqueue_to_backlog, napi_schedule_rps, net_rps_send_ipi):
//  - a packet this CPU enqueues itself (the sender's own transmit, an ACK
//    the receiving socket sends from softirq here) raises NET_RX, and the
//    softirq that local_bh_enable runs at the end of the transmit takes it
//    at once, one service time per packet;
//  - unless another CPU has already scheduled this backlog: then the local
//    enqueue raises nothing, and the packet waits for that CPU's RPS IPI,
//    sent when its softirq ends;
//  - a packet another CPU enqueues (an ACK the reading application sends
//    from its own CPU) schedules an idle backlog that way: it is taken at
//    the IPI, a draw of mean `ipi_mean_ns` after it was queued.
// A backlog already busy takes every packet in order. Simplified: the IPI
// delay is one exponential draw (it is the other CPU's softirq plus the
// VM's IPI latency), the softirq's 2 ms/300-packet budget is not modelled,
// and calls may come slightly out of time order (the links' lookahead);
// each is served after the work taken on before it.
class RpsBacklog {
 public:
  RpsBacklog(TimeNs service_ns, TimeNs ipi_mean_ns, uint64_t seed)
      : service_ns_(service_ns), ipi_mean_ns_(ipi_mean_ns), rng_(seed) {}

  // When the CPU takes a packet this CPU enqueued at `t`.
  TimeNs Local(TimeNs t);
  // When it takes a packet another CPU enqueued at `t`.
  TimeNs Remote(TimeNs t);

  uint64_t ipis() const { return ipis_; }

 private:
  TimeNs Take(TimeNs start);

  TimeNs service_ns_;
  TimeNs ipi_mean_ns_;
  ExpDraw rng_;
  TimeNs free_at_ = 0;   // done with the packets taken on so far
  TimeNs ipi_at_ = -1;   // a pending IPI from the other CPU (-1: none)
  uint64_t ipis_ = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HOST_RPS_BACKLOG_H_
