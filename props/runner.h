#ifndef SENDSIM_PROPS_RUNNER_H_
#define SENDSIM_PROPS_RUNNER_H_

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "props/case.h"
#include "props/outcome.h"

namespace sendsim::props {

// What a run must produce. kFull: everything, the delivered stream decoded
// and compared with what was queued. kWire: the wire only (packets, ACKs,
// completion, trace hash, invariants), without payload bytes or decoder:
// for the runs of properties that read nothing else (lower bound,
// optimality, dominance, the map), where copying and decoding the payload
// was most of a run's time (perf, 2026-12-04). The model's payload tracking
// changes no packet (model/send.cc, write_xmit.cc), and
// run_case_test checks that both depths give the same trace hash.
enum class RunDepth : uint8_t { kFull, kWire };

// Properties call the model through this type (RunCase in production, fakes
// in the logic tests), so that only binaries link the model.
using Runner = std::function<absl::StatusOr<Outcome>(const Case&, RunDepth)>;

// Liveness horizon: a run that has not completed by then has stalled. 30 s
// simulated, plus one round trip for every segment the layout can take
// (twice its v1 bytes in 536-byte segments): with the cwnd clamped to 1 and
// a long RTT a case legitimately sends one segment per round trip (found by
// exploration: cwnd_clamp=1, 82 ms RTT, 400 segments = 33 s).
inline constexpr int64_t kLivenessHorizonNs = 30'000'000'000;  // the fixed part
inline int64_t LivenessHorizonNs(const Case& c) {
  const uint64_t segments = 2 * V1WireBytes(c.layout) / 536 + 2;
  return kLivenessHorizonNs + static_cast<int64_t>(segments) * static_cast<int64_t>(c.net.rtt_ns);
}

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_RUNNER_H_
