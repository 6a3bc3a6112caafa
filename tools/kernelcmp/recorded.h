#ifndef SENDSIM_TOOLS_KERNELCMP_RECORDED_H_
#define SENDSIM_TOOLS_KERNELCMP_RECORDED_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/kernelcmp/report.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// The kernel side of one cell, read back from an earlier --json_out.
struct RecordedCell {
  Variant variant = Variant::kV1Splice;
  IoMode io = IoMode::kNonBlocking;
  Placement placement = Placement::kSenderCpu;
  CellSummary kernel;
};

// Parses FormatJson's output (the kernel_* fields; model fields ignored) for
// the workload `w` it was measured with, TSO on or off (both checked against
// each entry's `workload`; bytes per read follow from it).
// Cells without valid runs are skipped. A missing or mistyped field is an
// error naming the entry and the field.
absl::StatusOr<std::vector<RecordedCell>> ParseRecordedJson(absl::string_view json, const Workload& w, bool tso);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_RECORDED_H_
