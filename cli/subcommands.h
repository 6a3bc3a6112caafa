#ifndef SENDSIM_CLI_SUBCOMMANDS_H_
#define SENDSIM_CLI_SUBCOMMANDS_H_

// Subcommands dispatched on the first positional argument.

#include <ostream>
#include <string>
#include <vector>

#include "cli/flags.h"

namespace sendsim::cli {

// `sendsim packetdrill FILE...`: runs packetdrill scripts on the model, on
// `options.scenario.kernel` (the one default profile unless --kernel names
// another). A flag other than --kernel and --target is an error.
// Returns the process exit code (0 only when nothing failed; 2 on bad input).
int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_SUBCOMMANDS_H_
