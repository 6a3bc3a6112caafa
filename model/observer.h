#ifndef SENDSIM_MODEL_OBSERVER_H_
#define SENDSIM_MODEL_OBSERVER_H_

#include <cstdint>

#include "model/types.h"

namespace sendsim::model {

// Receives what a run produces. Histogram, trace, pcap writer and the
// receiving decoder are observers; the model never formats output itself.
class Observer {
 public:
  virtual ~Observer() = default;
  // Every packet on the wire, both directions, in time order per direction.
  virtual void OnWirePacket(const WirePacket& /*pkt*/) {}
  // In-order payload delivered to the peer's receive queue (rcv_nxt advanced
  // over [seq, seq+len)). `data` is null when payload is not tracked.
  virtual void OnDeliver(TimeNs /*t*/, uint32_t /*seq*/, const uint8_t* /*data*/, uint32_t /*len*/) {}
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_OBSERVER_H_
