// Tests of the runner's mechanics (timing, matching, handshake, syscalls,
// verdicts) against FakeEndpoint, whose behaviour is trivial: every call
// without MSG_MORE sends all queued bytes at once as one skb with PSH. The
// expectations follow from that and from the packetdrill semantics in
// runner.h, not from running the code.

#include "packetdrill/runner.h"

#include <string>

#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "packetdrill/fake_endpoint.h"
#include "packetdrill/parser.h"
#include "packetdrill/testing/passive_open.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kPassive = testing::kPassiveOpen;

// A non-blocking connect up to our SYN; the script supplies the SYN-ACK.
constexpr char kActiveOpen[] = R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0
   +0 connect(3, ..., ...) = -1 EINPROGRESS (Operation now in progress)
   +0 > S 0:0(0) <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 8>
)";

model::Profile TestProfile(bool sendpage = true) {
  model::Profile p;
  p.name = "test";
  p.has_sendpage = sendpage;
  p.has_splice_pages = !sendpage;
  return p;
}

Result RunText(const std::string& body, FakeOptions fo = {}, std::string header = "`../common/defaults.sh`\n",
               bool sendpage = true) {
  std::string text = header + kPassive + body;
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  return RunParsedScript(*s, TestProfile(sendpage), FakeEndpointFactory(fo));
}

// Line number of the first line of `body` in RunText's script.
constexpr int kBodyLine = 12;

TEST(RunnerTest, HandshakeAndWritePass) {
  Result r = RunText(R"(
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 1
  +.1 < . 1:1(0) ack 1001 win 257
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(RunnerTest, SynAckOptionsAreCheckedKindByKind) {
  std::string text = std::string("`../common/defaults.sh`\n") + R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,sackOK,nop,nop,nop,wscale 8>
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok());
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, StartsWith("t.pkt:7: TCP options differ"));
}

TEST(RunnerTest, TimestampsInSynAckAndDataWhenThePeerOffersThem) {
  // Linux order with SACK and TS: mss, sackOK, TS, nop, wscale; TS ecr echoes
  // the peer's val; data segments carry nop,nop,TS. MSS 1460 - 12 = 1448.
  std::string text = std::string("`../common/defaults.sh`\n") + R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,sackOK,TS val 555 ecr 100,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257 <nop,nop,TS val 200 ecr 1>
   +0 accept(3, ..., ...) = 4
   +0 %{ assert tcpi_snd_mss == 1448 and tcpi_advmss == 1448 }%
   +0 write(4, ..., 100) = 100
   +0 > P. 1:101(100) ack 1 <nop,nop,TS val 1 ecr 200>
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok());
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(RunnerTest, OutboundWithoutOptionsAllowsNone) {
  std::string text = std::string("`../common/defaults.sh`\n") + R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1460,sackOK,TS val 100 ecr 0,nop,wscale 7>
   +0 > S. 0:0(0) ack 1
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok());
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("TCP options differ"));
}

TEST(RunnerTest, LengthMismatchFails) {
  Result r = RunText(R"(
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:501(500) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, StartsWith(absl::StrFormat("t.pkt:%d: more bytes than expected", kBodyLine + 1)));
  EXPECT_THAT(r.reason, HasSubstr("expected P. 1:501(500) ack 1, got P. 1:1001(1000)"));
}

TEST(RunnerTest, LatePacketFailsTiming) {
  // The fake sends at the write (t=0.1); the script expects it 50 ms later,
  // beyond max(4 ms, 12.5% of 50 ms).
  Result r = RunText(R"(
   +0 write(4, ..., 1000) = 1000
 +.05 > P. 1:1001(1000) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("timing: expected P. 1:1001(1000) ack 1 at 0.150000"));
  EXPECT_THAT(r.reason, HasSubstr("sent at 0.100000"));
}

TEST(RunnerTest, ToleranceOptionWidensTheWindow) {
  Result r = RunText(R"(
   +0 write(4, ..., 1000) = 1000
 +.05 > P. 1:1001(1000) ack 1
)",
                     {}, "--tolerance_usecs=60000\n`../common/defaults.sh`\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(RunnerTest, GapToleranceIsAnEighthOfTheGap) {
  // The gap is measured from the previous event (the write), not from the
  // accept 1 s earlier: 100 ms -> 12.5 ms tolerance, so a packet sent at the
  // write is 100 ms early.
  Result fail = RunText(R"(
   +1 write(4, ..., 1000) = 1000
 +.1 > P. 1:1001(1000) ack 1
)");
  EXPECT_EQ(fail.verdict, Verdict::kFail);
  // A range covers it.
  Result ok = RunText(R"(
   +1 write(4, ..., 1000) = 1000
 +0~+.1 > P. 1:1001(1000) ack 1
)");
  EXPECT_EQ(ok.verdict, Verdict::kPass) << ok.reason;
}

