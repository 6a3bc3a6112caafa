// A short live run across two namespaces of this kernel (root, namespaces,
// iproute2; skipped with the reason otherwise). Plain veth: netem may be
// missing here.

#include "realsock/live.h"

#include <sys/utsname.h>

#include "gtest/gtest.h"

namespace sendsim::realsock {
namespace {

TEST(LiveTest, ShortRunOnThisKernel) {
  LiveOptions o;
  struct utsname u;
  uname(&u);
  o.kernel = u.release;
  o.profile = ProfileForKernel(u.release);
  o.messages = 5;
  o.writers = {"v1-notlast", "v1-cork"};
  o.testbed.shape = false;
  if (absl::Status can = CheckCanRun(o.testbed); !can.ok()) GTEST_SKIP() << can.message();
  ASSERT_TRUE(ValidateLive(o).ok());
  kernelcmp::CleanupStack cleanup;
  absl::StatusOr<Recording> rec = RunLive(o, &cleanup);
  ASSERT_TRUE(rec.ok()) << rec.status();
  ASSERT_EQ(rec->kernel_runs.size(), 2u);
  ASSERT_EQ(rec->model_runs.size(), 2u);
  for (const Figures& f : rec->kernel_runs) {
    EXPECT_EQ(f.messages, 5u) << f.writer;
    // 5 x (1-byte tag + 53-byte header + 192-byte front + 128 KiB data +
    // 21-byte footer) = 656,695 bytes in segments of at most 1448: >= 454.
    EXPECT_GE(f.packets, 454u) << f.writer;
    EXPECT_LE(f.sub_mss, f.packets) << f.writer;
    uint64_t sized = 0;
    for (const auto& [size, count] : f.sizes) sized += count;
    EXPECT_EQ(sized, f.packets) << f.writer;
  }
}

}  // namespace
}  // namespace sendsim::realsock
