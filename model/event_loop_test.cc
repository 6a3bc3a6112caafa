#include "model/event_loop.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

using ::testing::ElementsAre;

TEST(EventLoop, TiesRunInInsertionOrder) {
  EventLoop loop;
  std::vector<int> order;
  loop.ScheduleAt(10, [&] { order.push_back(1); });
  loop.ScheduleAt(5, [&] { order.push_back(0); });
  loop.ScheduleAt(10, [&] { order.push_back(2); });
  loop.Run();
  EXPECT_THAT(order, ElementsAre(0, 1, 2));
  EXPECT_EQ(loop.now(), 10);
}

TEST(EventLoop, CancelOfRunOrUnknownIdIsANoOp) {
  EventLoop loop;
  int ran = 0;
  const EventLoop::EventId a = loop.ScheduleAt(1, [&] { ++ran; });
  loop.Run();
  EXPECT_EQ(ran, 1);
  loop.Cancel(a);        // already ran
  loop.Cancel(0);        // never valid
  loop.Cancel(123456);   // unknown
  EXPECT_TRUE(loop.empty());
  // A slot reused by a new event is not hit by the stale id.
  const EventLoop::EventId b = loop.ScheduleAt(2, [&] { ++ran; });
  loop.Cancel(a);
  EXPECT_TRUE(loop.IsPending(b));
  EXPECT_FALSE(loop.empty());
  loop.Run();
  EXPECT_EQ(ran, 2);
}

TEST(EventLoop, CancelledEventDoesNotRunAndTwiceIsHarmless) {
  EventLoop loop;
  int ran = 0;
  const EventLoop::EventId a = loop.ScheduleAt(1, [&] { ++ran; });
  loop.Cancel(a);
  loop.Cancel(a);
  EXPECT_TRUE(loop.empty());
  loop.Run();
  EXPECT_EQ(ran, 0);
}

TEST(EventLoop, AdvanceToMovesTheClock) {
  EventLoop loop;
  loop.AdvanceTo(100);
  EXPECT_EQ(loop.now(), 100);
  loop.ScheduleAt(50, [] {});  // clamped to now
  loop.Run();
  EXPECT_EQ(loop.now(), 100);
}

}  // namespace
}  // namespace sendsim::model