TEST(RunnerTest, AggregationJoinsMssSegmentsUnlessStrict) {
  // TSO off: the fake's 3000-byte skb (gso 1000) is captured as 3 segments.
  const std::string body = R"(
   +0 write(4, ..., 3000) = 3000
   +0 > P. 1:3001(3000) ack 1
)";
  Result agg = RunText(body, {}, "`../common/defaults.sh\nethtool -K tun0 tso off gso off`\n");
  EXPECT_EQ(agg.verdict, Verdict::kPass) << agg.reason;
  Result strict = RunText(body, {}, "--strict_segments\n`../common/defaults.sh\nethtool -K tun0 tso off gso off`\n");
  EXPECT_EQ(strict.verdict, Verdict::kFail);
  EXPECT_THAT(strict.reason, HasSubstr("TCP flags differ: expected P. 1:3001(3000) ack 1, got . 1:1001(1000)"));
  Result lines = RunText(R"(
   +0 write(4, ..., 2500) = 2500
   +0 > . 1:1001(1000) ack 1
   +0 > . 1001:2001(1000) ack 1
   +0 > P. 2001:2501(500) ack 1
)",
                         {}, "--strict_segments\n`../common/defaults.sh\nethtool -K tun0 tso off gso off`\n");
  EXPECT_EQ(lines.verdict, Verdict::kPass) << lines.reason;
}

TEST(RunnerTest, AggregationJoinsAcrossPushBoundaries) {
  // Two writes = two PSH packets; packetdrill joins them for one line (the
  // PSH of the first is not compared).
  Result r = RunText(R"(
   +0 write(4, ..., 300) = 300
   +0 write(4, ..., 300) = 300
   +0 > P. 1:601(600) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // Pieces before the last must be as long as the one before them.
  Result unequal = RunText(R"(
   +0 write(4, ..., 300) = 300
   +0 write(4, ..., 200) = 200
   +0 write(4, ..., 300) = 300
   +0 > P. 1:801(800) ack 1
)");
  EXPECT_EQ(unequal.verdict, Verdict::kFail);
  EXPECT_THAT(unequal.reason, HasSubstr("segments of unequal size"));
}

TEST(RunnerTest, NothingSentFails) {
  Result r = RunText(R"(
   +0 send(4, ..., 1000, MSG_MORE) = 1000
   +0 > P. 1:1001(1000) ack 1
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("nothing was sent by"));
}

TEST(RunnerTest, SyscallResultMismatchFails) {
  Result r = RunText(R"(
   +0 write(4, ..., 1000) = 999
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, StartsWith(absl::StrFormat("t.pkt:%d: write() returned 1000, expected 999", kBodyLine)));
}

TEST(RunnerTest, NonBlockingSendReturnsEagain) {
  Result r = RunText(R"(
   +0 send(4, ..., 5000, MSG_DONTWAIT) = 2000
   +0 > P. 1:2001(2000) ack 1
   +0 send(4, ..., 5000, MSG_DONTWAIT) = -1 EAGAIN (Resource temporarily unavailable)
   +0 fcntl(4, F_SETFL, O_RDWR|O_NONBLOCK) = 0
   +0 fcntl(4, F_GETFL) = 0x802 (flags O_RDWR|O_NONBLOCK)
   +0 write(4, ..., 10) = -1 EAGAIN (Resource temporarily unavailable)
)",
                     {.limit = 2000});
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(RunnerTest, BlockingCallReturnsWhenAcked) {
  // limit 10000: 10000 bytes go at once, the rest after the ACK at +.1; the
  // call returns then. Later events count from the start of the call.
  const std::string body = R"(
 +0...0.1 write(4, ..., 15000) = 15000
   +0 > P. 1:10001(10000) ack 1
  +.1 < . 1:1(0) ack 10001 win 257
   +0 > P. 10001:15001(5000) ack 1
)";
  Result ok = RunText(body, {.limit = 10000});
  EXPECT_EQ(ok.verdict, Verdict::kPass) << ok.reason;
  Result early = RunText(R"(
 +0...0.3 write(4, ..., 15000) = 15000
   +0 > P. 1:10001(10000) ack 1
  +.1 < . 1:1(0) ack 10001 win 257
   +0 > P. 10001:15001(5000) ack 1
)",
                         {.limit = 10000});
  EXPECT_EQ(early.verdict, Verdict::kFail);
  EXPECT_THAT(early.reason, HasSubstr("blocking write() returned at 0.200000, expected at 0.400000"));
}

