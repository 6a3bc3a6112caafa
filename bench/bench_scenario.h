#ifndef SENDSIM_BENCH_BENCH_SCENARIO_H_
#define SENDSIM_BENCH_BENCH_SCENARIO_H_

// The model-only benchmark's run, shared with the trace-hash test that
// guards it: 10 GbE, RTT 50 us, calls of 1 us, TX completion 5 us after the
// last bit, a peer that decides on every segment at once (no GRO, no ACK
// latency).

#include "model/event_loop.h"
#include "scenario/scenario.h"

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

}  // namespace sendsim::bench

#endif  // SENDSIM_BENCH_BENCH_SCENARIO_H_
