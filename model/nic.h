#ifndef SENDSIM_MODEL_NIC_H_
#define SENDSIM_MODEL_NIC_H_

// The sender's qdisc and NIC: what happens to an skb clone after
// tcp_transmit_skb hands it to IP (dev_queue_xmit -> pfifo -> driver).
//
// - qdisc: pfifo, unlimited (TSQ keeps the queue short; txqueuelen drops are
//   not modelled). The qdisc and the NIC ring together are one FIFO, which is
//   the Link's own serialization queue, so Transmit hands segments straight
//   to the link.
// - cfg.tso: the NIC cuts the skb into gso_size segments (tcp_gso_segment /
//   hardware TSO: PSH and FIN only on the last segment, ACK on all); one TX
//   completion for the whole skb, cfg.tx_completion_ns after its last bit.
// - !cfg.tso: software GSO before the driver (validate_xmit_skb): every
//   segment is its own skb and completes on its own. The skb's truesize is
//   split over the segments in proportion to their payload (the completions
//   sum to the skb's truesize exactly). The kernel instead gives each segment
//   its real truesize and charges the difference to sk_wmem_alloc at
//   segmentation time (tcp_gso_segment); deliberate simplification.
//
// on_complete(truesize) is the sender's tcp_wfree; it runs from an EventLoop
// event at the completion time, never synchronously inside Transmit --
// except on a tun (HostConfig::tx_orphan_at_xmit): tun_net_xmit's
// skb_orphan runs tcp_wfree for the whole skb inside the transmit, so
// Transmit calls on_complete before it returns and nothing stays pending.
// Completions of one Nic run in transmission order.

#include <cstdint>

#include "model/config.h"
#include "model/event_loop.h"
#include "model/host/host_stage.h"
#include "model/link.h"
#include "model/wire.h"

namespace sendsim::model {

class Nic {
 public:
  // `loop` and `link` must outlive the Nic.
  Nic(EventLoop* loop, const ConnectionConfig& cfg, Link* link, TxCompletionFn on_complete);

  Nic(const Nic&) = delete;
  Nic& operator=(const Nic&) = delete;

  // Enqueues the clone; segments leave back to back behind earlier frames.
  void Transmit(const XmitSkb& skb);
  // A software path (veth, HostConfig::tx_completion_at_arrival): the skb
  // stays charged to the socket until the receiving stack takes it
  // (ip_rcv_core orphans it), so tx_completion_ns counts from the time
  // `receiver` takes the segment, not from its last bit. `receiver` takes
  // this Nic's link's segments and must outlive the Nic.
  void CompleteWhenTaken(const HostStage* receiver) { receiver_ = receiver; }

  uint64_t skbs() const { return skbs_; }
  uint64_t segments() const { return segments_; }
  // Truesize handed over and not yet completed.
  uint64_t pending_truesize() const { return pending_truesize_; }

 private:
  struct Completion {
    EventLoop::Key key;  // completion time and the event order it was queued in
    uint32_t truesize = 0;
  };
  static void CompleteEvent(void* nic) { static_cast<Nic*>(nic)->Complete(); }
  void QueueCompletion(TimeNs at, uint32_t truesize);
  void Complete();

  EventLoop* loop_;
  bool tso_;
  // What tx_completion_ns counts from: the last bit, or (veth) the time the
  // receiving host took the segment (CompleteWhenTaken).
  TimeNs CompletionBase(TimeNs last_bit) const { return receiver_ != nullptr ? receiver_->last_taken() : last_bit; }
  TimeNs tx_completion_ns_;
  const HostStage* receiver_ = nullptr;
  bool orphan_at_xmit_;  // tun: tcp_wfree inside Transmit (tun_net_xmit -> skb_orphan)
  Link* link_;
  TxCompletionFn on_complete_;
  RingQueue<Completion> completions_;  // in time order
  EventLoop::Timer completion_timer_;  // the head's event
  uint64_t skbs_ = 0;
  uint64_t segments_ = 0;
  uint64_t pending_truesize_ = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_NIC_H_
