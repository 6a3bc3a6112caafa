#include "packetdrill/main.h"

#include <algorithm>
#include <iostream>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/profile.h"
#include "packetdrill/model_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "packetdrill/script_header.h"
#include "scenario/text_util.h"

namespace sendsim::packetdrill {
namespace {

// One script ready to run: parsed, with the profile it runs on; or the
// one-line reason it is bad input.
struct Prepared {
  std::string bad;  // non-empty: bad input
  Script script;
  std::string profile;
  std::string skip;  // non-empty: the header excludes the --kernel profile
};

Prepared Prepare(const std::string& path, const std::string& kernel, bool kernel_given) {
  Prepared p;
  absl::StatusOr<std::string> text = scenario::ReadFileCapped(path, kMaxScriptBytes, "script");
  if (!text.ok()) {
    p.bad = std::string(text.status().message());
    return p;
  }
  absl::StatusOr<Script> s = ParseScript(path, *text);
  if (!s.ok()) {
    p.bad = std::string(s.status().message());
    return p;
  }
  if (s->events.empty()) {
    p.bad = absl::StrFormat("script %s: no events (an empty or comment-only script checks nothing)",
                            scenario::EscapeForMessage(path));
    return p;
  }
  absl::StatusOr<std::vector<std::string>> profiles = HeaderProfiles(*text);
  if (!profiles.ok()) {
    p.bad = absl::StrFormat("script %s: %s", scenario::EscapeForMessage(path), profiles.status().message());
    return p;
  }
  p.script = *std::move(s);
  p.profile = kernel;
  if (!profiles->empty() && std::find(profiles->begin(), profiles->end(), kernel) == profiles->end()) {
    if (kernel_given) {
      p.skip = absl::StrFormat("written for %s only (its // profiles: header), not %s",
                               absl::StrJoin(*profiles, ", "), kernel);
    } else {
      p.profile = profiles->front();
    }
  }
  return p;
}

}  // namespace

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel) {
  return PacketdrillMain(files, kernel, /*kernel_given=*/true, std::cout, std::cerr);
}

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, std::ostream& out,
                    std::ostream& err) {
  return PacketdrillMain(files, kernel, /*kernel_given=*/true, out, err);
}

int PacketdrillMain(const std::vector<std::string>& files, const std::string& kernel, bool kernel_given,
                    std::ostream& out, std::ostream& err, const MatchRules& rules) {
  absl::StatusOr<model::Profile> profile = model::ProfileByName(kernel);
  if (!profile.ok()) {
    err << "sendsim packetdrill: " << scenario::ErrorLine(profile.status().message()) << "\n";
    return 2;
  }
  if (files.empty()) {
    err << "sendsim packetdrill: no script files given\n";
    return 2;
  }
  const EndpointFactory factory = ModelEndpointFactory();
  int passed = 0, failed = 0, skipped = 0;
  bool bad_input = false;
  for (const std::string& f : files) {
    Prepared p = Prepare(f, kernel, kernel_given);
    const std::string shown = scenario::ErrorLine(f);
    if (!p.bad.empty()) {
      bad_input = true;
      ++failed;
      err << "sendsim packetdrill: " << scenario::ErrorLine(p.bad) << "\n";
      continue;
    }
    if (!p.skip.empty()) {
      ++skipped;
      out << "SKIP " << shown << ": " << p.skip << "\n";
      continue;
    }
    absl::StatusOr<model::Profile> prof = model::ProfileByName(p.profile);
    const Result r = RunParsedScript(p.script, *prof, factory, rules);
    const std::string on = p.profile == kernel ? "" : absl::StrFormat(" (%s)", p.profile);
    switch (r.verdict) {
      case Verdict::kPass:
        ++passed;
        out << "PASS " << shown << on << "\n";
        break;
      case Verdict::kFail:
        ++failed;
        out << "FAIL " << shown << on << ": " << scenario::ErrorLine(r.reason) << "\n";
        break;
      case Verdict::kSkip:
        ++skipped;
        out << "SKIP " << shown << on << ": " << scenario::ErrorLine(r.reason) << "\n";
        break;
    }
    for (const std::string& line : r.sent) out << line << "\n";
  }
  out << absl::StrFormat("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  if (bad_input) return 2;
  return failed == 0 ? 0 : 1;
}

}  // namespace sendsim::packetdrill
