// Tests of keepalive.cc on the model socket (ModelEndpointFactory: the
// keepalive timer reads the model's rcv_tstamp). Times worked out by hand
// from tcp_keepalive_timer's rules; each test also checks that a wrong
// expectation fails.

#include "packetdrill/keepalive.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/profile.h"
#include "packetdrill/model_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "packetdrill/testing/passive_open.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

Result RunPassive(const std::string& body) {
  const std::string text = std::string("`../common/defaults.sh`\n") + testing::kPassiveOpen + body;
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  absl::StatusOr<model::Profile> p = model::ProfileByName("linux-6.12");
  if (!p.ok()) return {Verdict::kFail, std::string(p.status().message())};
  return RunParsedScript(*s, *p, ModelEndpointFactory());
}

// SO_KEEPALIVE on the connection at 0.1 s arms the timer TCP_KEEPIDLE (2 s,
// set first: no timer yet) later: 2.1 s, a probe at snd_una - 1. Unanswered,
// TCP_KEEPINTVL (3 s) later the count (1) has reached TCP_KEEPCNT (1): RST
// at snd_nxt, then ETIMEDOUT.
constexpr char kOneProbe[] = R"(
   +0 setsockopt(4, SOL_TCP, TCP_KEEPIDLE, [2], 4) = 0
   +0 setsockopt(4, SOL_TCP, TCP_KEEPINTVL, [3], 4) = 0
   +0 setsockopt(4, SOL_TCP, TCP_KEEPCNT, [1], 4) = 0
   +0 setsockopt(4, SOL_SOCKET, SO_KEEPALIVE, [1], 4) = 0
   +2 > . 0:0(0) ack 1
)";

TEST(KeepaliveTest, ResetAfterKeepcntProbes) {
  Result r = RunPassive(std::string(kOneProbe) + R"(
   +3 > R. 1:1(0) ack 1
  +.1 read(4, ..., 100) = -1 ETIMEDOUT (Connection timed out)
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(KeepaliveTest, ResetNotBeforeTheInterval) {
  Result r = RunPassive(std::string(kOneProbe) + R"(
   +2 > R. 1:1(0) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
}

// The peer's answer at 2.5 s clears the count and restarts the idle time:
// at 5.1 s the idle time is 2.6 s >= 2 s and no probe is out: another probe
// instead of the RST.
TEST(KeepaliveTest, AnswerClearsTheCount) {
  Result r = RunPassive(std::string(kOneProbe) + R"(
  +.4 < . 1:1(0) ack 1 win 257
  +2.6 > . 0:0(0) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result wrong = RunPassive(std::string(kOneProbe) + R"(
  +.4 < . 1:1(0) ack 1 win 257
  +2.6 > R. 1:1(0) ack 1
)");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
}

// TCP_KEEPIDLE on a running keepalive re-arms it for the new idle time less
// the idle time so far: set to 1 s at 0.6 s (0.5 s idle), the probe comes at
// 1.1 s, not 7200 s after the SO_KEEPALIVE call.
TEST(KeepaliveTest, KeepidleReArmsFromTheIdleTime) {
  Result r = RunPassive(R"(
   +0 setsockopt(4, SOL_SOCKET, SO_KEEPALIVE, [1], 4) = 0
  +.5 setsockopt(4, SOL_TCP, TCP_KEEPIDLE, [1], 4) = 0
  +.5 > . 0:0(0) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// Range checks and the sysctl fallback (getsockopt in seconds).
TEST(KeepaliveTest, RangesAndSysctls) {
  Result r = RunPassive(R"(
   +0 setsockopt(4, SOL_TCP, TCP_KEEPCNT, [128], 4) = -1 EINVAL (Invalid argument)
   +0 setsockopt(4, SOL_TCP, TCP_KEEPINTVL, [0], 4) = -1 EINVAL (Invalid argument)
   +0 `sysctl -q net.ipv4.tcp_keepalive_intvl=5`
   +0 getsockopt(4, SOL_TCP, TCP_KEEPINTVL, [5], [4]) = 0
   +0 getsockopt(4, SOL_TCP, TCP_KEEPCNT, [9], [4]) = 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result wrong = RunPassive(R"(
   +0 getsockopt(4, SOL_TCP, TCP_KEEPIDLE, [75], [4]) = 0
)");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_THAT(wrong.reason, HasSubstr("7200"));
}

}  // namespace
}  // namespace sendsim::packetdrill
