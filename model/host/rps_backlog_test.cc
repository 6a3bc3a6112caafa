#include "model/host/rps_backlog.h"

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

// Service 1 us, IPI mean 50 us. By hand:
//  - the sender's own packets on an idle backlog are taken at once, one
//    service time apart (10, 11, then 12 for one queued at 10.5);
//  - an ACK from the other CPU at 100 schedules the backlog: taken at the
//    IPI, I = 100 + d with d > 0;
//  - the sender's packets enqueued before I raise nothing and wait for it:
//    taken at I + 1 and I + 2, behind the ACK; a second remote ACK before
//    I shares that IPI (taken at I + 3), no new IPI;
//  - once the backlog is idle again (after I + 4), a local packet is taken
//    at once.
TEST(RpsBacklog, LocalInlineRemoteWaitsForTheIpiAndHoldsLocalsBehindIt) {
  RpsBacklog b(1'000, 50'000, 7);
  EXPECT_EQ(b.Local(10'000), 10'000);
  EXPECT_EQ(b.Local(10'000), 11'000);
  EXPECT_EQ(b.Local(10'500), 12'000);
  const TimeNs ipi = b.Remote(100'000);
  EXPECT_GT(ipi, 100'000);
  EXPECT_EQ(b.ipis(), 1u);
  EXPECT_EQ(b.Local(100'500), ipi + 1'000);
  EXPECT_EQ(b.Local(100'600), ipi + 2'000);
  EXPECT_EQ(b.Remote(100'700), ipi + 3'000);
  EXPECT_EQ(b.ipis(), 1u);
  const TimeNs later = ipi + 10'000;
  EXPECT_EQ(b.Local(later), later);
}

// A remote packet finding the backlog busy (the sender's transmits being
// taken inline) joins that pass: no IPI.
TEST(RpsBacklog, RemoteJoinsABusyBacklog) {
  RpsBacklog b(1'000, 50'000, 7);
  EXPECT_EQ(b.Local(10'000), 10'000);
  EXPECT_EQ(b.Local(10'000), 11'000);
  EXPECT_EQ(b.Remote(10'500), 12'000);
  EXPECT_EQ(b.ipis(), 0u);
}

// The IPI delay is exponential: over many idle periods its mean is the
// configured one (within 5 %), and the same seed gives the same draws.
TEST(RpsBacklog, IpiDelayIsExponentialAndSeeded) {
  RpsBacklog a(0, 50'000, 3), b(0, 50'000, 3);
  double sum = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    const TimeNs t = TimeNs{i} * 10'000'000;  // far apart: always idle
    const TimeNs at = a.Remote(t);
    EXPECT_EQ(b.Remote(t), at);
    sum += static_cast<double>(at - t);
  }
  EXPECT_NEAR(sum / n, 50'000.0, 2'500.0);
  EXPECT_EQ(a.ipis(), static_cast<uint64_t>(n));
}

}  // namespace
}  // namespace sendsim::model
