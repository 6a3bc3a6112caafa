#include "messenger/workload_driver.h"

#include <deque>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "messenger/testing/writer_params.h"
#include "messenger/testing/fake_socket.h"

namespace sendsim::messenger {
namespace {

using testing::FakeSocket;

// A FakeSocket whose accepted bytes reach the driver `delay` later (as
// OnDeliver) and are acknowledged `delay` after that (as an ACK WirePacket).
// Optionally the socket only takes `grant` bytes per `period`.
struct Loopback {
  Loopback(model::TimeNs delay, uint64_t budget) : sock(budget, &loop), delay(delay) {
    sock.on_bytes = [this](const uint8_t* d, uint64_t n) {
      chunks.emplace_back(d, d + n);
      const uint32_t seq = next_seq;
      next_seq += static_cast<uint32_t>(n);
      const std::vector<uint8_t>* c = &chunks.back();
      this->loop.ScheduleAfter(this->delay, [this, seq, c] {
        driver->OnDeliver(loop.now(), seq, c->data(), static_cast<uint32_t>(c->size()));
        model::WirePacket ack;
        ack.dir = model::Direction::kAck;
        ack.ack = seq + static_cast<uint32_t>(c->size());
        ack.time = loop.now();
        driver->OnWirePacket(ack);
      });
    };
  }
  void Periodic(uint64_t grant, model::TimeNs period) {
    loop.ScheduleAfter(period, [this, grant, period] {
      if (driver->connection().idle() && loop.empty()) return;
      sock.Grant(grant);
      Periodic(grant, period);
    });
  }
  model::EventLoop loop;
  FakeSocket sock;
  model::TimeNs delay;
  WorkloadDriver* driver = nullptr;
  std::deque<std::vector<uint8_t>> chunks;  // stable addresses
  uint32_t next_seq = 1;                    // ISN 0: first data byte is seq 1
};

DriverOptions Opt() {
  DriverOptions o;
  o.seed = 11;
  o.pool_pages = 8;
  o.reply_delay_ns = 20 * model::kNsPerUs;
  return o;
}

class DriverTest : public ::testing::TestWithParam<WriterKind> {};

TEST_P(DriverTest, MixedWorkloadArrivesIntactThroughATightSocket) {
  Loopback lb(10 * model::kNsPerUs, 3000);
  WorkloadDriver drv(&lb.loop, MixedWorkload(40, 5, 2 * model::kNsPerUs), Opt());
  lb.driver = &drv;
  ConnectionOptions co;
  co.policy = MakeWriterPolicy(GetParam());
  ASSERT_TRUE(drv.Attach(&lb.sock, co).ok());
  drv.Start();
  lb.Periodic(3000, 5 * model::kNsPerUs);
  lb.loop.Run(5'000'000);
  ASSERT_TRUE(drv.Finish().ok()) << drv.Finish();
  for (const MessageRecord& r : drv.records()) {
    EXPECT_GE(r.written, r.submitted) << r.index;
    EXPECT_GE(r.delivered, r.written) << r.index;
    EXPECT_GE(r.acked, r.delivered) << r.index;
    EXPECT_GE(r.replied, r.delivered + 20 * model::kNsPerUs) << r.index;
    EXPECT_FALSE(r.aborted);
  }
  // Every reply was read and acknowledged back to the peer (piggybacked in
  // later messages or standalone acks).
  EXPECT_EQ(drv.connection().in_seq(), 40u);
  EXPECT_EQ(drv.connection().in_seq_acked(), 40u);
  if (GetParam() != WriterKind::kV2) {
    EXPECT_EQ(drv.decoder().last_ack(), 40u);
  }
  EXPECT_GT(lb.sock.calls().size(), 0u);
  int eagains = 0;
  for (const auto& c : lb.sock.calls()) eagains += c.ret == -model::kEagain;
  EXPECT_GT(eagains, 0);  // the tight socket did push back
}

INSTANTIATE_TEST_SUITE_P(Writers, DriverTest,
                         ::testing::ValuesIn(testing::SelectableWriters()), testing::WriterParamName());

TEST(DriverQueueDepthTest, AtMostQdOutstanding) {
  Loopback lb(10 * model::kNsPerUs, FakeSocket::kUnlimited);
  DriverOptions o = Opt();
  o.queue_depth = 2;
  WorkloadDriver drv(&lb.loop, KrbdWrites(10, 8192, 192, 0), o);
  lb.driver = &drv;
  ConnectionOptions co;
  co.policy = MakeWriterPolicy(WriterKind::kV1Notlast);
  ASSERT_TRUE(drv.Attach(&lb.sock, co).ok());
  drv.Start();
  lb.loop.Run();
  ASSERT_TRUE(drv.Finish().ok()) << drv.Finish();
  const auto& r = drv.records();
  for (size_t i = 2; i < r.size(); ++i) EXPECT_GE(r[i].submitted, r[i - 2].replied) << i;
  // 192-byte front: prefix 1 + 53 + 192 = 246 (+9 with an ack), 8192 data, 21 footer.
  EXPECT_EQ(r[0].stream_end - r[0].stream_begin, 246u + 8192u + 21u);
}

// Reply time = reply_delay_ns + a seeded uniform draw from [0, jitter]: every
// reply lands in that window, the draws differ, and the same seed gives the
// same draws. Jitter 0 keeps the fixed delay.
std::vector<model::TimeNs> ReplyDelays(model::TimeNs jitter, uint64_t seed) {
  Loopback lb(10 * model::kNsPerUs, FakeSocket::kUnlimited);
  DriverOptions o = Opt();
  o.seed = seed;
  o.queue_depth = 2;
  o.reply_jitter_ns = jitter;
  WorkloadDriver drv(&lb.loop, KrbdWrites(30, 8192, 192, 0), o);
  lb.driver = &drv;
  ConnectionOptions co;
  co.policy = MakeWriterPolicy(WriterKind::kV1Notlast);
  EXPECT_TRUE(drv.Attach(&lb.sock, co).ok());
  drv.Start();
  lb.loop.Run();
  EXPECT_TRUE(drv.Finish().ok()) << drv.Finish();
  std::vector<model::TimeNs> d;
  for (const MessageRecord& r : drv.records()) d.push_back(r.replied - r.delivered);
  return d;
}

TEST(DriverReplyJitterTest, DrawsStayInTheWindowAndFollowTheSeed) {
  const model::TimeNs base = 20 * model::kNsPerUs;
  const model::TimeNs jitter = 15 * model::kNsPerUs;
  const std::vector<model::TimeNs> a = ReplyDelays(jitter, 11);
  ASSERT_EQ(a.size(), 30u);
  for (model::TimeNs v : a) {
    EXPECT_GE(v, base);
    EXPECT_LE(v, base + jitter);
  }
  EXPECT_GT(std::set<model::TimeNs>(a.begin(), a.end()).size(), 10u);
  EXPECT_EQ(ReplyDelays(jitter, 11), a);
  EXPECT_NE(ReplyDelays(jitter, 12), a);
  for (model::TimeNs v : ReplyDelays(0, 11)) EXPECT_EQ(v, base);
}

TEST(DriverTest, PoolBoundsMemoryWhilePagesStayDistinct) {
  PagePool pool(4, 1);
  const MsgPage a = pool.Next();
  for (int i = 0; i < 3; ++i) pool.Next();
  const MsgPage e = pool.Next();
  EXPECT_NE(a.page.id, e.page.id);      // distinct identities (no false frag coalescing)
  EXPECT_EQ(a.page.data, e.page.data);  // same bytes: the pool wrapped
}

TEST(DriverTest, BadSpecIsReported) {
  Loopback lb(0, FakeSocket::kUnlimited);
  std::vector<MessageSpec> specs(1);
  specs[0].items.push_back(DataItemSpec{DataKind::kPages, uint64_t{1} << 33, 0, true});  // > le32 data_len
  DriverOptions o = Opt();
  WorkloadDriver drv(&lb.loop, specs, o);
  lb.driver = &drv;
  ASSERT_TRUE(drv.Attach(&lb.sock, ConnectionOptions{}).ok());
  drv.Start();
  lb.loop.Run();
  EXPECT_FALSE(drv.Finish().ok());
}

}  // namespace
}  // namespace sendsim::messenger
