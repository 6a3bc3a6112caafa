// The listener's SYN-ACK retransmissions (syn_retransmit.cc) against
// FakeEndpoint, and what the handshake hands the connection. Expectations
// worked out by hand from reqsk_timer_handler (TCP_TIMEOUT_INIT <<
// num_timeout, dropped once num_timeout reaches tcp_synack_retries), the
// timer wheel's rounding at HZ 250 (a delta of d jiffies from jiffy n fires
// at ((n + d) >> s + 1) << s, s = 3 below 504 jiffies, 6 below 4032, 9
// below 32256) and tcp_synack_rtt_meas:
//   delta 250 from 0 -> 256 (1.024 s); 500 from 256 -> 760 (3.04 s);
//   1000 from 760 -> 1792 (7.168 s); 2000 from 1792 -> 3840 (15.36 s);
//   4000 from 3840 -> 7872 (31.488 s); 8000 from 7872 -> 16384 (65.536 s,
//   the request is dropped).

#include <memory>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/constants.h"
#include "packetdrill/fake_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/runner.h"
#include "packetdrill/testing/passive_open.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

// The parameters the runner built the connection with.
struct Captured {
  bool made = false;
  EndpointParams params;
};

Result RunCapturing(const std::string& body, Captured* c, const std::string& header = "`../common/defaults.sh`\n") {
  absl::StatusOr<Script> s = ParseScript("t.pkt", header + body);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  model::Profile p;
  p.name = "test";
  EndpointFactory inner = FakeEndpointFactory({});
  EndpointFactory capturing = [inner, c](model::EventLoop* loop, const EndpointParams& params, XmitSink sink) {
    c->made = true;
    c->params = params;
    return inner(loop, params, std::move(sink));
  };
  return RunParsedScript(*s, p, capturing);
}

constexpr char kSynAck[] = " > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>\n";

// The pending request, then our five retransmissions at the wheel's times.
std::string FiveRetransmissions() {
  std::string s = testing::kPendingRequest;
  for (const char* t : {"1.024", "3.040", "7.168", "15.360", "31.488"}) s += std::string(t) + kSynAck;
  return s;
}

// After tcp_synack_retries (5) retransmissions the request is dropped at
// 65.536 s without a sixth SYN-ACK; the late ACK meets the listener, which
// resets it (an extra SYN-ACK would be matched against the R line: FAIL).
TEST(SynAckRetransmitTest, DroppedAfterSynAckRetries) {
  Captured c;
  Result r = RunCapturing(FiveRetransmissions() + "66 < . 1:1(0) ack 1 win 257\n+0 > R 1:1(0) win 0\n", &c);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  EXPECT_FALSE(c.made);
}

// An ACK just before the drop still completes the handshake: five
// retransmissions, no RTT sample (Karn, no timestamps), no backoff on the
// child.
TEST(SynAckRetransmitTest, AckBeforeTheDropEstablishes) {
  Captured c;
  Result r = RunCapturing(FiveRetransmissions() + "65 < . 1:1(0) ack 1 win 257\n+0 accept(3, ..., ...) = 4\n", &c);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  ASSERT_TRUE(c.made);
  EXPECT_TRUE(c.params.passive_open);
  EXPECT_EQ(c.params.syn_retransmits, 5u);
  EXPECT_EQ(c.params.syn_backoff, 0u);
  EXPECT_EQ(c.params.handshake_rtt_ns, 0);
}

