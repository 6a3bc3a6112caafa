// End to end: the messenger's writers drive the real TCP model
// (model::Connection), and the peer-side decoder must get every message back
// byte-identical under every writer and kernel profile.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "messenger/workload_driver.h"
#include "model/config.h"
#include "model/connection.h"
#include "model/profile.h"

namespace sendsim::messenger {
namespace {

struct Case {
  std::string profile;
  std::string writer;
};

std::vector<Case> AllCases() {
  std::vector<Case> out;
  for (const std::string& p : model::ProfileNames()) {
    for (const std::string& w : WriterNames()) out.push_back({p, w});
  }
  return out;
}

class EndToEndTest : public ::testing::TestWithParam<Case> {};

std::vector<MessageSpec> Workload() {
  // Mixed shapes (all data kinds, unaligned, empty, fallback pages) followed
  // by a burst of krbd 128 KiB writes with the CLI's default 192-byte front.
  std::vector<MessageSpec> specs = MixedWorkload(20, 17, 3 * model::kNsPerUs);
  std::vector<MessageSpec> krbd = KrbdWrites(10, 128 * 1024, 192, 0);
  for (MessageSpec& s : krbd) {
    s.submit_at = 200 * model::kNsPerUs;
    specs.push_back(s);
  }
  return specs;
}

TEST_P(EndToEndTest, DecoderGetsByteIdenticalMessages) {
  const Case& c = GetParam();
  absl::StatusOr<model::Profile> profile = model::ProfileByName(c.profile);
  ASSERT_TRUE(profile.ok()) << profile.status();
  absl::StatusOr<WriterKind> writer = ParseWriterKind(c.writer);
  ASSERT_TRUE(writer.ok()) << writer.status();

  model::EventLoop loop;
  model::ConnectionConfig cfg;
  cfg.call_cost_ns = 300;
  cfg.track_payload = true;
  cfg.full_trace = true;
  DriverOptions dopt;
  dopt.seed = 5;
  dopt.pool_pages = 64;
  dopt.reply_delay_ns = 30 * model::kNsPerUs;
  dopt.ack_arrival_delay_ns = cfg.one_way_delay_ns;
  WorkloadDriver driver(&loop, Workload(), dopt);
  absl::StatusOr<std::unique_ptr<model::Connection>> conn = model::Connection::Create(&loop, cfg, *profile, &driver);
  ASSERT_TRUE(conn.ok()) << conn.status();

  ConnectionOptions copt;
  copt.policy = MakeWriterPolicy(*writer);
  copt.has_sendpage = profile->has_sendpage;
  copt.costs.call_cost_ns = cfg.call_cost_ns;
  ASSERT_TRUE(driver.Attach(&(*conn)->socket(), copt).ok());
  driver.Start();
  loop.Run(50'000'000);

  ASSERT_TRUE(driver.Finish().ok()) << driver.Finish();
  EXPECT_TRUE((*conn)->CheckInvariants().ok()) << (*conn)->CheckInvariants();
  EXPECT_EQ((*conn)->unacked_bytes(), 0u);
  EXPECT_EQ(driver.delivered_bytes(), driver.connection().bytes_written());
  for (const MessageRecord& r : driver.records()) {
    EXPECT_FALSE(r.aborted) << r.index;
    EXPECT_GE(r.acked, r.delivered) << r.index;
  }
  EXPECT_EQ(driver.connection().in_seq(), driver.records().size());
  // The 1.3 MB burst overruns sndbuf: the -EAGAIN / write-space path ran.
  EXPECT_GT((*conn)->socket().counters().eagains, 0u);
  EXPECT_GT(driver.connection().worker_runs(), 1u);
}

// One request at a time with idle gaps: the worker starts from idle for each
// message and the peer's replies (acks) interleave with the next writes.
TEST_P(EndToEndTest, QueueDepthOneWithIdleGaps) {
  const Case& c = GetParam();
  const model::Profile profile = *model::ProfileByName(c.profile);
  model::EventLoop loop;
  model::ConnectionConfig cfg;
  cfg.call_cost_ns = 300;
  DriverOptions dopt;
  dopt.queue_depth = 1;
  dopt.reply_delay_ns = 40 * model::kNsPerUs;
  dopt.ack_arrival_delay_ns = cfg.one_way_delay_ns;
  WorkloadDriver driver(&loop, KrbdWrites(6, 64 * 1024, 192, 0), dopt);
  auto conn = model::Connection::Create(&loop, cfg, profile, &driver);
  ASSERT_TRUE(conn.ok()) << conn.status();
  ConnectionOptions copt;
  copt.policy = MakeWriterPolicy(*ParseWriterKind(c.writer));
  copt.has_sendpage = profile.has_sendpage;
  copt.costs.call_cost_ns = cfg.call_cost_ns;
  ASSERT_TRUE(driver.Attach(&(*conn)->socket(), copt).ok());
  driver.Start();
  loop.Run(10'000'000);
  ASSERT_TRUE(driver.Finish().ok()) << driver.Finish();
  const auto& r = driver.records();
  for (size_t i = 0; i < r.size(); ++i) {
    EXPECT_GE(r[i].delivered, r[i].written) << i;
    EXPECT_GE(r[i].acked, r[i].delivered) << i;
    // The reply to message i (decoded + 40 us) is what submits message i + 1.
    if (i + 1 < r.size()) {
      EXPECT_EQ(r[i + 1].submitted, r[i].delivered + 40 * model::kNsPerUs) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllWritersAllProfiles, EndToEndTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string n = info.param.profile + "_" + info.param.writer;
                           for (char& ch : n) {
                             if (ch == '-' || ch == '.') ch = '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace sendsim::messenger
