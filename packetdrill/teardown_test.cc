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

Result RunText(const std::string& text) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  model::Profile p;
  p.name = "test";
  return RunParsedScript(*s, p, FakeEndpointFactory({}));
}

Result RunPassive(const std::string& body, const std::string& header = "`../common/defaults.sh`\n") {
  return RunText(header + testing::kPassiveOpen + body);
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

// TCP_TW_SYN: a SYN past tw_rcv_nxt to the timewait socket of a passive
// open finds the listener (still open here) and would start a new
// connection there: a skip, not an answer.
TEST(TeardownTest, NewSynWithTheListenerOpenSkips) {
  Result r = RunPassive(std::string(kTimeWait) + R"(
 +.01 < S 1000:1000(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
)");
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("reopening a timewait connection"));
}

// tcp_paws_reject lets a RST with an old timestamp through once ts_recent
// is TCP_PAWS_MSL (60 s) old. ts_recent (300) was stored at 0.11 s (the
// peer's FIN); TIME_WAIT lasts 60 s from then, restarted by the
// PAWS-rejected ACK at 59.0 s. At 60.5 s (second 60 against 0) a RST at
// rcv_nxt with TS val 250 kills the socket; at 59.5 s it is rejected and
// dropped unanswered, and the socket lives on.
TEST(TeardownTest, OldTimestampRstPassesPawsAfterSixtySeconds) {
  auto run = [](const char* rst_at) {
    const std::string text = "`../common/defaults.sh`" + std::string(testing::kPassiveOpenTs) + absl::StrFormat(R"(
   +0 close(4) = 0
   +0 > F. 1:1(0) ack 1 <nop,nop,TS val 0 ecr 200>
 +.01 < F. 1:1(0) ack 2 win 257 <nop,nop,TS val 300 ecr 0>
   +0 > . 2:2(0) ack 2 <nop,nop,TS val 0 ecr 300>
 59.0 < . 2:2(0) ack 2 win 257 <nop,nop,TS val 250 ecr 0>
   +0 > . 2:2(0) ack 2 <nop,nop,TS val 0 ecr 300>
 %s < R. 2:2(0) ack 2 win 257 <nop,nop,TS val 250 ecr 0>
 +.01 < F. 1:1(0) ack 2 win 257 <nop,nop,TS val 310 ecr 0>
   +0 > . 2:2(0) ack 2 <nop,nop,TS val 0 ecr 300>
)", rst_at);
    return RunText(text);
  };
  Result rejected = run("59.5");
  EXPECT_EQ(rejected.verdict, Verdict::kPass) << rejected.reason;
  Result killed = run("60.5");
  EXPECT_EQ(killed.verdict, Verdict::kFail);
  EXPECT_THAT(killed.reason, HasSubstr("R 2:2(0)"));
}

}  // namespace
}  // namespace sendsim::packetdrill
