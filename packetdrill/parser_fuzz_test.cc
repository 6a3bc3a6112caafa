// Robustness of the parser: on any input it returns a Script or a one-line
// error "path:line: message"; it never crashes or hangs. Checked with a
// RapidCheck property over arbitrary bytes, over mutations of valid scripts,
// and by replaying the corpus in testdata/fuzz/packetdrill (plus our own
// scripts, which must parse).

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "packetdrill/parser.h"
#include "packetdrill/testing/passive_open.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"

namespace sendsim::packetdrill {
namespace {

// Empty string when the result is acceptable, else what is wrong.
std::string CheckResult(const absl::StatusOr<Script>& s) {
  if (s.ok()) return "";
  static const std::regex kShape(R"(^fuzz\.pkt:[0-9]+: [^\n]+$)");
  std::string msg(s.status().message());
  if (!std::regex_match(msg, kShape)) return "malformed error: " + msg;
  return "";
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::filesystem::path> FilesUnder(const std::string& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().filename() != "BUILD") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A script with every kind of line: options, a command, the passive open,
// calls, packets, ranges, code, comments.
std::string Seed() {
  return std::string(R"(--tolerance_usecs=10000
`../common/defaults.sh`
)") + testing::kPassiveOpen + R"(   +0 sendmsg(4, {msg_name(...)=..., msg_iov(1)=[{..., 1000}], msg_flags=0}, MSG_MORE) = 1000
+.2~+.21 > P. 1:1001(1000) ack 1 <nop,nop,TS val 1 ecr 2>
+0...0.5 write(4, ..., 100) = -1 EAGAIN (Resource temporarily unavailable)
   +0 %{ assert tcpi_snd_cwnd == 10 }%
   +0 `sysctl -q net.ipv4.tcp_autocorking=0`
   * > . 1:1(0) ack 1 <...>  // comment
/* block */
`echo cleanup`
)";
}

RC_GTEST_PROP(ParserFuzz, ArbitraryBytesNeverCrash, (const std::string& bytes)) {
  std::string why = CheckResult(ParseScript("fuzz.pkt", bytes));
  RC_ASSERT(why.empty());
}

// Mostly script-like characters, so that inputs get past the lexer.
RC_GTEST_PROP(ParserFuzz, ScriptAlphabetNeverCrashes, ()) {
  const std::string alphabet = "0123456789.+-*~:,=|()[]{}<>`%/ \n\t\"SFRPUEW.ackwinurgmsnopTSvalecrsackOK...";
  std::string text = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
  std::string why = CheckResult(ParseScript("fuzz.pkt", text));
  RC_ASSERT(why.empty());
}

RC_GTEST_PROP(ParserFuzz, MutatedValidScriptsNeverCrash, ()) {
  std::string text = Seed();
  int n = *rc::gen::inRange(1, 6);
  for (int i = 0; i < n; ++i) {
    size_t at = *rc::gen::inRange<size_t>(0, text.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0: {  // delete a range
        size_t len = *rc::gen::inRange<size_t>(0, 20);
        text.erase(at, len);
        break;
      }
      case 1: {  // insert arbitrary bytes
        text.insert(at, *rc::gen::container<std::string>(rc::gen::arbitrary<char>()));
        break;
      }
      case 2: {  // duplicate a chunk elsewhere
        size_t len = *rc::gen::inRange<size_t>(0, 40);
        std::string chunk = text.substr(at, len);
        text.insert(*rc::gen::inRange<size_t>(0, text.size()), chunk);
        break;
      }
      default: {  // replace one character with a structural one
        if (at < text.size()) text[at] = *rc::gen::elementOf(std::string("()<>[]{}`%.:,=+~*\"/\n0"));
        break;
      }
    }
  }
  std::string why = CheckResult(ParseScript("fuzz.pkt", text));
  RC_ASSERT(why.empty());
}

TEST(ParserFuzz, SeedParses) { EXPECT_TRUE(ParseScript("fuzz.pkt", Seed()).ok()); }

TEST(ParserFuzz, CorpusReplay) {
  std::vector<std::filesystem::path> files = FilesUnder("testdata/fuzz/packetdrill");
  ASSERT_GE(files.size(), 10u) << "corpus missing from runfiles";
  for (const auto& f : files) {
    std::string why = CheckResult(ParseScript("fuzz.pkt", ReadFile(f)));
    EXPECT_TRUE(why.empty()) << f << ": " << why;
  }
}

TEST(ParserFuzz, OurScriptsParse) {
  std::vector<std::filesystem::path> files = FilesUnder("testdata/packetdrill");
  size_t scripts = 0;
  for (const auto& f : files) {
    if (f.extension() != ".pkt") continue;
    ++scripts;
    absl::StatusOr<Script> s = ParseScriptFile(f.string());
    EXPECT_TRUE(s.ok()) << s.status();
  }
  EXPECT_GE(scripts, 1u);
}

}  // namespace
}  // namespace sendsim::packetdrill
