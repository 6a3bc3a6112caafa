// The messenger's writers on a loopback TCP connection of this kernel (no
// root): every message decoded and compared byte for byte at the receiver.

#include "realsock/run.h"

#include <sys/utsname.h>

#include "gtest/gtest.h"
#include "messenger/writer_policy.h"
#include "realsock/live.h"
#include "realsock/testing/loopback.h"

namespace sendsim::realsock {
namespace {

RunSpec Spec(messenger::WriterKind kind, bool has_sendpage) {
  RunSpec spec;
  spec.connection.policy = messenger::MakeWriterPolicy(kind);
  spec.connection.has_sendpage = has_sendpage;
  spec.messages = messenger::KrbdWrites(6, 131072, messenger::kKrbdFrontLen, 0);
  spec.driver.queue_depth = 2;
  spec.driver.reply_delay_ns = 20 * model::kNsPerUs;
  spec.driver.verify_payload = true;
  spec.deadline_ns = 20 * model::kNsPerSec;
  return spec;
}

bool KernelHasSendpage() {
  struct utsname u;
  uname(&u);
  return KernelVersion(u.release) < 6005;
}

class RunTest : public ::testing::TestWithParam<messenger::WriterKind> {};

TEST_P(RunTest, EveryMessageArrivesIntact) {
  auto [s, r] = testing::LoopbackPair();
  if (s < 0) GTEST_SKIP() << "no loopback TCP here";
  const bool sendpage = KernelHasSendpage();
  absl::StatusOr<RunOutcome> out = RunOnSockets(s, r, Spec(GetParam(), sendpage), nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->messages, 6u);
  const bool notlast = GetParam() == messenger::WriterKind::kV1Notlast && sendpage;
  // 32 pages per message; NOTLAST on all but the last of each message's data.
  EXPECT_EQ(out->socket.notlast_buffers, notlast ? 6u * 31 : 0u);
  EXPECT_TRUE(out->socket.eagains > 0 || out->socket.splice_calls > 0 || out->socket.sendmsg_calls > 0);
}

INSTANTIATE_TEST_SUITE_P(Writers, RunTest,
                         ::testing::Values(messenger::WriterKind::kV1Legacy, messenger::WriterKind::kV1Notlast,
                                           messenger::WriterKind::kV1Cork, messenger::WriterKind::kV1Splice,
                                           messenger::WriterKind::kV2, messenger::WriterKind::kV1Sendmsg),
                         [](const auto& info) {
                           std::string n(messenger::WriterKindName(info.param));
                           for (char& c : n) c = c == '-' ? '_' : c;
                           return n;
                         });

}  // namespace
}  // namespace sendsim::realsock
