// Reserved dispatch for issue 7; the packetdrill runner replaces this file.
#include "cli/subcommands.h"

namespace sendsim::cli {

int RunPacketdrill(const std::vector<std::string>& /*files*/, const CliOptions& /*options*/, std::ostream& /*out*/,
                   std::ostream& err) {
  err << "sendsim: packetdrill: not implemented yet\n";
  return 2;
}

}  // namespace sendsim::cli
