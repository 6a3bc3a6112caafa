#include "cli/histogram_observer.h"

namespace sendsim::cli {

void HistogramObserver::OnWirePacket(const model::WirePacket& pkt) {
  if (pkt.dir != model::Direction::kData) {
    ++acks_;
    return;
  }
  if (pkt.len == 0) return;  // pure ACK/SYN/FIN from the sender: not a data packet
  if (pkt.len >= by_size_.size()) by_size_.resize(pkt.len + 1);
  ++by_size_[pkt.len];
  ++packets_;
  payload_bytes_ += pkt.len;
  const int reason = static_cast<int>(pkt.reason) < kReasonCount ? static_cast<int>(pkt.reason)
                                                                  : static_cast<int>(model::PushReason::kControl);
  ++by_reason_[reason];
  if (pkt.len < mss_) {
    ++sub_mss_;
    ++sub_mss_by_reason_[reason];
  }
}

void HistogramObserver::FillResult(RunResult* r) const {
  r->mss = mss_;
  r->packets = packets_;
  r->sub_mss_packets = sub_mss_;
  r->payload_bytes = payload_bytes_;
  r->ack_packets = acks_;
  r->histogram.clear();
  for (size_t len = 0; len < by_size_.size(); ++len) {
    if (by_size_[len] != 0) r->histogram[static_cast<uint32_t>(len)] = by_size_[len];
  }
  r->packets_by_reason = by_reason_;
  r->sub_mss_by_reason = sub_mss_by_reason_;
}

}  // namespace sendsim::cli
