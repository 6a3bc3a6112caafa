// Bad system-call arguments found by the bad-input sweep (scripts mutated
// from testdata/packetdrill/): each used to be accepted silently. The
// expected results follow Linux (__sys_bind's descriptor lookup, poll's int
// timeout) and upstream packetdrill (a descriptor or count must be a 32-bit
// integer), not the code's output.

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

model::Profile TestProfile() {
  model::Profile p;
  p.name = "test";
  p.has_sendpage = true;
  return p;
}

Result RunScript(const std::string& text) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", "`../common/defaults.sh`\n" + text);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  return RunParsedScript(*s, TestProfile(), FakeEndpointFactory({}));
}

constexpr char kSocket[] = R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
)";

// Used to return 0 whatever the descriptor.
TEST(SyscallBadArgsTest, BindOnADescriptorNotOpenIsEbadf) {
  Result r = RunScript(std::string(kSocket) + "   +0 bind(99, ..., ...) = 0\n");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("t.pkt:5: bind() returned -1 EBADF, expected 0"));

  r = RunScript(std::string(kSocket) + "   +0 bind(99, ..., ...) = -1 EBADF (Bad file descriptor)\n" +
          "   +0 bind(3, ..., ...) = 0\n   +0 listen(3, 1) = 0\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

TEST(SyscallBadArgsTest, BindOnAFileIsEnotsock) {
  Result r = RunScript(std::string(kSocket) + "   +0 open(\"/tmp/x\", O_RDWR|O_CREAT) = 5\n" +
                 "   +0 bind(5, ..., ...) = -1 ENOTSOCK (Socket operation on non-socket)\n" +
                 "   +0 bind(3, ..., ...) = 0\n   +0 listen(3, 1) = 0\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

// 4294967299 used to wrap onto descriptor 3 (and 0x7fffffffffffffff onto -1).
TEST(SyscallBadArgsTest, DescriptorWiderThanAnIntFails) {
  Result r = RunScript(std::string(kSocket) + "   +0 bind(3, ..., ...) = 0\n   +0 listen(4294967299, 1) = 0\n");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("t.pkt:6: listen(): file descriptor 4294967299 is out of range for a 32-bit integer"));
}

// An nfds that is not a number (a typo, "inf") used to skip the count check.
TEST(SyscallBadArgsTest, PollNfdsNotANumberSkips) {
  Result r = RunScript(std::string(testing::kPassiveOpen) +
                 "   +0 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], inf, 0) = 1\n");
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_THAT(r.reason, HasSubstr("poll() nfds not understood"));
}

// A timeout beyond a C int used to overflow the nanoseconds (undefined).
TEST(SyscallBadArgsTest, PollTimeoutWiderThanAnIntFails) {
  Result r = RunScript(std::string(testing::kPassiveOpen) +
                 "   +0 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], 1, 9223372036854775807) = 1\n");
  EXPECT_EQ(r.verdict, Verdict::kFail);
  EXPECT_THAT(r.reason, HasSubstr("poll(): timeout 9223372036854775807 ms is out of range for a 32-bit integer"));

  // INT_MAX itself is a valid (long) timeout: POLLOUT is ready at once.
  r = RunScript(std::string(testing::kPassiveOpen) +
          "   +0 poll([{fd=4, events=POLLOUT, revents=POLLOUT}], 1, 2147483647) = 1\n");
  EXPECT_EQ(r.verdict, Verdict::kPass) << r.reason;
}

}  // namespace
}  // namespace sendsim::packetdrill
