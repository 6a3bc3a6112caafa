// Tests of teardown.cc against FakeEndpoint (every write leaves at once as
// one skb; no retransmissions). Expectations follow from the Linux rules
// cited in teardown.cc, worked out by hand: no data is sent, so our FIN is
// 1:1 and acknowledged by ack 2; the peer's FIN is 1:1, our ACK of it ack 2.

#include "packetdrill/teardown.h"

#include <string>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "packetdrill/fake_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "packetdrill/testing/passive_open.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

Result RunPassive(const std::string& body, const std::string& header = "`../common/defaults.sh`\n") {
  absl::StatusOr<Script> s = ParseScript("t.pkt", header + testing::kPassiveOpen + body);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  model::Profile p;
  p.name = "test";
  return RunParsedScript(*s, p, FakeEndpointFactory({}));
}

// close() then the peer's FIN with the ACK of ours: TIME_WAIT.
constexpr char kTimeWait[] = R"(
   +0 close(4) = 0
   +0 > F. 1:1(0) ack 1
 +.01 < F. 1:1(0) ack 2 win 257
   +0 > . 2:2(0) ack 2
)";

// tcp_timewait_state_process: a RST at another sequence number is dropped
// and the timewait socket lives on (a bare ACK at rcv_nxt 2 is not
// answered); one at rcv_nxt kills it, and tcp_v4_send_reset answers the
// next ACK with R at its ack.
TEST(TeardownTest, TimeWaitDiesOnlyOfARstAtRcvNxt) {
  const std::string alive = std::string(kTimeWait) + R"(
 +.01 < R. 5:5(0) ack 2 win 257
 +.01 < . 2:2(0) ack 2 win 257
   +0 > R 2:2(0)
)";
  Result r = RunPassive(alive);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("nothing was sent"));
  Result killed = RunPassive(std::string(kTimeWait) + R"(
 +.01 < R. 2:2(0) ack 2 win 257
 +.01 < . 2:2(0) ack 2 win 257
   +0 > R 2:2(0)
)");
  EXPECT_EQ(killed.verdict, Verdict::kPass) << killed.reason;
}

// TIME_WAIT lasts TCP_TIMEWAIT_LEN (60 s); the retransmitted FIN at 40 s
// is acknowledged (no SACK: the timewait socket has none) and restarts it,
// so at 80 s it is still there; that bare ACK at rcv_nxt restarts it too,
// so at 141 s it is gone.
TEST(TeardownTest, RetransmittedFinRestartsTimeWait) {
  Result r = RunPassive(std::string(kTimeWait) + R"(
  +40 < F. 1:1(0) ack 2 win 257
   +0 > . 2:2(0) ack 2
  +40 < . 2:2(0) ack 2 win 257
  +61 < . 2:2(0) ack 2 win 257
   +0 > R 2:2(0)
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result early = RunPassive(std::string(kTimeWait) + R"(
  +59 < . 2:2(0) ack 2 win 257
   +0 > R 2:2(0)
)");
  EXPECT_EQ(early.verdict, Verdict::kFail);
}

// tcp_time_wait ends the whole socket: tcpi_state reads TCP_CLOSE (the fd
// is still open after shutdown), and FIN_WAIT2 before it.
TEST(TeardownTest, TcpiStateIsCloseInTimeWait) {
  Result r = RunPassive(R"(
   +0 shutdown(4, SHUT_WR) = 0
   +0 > F. 1:1(0) ack 1
 +.01 < . 1:1(0) ack 2 win 257
   +0 %{ assert tcpi_state == TCP_FIN_WAIT2, tcpi_state }%
 +.01 < F. 1:1(0) ack 2 win 257
   +0 > . 2:2(0) ack 2
   +0 %{ assert tcpi_state == TCP_CLOSE, tcpi_state }%
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// The peer's FIN again in CLOSE_WAIT: an immediate ACK with a D-SACK block
// for it (1:2) when SACK was agreed (the passive open's peer offers it) and
// tcp_dsack is on; with tcp_dsack 0 the ACK has no SACK option.
TEST(TeardownTest, RetransmittedFinGetsDsackUnlessTurnedOff) {
  const std::string body = R"(
  +.1 < F. 1:1(0) ack 1 win 257
+.004 > . 1:1(0) ack 2
  +.1 < F. 1:1(0) ack 1 win 257
   +0 > . 1:1(0) ack 2 <nop,nop,sack 1:2>
)";
  Result r = RunPassive(body);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result off = RunPassive(body, "`../common/defaults.sh\nsysctl -q net.ipv4.tcp_dsack=0`\n");
  EXPECT_EQ(off.verdict, Verdict::kFail);
  EXPECT_THAT(off.reason, HasSubstr("options differ"));
}

// An orphaned FIN_WAIT2 is a timewait socket: new data resets (R at the
// segment's ack) and a RST in its window kills it silently.
TEST(TeardownTest, OrphanFinWait2ResetsNewData) {
  Result r = RunPassive(R"(
   +0 close(4) = 0
   +0 > F. 1:1(0) ack 1
 +.01 < . 1:1(0) ack 2 win 257
 +.01 < P. 1:11(10) ack 2 win 257
   +0 > R 2:2(0)
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// A lingering close() returns when our FIN is acknowledged, or after the
// linger time (1 s) if it never is; 0 either way. Each case: close()'s
// expected duration, when the peer's ACK of the FIN comes, the verdict.
TEST(TeardownTest, LingeringCloseWaitsForTheAckOrTheTime) {
  struct Case {
    const char* name;
    const char* close_time;  // close() returns after this many seconds
    const char* ack_after;   // the peer's ACK of our FIN, after close()
    Verdict want;
  };
  const Case cases[] = {
      {"acked at 0.2 s", "0.2", ".2", Verdict::kPass},
      {"never acked: the 1 s linger time", "1", "1.1", Verdict::kPass},
      {"a 0.5 s return the ACK cannot explain", "0.5", "1.1", Verdict::kFail},
  };
  for (const Case& c : cases) {
    Result r = RunPassive(absl::StrFormat(R"(
   +0 setsockopt(4, SOL_SOCKET, SO_LINGER, {onoff=1, linger=1}, 8) = 0
+0...%s close(4) = 0
   +0 > F. 1:1(0) ack 1
 +%s < . 1:1(0) ack 2 win 257
)",
                                          c.close_time, c.ack_after));
    EXPECT_EQ(r.verdict, c.want) << c.name << ": " << r.reason;
  }
}

// SO_LINGER 0 after both FINs (LAST_ACK): tcp_disconnect sends no RST; the
// socket is gone, so the peer's ACK draws one from no socket.
TEST(TeardownTest, ZeroLingerInLastAckSendsNothing) {
  Result r = RunPassive(R"(
  +.1 < F. 1:1(0) ack 1 win 257
+.004 > . 1:1(0) ack 2
   +0 shutdown(4, SHUT_WR) = 0
   +0 > F. 1:1(0) ack 2
   +0 setsockopt(4, SOL_SOCKET, SO_LINGER, {onoff=1, linger=0}, 8) = 0
 +.01 close(4) = 0
 +.01 < . 2:2(0) ack 2 win 257
   +0 > R 2:2(0)
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

}  // namespace
}  // namespace sendsim::packetdrill
