// Tests of receive.cc through the runner, against FakeEndpoint, for what
// the recv_*.pkt scripts do not pin down. Unless a test opens its own
// connection (timestamps, ECN), the peer offers SACK without timestamps
// (testing::kPassiveOpen). Expectations are worked out by hand from
// tcp_data_queue, tcp_data_queue_ofo, tcp_sack_new_ofo_skb,
// tcp_rcv_rtt_measure_ts, tcp_ecn_accept_cwr and __tcp_ack_snd_check as
// cited in receive.cc.

#include "packetdrill/receive.h"

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

constexpr char kDefaults[] = "`../common/defaults.sh`\n";
Result RunText(const std::string& text) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  model::Profile p;
  p.name = "test";
  return RunParsedScript(*s, p, FakeEndpointFactory({}));
}

Result RunPassive(const std::string& body, const std::string& header = kDefaults) {
  return RunText(header + testing::kPassiveOpen + body);
}

// tcp_rcv_rtt_measure_ts remembers the TS ecr of every segment it sees,
// short ones too: a full-size segment echoing the same value afterwards
// takes no receive RTT sample, so a fourth duplicate ACK at one rcv_nxt
// (compressed, delay 0 without a sample) leaves at once. Had the first
// out-of-order segment echoed a new value (11), it would have taken a
// sample (1000 bytes, at least rcv_mss 536) and the fourth would skip.
TEST(ReceiveTest, ShortSegmentSetsTheLastEcr) {
  const std::string head = std::string(testing::kPassiveOpenTs) + R"(
  +.1 < P. 1:101(100) ack 1 win 257 <nop,nop,TS val 300 ecr 10>
   +0 > . 1:1(0) ack 101 <nop,nop,TS val 0 ecr 300>
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 101 <nop,nop,TS val 0 ecr 300>
)";
  auto run = [&](int first_ecr) {
    const std::string body = head + absl::StrFormat(R"(
   +0 < P. 1101:2101(1000) ack 11 win 257 <nop,nop,TS val 301 ecr %d>
   +0 > . 11:11(0) ack 101 <nop,nop,TS val 0 ecr 300,nop,nop,sack 1101:2101>
   +0 < P. 2201:3201(1000) ack 11 win 257 <nop,nop,TS val 302 ecr %d>
   +0 > . 11:11(0) ack 101 <nop,nop,TS val 0 ecr 300,nop,nop,sack 2201:3201 1101:2101>
   +0 < P. 3301:4301(1000) ack 11 win 257 <nop,nop,TS val 303 ecr %d>
   +0 > . 11:11(0) ack 101 <nop,nop,TS val 0 ecr 300,nop,nop,sack 3301:4301 2201:3201 1101:2101>
   +0 < P. 4401:5401(1000) ack 11 win 257 <nop,nop,TS val 304 ecr %d>
   +0 > . 11:11(0) ack 101 <nop,nop,TS val 0 ecr 300,nop,nop,sack 4401:5401 3301:4301 2201:3201>
)", first_ecr, first_ecr, first_ecr, first_ecr);
    return RunText(kDefaults + body);
  };
  Result same = run(10);
  EXPECT_EQ(same.verdict, Verdict::kPass) << same.reason;
  Result changed = run(11);
  EXPECT_EQ(changed.verdict, Verdict::kSkip) << changed.reason;
  EXPECT_THAT(changed.reason, HasSubstr("compressed SACK"));
}

