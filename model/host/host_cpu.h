#ifndef SENDSIM_MODEL_HOST_HOST_CPU_H_
#define SENDSIM_MODEL_HOST_HOST_CPU_H_

// The sending application's CPU, as the socket and the host stages see it:
// what transmitting costs (HostConfig::xmit_cost_ns per segment) and the
// softirq work other parts of the host run on it (CpuSteal). The protocol
// code asks for costs and reports its work here; which work lands on the
// sender's CPU is this class's decision, from the HostConfig.

#include <cstdint>

#include "model/event_loop.h"
#include "model/host/cpu_steal.h"
#include "model/host/host.h"

namespace sendsim::model {

class HostCpu {
 public:
  // Softirq work goes to the sender's CPU as `host` places it.
  explicit HostCpu(const HostConfig& host) : HostCpu(host, host.steals_sender_cpu()) {}
  // A socket on its own (no connection around it): its calls cost
  // xmit_cost_ns per segment, and no softirq work is charged anywhere.
  static HostCpu CallerOnly(const HostConfig& host) { return HostCpu(host, false); }

  // CPU time of transmitting `segs` segments from the caller's context; 0
  // unless xmit_cost_ns is set.
  TimeNs XmitCost(uint32_t segs) const { return xmit_cost_ns_ * segs; }
  bool xmit_costs() const { return xmit_cost_ns_ != 0; }
  // A transmit of `segs` segments from softirq context at `now` (an ACK or a
  // TSQ completion): only the sender's CPU is modelled, so it costs something
  // only when that softirq runs there (xmit_softirq_on_sender_cpu).
  void ChargeSoftirqXmit(TimeNs now, uint32_t segs) {
    if (steals_ && xmit_softirq_) steal_.Charge(now, XmitCost(segs));
  }
  // The sender's receive softirq for an ACK taken at `at` (tcp_v4_rcv ->
  // tcp_ack), on the application's CPU, owned or not.
  void ChargeAckRx(TimeNs at) {
    if (steals_) steal_.Charge(at, ack_rx_ns_);
  }
  // The receiver's softirq for a data segment taken at `at`, when the
  // receive path shares the sender's CPU.
  void ChargePeerRx(TimeNs at) {
    if (steals_) steal_.Charge(at, peer_rx_ns_);
  }
  // Softirq time taken from the sender's CPU at times <= `now`.
  TimeNs StolenUpTo(TimeNs now) { return steals_ ? steal_.StolenUpTo(now) : 0; }

 private:
  HostCpu(const HostConfig& host, bool steals)
      : steals_(steals),
        xmit_softirq_(host.xmit_softirq_on_sender_cpu),
        xmit_cost_ns_(host.xmit_cost_ns),
        ack_rx_ns_(host.sender_softirq_ack_ns),
        peer_rx_ns_(host.sender_softirq_peer_rx_ns) {}

  bool steals_;
  bool xmit_softirq_;
  TimeNs xmit_cost_ns_;
  TimeNs ack_rx_ns_;
  TimeNs peer_rx_ns_;
  CpuSteal steal_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HOST_HOST_CPU_H_
