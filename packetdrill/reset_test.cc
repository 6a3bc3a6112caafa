// Tests of reset.cc against FakeEndpoint (every write leaves at once as one
// skb). Expectations follow from the Linux rules cited in reset.cc, worked
// out by hand.

#include "packetdrill/reset.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "packetdrill/fake_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "packetdrill/testing/passive_open.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

Result RunScript(const std::string& text) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  model::Profile p;
  p.name = "test";
  return RunParsedScript(*s, p, FakeEndpointFactory({}));
}

Result RunPassive(const std::string& body, const std::string& header = "`../common/defaults.sh`\n") {
  return RunScript(header + testing::kPassiveOpen + body);
}

// Without a listener, tcp_v4_send_reset answers a segment without ACK with
// seq 0 and an ACK of everything it occupied: data, FIN.
TEST(ResetTest, NoListenerAnswersSegmentWithoutAckWithAckingRst) {
  Result r = RunPassive(R"(
   +0 close(3) = 0
   +0 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
   +0 close(4) = 0
   +0 > R. 1:1(0) ack 101
  +.1 < P 101:201(100) win 257
   +0 > R. 0:0(0) ack 201 win 0
  +.1 < F 201:201(0) win 257
   +0 > R. 0:0(0) ack 202 win 0
  +.1 < . 202:202(0) ack 1 win 257
   +0 > R 1:1(0) win 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// With the listener open, a segment without ACK is dropped: the RST the
// script expects never comes.
TEST(ResetTest, ListenerDropsSegmentWithoutAck) {
  Result r = RunPassive(R"(
   +0 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
   +0 close(4) = 0
   +0 > R. 1:1(0) ack 101
  +.1 < P 101:201(100) win 257
   +0 > R. 0:0(0) ack 201 win 0
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("nothing was sent"));
}

TEST(ResetTest, SynToTheListenerAfterAResetSkips) {
  Result r = RunPassive(R"(
   +0 < R. 1:1(0) ack 1 win 257
  +.1 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
)");
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("a second connection on the listener"));
}

// tcp_acceptable_seq: the peer's window (ack 1001, win 1 << 7 = 128) ends
// at 1129, 1872 bytes before snd_nxt 3001 (>= 1 << our wscale 8): the RST
// takes the window's end, and so does the bare ACK of the data before it
// (tcp_send_ack uses the same sequence number).
TEST(ResetTest, ActiveResetSeqStopsAtTheWindowEnd) {
  Result r = RunPassive(R"(
   +0 write(4, ..., 3000) = 3000
   +0 > P. 1:3001(3000) ack 1
  +.1 < P. 1:101(100) ack 1001 win 1
   +0 > . 1129:1129(0) ack 101
   +0 close(4) = 0
   +0 > R. 1129:1129(0) ack 101
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// win 15 << 7 = 1920: the window ends at 2921, 80 bytes (< 256) before
// snd_nxt: snd_nxt is acceptable.
TEST(ResetTest, ActiveResetSeqToleratesLessThanOneWindowScaleUnit) {
  Result r = RunPassive(R"(
   +0 write(4, ..., 3000) = 3000
   +0 > P. 1:3001(3000) ack 1
  +.1 < P. 1:101(100) ack 1001 win 15
   +0 > . 3001:3001(0) ack 101
   +0 close(4) = 0
   +0 > R. 3001:3001(0) ack 101
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// One challenge ACK per 500 ms (125 jiffies at HZ 250): the first at
// jiffy 50 (0.2 s); 0.696 s is jiffy 174, 124 later: none; 0.7 s, 125
// later: one.
TEST(ResetTest, ChallengeAckRateLimitBoundary) {
  Result r = RunPassive(R"(
  +.1 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
  +.3 < R. 11:11(0) ack 1 win 257
+.196 < R. 11:11(0) ack 1 win 257
+.004 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
)", "--tolerance_usecs=1000\n`../common/defaults.sh`\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  r = RunPassive(R"(
  +.1 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
  +.3 < R. 11:11(0) ack 1 win 257
+.196 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
)", "--tolerance_usecs=1000\n`../common/defaults.sh`\n");
  EXPECT_EQ(r.verdict, Verdict::kFail);
}

// tcp_invalid_ratelimit 0: __tcp_oow_rate_limited never holds one back.
TEST(ResetTest, ZeroRatelimitSendsEveryChallengeAck) {
  Result r = RunPassive(R"(
   +0 `sysctl -q net.ipv4.tcp_invalid_ratelimit=0`
  +.1 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
 +.01 < R. 11:11(0) ack 1 win 257
   +0 > . 1:1(0) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// SO_LINGER on the listener: sk_clone_lock copies SOCK_LINGER and
// sk_lingertime to the accepted socket, whose close() then resets.
TEST(ResetTest, LingerIsInheritedFromTheListener) {
  const std::string text = R"(`../common/defaults.sh`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_LINGER, {onoff=1, linger=0}, 8) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 1
   +0 close(4) = 0
   +0 > R. 11:11(0) ack 1
)";
  Result r = RunScript(text);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// A RST that ends before rcv_wup (101, our last ACK) fails tcp_sequence: no
// challenge ACK, the connection lives on.
TEST(ResetTest, OldRstIsDroppedSilently) {
  Result r = RunPassive(R"(
   +0 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
  +.1 < R. 50:50(0) ack 1 win 257
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 101
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

constexpr char kNonblockingConnect[] = R"(`../common/defaults.sh`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0
   +0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
   +0 > S 0:0(0) <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 8>
)";

// tcp_rcv_synsent_state_process: a RST without ACK is discarded, so the
// SYN-ACK that follows still completes the connect.
TEST(ResetTest, RstWithoutAckInSynSentIsDiscarded) {
  Result r = RunScript(std::string(kNonblockingConnect) + R"(
  +.1 < R 0:0(0) win 0
   +0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
  +.1 < S. 0:0(0) ack 1 win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > . 1:1(0) ack 1
   +0 write(3, ..., 100) = 100
   +0 > P. 1:101(100) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// A RST whose ACK is not our SYN's end is dropped but rearms the SYN's
// retransmit timer to TCP_TIMEOUT_MIN: 2 jiffies, which the timer wheel
// fires on the third tick (HZ 250: the RST at 0.1 s, the SYN at 0.112).
TEST(ResetTest, RstWithWrongAckInSynSentRetransmitsTheSynSoon) {
  Result r = RunScript(std::string(kNonblockingConnect) + R"(
  +.1 < R. 0:0(0) ack 5 win 0
+.012 > S 0:0(0) <mss 1460,sackOK,TS val 112 ecr 0,nop,wscale 8>
   +0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// A SYN-ACK after a retransmitted SYN completes the connect: the handshake
// ACK leaves at once, without TS (the SYN-ACK had none). The state the model
// socket starts in is model/syn_retransmit_test.cc's.
TEST(ResetTest, HandshakeAfterRetransmittedSynEstablishes) {
  Result r = RunScript(std::string(kNonblockingConnect) + R"(
   +1 > S 0:0(0) <mss 1460,sackOK,TS val 1100 ecr 0,nop,wscale 8>
  +.1 < S. 0:0(0) ack 1 win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > . 1:1(0) ack 1
   +0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// The refusing RST (ack 1) on a blocking connect: ECONNREFUSED, then the
// socket is disconnected: read ENOTCONN, write EPIPE.
TEST(ResetTest, RefusedBlockingConnect) {
  Result r = RunScript(R"(`../common/defaults.sh`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0...0.1 connect(3, ..., ...) = -1 ECONNREFUSED (Connection refused)
   +0 > S 0:0(0) <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 8>
  +.1 < R. 0:0(0) ack 1 win 0
   +0 read(3, ..., 10) = -1 ENOTCONN (Transport endpoint is not connected)
   +0 write(3, ..., 10) = -1 EPIPE (Broken pipe)
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// tcp_check_req: a RST far beyond the request's window is dropped, so the
// handshake's ACK still completes the connection.
TEST(ResetTest, RstOutsideTheRequestWindowKeepsTheRequest) {
  Result r = RunScript(std::string("`../common/defaults.sh`") + testing::kPendingRequest + R"(
 +.05 < R 4000000:4000000(0) win 257
 +.05 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// ... and one at rcv_nxt drops it: the same ACK then draws the listener's
// RST (at its ack, no ACK flag).
TEST(ResetTest, RstAtRcvNxtDropsTheRequest) {
  Result r = RunScript(std::string("`../common/defaults.sh`") + testing::kPendingRequest + R"(
 +.05 < R 1:1(0) win 257
 +.05 < . 1:1(0) ack 1 win 257
   +0 > R 1:1(0) win 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

}  // namespace
}  // namespace sendsim::packetdrill
