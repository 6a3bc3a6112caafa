// `sendsim packetdrill FILE...`: the CLI front end of the packetdrill runner
// (packetdrill/main.h does the work).
#include "cli/subcommands.h"

#include "packetdrill/kernel_run.h"
#include "packetdrill/main.h"
#include "packetdrill/uml_target.h"

namespace sendsim::cli {

int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err) {
  if (options.target == "kernel") {
    if (options.Given("kernel")) {
      err << "sendsim packetdrill: --kernel names a model profile; --target=kernel runs this machine's kernel\n";
      return 2;
    }
    return packetdrill::KernelPacketdrillMain(files, packetdrill::KernelOptions{}, out, err);
  }
  // uml-6.1, uml-6.12: the kernel target inside that kernel as user-mode Linux.
  if (std::optional<std::string> series = packetdrill::UmlSeries(options.target)) {
    if (options.Given("kernel")) {
      err << "sendsim packetdrill: --kernel names a model profile; --target=" << options.target
          << " runs that kernel\n";
      return 2;
    }
    return packetdrill::UmlPacketdrillMain(*series, files, out, err);
  }
  // The runner plays the linux-6.8 profile unless --kernel names another.
  const std::string kernel = options.Given("kernel") ? options.scenario.kernel : "linux-6.8";
  return packetdrill::PacketdrillMain(files, kernel, out, err);
}

}  // namespace sendsim::cli