// tcp_synack_retries 1: one retransmission; the second expiry (3.04 s)
// drops the request.
TEST(SynAckRetransmitTest, SysctlLimitsRetransmissions) {
  Captured c;
  const std::string body = std::string(testing::kPendingRequest) + "1.024" + kSynAck +
                           "3.1 < . 1:1(0) ack 1 win 257\n+0 > R 1:1(0) win 0\n";
  Result r = RunCapturing(body, &c, "`../common/defaults.sh\nsysctl -q net.ipv4.tcp_synack_retries=1`\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // The same script with the default (5) sees a second SYN-ACK where it
  // expects the RST.
  Result dflt = RunCapturing(body, &c);
  EXPECT_EQ(dflt.verdict, Verdict::kFail);
}

// No retransmission: the SYN-ACK's RTT (tcp_synack_rtt_meas from snt_synack).
TEST(SynAckRetransmitTest, AckInTimeGivesTheSample) {
  Captured c;
  Result r = RunCapturing(std::string(testing::kPassiveOpen), &c);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  ASSERT_TRUE(c.made);
  EXPECT_EQ(c.params.syn_retransmits, 0u);
  EXPECT_EQ(c.params.handshake_rtt_ns, 100 * model::kNsPerMs);
}

// With timestamps the echo of the retransmitted SYN-ACK (1.024 s) gives a
// sample despite Karn: 1.1 - 1.024 = 76 ms (ms clock).
TEST(SynAckRetransmitTest, TimestampEchoOfTheLastSynAck) {
  Captured c;
  const std::string body = R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,TS val 100 ecr 0,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,sackOK,TS val 100 ecr 100,nop,wscale 8>
1.024 > S. 0:0(0) ack 1 <mss 1460,sackOK,TS val 1100 ecr 100,nop,wscale 8>
  1.1 < . 1:1(0) ack 1 win 257 <nop,nop,TS val 400 ecr 1024>
   +0 accept(3, ..., ...) = 4
)";
  Result r = RunCapturing(body, &c);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  ASSERT_TRUE(c.made);
  EXPECT_EQ(c.params.syn_retransmits, 1u);
  EXPECT_EQ(c.params.handshake_rtt_ns, 76 * model::kNsPerMs);
}

// A handshake ACK after the first expiry with no SYN-ACK line: the
// retransmitted SYN-ACK (seq 0) is the first packet the data line meets.
TEST(SynAckRetransmitTest, UnexpectedRetransmissionFails) {
  Captured c;
  Result r = RunCapturing(std::string(testing::kPendingRequest) + "1.1 < . 1:1(0) ack 1 win 257\n+0 accept(3, ..., ...) = 4\n"
                 "+0 write(4, ..., 1000) = 1000\n+0 > P. 1:1001(1000) ack 1\n", &c);
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("t.pkt:12: sequence number differs"));
}

// tcp_check_req: the peer's SYN again at 0.3 s is answered at once and
// moves the timer to 1.3 s (from jiffy 75, 250 jiffies: (325 >> 3) + 1 = 41
// -> 328, 1.312 s); again at 0.5 s it is within tcp_invalid_ratelimit of the
// answer (nothing); at 1.0 s it is answered and the timer moves to 2.0 s
// (jiffy 250 + 250: (500 >> 3) + 1 = 63 -> 504, 2.016 s). The ACK at 2.1 s
// comes after one timeout: num_retrans 3, 2 of them answers.
TEST(SynAckRetransmitTest, RepeatedSynAnsweredAndMovesTheTimer) {
  Captured c;
  const std::string syn = " < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>\n";
  const std::string body = std::string(testing::kPendingRequest) + "0.3" + syn + "0.3" + kSynAck + "0.5" + syn +
                           "1.0" + syn + "1.0" + kSynAck + "2.016" + kSynAck +
                           "2.1 < . 1:1(0) ack 1 win 257\n+0 accept(3, ..., ...) = 4\n";
  Result r = RunCapturing(body, &c);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  ASSERT_TRUE(c.made);
  EXPECT_EQ(c.params.syn_retransmits, 3u);
  EXPECT_EQ(c.params.synack_answers, 2u);
  EXPECT_EQ(c.params.handshake_rtt_ns, 0);
}

// A SYN with another ISN is no retransmission: still a skip.
TEST(SynAckRetransmitTest, SynWithAnotherIsnSkips) {
  Captured c;
  Result r = RunCapturing(std::string(testing::kPendingRequest) +
                              "0.3 < S 7:7(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>\n", &c);
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("SYN to a socket that is not listening"));
}

}  // namespace
}  // namespace sendsim::packetdrill
