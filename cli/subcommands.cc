// `sendsim packetdrill FILE...`: the CLI front end of the packetdrill runner
// (packetdrill/main.h does the work).
#include "cli/subcommands.h"

#include "packetdrill/main.h"

namespace sendsim::cli {

int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err) {
  // The runner plays the linux-6.8 profile unless --kernel names another.
  const std::string kernel = options.Given("kernel") ? options.scenario.kernel : "linux-6.8";
  return packetdrill::PacketdrillMain(files, kernel, out, err);
}

}  // namespace sendsim::cli