TEST(RunnerTest, UnannotatedBlockingCallFails) {
  Result r = RunText(R"(
   +0 write(4, ..., 15000) = 15000
)",
                     {.limit = 10000});
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("write() blocked"));
}

TEST(RunnerTest, BlockingCallThatNeverReturnsFails) {
  Result r = RunText(R"(
 +0...0.1 write(4, ..., 15000) = 15000
)",
                     {.limit = 10000});
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("had not returned by the end of the script"));
}

TEST(RunnerTest, RelativeTimesChainThroughInboundPackets) {
  // write at 0.1 (completes then), ACKs at 0.2 and 0.3, write at 0.35 whose
  // packet must be seen at 0.35: a packet expected at +.05 after it fails.
  const std::string head = R"(
   +0 write(4, ..., 100) = 100
   +0 > P. 1:101(100) ack 1
  +.1 < . 1:1(0) ack 1 win 300
  +.1 < . 1:1(0) ack 101 win 257
 +.05 write(4, ..., 100) = 100
)";
  Result ok = RunText(head + "   +0 > P. 101:201(100) ack 1\n   0.35 %{ assert tcpi_snd_cwnd == 10 }%\n");
  EXPECT_EQ(ok.verdict, Verdict::kPass) << ok.reason;
  Result late = RunText(head + " +.05 > P. 101:201(100) ack 1\n");
  EXPECT_EQ(late.verdict, Verdict::kFail);
  EXPECT_THAT(late.reason, HasSubstr("sent at 0.350000"));
}

TEST(RunnerTest, AssertsPassFailAndSkip) {
  EXPECT_EQ(RunText("   +0 %{ assert tcpi_snd_cwnd == 10, tcpi_snd_cwnd }%\n").verdict, Verdict::kPass);
  Result f = RunText("   +0 %{ assert 5 < tcpi_snd_cwnd <= 9 }%\n");
  EXPECT_EQ(f.verdict, Verdict::kFail);
  EXPECT_THAT(f.reason, HasSubstr("assertion failed: 5 < tcpi_snd_cwnd <= 9 (tcpi_snd_cwnd=10)"));
  // print() only writes to stdout (nothing to check); an assignment is
  // Python outside the subset.
  EXPECT_EQ(RunText("   +0 %{ print(tcpi_snd_cwnd) }%\n").verdict, Verdict::kPass);
  Result s = RunText("   +0 %{ x = tcpi_snd_cwnd }%\n");
  EXPECT_EQ(s.verdict, Verdict::kSkip);
  EXPECT_THAT(s.reason, HasSubstr("python"));
  Result u = RunText("   +0 %{ assert tcpi_rehash == 3 }%\n");
  EXPECT_EQ(u.verdict, Verdict::kSkip);
  EXPECT_THAT(u.reason, HasSubstr("tcpi_rehash is not in test's struct tcp_info"));
  // Connection state and constants of the tcp_info vocabulary.
  EXPECT_EQ(RunText("   +0 %{ assert tcpi_state == TCP_ESTABLISHED and tcpi_ca_state == TCP_CA_Open }%\n").verdict,
            Verdict::kPass);
}

