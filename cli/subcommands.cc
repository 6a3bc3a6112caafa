// `sendsim packetdrill FILE...`: the CLI front end of the packetdrill runner
// (packetdrill/main.h does the work).
#include "cli/subcommands.h"

#include "packetdrill/kernel_run.h"
#include "packetdrill/main.h"

namespace sendsim::cli {

int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err) {
  packetdrill::MatchRules rules;
  rules.tolerance_usecs = options.tolerance_usecs;
  rules.tolerance_percent = options.tolerance_percent;
  rules.strict_segments = options.strict_segments;
  if (options.target == "kernel") {
    if (options.Given("kernel")) {
      err << "sendsim packetdrill: --kernel names a model profile; --target=kernel runs this machine's kernel\n";
      return 2;
    }
    packetdrill::KernelOptions kopts;
    kopts.rules = rules;
    return packetdrill::KernelPacketdrillMain(files, kopts, out, err);
  }
  // The runner plays the linux-6.8 profile unless --kernel names another.
  const std::string kernel = options.Given("kernel") ? options.scenario.kernel : "linux-6.8";
  return packetdrill::PacketdrillMain(files, kernel, rules, out, err);
}

}  // namespace sendsim::cli
