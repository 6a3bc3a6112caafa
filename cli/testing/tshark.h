#ifndef SENDSIM_CLI_TESTING_TSHARK_H_
#define SENDSIM_CLI_TESTING_TSHARK_H_

// Reading sendsim's pcap files back with tshark in tests.

#include <cstdio>
#include <cstdlib>
#include <string>

namespace sendsim::cli::testing {

inline bool HaveTshark() { return std::system("command -v tshark >/dev/null 2>&1") == 0; }

// The command's standard output ("" when it cannot start).
inline std::string RunCommand(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace sendsim::cli::testing

#endif  // SENDSIM_CLI_TESTING_TSHARK_H_