TEST(RunnerTest, UnsupportedConstructsSkip) {
  struct Case {
    std::string body;
    std::string header;
    std::string reason;
  };
  const std::string d = "`../common/defaults.sh`\n";
  for (const Case& c : std::vector<Case>{
           {"   +0 recvmsg(4, {msg_iov(1)=[{..., 100}]}, MSG_PEEK) = 100\n", d, "flags other than MSG_DONTWAIT and MSG_ERRQUEUE"},
           {"   +0 < P. 2000001:2000101(100) ack 1 win 257\n", d, "beyond the receive window"},
           {"   +0 < F. 101:101(0) ack 1 win 257\n   +0 < P. 201:301(100) ack 1 win 257\n", d,
            "beyond a queued out-of-order FIN"},
           {"   +0 `rm -rf /tmp/somedir`\n", d, "unsupported command"},
           {"   +0 > F. 1:1(0) ack 1\n", d, "outbound FIN without close()"},
           {"   +0 write(4, ..., 3000) = 3000\n   +0 > P. 1:3001(3000) ack 1\n"
            "  +.1 < . 1:1(0) ack 2001 win 257\n   +0 < . 1:1(0) ack 1001 win 257 <sack 2001:3001,nop,nop>\n", d,
            "an ACK below snd_una"},
           {"   +0 < F. 1:1(0) ack 1 win 257\n +.01 < F. 2:2(0) ack 1 win 257\n", d, "a second inbound FIN other"},
           {"", "`tc qdisc replace dev tun0 root fq`\n", "unsupported command: tc qdisc"},
           {"   +0 `ip route change 192.0.2.0/24 dev tun0 initcwnd 4`\n", d, "a route's initcwnd"},
           {"   +0 `ip route add 192.0.2.1 dev tun0 mtu 800`\n", d, "adding a route"},
           // TestProfile predates blackhole_netdev (dead_dst_on_blackhole false).
           {"   +0 `ip route change 192.0.2.0/24 dev tun0 mtu 800`\n", d, "a route change before v5.3"},
           {"   +0 `ip link set dev tun0 mtu 1200`\n", d, "a device MTU"},
           {"   +0 `ethtool -K tun0 tso off`\n", d, "offloads or the qdisc"},
           {"   +0 ioctl(4, FIONBIO, [1]) = 0\n", d, "ioctl() other than"},
           {"   +0 setsockopt(4, SOL_SOCKET, SO_LINGER, [0], 4) = 0\n", d, "SO_LINGER"},
           {"   +0 < udp (100)\n", d, "udp packets"},
           {"   +0 < icmp unreachable port_unreachable [1:1(0)]\n", d,
            "ICMP unreachable port_unreachable is not modelled (only unreachable frag_needed is)"},
           {"   +0 < icmp time_exceeded [1:1(0)]\n", d, "ICMP time_exceeded is not modelled"},
           {"   +0 < icmp unreachable frag_needed mtu 1200\n", d, "without a quoted TCP segment"},
           {"   +0 < icmp unreachable frag_needed mtu 1200 [udp (10)]\n", d, "quoting a udp datagram"},
           {"   +0 > icmp unreachable frag_needed mtu 1200 [1:1(0)]\n", d, "outbound ICMP packets"},
           {"   +0 < icmp packet_too_big mtu 1280 [1:1(0)]\n", d, "ICMPv6 (packet too big)"},
           {"", d + "   +0 < icmp unreachable frag_needed mtu 1200 [1:1(0)]\n", "before the connection is established"},
       }) {
    Result r = RunText(c.body, {}, c.header);
    EXPECT_EQ(r.verdict, Verdict::kSkip) << c.body << c.header << r.reason;
    EXPECT_THAT(r.reason, HasSubstr(c.reason)) << c.body;
    EXPECT_THAT(r.reason, StartsWith("t.pkt:"));
  }
}

TEST(RunnerTest, SkipNeverHidesAnEarlierFailure) {
  Result r = RunText(R"(
   +0 write(4, ..., 10) = 11
   +0 read(4, ..., 100) = 100
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
}

// The last poll expects POLLOUT although 100 unsent bytes exceed the
// low-water mark of 50: it must fail, after the earlier lines passed.
TEST(RunnerTest, PollReportsPolloutByUnsentBytes) {
  Result r = RunText(R"(
   +0 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], 1, 0) = 1
   +0 send(4, ..., 100, MSG_MORE) = 100
   +0 setsockopt(4, SOL_TCP, TCP_NOTSENT_LOWAT, [50], 4) = 0
   +0 poll([{fd=4, events=POLLOUT|POLLIN, revents=0}], 1, 0) = 0
   +0 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], 1, 0) = 1
)");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("poll() returned 0, expected 1"));
}

