#include "model/host/rps_backlog.h"

#include <algorithm>

namespace sendsim::model {

TimeNs RpsBacklog::Take(TimeNs start) {
  start = std::max(start, free_at_);
  free_at_ = start + service_ns_;
  return start;
}

// enqueue_to_backlog from this CPU: with the backlog NAPI not yet scheduled
// it raises NET_RX and the transmit's local_bh_enable runs it; scheduled by
// the other CPU (IPI pending), the packet waits for that IPI.
TimeNs RpsBacklog::Local(TimeNs t) {
  if (ipi_at_ >= t && free_at_ <= t) return Take(ipi_at_);
  return Take(t);
}

// enqueue_to_backlog from the other CPU (rps_ipi_queued): a backlog busy or
// already scheduled takes the packet with the rest; an idle one gets the IPI.
TimeNs RpsBacklog::Remote(TimeNs t) {
  if (free_at_ > t) return Take(t);
  if (ipi_at_ < t) {
    ipi_at_ = t + rng_.Draw(ipi_mean_ns_);
    ++ipis_;
  }
  return Take(ipi_at_);
}

}  // namespace sendsim::model
