#ifndef SENDSIM_PACKETDRILL_UML_TARGET_H_
#define SENDSIM_PACKETDRILL_UML_TARGET_H_

// The uml-6.1 and uml-6.12 targets: the kernel target (kernel_run.h) run
// inside Linux 6.1 or 6.12 built as user-mode Linux in virtual time
// (tools/uml/). This binary re-runs itself as `packetdrill --target=kernel
// FILE...` inside the kernel through tools/uml/run.sh; the guest's verdict
// lines and exit status become ours. Virtual time makes the run
// deterministic: two runs print the same bytes.

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "packetdrill/outbound.h"

namespace sendsim::packetdrill {

// "uml-6.1" -> "6.1", "uml-6.12" -> "6.12"; nullopt for any other target.
std::optional<std::string> UmlSeries(std::string_view target);

// The targets UmlSeries accepts, for messages.
std::vector<std::string> UmlTargetNames();

// tools/uml/run.sh: $SENDSIM_UML_RUN if set, else from this binary's
// runfiles (bazel run/test, or bazel-bin/... run directly).
absl::StatusOr<std::string> FindUmlLauncher();

// `sendsim packetdrill --target=uml-SERIES FILE...`. Exit codes: the guest
// run's (0 nothing failed, 1 a FAIL, 2 bad input), 77 when the kernel cannot
// run here (reason on `err`).
// `rules` (the command line's matching flags and --record) are passed on.
int UmlPacketdrillMain(const std::string& series, const std::vector<std::string>& files, const MatchRules& rules,
                       std::ostream& out, std::ostream& err);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_UML_TARGET_H_
