#ifndef SENDSIM_REALSOCK_COMPARE_H_
#define SENDSIM_REALSOCK_COMPARE_H_

// The kernel's figures beside the model's for the same workload: the
// recording format (JSON, committed under testdata/realsock/), the model's
// side recomputed from the scenario, and the table.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "scenario/scenario.h"

namespace sendsim::realsock {

// What one writer put on the wire: first transmissions with payload, per MSS.
struct Figures {
  std::string writer;
  uint64_t messages = 0;
  uint64_t packets = 0;
  uint64_t sub_mss = 0;         // payload < MSS
  uint64_t retransmitted = 0;   // kernel only (not in packets)
  std::map<uint32_t, uint64_t> sizes;
  // Socket-level detail of the kernel run (FdSocketStats), for the record.
  uint64_t notlast_buffers = 0;
  uint64_t spliced_buffers = 0;
  uint64_t eagains = 0;
  double SubMssPerMessage() const { return messages == 0 ? 0 : static_cast<double>(sub_mss) / messages; }
  friend bool operator==(const Figures&, const Figures&) = default;
};

struct Recording {
  std::string kernel;       // uname -r of the kernel the sockets ran on
  std::string profile;      // the model profile compared with
  uint64_t messages = 0;
  bool shaped = true;       // netem gave the path the scenario's RTT and rate
  std::vector<Figures> kernel_runs;
  std::vector<Figures> model_runs;
};

// The default scenario (README) cut to `messages`, every writer on `profile`
// (so the flags and calls are the ones that kernel can take), one seed.
scenario::Scenario ComparisonScenario(const std::string& profile, uint64_t messages,
                                      const std::vector<std::string>& writers);

// The model's figures for one writer of `s` (its first seed).
absl::StatusOr<Figures> ModelFigures(const scenario::Scenario& s, const std::string& writer);

std::string RecordingToJson(const Recording& r);
absl::StatusOr<Recording> RecordingFromJson(absl::string_view text);

// The comparison table: per writer, packets, sub-MSS per message and the five
// commonest sizes, kernel beside model.
std::string FormatComparison(const Recording& r);

// The `n` commonest sizes, count descending, then size ascending.
std::vector<std::pair<uint32_t, uint64_t>> TopSizes(const std::map<uint32_t, uint64_t>& sizes, size_t n);

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_COMPARE_H_
