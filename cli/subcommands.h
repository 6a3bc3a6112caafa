#ifndef SENDSIM_CLI_SUBCOMMANDS_H_
#define SENDSIM_CLI_SUBCOMMANDS_H_

// Subcommands dispatched on the first positional argument.

#include <ostream>
#include <string>
#include <vector>

#include "cli/flags.h"

namespace sendsim::cli {

// `sendsim packetdrill FILE...`: runs packetdrill scripts on the
// model; `options.scenario.kernel` is the --kernel value when
// options.Given("kernel") (the runner defaults to linux-6.8 otherwise).
// Returns the process exit code (0 only when nothing failed; 2 on bad input).
int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_SUBCOMMANDS_H_
