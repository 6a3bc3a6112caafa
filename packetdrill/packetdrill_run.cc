// Development entry point; the product command is `sendsim packetdrill`.
//   packetdrill_run [--kernel=PROFILE] FILE...          on the model
//   packetdrill_run --target=kernel [--min_tolerance_usecs=N] FILE...
//                                                       on this machine's kernel (root)
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "packetdrill/kernel_run.h"
#include "packetdrill/main.h"
#include "model/profile.h"

int main(int argc, char** argv) {
  std::string kernel(sendsim::model::kDefaultProfile);
  bool kernel_given = false;
  std::string target = "model";
  sendsim::packetdrill::KernelOptions kopts;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kernel=", 9) == 0) {
      kernel = argv[i] + 9;
      kernel_given = true;
    } else if (std::strncmp(argv[i], "--target=", 9) == 0) {
      target = argv[i] + 9;
    } else if (std::strncmp(argv[i], "--min_tolerance_usecs=", 22) == 0) {
      kopts.min_tolerance_us = std::atoll(argv[i] + 22);
    } else {
      files.emplace_back(argv[i]);
    }
  }
  if (target == "kernel") return sendsim::packetdrill::KernelPacketdrillMain(files, kopts, std::cout, std::cerr);
  if (target != "model") {
    std::cerr << "packetdrill_run: unknown --target '" << target << "' (model or kernel)\n";
    return 2;
  }
  return sendsim::packetdrill::PacketdrillMain(files, kernel, kernel_given, std::cout, std::cerr);
}
