// Development entry point; the product command is `sendsim packetdrill`.
//   packetdrill_run [--kernel=PROFILE] [MATCH FLAGS] FILE...          on the model
//   packetdrill_run --target=kernel [MATCH FLAGS] FILE...              on this machine's kernel (root)
// MATCH FLAGS: --tolerance_usecs=N --tolerance_percent=P --strict_segments --record
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "packetdrill/kernel_run.h"
#include "packetdrill/main.h"

int main(int argc, char** argv) {
  std::string kernel(sendsim::packetdrill::kDefaultScriptProfile);
  bool kernel_given = false;
  std::string target = "model";
  sendsim::packetdrill::MatchRules rules;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool ok = true;
    if (a.rfind("--kernel=", 0) == 0) {
      kernel = a.substr(9);
      kernel_given = true;
    } else if (a.rfind("--target=", 0) == 0) {
      target = a.substr(9);
    } else if (a.rfind("--tolerance_usecs=", 0) == 0) {
      ok = absl::SimpleAtoi(a.substr(18), &rules.tolerance_usecs) && rules.tolerance_usecs >= 0;
    } else if (a.rfind("--tolerance_percent=", 0) == 0) {
      ok = absl::SimpleAtod(a.substr(20), &rules.tolerance_percent) && rules.tolerance_percent >= 0 &&
           rules.tolerance_percent <= 100;
    } else if (a == "--strict_segments") {
      rules.strict_segments = true;
    } else if (a == "--record") {
      rules.record = true;
    } else if (a.rfind("--", 0) == 0) {
      ok = false;
    } else {
      files.push_back(a);
    }
    if (!ok) {
      std::cerr << "packetdrill_run: bad flag '" << a << "'\n";
      return 2;
    }
  }
  if (target == "kernel") {
    sendsim::packetdrill::KernelOptions kopts;
    kopts.rules = rules;
    return sendsim::packetdrill::KernelPacketdrillMain(files, kopts, std::cout, std::cerr);
  }
  if (target != "model") {
    std::cerr << "packetdrill_run: unknown --target '" << target << "' (model or kernel)\n";
    return 2;
  }
  return sendsim::packetdrill::PacketdrillMain(files, kernel, kernel_given, std::cout, std::cerr, rules);
}
