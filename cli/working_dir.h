#ifndef SENDSIM_CLI_WORKING_DIR_H_
#define SENDSIM_CLI_WORKING_DIR_H_

#include "absl/status/status.h"

namespace sendsim::cli {

// `bazel run` starts a binary inside its runfiles tree and passes the
// directory the user ran it from in BUILD_WORKING_DIRECTORY. Relative paths
// on the command line (scenario files, packetdrill scripts, --pcap/--trace
// outputs, fixtures saved by explore) mean the user's directory, so binaries
// change there first. Without the variable (binary run directly) nothing
// changes.
absl::Status EnterUserWorkingDirectory();

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_WORKING_DIR_H_
