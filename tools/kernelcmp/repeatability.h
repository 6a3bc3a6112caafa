#ifndef SENDSIM_TOOLS_KERNELCMP_REPEATABILITY_H_
#define SENDSIM_TOOLS_KERNELCMP_REPEATABILITY_H_

// The comparison's headline verdict: the kernel's own repeatability as the
// yardstick. Two recordings of the same cell (this invocation's, or
// --kernel_json's, and --reference_json's) show how far the kernel moves
// between invocations on the same machine; the model passes a cell when
// each of its figures lies within that movement:
//   - sub-MSS packets per message inside the union of the two recordings'
//     run ranges [min(min), max(max)];
//   - at each of ranks 1-3, the model's most frequent size is the size one
//     of the recordings has at that rank ("none" counts when a recording
//     has fewer sizes);
//   - the total variation distance of the model's size distribution from
//     this recording's at most the distance between the two recordings.
// The per-recording goal (report.h, JudgeGoal) asks for more than the kernel
// delivers against itself; this verdict asks for no more. A model change or
// a new calibration knob earns its place by passing more cells here, on
// recordings it was not fitted to.

#include <optional>
#include <string>
#include <vector>

#include "tools/kernelcmp/report.h"

namespace sendsim::kernelcmp {

struct RepeatabilityVerdict {
  double band_min = 0;  // sub-MSS packets per message, both recordings' runs
  double band_max = 0;
  bool inside_band = false;
  bool top3_seen = false;  // every rank's size is one a recording has there
  double tvd = 1;          // model vs this recording
  double tvd_tolerance = 0;  // the reference recording vs this one
  bool tvd_within = false;
  bool met() const { return inside_band && top3_seen && tvd_within; }
};

// nullopt when either recording has no valid run.
std::optional<RepeatabilityVerdict> JudgeRepeatability(const CellSummary& kernel, const CellSummary& reference,
                                                       double sub_mss_per_msg, const SizeHistogram& sizes);
// The model's verdict for a cell: nullopt without a model or a reference.
std::optional<RepeatabilityVerdict> ModelRepeatability(const Cell& c, const Workload& w);

// The table's column: "yes", the failing parts ("band", "top3", "tvd"), or "n/a".
std::string RepeatabilityCell(const std::optional<RepeatabilityVerdict>& v);
// The headline line: cells passed and each part; without any reference, a
// line saying the verdict needs --reference_json.
std::string FormatRepeatabilitySummary(const std::vector<Cell>& cells, const Workload& w);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_REPEATABILITY_H_