// --record: outbound lines are not checked (a wrong one passes), and every
// packet sent comes back as a script line with its time: the SYN-ACK at 0,
// the write's one skb (FakeEndpoint) at 0.1.
TEST(RunnerTest, RecordKeepsEveryPacketAndChecksNoOutboundLine) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", std::string("`../common/defaults.sh`\n") + kPassive + R"(
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:2001(2000) ack 1
)");
  ASSERT_TRUE(s.ok()) << s.status();
  MatchRules rules;
  rules.record = true;
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory({}), rules);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  ASSERT_EQ(r.sent.size(), 2u);
  EXPECT_THAT(r.sent[0], StartsWith("0.000000 > S. 0:0(0) ack 1 win "));
  EXPECT_THAT(r.sent[1], StartsWith("0.100000 > P. 1:1001(1000) ack 1 win "));
  // Without --record the same script fails at its wrong line and keeps nothing.
  Result checked = RunParsedScript(*s, TestProfile(), FakeEndpointFactory({}));
  EXPECT_EQ(checked.verdict, Verdict::kFail);
  EXPECT_TRUE(checked.sent.empty());
}

TEST(RunnerTest, ActiveOpenSendsLinuxSynOptions) {
  std::string text = std::string("`../common/defaults.sh`\n") + kActiveOpen + R"(
  +.1 < S. 0:0(0) ack 1 win 5792 <mss 1200,sackOK,TS val 700 ecr 100,nop,wscale 7>
   +0 > . 1:1(0) ack 1 <nop,nop,TS val 100 ecr 700>
   +0 %{ assert tcpi_snd_mss == 1188 }%
   +0 write(3, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 1 <nop,nop,TS val 100 ecr 700>
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok()) << s.status();
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// packetdrill numbers the peer's sequence space from its SYN: a SYN-ACK with
// seq 123 makes the handshake ACK "ack 1" (ISN + 1 relative), and later
// inbound segments start at relative 1 too.
TEST(RunnerTest, PeerIsnIsTheOriginOfRelativeSequenceNumbers) {
  std::string text = std::string("`../common/defaults.sh`\n") + kActiveOpen + R"(
 +.01 < S. 123:123(0) ack 1 win 5792 <mss 1460,sackOK,TS val 700 ecr 100,nop,wscale 7>
   +0 > . 1:1(0) ack 1 <nop,nop,TS val 100 ecr 700>
   +0 getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0
   +0 fcntl(3, F_SETFL, O_RDWR) = 0
   +0 write(3, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 1 <nop,nop,TS val 100 ecr 700>
 +.01 < . 1:1(0) ack 1001 win 257 <nop,nop,TS val 800 ecr 100>
   +0 close(3) = 0
   +0 > F. 1001:1001(0) ack 1 <nop,nop,TS val 100 ecr 800>
 +.01 < F. 1:1(0) ack 1002 win 257 <nop,nop,TS val 900 ecr 100>
   +0 > . 1002:1002(0) ack 2 <nop,nop,TS val 100 ecr 900>
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok()) << s.status();
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// Out-parameters: an integer is compared with the model's value, `[...]`
// is not checked. SIOCOUTQNSD = unsent bytes: 500 held by MSG_MORE.
TEST(RunnerTest, IoctlOutValueIsCheckedUnlessElided) {
  const std::string send = "   +0 send(4, ..., 500, MSG_MORE) = 500\n";
  Result ok = RunText(send + "   +0 ioctl(4, SIOCOUTQNSD, [500]) = 0\n   +0 ioctl(4, SIOCOUTQNSD, [...]) = 0\n");
  EXPECT_EQ(ok.verdict, Verdict::kPass) << ok.reason;
  Result bad = RunText(send + "   +0 ioctl(4, SIOCOUTQNSD, [499]) = 0\n");
  EXPECT_EQ(bad.verdict, Verdict::kFail);
  EXPECT_THAT(bad.reason, HasSubstr("ioctl() gave 500, expected 499"));
}

TEST(RunnerTest, SendfileUsesPagesOfADdFile) {
  const std::string header = "`../common/defaults.sh\ndd if=/dev/zero of=/tmp/f bs=1000 count=10`\n";
  const std::string body = R"(
   +0 open("/tmp/f", O_RDONLY) = 5
   +0 sendfile(4, 5, [0], 20000) = 10000
   +0 > P. 1:10001(10000) ack 1
   +0 open("/tmp/other", O_RDONLY) = 6
)";
  for (bool sendpage : {true, false}) {
    Result r = RunText(body, {}, header, sendpage);
    EXPECT_EQ(r.verdict, Verdict::kSkip) << r.reason;  // the second open is of an unknown file
    EXPECT_THAT(r.reason, HasSubstr("only files the script creates"));
  }
}

// A malformed recvmsg() is a FAIL with a one-line reason (the notifications
// themselves run on the model: zerocopy_notify_*.pkt, model/zerocopy_test.cc).
TEST(RunnerTest, MalformedRecvmsgFails) {
  for (const char* call : {
           "recvmsg(4, {msg_iov(1)=[{..., 0}], msg_control=[{cmsg_level=SOL_IP}]}, MSG_ERRQUEUE) = 0",
           "recvmsg(4, {msg_iov(2)=[{..., 0}]}, 0) = 0",
           "recvmsg(4, {msg_iov(1)=[{..., 0}], msg_control=[{cmsg_level=SOL_IP, cmsg_type=IP_RECVERR, "
           "cmsg_data={ee_errno=0}}]}, MSG_ERRQUEUE) = 0",
           "recvmsg(4, {msg_iov(1)=[{..., 0}], msg_control=7}, 0) = 0",
           "readv(4, [{..., 10}], 2) = 10",
       }) {
    Result r = RunText(absl::StrFormat("   +0 %s\n", call));
    EXPECT_EQ(r.verdict, Verdict::kFail) << call;
    EXPECT_THAT(r.reason, ::testing::Not(HasSubstr("\n"))) << call;
  }
}

TEST(RunnerTest, CloseSendsFinWhenNothingIsUnsent) {
  Result r = RunText(R"(
   +0 write(4, ..., 100) = 100
   +0 > P. 1:101(100) ack 1
  +.1 close(4) = 0
   +0 > F. 101:101(0) ack 1
  +.1 < . 1:1(0) ack 102 win 257
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result wrong = RunText(R"(
   +0 close(4) = 0
   +0 > F. 2:2(0) ack 1
)");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_THAT(wrong.reason, HasSubstr("sequence number differs"));
}

// Zero windows and send-path sysctls after the handshake no longer skip.
TEST(RunnerTest, ZeroWindowAndLiveSysctlsRun) {
  Result r = RunText("   +0 `sysctl -q net.ipv4.tcp_autocorking=0`\n   +0 < . 1:1(0) ack 1 win 0\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// shutdown(SHUT_WR) sends the FIN; the peer's FIN in FIN_WAIT is acked at once.
TEST(RunnerTest, ShutdownThenPeerFin) {
  Result r = RunText(R"(
   +0 write(4, ..., 100) = 100
   +0 > P. 1:101(100) ack 1
   +0 shutdown(4, SHUT_WR) = 0
   +0 > F. 101:101(0) ack 1
  +.1 < F. 1:1(0) ack 102 win 257
   +0 > . 102:102(0) ack 2
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// The peer's FIN first (CLOSE_WAIT): the delayed ACK leaves on the next jiffy
// tick (HZ 250 -> 4 ms) and acknowledges the FIN.
TEST(RunnerTest, PeerFinFirstIsAckedOnTheNextTick) {
  Result r = RunText("  +.1 < F. 1:1(0) ack 1 win 257\n+.004 > . 1:1(0) ack 2\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result wrong = RunText("  +.1 < F. 1:1(0) ack 1 win 257\n+.004 > . 1:1(0) ack 1\n");
  EXPECT_EQ(wrong.verdict, Verdict::kFail);
  EXPECT_THAT(wrong.reason, HasSubstr("ack number differs"));
}

TEST(RunnerTest, NonblockingSocketFromSocketCall) {
  std::string text = std::string("`../common/defaults.sh`\n") + R"(
    0 socket(..., SOCK_STREAM|SOCK_NONBLOCK, IPPROTO_TCP) = 3
   +0 fcntl(3, F_GETFL) = 0x802 (flags O_RDWR|O_NONBLOCK)
   +0 listen(3, 1) = 0
   +0 accept(3, ..., ...) = -1 EAGAIN (Resource temporarily unavailable)
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok()) << s.status();
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(RunnerTest, ParseErrorIsAFailWithLocation) {
  Result r = RunText("\n   +0 > P. 1:11(5) ack 1\n");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, StartsWith(absl::StrFormat("t.pkt:%d: impossible sequence range", kBodyLine)));
}

TEST(RunnerTest, TcpMaxsegClampsTheHandshake) {
  std::string text = std::string("`../common/defaults.sh`\n") + R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_TCP, TCP_MAXSEG, [536], 4) = 0
   +0 setsockopt(3, SOL_TCP, TCP_MAXSEG, [10], 4) = -1 EINVAL (Invalid argument)
   +0 getsockopt(3, SOL_TCP, TCP_MAXSEG, [536], [4]) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 536,nop,nop,sackOK,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
   +0 %{ assert tcpi_snd_mss == 536 }%
)";
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  ASSERT_TRUE(s.ok()) << s.status();
  Result r = RunParsedScript(*s, TestProfile(), FakeEndpointFactory());
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// The peer's data (receive.cc). Derivation, HZ 250 (jiffy 4 ms):
// - The first data segment starts quick-ACK mode (tcp_event_data_recv ->
//   tcp_incr_quickack: min(rcv_wnd / (2 * rcv_mss), 16) quick ACKs), so
//   __tcp_ack_snd_check ACKs it at once.
// - The reply leaves within ato (40 ms) of the request: tcp_event_data_sent
//   enters pingpong mode.
// - The second request is then not quick-ACKed: the delayed ACK rides on the
//   reply written 10 ms later (the read does not ACK: the short segment's
//   PUSHED mark only counts outside pingpong, tcp_cleanup_rbuf).
// - The third request gets no reply: the delayed-ACK timer (ato 40 ms from
//   the request's jiffy) sends the ACK.
TEST(RunnerTest, InboundDataIsReadAndAcknowledged) {
  Result r = RunText(R"(
   +0 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
   +0 read(4, ..., 1000) = 100
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 101
  +.1 < P. 101:201(100) ack 1001 win 257
 +.01 read(4, ..., 1000) = 100
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1001:2001(1000) ack 201
  +.1 < P. 201:301(100) ack 2001 win 257
 +.04 > . 2001:2001(0) ack 301
   +0 ioctl(4, SIOCINQ, [100]) = 0
   +0 read(4, ..., 50) = 50
   +0 ioctl(4, SIOCINQ, [50]) = 0
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  // Without data queued, a blocking read waits; a non-blocking one fails.
  Result a = RunText(R"(
   +0 fcntl(4, F_SETFL, O_RDWR|O_NONBLOCK) = 0
   +0 read(4, ..., 1000) = -1 EAGAIN (Resource temporarily unavailable)
)");
  EXPECT_EQ(a.verdict, Verdict::kPass) << a.reason;
}

// Upstream (run.c, adjust_relative_event_times): with a relative start, the
// end of "a...b" counts from the previous event like the start; events after
// the call count from its start. Here the read starts 0.1 s after accept and
// must return 0.3 s after it, when the data arrives (0.2 s after the start).
TEST(RunnerTest, BlockingEndCountsFromThePreviousEvent) {
  Result r = RunText(R"(
  +.1...0.3 read(4, ..., 1000) = 100
  +.2 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  Result late = RunText(R"(
  +.1...0.4 read(4, ..., 1000) = 100
  +.2 < P. 1:101(100) ack 1 win 257
)");
  EXPECT_EQ(late.verdict, Verdict::kFail);
  EXPECT_THAT(late.reason, HasSubstr("returned at"));
}

// Upstream sendfile scripts make their file with shell lines and O_CREAT
// and write it through the descriptor; sendfile without an offset reads from
// the file position (here the end, after the write), with one from there.
TEST(RunnerTest, ScriptMadeFilesFeedSendfile) {
  Result r = RunText(R"(
   +0 `/bin/rm -f /tmp/sendsim-testfile`
   +0 open("/tmp/sendsim-testfile", O_CREAT|O_RDWR|O_TRUNC, 0644) = 5
   +0 write(5, ..., 3000) = 3000
   +0 sendfile(4, 5, NULL, 5000) = 0
   +0 sendfile(4, 5, [0], 5000) = 3000
   +0 > P. 1:3001(3000) ack 1
   +0 close(5) = 0
   +0 `/bin/rm -f /tmp/sendsim-testfile`
   +0 open("/tmp/sendsim-testfile", O_RDONLY) = 5
)");
  EXPECT_EQ(r.verdict, Verdict::kSkip) << r.reason;  // removed: the last open has no file
  EXPECT_THAT(r.reason, HasSubstr(absl::StrFormat("t.pkt:%d:", kBodyLine + 8)));
}

}  // namespace
}  // namespace sendsim::packetdrill
