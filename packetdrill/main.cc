#include "packetdrill/main.h"

#include <iostream>

#include "absl/strings/str_format.h"
#include "model/profile.h"
#include "packetdrill/model_endpoint.h"
#include "packetdrill/runner.h"

namespace sendsim::packetdrill {

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel) {
  return PacketdrillMain(files, kernel, std::cout, std::cerr);
}

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, std::ostream& out,
                    std::ostream& err) {
  return PacketdrillMain(files, kernel, MatchRules{}, out, err);
}

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, const MatchRules& rules,
                    std::ostream& out, std::ostream& err) {
  absl::StatusOr<model::Profile> profile = model::ProfileByName(kernel);
  if (!profile.ok()) {
    err << "sendsim packetdrill: " << profile.status().message() << "\n";
    return 2;
  }
  if (files.empty()) {
    err << "sendsim packetdrill: no script files given\n";
    return 2;
  }
  const EndpointFactory factory = ModelEndpointFactory();
  int passed = 0, failed = 0, skipped = 0;
  for (const std::string& f : files) {
    Result r = RunScript(f, *profile, factory, rules);
    switch (r.verdict) {
      case Verdict::kPass:
        ++passed;
        out << "PASS " << f << "\n";
        break;
      case Verdict::kFail:
        ++failed;
        out << "FAIL " << f << ": " << r.reason << "\n";
        break;
      case Verdict::kSkip:
        ++skipped;
        out << "SKIP " << f << ": " << r.reason << "\n";
        break;
    }
  }
  out << absl::StrFormat("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed == 0 ? 0 : 1;
}

}  // namespace sendsim::packetdrill
