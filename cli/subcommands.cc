// `sendsim packetdrill FILE...`: the CLI front end of the packetdrill runner
// (packetdrill/main.h does the work).
#include "cli/subcommands.h"

#include "absl/strings/str_format.h"
#include "packetdrill/kernel_run.h"
#include "packetdrill/main.h"
#include "packetdrill/uml_target.h"

namespace sendsim::cli {

namespace {

// The only flags a script run reads; every other flag (a scenario knob, an
// output, --format, ...) would be silently ignored, so it is an error.
bool AppliesToPacketdrill(const std::string& flag) {
  return flag == "kernel" || flag == "target" || flag == "tolerance_usecs" || flag == "tolerance_percent" ||
         flag == "strict_segments" || flag == "record";
}

}  // namespace

int RunPacketdrill(const std::vector<std::string>& files, const CliOptions& options, std::ostream& out,
                   std::ostream& err) {
  for (const std::string& flag : options.given) {
    if (AppliesToPacketdrill(flag)) continue;
    std::string name = flag;
    for (char& c : name) {
      if (c == '_') c = '-';
    }
    err << absl::StrFormat(
        "sendsim packetdrill: --%s does not apply to packetdrill scripts (they set their own sockets, sysctls and "
        "routes; only --kernel, --target, --record and the matching flags --tolerance-usecs, --tolerance-percent "
        "and --strict-segments do)\n",
        name);
    return 2;
  }
  packetdrill::MatchRules rules;
  rules.tolerance_usecs = options.tolerance_usecs;
  rules.tolerance_percent = options.tolerance_percent;
  rules.strict_segments = options.strict_segments;
  rules.record = options.record;
  if (options.target == "kernel") {
    if (options.Given("kernel")) {
      err << "sendsim packetdrill: --kernel names a model profile; --target=kernel runs this machine's kernel\n";
      return 2;
    }
    packetdrill::KernelOptions kopts;
    kopts.rules = rules;
    return packetdrill::KernelPacketdrillMain(files, kopts, out, err);
  }
  // uml-6.1, uml-6.12: the kernel target inside that kernel as user-mode Linux.
  if (std::optional<std::string> series = packetdrill::UmlSeries(options.target)) {
    if (options.Given("kernel")) {
      err << "sendsim packetdrill: --kernel names a model profile; --target=" << options.target
          << " runs that kernel\n";
      return 2;
    }
    return packetdrill::UmlPacketdrillMain(*series, files, rules, out, err);
  }
  // Without --kernel: kDefaultScriptProfile, or a profile the script's
  // "// profiles:" header picks; with it, that profile or a SKIP.
  const bool given = options.Given("kernel");
  const std::string kernel = given ? options.scenario.kernel : std::string(packetdrill::kDefaultScriptProfile);
  return packetdrill::PacketdrillMain(files, kernel, given, out, err, rules);
}

}  // namespace sendsim::cli
