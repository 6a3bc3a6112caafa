// Development entry point; the product command is `sendsim packetdrill`.
#include <cstring>
#include <string>
#include <vector>

#include "packetdrill/main.h"

int main(int argc, char** argv) {
  std::string kernel = "linux-6.8";
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kernel=", 9) == 0) {
      kernel = argv[i] + 9;
    } else {
      files.emplace_back(argv[i]);
    }
  }
  return sendsim::packetdrill::PacketdrillMain(files, kernel);
}
