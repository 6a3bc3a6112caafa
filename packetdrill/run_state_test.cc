// RunState::SelectWindow, our window field, through scripts on FakeEndpoint.
// Every expected field is worked out by hand from tcp_select_window's rules
// with defaults.sh's tcp_rmem[1] 540000: the space is 270000 bytes, our MSS
// 1460 (scale 8: units of 256 bytes), the initial window 270000 rounded down
// to whole 1460s, 268640, and rcv_ssthresh at most the space less one
// advmss, 268540.

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

// v6.5+ rounds the offer down; before, it rounds it up, and v4.20..v6.5
// cap the initial window at 65535 (v4.20+: no tcp_default_init_rwnd cap).
model::Profile WindowProfile(bool v6_5) {
  model::Profile p;
  p.name = "test";
  p.initial_rwnd_capped = false;
  p.rcv_window_round_down = v6_5;
  p.initial_rcv_wnd_u16_max = !v6_5;
  return p;
}

Result RunBody(const std::string& body, bool v6_5) {
  absl::StatusOr<Script> s =
      ParseScript("t.pkt", std::string("`../common/defaults.sh`\n") + testing::kPassiveOpen + body);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  return RunParsedScript(*s, WindowProfile(v6_5), FakeEndpointFactory({}));
}

// Sending first: the offer (268540 rounded down, 268288) is below the
// 268640 still open, which is never shrunk: rounded up, 268800 = 1050.
TEST(SelectWindowTest, FirstSegmentKeepsTheInitialWindowRoundedUp) {
  const std::string write = "   +0 write(4, ..., 1000) = 1000\n";
  EXPECT_EQ(RunBody(write + "   +0 > P. 1:1001(1000) ack 1 win 1050\n", true).verdict, Verdict::kPass);
  Result floor = RunBody(write + "   +0 > P. 1:1001(1000) ack 1 win 1049\n", true);
  EXPECT_EQ(floor.verdict, Verdict::kFail);
  EXPECT_THAT(floor.reason, HasSubstr("window differs"));
}

// 100 bytes first: 268540 still open rounds up to 268544 (1049), above
// the offer; the reply after the read: 268544 open again (rcv_wup moved).
TEST(SelectWindowTest, DataFirstRoundsWhatIsLeftUp) {
  Result r = RunBody(R"(
  +.1 < P. 1:101(100) ack 1 win 257
   +0 > . 1:1(0) ack 101 win 1049
   +0 read(4, ..., 1000) = 100
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 101 win 1049
)",
                 true);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// Before v6.5: the initial window is 65535, rcv_ssthresh 65535, and the
// offer rounds up: 65536, 256 units, before and after 100 bytes arrive
// (65436 still open rounds up to 65536 too).
TEST(SelectWindowTest, BeforeV65TheOfferRoundsUp) {
  Result r = RunBody(R"(
   +0 write(4, ..., 1000) = 1000
   +0 > P. 1:1001(1000) ack 1 win 256
  +.1 < . 1:1(0) ack 1001 win 257
  +.1 < P. 1:101(100) ack 1001 win 257
   +0 > . 1001:1001(0) ack 101 win 256
)",
                 false);
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// A 400-byte segment runs tcp_grow_window, whose increase weighs the skb's
// truesize: a line that checks the window after it SKIPs; one that does not
// check it still runs.
TEST(SelectWindowTest, WindowAfterGrowWindowIsNotJudged) {
  const std::string data = "  +.1 < P. 1:401(400) ack 1 win 257\n";
  Result checked = RunBody(data + "   +0 > . 1:1(0) ack 401 win 1049\n", true);
  EXPECT_EQ(checked.verdict, Verdict::kSkip);
  EXPECT_THAT(checked.reason, HasSubstr("tcp_grow_window"));
  Result unchecked = RunBody(data + "   +0 > . 1:1(0) ack 401\n", true);
  EXPECT_EQ(unchecked.verdict, Verdict::kPass) << unchecked.reason;
}

}  // namespace
}  // namespace sendsim::packetdrill
