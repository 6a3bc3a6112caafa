// Tests of code.cc's tcp_info values through the runner, against
// FakeEndpoint, for what the tcp_info_*.pkt scripts do not pin down: a
// receive buffer set with SO_RCVBUF, the 65535 limit of older kernels, and
// the fields that SKIP once the runner no longer knows them. Expectations
// are worked out by hand from tcp_select_initial_window,
// tcp_init_buffer_space, tcp_select_window and tcp_get_info.

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

constexpr char kDefaults[] = "`../common/defaults.sh`\n";

model::Profile TestProfile(bool u16_max) {
  model::Profile p;
  p.name = "test";
  p.initial_rwnd_capped = false;
  p.tcp_info_rcv_wnd_rehash = !u16_max;
  p.initial_rcv_wnd_u16_max = u16_max;
  return p;
}

Result RunText(const std::string& text, bool u16_max = false) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  return RunParsedScript(*s, TestProfile(u16_max), FakeEndpointFactory({}));
}

Result RunPassive(const std::string& body, bool u16_max = false) {
  return RunText(std::string(kDefaults) + testing::kPassiveOpen + body, u16_max);
}

// SO_RCVBUF 20000 on the listener: sk_rcvbuf 40000, tcp_full_space 20000.
// The initial window is 20000 rounded down to 1460s (no timestamps):
// 13 * 1460 = 18980. The clamp is 20000 - 1460 = 18540 (above 2 * 1460):
// rcv_ssthresh 18540, rcv_space min(18540, 18980, 14600) = 14600. The
// child has sent nothing: rcv_wnd 18980; after a write, rounded up to the
// scale unit 256 (tcp_rmem[2] sets wscale 8): 75 * 256 = 19200.
TEST(CodeTest, ReceiveBufferFromSoRcvbuf) {
  Result r = RunText(std::string(kDefaults) + R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 setsockopt(3, SOL_SOCKET, SO_RCVBUF, [20000], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257
   +0 accept(3, ..., ...) = 4
   +0 %{ assert tcpi_rcv_wnd == 18980 and tcpi_rcv_ssthresh == 18540 and tcpi_rcv_space == 14600 }%
   +0 write(4, ..., 100) = 100
   +0 > P. 1:101(100) ack 1
   +0 %{ assert tcpi_rcv_wnd == 19200 }%
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// v4.20..v6.5: the initial window, so rcv_ssthresh, is at most 65535 even
// though the buffer (defaults.sh: 540000, space 270000) allows 268640.
TEST(CodeTest, InitialWindowHeldTo64k) {
  Result r = RunPassive("   +0 %{ assert tcpi_rcv_ssthresh == 65535 and tcpi_rcv_space == 14600 }%\n", true);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  r = RunPassive("   +0 %{ assert tcpi_rcv_ssthresh == 268540 }%\n", false);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  r = RunPassive("   +0 %{ assert tcpi_rcv_wnd == 0 }%\n", true);
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("tcpi_rcv_wnd is not in test's struct tcp_info"));
}

// 100 bytes (under 128: no tcp_grow_window) keep rcv_ssthresh known, 200
// bytes do not; any data makes rcv_wnd unknown. The first data sets ato
// to TCP_ATO_MIN: 10 jiffies at HZ 250, 40000 us.
TEST(CodeTest, FieldsBecomeUnknownWithData) {
  const std::string small = R"(
  +.1 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101
)";
  Result r = RunPassive(small + "   +0 %{ assert tcpi_rcv_ssthresh == 268540 and tcpi_ato == 40000 }%\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
  r = RunPassive(small + "   +0 %{ assert tcpi_rcv_wnd > 0 }%\n");
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("tcpi_rcv_wnd after inbound data"));
  r = RunPassive(R"(
  +.1 < P. 1:201(200) ack 1 win 257
   +0 > . 1:1(0) ack 201
   +0 %{ assert tcpi_rcv_ssthresh > 0 }%
)");
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("tcp_grow_window"));
}

// segs_in / segs_out around the handshake of a passive open: the child
// counts the SYN and the ACK that created it; it sent nothing. An
// out-of-order segment counts in rcv_ooopack, and its duplicate ACK (a
// bare segment) in segs_out.
TEST(CodeTest, SegmentCountersAndOoopack) {
  Result r = RunPassive(R"(
   +0 %{ assert tcpi_segs_in == 2 and tcpi_segs_out == 0 and tcpi_rcv_ooopack == 0 }%
  +.1 < P. 101:201(100) ack 1 win 257
   +0 > . 1:1(0) ack 1 <nop,nop,sack 101:201>
   +0 %{ assert tcpi_segs_in == 3 and tcpi_data_segs_in == 1 and tcpi_segs_out == 1 and tcpi_rcv_ooopack == 1 }%
)");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

}  // namespace
}  // namespace sendsim::packetdrill