// CWR on a pure ACK stops the ECE echo but forces no ACK
// (tcp_ecn_accept_cwr wants seq != end_seq): the next short request in
// pingpong mode waits for the delayed-ACK timer, ato 10 jiffies (40 ms at
// HZ 250: the requests come within TCP_ATO_MIN/2 of each other, and the CE
// mark's quick-ACK mode set ato to TCP_ATO_MIN).
TEST(ReceiveTest, CwrOnPureAckForcesNoAck) {
  Result r = RunText(R"(`../common/defaults.sh
sysctl -q net.ipv4.tcp_ecn=2`
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < SEW 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > SE. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
   +0 < [ect0] P. 1:101(100) ack 1 win 257
   +0 > [noecn] . 1:1(0) ack 101
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 101
 +.01 < [ce] P. 101:201(100) ack 11 win 257
   +0 > [noecn] E. 11:11(0) ack 201
   +0 write(4, ..., 10) = 10
   +0 > PE. 11:21(10) ack 201
 +.01 < [ect0] W. 201:201(0) ack 21 win 257
 +.01 < [ect0] P. 201:211(10) ack 21 win 257
 +.04 > [noecn] . 21:21(0) ack 211
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// With tcp_dsack 0 a duplicate is still ACKed at once (quick-ACK mode),
// without a D-SACK block.
TEST(ReceiveTest, NoDsackBlockWithoutTheSysctl) {
  const std::string body = R"(
  +.1 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
 +.01 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
)";
  Result off = RunPassive(body, "`../common/defaults.sh\nsysctl -q net.ipv4.tcp_dsack=0`\n");
  EXPECT_EQ(off.verdict, Verdict::kPass) << off.reason;
  // With the default tcp_dsack 1 the same ACK carries D-SACK 1:101.
  Result on = RunPassive(body);
  EXPECT_EQ(on.verdict, Verdict::kFail);
  EXPECT_THAT(on.reason, HasSubstr("sack 1:101"));
}

// A D-SACK block is reported once: the ACK after it has only the SACK
// block (tcp_options_write clears it; the next segment's tcp_data_queue
// would too).
TEST(ReceiveTest, DsackBlockGoesOnce) {
  Result r = RunPassive(R"(
  +.1 < P. 201:301(100) ack 1 win 257
   +0 > . 1:1(0) ack 1 <nop,nop,sack 201:301>
   +0 < P. 201:301(100) ack 1 win 257
   +0 > . 1:1(0) ack 1 <nop,nop,sack 201:301 201:301>
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 1 <nop,nop,sack 201:301>
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// In pingpong mode (a reply within ato of a request) no quick ACKs are
// used: the out-of-order ACKs go through the duplicate-ACK counter, and a
// fourth at one rcv_nxt would wait for a compressed-ACK delay derived from
// a receive RTT that timestamps may have measured (a 1000-byte segment of
// at least rcv_mss): a skip.
TEST(ReceiveTest, CompressedSackAfterRttSampleSkips) {
  const std::string header = kDefaults;
  absl::StatusOr<Script> s = ParseScript("t.pkt", header + testing::kPassiveOpenTs + R"(
  +.1 < P. 1:1001(1000) ack 1 win 257 <nop,nop,TS val 300 ecr 10>
   +0 > . 1:1(0) ack 1001 <nop,nop,TS val 0 ecr 300>
   +0 write(4, ..., 10) = 10
   +0 > P. 1:11(10) ack 1001 <nop,nop,TS val 0 ecr 300>
   +0 < P. 1101:1201(100) ack 11 win 257 <nop,nop,TS val 301 ecr 10>
   +0 > . 11:11(0) ack 1001 <nop,nop,TS val 0 ecr 300,nop,nop,sack 1101:1201>
   +0 < P. 1301:1401(100) ack 11 win 257 <nop,nop,TS val 302 ecr 10>
   +0 > . 11:11(0) ack 1001 <nop,nop,TS val 0 ecr 300,nop,nop,sack 1301:1401 1101:1201>
   +0 < P. 1501:1601(100) ack 11 win 257 <nop,nop,TS val 303 ecr 10>
   +0 > . 11:11(0) ack 1001 <nop,nop,TS val 0 ecr 300,nop,nop,sack 1501:1601 1301:1401 1101:1201>
   +0 < P. 1701:1801(100) ack 11 win 257 <nop,nop,TS val 304 ecr 10>
)");
  ASSERT_TRUE(s.ok()) << s.status();
  model::Profile p;
  p.name = "test";
  Result r = RunParsedScript(*s, p, FakeEndpointFactory({}));
  EXPECT_EQ(r.verdict, Verdict::kSkip) << r.reason;
  EXPECT_THAT(r.reason, HasSubstr("compressed SACK"));
}

// Linux sends 1000 - 12 = 988-byte segments while one SACK block (NOP,
// NOP, kind, length and 8 bytes) rides on them (tcp_current_mss); the
// model's sender keeps 1000: a skip. A short write fits either way.
TEST(ReceiveTest, FullSegmentWithSackBlocksSkips) {
  Result shortw = RunPassive(R"(
  +.1 < P. 101:201(100) ack 1 win 257
   +0 > . 1:1(0) ack 1 <nop,nop,sack 101:201>
   +0 write(4, ..., 988) = 988
   +0 > P. 1:989(988) ack 1 <nop,nop,sack 101:201>
)");
  EXPECT_EQ(shortw.verdict, Verdict::kPass) << shortw.reason;
  Result full = RunPassive(R"(
  +.1 < P. 101:201(100) ack 1 win 257
   +0 > . 1:1(0) ack 1 <nop,nop,sack 101:201>
   +0 write(4, ..., 2000) = 2000
)");
  EXPECT_EQ(full.verdict, Verdict::kSkip) << full.reason;
  EXPECT_THAT(full.reason, HasSubstr("shrink the MSS"));
}

// tcp_may_update_window, worked by hand: snd_una 1001 (the last ACK),
// snd_wl1 101, snd_wnd 1000.
TEST(ReceiveTest, MayUpdateWindowFollowsTheKernelsThreeCases) {
  ScriptSocket s;
  s.RecordAck(1001, 1000);
  s.snd_wl1 = 101;
  s.snd_wnd = 1000;
  EXPECT_TRUE(s.MayUpdateWindow(1002, 101, 500));   // the ACK advances
  EXPECT_TRUE(s.MayUpdateWindow(1001, 102, 500));   // a newer segment
  EXPECT_TRUE(s.MayUpdateWindow(1001, 101, 1001));  // as new, larger window
  EXPECT_TRUE(s.MayUpdateWindow(1001, 101, 0));     // as new, zero window
  EXPECT_FALSE(s.MayUpdateWindow(1001, 101, 1000));
  EXPECT_FALSE(s.MayUpdateWindow(1001, 101, 999));
  EXPECT_FALSE(s.MayUpdateWindow(1001, 100, 5000));  // an older segment
  // Only a permitted update moves snd_wl1 and snd_wnd.
  s.UpdateWindow(1001, 101, 999);
  EXPECT_EQ(s.snd_wnd, 1000u);
  s.UpdateWindow(1001, 150, 999);
  EXPECT_EQ(s.snd_wl1, 150u);
  EXPECT_EQ(s.snd_wnd, 999u);
}

}  // namespace
}  // namespace sendsim::packetdrill
