// docs/packetdrill-support.md lists the runner's skip reasons in the words
// the runner prints: every reason written in the runner's sources (the
// literal passed to a Skip or an UnimplementedError) must appear there.

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The reasons in one source file, as printed (location prefixes and printf
// escapes undone; the placeholders stay).
std::vector<std::string> Reasons(const std::string& src) {
  static const std::regex kReason(
      R"re((?:Skip\([^;"]*?|UnimplementedError\(\s*(?:absl::StrFormat\()?)"((?:[^"\\]|\\.)*)")re");
  std::vector<std::string> out;
  for (std::sregex_iterator it(src.begin(), src.end(), kReason), end; it != end; ++it) {
    std::string t = (*it)[1].str();
    for (size_t at; (at = t.find("\\\"")) != std::string::npos;) t.replace(at, 2, "\"");
    for (size_t at; (at = t.find("%%")) != std::string::npos;) t.replace(at, 2, "%");
    if (t.rfind("%s:%d: ", 0) == 0) t = t.substr(7);
    if (std::regex_search(std::regex_replace(t, std::regex("%[sdux]"), ""), std::regex("[A-Za-z]"))) out.push_back(t);
  }
  return out;
}

TEST(DocsTest, EverySkipReasonIsInTheSupportDoc) {
  const std::string doc = ReadFile("docs/packetdrill-support.md");
  ASSERT_FALSE(doc.empty());
  const std::vector<std::string> sources = {
      "asserts.cc", "code.cc",     "config.cc",    "inject.cc",       "kernel_calls.cc", "kernel_script.cc",
      "match.cc",   "runner.cc",   "run_state.cc", "socket_config.cc", "syscalls.cc",     "syscalls_files.cc",
      "syscalls_sockopt.cc", "syscalls_epoll.cc", "reset.cc", "syscalls_recvmsg.cc", "recvmsg_args.cc",
      "kernel_recvmsg.cc", "icmp.cc", "icmp_names.cc"};
  std::set<std::string> all;
  for (const std::string& f : sources) {
    const std::string src = ReadFile("packetdrill/" + f);
    ASSERT_FALSE(src.empty()) << f;
    for (const std::string& r : Reasons(src)) {
      all.insert(r);
      EXPECT_NE(doc.find(r), std::string::npos)
          << "packetdrill/" << f << " skips with \"" << r
          << "\", which docs/packetdrill-support.md does not list (add it under \"Skip reasons, as printed\")";
    }
  }
  EXPECT_GE(all.size(), 50u);  // the extraction still finds the reasons
}

}  // namespace
}  // namespace sendsim::packetdrill
