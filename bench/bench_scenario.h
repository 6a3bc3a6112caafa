#ifndef SENDSIM_BENCH_BENCH_SCENARIO_H_
#define SENDSIM_BENCH_BENCH_SCENARIO_H_

// The model-only benchmark's run, shared with the trace-hash test that
// guards it: 10 GbE, RTT 50 us, calls of 1 us, TX completion 5 us after the
// last bit, a peer that decides on every segment at once (no GRO, no ACK
// latency).

#include <cstdint>
#include <memory>

#include "model/event_loop.h"
#include "model/testing/stream_writer.h"
#include "scenario/scenario.h"
#include "scenario/simulation.h"

namespace sendsim::bench {

inline scenario::Scenario BenchScenario() {
  scenario::Scenario s;
  s.call_cost_ns = 1 * model::kNsPerUs;
  s.tx_completion_ns = 5 * model::kNsPerUs;
  s.gro = scenario::GroMode::kOff;
  s.gro_flush_ns = 0;
  s.ack_proc_ns = 0;
  return s;
}

// model::testing::StreamWriter as the run's application: `messages` of
// `shape`, one call every call cost + 500 ns.
class StreamApp : public scenario::Application {
 public:
  StreamApp(model::testing::MessageShape shape, uint64_t messages) : shape_(shape), messages_(messages) {}
  absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile&,
                                           const model::ConnectionConfig& cfg) override {
    loop_ = loop;
    gap_ns_ = cfg.call_cost_ns + 500;
    return nullptr;
  }
  absl::Status Start(model::Connection* conn) override {
    writer_ = std::make_unique<model::testing::StreamWriter>(loop_, &conn->socket(), shape_, messages_, gap_ns_);
    writer_->Start();
    return absl::OkStatus();
  }
  bool done() const { return writer_ != nullptr && writer_->done(); }

 private:
  model::testing::MessageShape shape_;
  uint64_t messages_;
  model::EventLoop* loop_ = nullptr;
  model::TimeNs gap_ns_ = 0;
  std::unique_ptr<model::testing::StreamWriter> writer_;
};

}  // namespace sendsim::bench

#endif  // SENDSIM_BENCH_BENCH_SCENARIO_H_
