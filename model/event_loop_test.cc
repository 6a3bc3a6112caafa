#include "model/event_loop.h"

#include <functional>
#include <string>
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


TEST(EventLoop, CancelRemovesTheEntryAtOnce) {
  EventLoop loop;
  int ran = 0;
  const EventLoop::EventId a = loop.ScheduleAt(5, [&] { ++ran; });
  loop.ScheduleAt(7, [&] { ++ran; });
  EXPECT_EQ(loop.queue_size(), 2u);
  loop.Cancel(a);
  EXPECT_EQ(loop.queue_size(), 1u);
  EXPECT_FALSE(loop.IsPending(a));
  loop.Run();
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(loop.now(), 7);
}

TEST(EventLoop, StdFunctionAndInlineCallablesShareOneOrder) {
  // A callable too large to store inline goes through std::function; both
  // kinds sort by (time, insertion order) alike.
  EventLoop loop;
  std::vector<std::string> order;
  const std::string big = "function";
  loop.ScheduleAt(3, [&order, big] { order.push_back(big); });
  loop.ScheduleAt(3, [&order] { order.push_back("inline"); });
  loop.ScheduleAt(3, EventLoop::Callback([&order] { order.push_back("callback"); }));
  loop.Run();
  EXPECT_THAT(order, ElementsAre("function", "inline", "callback"));
}

TEST(EventLoop, EventIdIsNotPendingWhileItsEventRuns) {
  EventLoop loop;
  EventLoop::EventId id = 0;
  bool pending_inside = true;
  id = loop.ScheduleAt(1, [&] { pending_inside = loop.IsPending(id); });
  loop.Run();
  EXPECT_FALSE(pending_inside);
}

struct Recorder {
  std::vector<int>* order;
  int tag;
  static void Fire(void* self) {
    auto* r = static_cast<Recorder*>(self);
    r->order->push_back(r->tag);
  }
};

TEST(EventLoop, TimerHasOnePendingExpiryAndRearmingMovesIt) {
  EventLoop loop;
  std::vector<int> order;
  Recorder rec{&order, 1};
  EventLoop::Timer timer(&loop, &Recorder::Fire, &rec);
  EXPECT_FALSE(timer.pending());
  timer.ArmAt(10);
  loop.ScheduleAt(10, [&] { order.push_back(2); });
  // Re-arming gives the timer a new insertion sequence: at 10 it now runs
  // after the one-shot event scheduled before the re-arm.
  timer.ArmAt(10);
  EXPECT_EQ(loop.queue_size(), 2u);
  loop.Run();
  EXPECT_THAT(order, ElementsAre(2, 1));
  EXPECT_FALSE(timer.pending());

  order.clear();
  timer.ArmAt(20);
  timer.ArmAt(15);  // earlier: the 20 ns expiry is gone, not left behind
  EXPECT_EQ(loop.queue_size(), 1u);
  loop.Run();
  EXPECT_THAT(order, ElementsAre(1));
  EXPECT_EQ(loop.now(), 15);

  timer.ArmAt(30);
  timer.Cancel();
  EXPECT_TRUE(loop.empty());
  loop.Run();
  EXPECT_EQ(loop.now(), 15);
}

TEST(EventLoop, ReservedKeySortsWhereScheduleAtWouldHavePutIt) {
  // A FIFO source reserves its key at creation and queues the event later:
  // the run order is that of scheduling it at reservation time.
  EventLoop loop;
  std::vector<int> order;
  Recorder rec{&order, 1};
  EventLoop::Timer timer(&loop, &Recorder::Fire, &rec);
  const EventLoop::Key key = loop.ReserveKey(10);  // before event 2
  loop.ScheduleAt(10, [&] { order.push_back(2); });
  loop.ScheduleAt(5, [&] { timer.ArmAtKey(key); });
  loop.Run();
  EXPECT_THAT(order, ElementsAre(1, 2));
}

TEST(EventLoop, TimerCanRearmItselfAndScheduleWhileRunning) {
  // The running event's entry is replaced by the first one queued during the
  // event; the others still sort correctly.
  EventLoop loop;
  std::vector<TimeNs> fired;
  struct Ticker {
    EventLoop* loop;
    std::vector<TimeNs>* fired;
    EventLoop::Timer* timer;
    static void Fire(void* self) {
      auto* t = static_cast<Ticker*>(self);
      t->fired->push_back(t->loop->now());
      t->loop->ScheduleAfter(1, [f = t->fired, l = t->loop] { f->push_back(-l->now()); });
      if (t->loop->now() < 30) t->timer->ArmAt(t->loop->now() + 10);
    }
  };
  Ticker ticker{&loop, &fired, nullptr};
  EventLoop::Timer timer(&loop, &Ticker::Fire, &ticker);
  ticker.timer = &timer;
  timer.ArmAt(10);
  loop.Run();
  EXPECT_THAT(fired, ElementsAre(10, -11, 20, -21, 30, -31));
  EXPECT_TRUE(loop.empty());
}

TEST(EventLoop, DestroyingAPendingTimerCancelsIt) {
  EventLoop loop;
  std::vector<int> order;
  Recorder rec{&order, 1};
  {
    EventLoop::Timer timer(&loop, &Recorder::Fire, &rec);
    timer.ArmAt(10);
  }
  EXPECT_TRUE(loop.empty());
  loop.Run();
  EXPECT_TRUE(order.empty());
}

TEST(EventLoop, NextEventTimeIsTheEarliestPending) {
  EventLoop loop;
  EXPECT_EQ(loop.NextEventTime(), -1);
  const EventLoop::EventId late = loop.ScheduleAt(300, [] {});
  loop.ScheduleAt(200, [] {});
  EXPECT_EQ(loop.NextEventTime(), 200);
  loop.RunOne();
  EXPECT_EQ(loop.NextEventTime(), 300);
  loop.Cancel(late);
  EXPECT_EQ(loop.NextEventTime(), -1);
}

}  // namespace
}  // namespace sendsim::model
