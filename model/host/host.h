#ifndef SENDSIM_MODEL_HOST_HOST_H_
#define SENDSIM_MODEL_HOST_HOST_H_

// Where the two hosts run the connection's work: which CPU takes receive
// processing, softirq transmits and ACKs, what waits in a backlog, and how
// long a sleeping reader takes to wake. The TCP model (socket, xmit, NIC,
// link, peer protocol) does not depend on these choices; the host layer
// places its work in time.
//
// The default, every field zero or false, is the plain host the CLI and the
// property tests use: a NIC that completes TX `tx_completion_ns` after a
// segment's last bit, receive processing on CPUs of its own (it takes no
// time from the sender) and a reader that never sleeps. A software testbed
// (a veth pair with RPS steered to one CPU) is described by setting them;
// named presets for a testbed belong to the code that measures it, not here.
//
// The socket call's own CPU (ConnectionConfig::call_cost_ns) and the NIC's
// completion delay (tx_completion_ns) stay connection parameters: every
// front end sets them, plain host or not.

#include <cstdint>

#include "model/event_loop.h"

namespace sendsim::model {

struct HostConfig {
  // A software path (veth) instead of a NIC: the skb stays charged to the
  // socket until the receiving stack takes it (ip_rcv_core orphans it), so
  // TX completion counts tx_completion_ns from the segment's arrival at the
  // peer, not from its last bit.
  bool tx_completion_at_arrival = false;
  // A tun device instead of a NIC: tun_net_xmit orphans the skb the moment
  // the device takes it (skb_orphan -> tcp_wfree), so sk_wmem_alloc never
  // holds a sent skb: TSQ and autocorking see nothing in the qdisc/device.
  // The link still serializes and delivers the segments as without it;
  // tx_completion_ns and tx_completion_at_arrival then do not apply.
  bool tx_orphan_at_xmit = false;
  // Extra delay of each data segment before the peer processes it, drawn
  // from an exponential distribution with this mean (seeded by link_seed,
  // order kept: a segment never overtakes the one before it). Stands for a
  // receive backlog drained when its CPU gets to it; 0: none. Simplified:
  // one distribution, no correlation with what that CPU runs.
  TimeNs data_delay_spread_ns = 0;
  // In its place, the receiving CPU as a queue: each data segment waits for
  // the segments before it, rx_cpu_service_ns each, and one that finds the
  // CPU idle waits for it to wake up, a draw from an exponential of mean
  // rx_cpu_wakeup_ns (an IPI to a halted vCPU). So the delay is shared by a
  // whole burst, not drawn per segment. Either > 0 turns it on
  // (data_delay_spread_ns is then ignored).
  TimeNs rx_cpu_service_ns = 0;
  TimeNs rx_cpu_wakeup_ns = 0;
  // RPS steers both directions to the sender's own CPU: one backlog takes
  // the data segments and the ACKs (host/rps_backlog.h). The sender's
  // transmits are taken inline at rx_cpu_service_ns each, unless an ACK the
  // reader sent from its own CPU has scheduled the backlog: then they wait
  // for that CPU's IPI, an exponential of mean rx_cpu_wakeup_ns. Replaces
  // the rx_cpu queue's wakeup on idle; needs rx_cpu_service_ns or
  // rx_cpu_wakeup_ns > 0.
  bool rps_backlog_on_sender_cpu = false;
  // CPU per segment the caller's own context transmits (tcp_transmit_skb ->
  // ip_output -> software GSO -> dev_queue_xmit), added to the hold of the
  // call that sends it, release_sock included: a call that only queues bytes
  // costs call_cost_ns, one that sends three segments call_cost_ns + 3 x this.
  // With xmit_softirq_on_sender_cpu, segments sent from softirq context (an
  // ACK or TSQ completion handled on the sender's CPU) take it from the
  // caller too (host/cpu_steal.h). 0: every call costs call_cost_ns.
  TimeNs xmit_cost_ns = 0;
  bool xmit_softirq_on_sender_cpu = false;
  // Softirq work that shares the sending application's CPU (host/cpu_steal.h):
  // per ACK the sender processes (tcp_v4_rcv -> tcp_ack), and per data segment
  // the receiver processes when its receive path runs on that CPU too.
  // 0: receive work runs elsewhere.
  TimeNs sender_softirq_ack_ns = 0;
  TimeNs sender_softirq_peer_rx_ns = 0;
  // The peer's rate-limited reader sleeps (in poll) once it has read
  // everything; data arriving then wakes it this much later (the
  // scheduler's wakeup latency), so its next read takes what accumulated
  // meanwhile. A reader that finds data left after a read continues at once.
  TimeNs app_read_wakeup_ns = 0;

  friend bool operator==(const HostConfig&, const HostConfig&) = default;

  // Receive processing waits on a modelled CPU (queue or backlog).
  bool has_rx_cpu() const { return rx_cpu_service_ns > 0 || rx_cpu_wakeup_ns > 0; }
  // Some softirq work is charged to the sender's CPU (host/cpu_steal.h).
  bool steals_sender_cpu() const {
    return sender_softirq_ack_ns > 0 || sender_softirq_peer_rx_ns > 0 ||
           (xmit_cost_ns > 0 && xmit_softirq_on_sender_cpu);
  }
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HOST_HOST_H_
