#ifndef SENDSIM_CLI_HISTOGRAM_OBSERVER_H_
#define SENDSIM_CLI_HISTOGRAM_OBSERVER_H_

#include <array>
#include <cstdint>
#include <vector>

#include "cli/run_result.h"
#include "model/observer.h"

namespace sendsim::cli {

// Counts sender->peer payload segments by size and by the push reason that
// released them. Cheap per packet: array increments only.
class HistogramObserver : public model::Observer {
 public:
  explicit HistogramObserver(uint32_t mss) : mss_(mss) {}

  void OnWirePacket(const model::WirePacket& pkt) override;

  // Fills packets, sub_mss_packets, payload_bytes, ack_packets, mss,
  // histogram and the per-reason arrays of `r`.
  void FillResult(RunResult* r) const;

 private:
  uint32_t mss_;
  std::vector<uint64_t> by_size_;  // index = payload length
  uint64_t packets_ = 0;
  uint64_t sub_mss_ = 0;
  uint64_t payload_bytes_ = 0;
  uint64_t acks_ = 0;
  std::array<uint64_t, kReasonCount> by_reason_{};
  std::array<uint64_t, kReasonCount> sub_mss_by_reason_{};
};

// Forwards every callback to several observers in order.
class TeeObserver : public model::Observer {
 public:
  explicit TeeObserver(std::vector<model::Observer*> observers) : observers_(std::move(observers)) {}
  void OnWirePacket(const model::WirePacket& pkt) override {
    for (model::Observer* o : observers_) o->OnWirePacket(pkt);
  }
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override {
    for (model::Observer* o : observers_) o->OnDeliver(t, seq, data, len);
  }

 private:
  std::vector<model::Observer*> observers_;
};

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_HISTOGRAM_OBSERVER_H_
