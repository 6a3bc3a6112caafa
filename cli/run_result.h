#ifndef SENDSIM_CLI_RUN_RESULT_H_
#define SENDSIM_CLI_RUN_RESULT_H_

// What one writer's run produced, as the formatters need it.

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "model/event_loop.h"
#include "model/socket.h"
#include "model/types.h"

namespace sendsim::cli {

inline constexpr int kReasonCount = static_cast<int>(model::PushReason::kCount);

struct SizeCount {
  uint32_t size = 0;
  uint64_t count = 0;
  friend bool operator==(const SizeCount&, const SizeCount&) = default;
};

struct RunResult {
  std::string writer;
  std::string kernel;
  uint32_t mss = 0;                 // sub-MSS means len < mss
  uint64_t packets = 0;             // sender->peer segments carrying payload
  uint64_t sub_mss_packets = 0;
  uint64_t payload_bytes = 0;       // sum of their lengths (retransmissions included)
  uint64_t messages = 0;            // messages fully sent and acknowledged
  uint64_t ack_packets = 0;         // peer->sender segments
  std::map<uint32_t, uint64_t> histogram;  // payload size -> packets
  std::array<uint64_t, kReasonCount> packets_by_reason{};
  std::array<uint64_t, kReasonCount> sub_mss_by_reason{};
  model::Counters counters;
  // Per message, in send order: time from its first socket call to the
  // cumulative ACK of its last byte.
  std::vector<model::TimeNs> completion_ns;
  model::TimeNs duration_ns = 0;    // simulated time of the whole run
};

// Histogram sorted by count descending, then size ascending.
std::vector<SizeCount> SortedHistogram(const RunResult& r);

// Short stable label used in tables, JSON, CSV and traces ("end-of-call", "ack", ...).
absl::string_view ReasonLabel(model::PushReason r);

// Summary of completion times (nearest-rank percentiles); zeros when empty.
struct CompletionStats {
  model::TimeNs p50 = 0;
  model::TimeNs p99 = 0;
  model::TimeNs max = 0;
};
CompletionStats Completion(const RunResult& r);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_RUN_RESULT_H_
