#include "scenario/simulation.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "messenger/writer_policy.h"

namespace sendsim::scenario {
namespace {

// Counts data packets and delivered bytes.
class Count : public model::Observer {
 public:
  void OnWirePacket(const model::WirePacket& p) override { packets += p.dir == model::Direction::kData && p.len > 0; }
  void OnDeliver(model::TimeNs, uint32_t, const uint8_t*, uint32_t len) override { bytes += len; }
  uint64_t packets = 0;
  uint64_t bytes = 0;
};

Scenario Small() {
  Scenario s;
  s.messages = 3;
  s.sizes = {{8192, 1}};
  return s;
}

TEST(Simulation, MessengerRunDeliversTheWholeStreamToEveryObserver) {
  Simulation sim;
  sim.scenario = Small();
  Count a, b;
  sim.observers = {&a, nullptr, &b};
  MessengerWorkload app = MessengerWorkload::ForScenario(sim.scenario, messenger::WriterKind::kV1Notlast);
  absl::StatusOr<SimulationResult> r = sim.Run(app);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(app.driver().Finish().ok());
  EXPECT_TRUE(r->invariants.ok());
  EXPECT_TRUE(r->loop_empty);
  // 3 messages of 8 KiB data each, plus framing: more than 24 KiB delivered,
  // seen alike by both observers and the connection.
  EXPECT_GT(a.bytes, 3u * 8192);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(r->delivered_bytes, a.bytes);
  EXPECT_EQ(a.packets, b.packets);
  EXPECT_GE(r->histogram.packets, a.packets);
  EXPECT_EQ(r->unacked_bytes, 0u);
  EXPECT_GT(r->end_ns, 0);
}

TEST(Simulation, UnknownKernelAndRejectedConfigurationAreErrors) {
  Simulation sim;
  sim.scenario = Small();
  sim.scenario.kernel = "linux-9.99";
  MessengerWorkload app = MessengerWorkload::ForScenario(sim.scenario, messenger::WriterKind::kV1Legacy);
  EXPECT_FALSE(sim.Run(app).ok());
  sim.scenario = Small();
  sim.scenario.mss = 1;  // below TCP_MIN_MSS
  MessengerWorkload app2 = MessengerWorkload::ForScenario(sim.scenario, messenger::WriterKind::kV1Legacy);
  absl::StatusOr<SimulationResult> r = sim.Run(app2);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(r.status()));
  EXPECT_NE(r.status().message().find("model rejects the configuration"), std::string::npos);
}

// An application that writes nothing and is done after `done_after` asks.
class Idle : public Application {
 public:
  explicit Idle(int done_after) : left_(done_after) {}
  absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile&,
                                           const model::ConnectionConfig&) override {
    loop_ = loop;
    return nullptr;
  }
  absl::Status Start(model::Connection*) override {
    // Keeps the loop busy every millisecond for a second.
    for (int i = 1; i <= 1000; ++i) loop_->ScheduleAt(i * model::kNsPerMs, [] {});
    return absl::OkStatus();
  }
  bool Done() const override { return --left_ <= 0; }

 private:
  model::EventLoop* loop_ = nullptr;
  mutable int left_;
};

TEST(Simulation, TimeSlicesStopWhenDoneOrAtTheHorizon) {
  Simulation sim;
  sim.scenario = Small();
  sim.plan.slice_ns = 10 * model::kNsPerMs;
  sim.plan.horizon_ns = 35 * model::kNsPerMs;
  int slices = 0;
  sim.plan.progress = [&slices] { ++slices; };
  Idle never(1000);
  absl::StatusOr<SimulationResult> r = sim.Run(never);
  ASSERT_TRUE(r.ok());
  // Slices end at 10, 20, 30 and 35 ms; events remain after 35 ms.
  EXPECT_EQ(slices, 4);
  EXPECT_EQ(r->end_ns, 35 * model::kNsPerMs);
  EXPECT_TRUE(r->stopped_at_horizon);
  EXPECT_FALSE(r->app_done);

  slices = 0;
  Idle second(2);
  r = sim.Run(second);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(slices, 2);
  EXPECT_EQ(r->end_ns, 20 * model::kNsPerMs);
  EXPECT_TRUE(r->app_done);
  EXPECT_FALSE(r->stopped_at_horizon);
}

TEST(Simulation, EventSlicesStopPastTheHorizon) {
  Simulation sim;
  sim.scenario = Small();
  sim.plan.slice_events = 100;
  sim.plan.horizon_ns = 250 * model::kNsPerMs;
  Idle never(1000);
  absl::StatusOr<SimulationResult> r = sim.Run(never);
  ASSERT_TRUE(r.ok());
  // Events at every ms (and the connection's own timers): the first slice
  // end past 250 ms stops the run with events left.
  EXPECT_GT(r->end_ns, 250 * model::kNsPerMs);
  EXPECT_LT(r->end_ns, 1000 * model::kNsPerMs);
  EXPECT_TRUE(r->stopped_at_horizon);
}

}  // namespace
}  // namespace sendsim::scenario
