#include "props/run_case.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace sendsim::props {

absl::StatusOr<Outcome> RunCase(const Case& c) {
  if (absl::Status st = ValidateCase(c); !st.ok()) return st;
  return absl::UnimplementedError("RunCase: model/messenger not merged yet");
}

}  // namespace sendsim::props
