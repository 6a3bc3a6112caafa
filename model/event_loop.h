#ifndef SENDSIM_MODEL_EVENT_LOOP_H_
#define SENDSIM_MODEL_EVENT_LOOP_H_

#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_set>
#include <vector>

namespace sendsim::model {

// Simulated time in integer nanoseconds since the start of the run.
using TimeNs = int64_t;

inline constexpr TimeNs kNsPerUs = 1000;
inline constexpr TimeNs kNsPerMs = 1000 * kNsPerUs;
inline constexpr TimeNs kNsPerSec = 1000 * kNsPerMs;

// The one clock of a simulation: a priority queue of callbacks ordered by
// (time, insertion sequence). Ties run in insertion order, so a run is a pure
// function of its inputs. Nothing else in sendsim keeps time.
class EventLoop {
 public:
  using Callback = std::function<void()>;

  // Identifies a scheduled event so that it can be cancelled (timers).
  using EventId = uint64_t;

  TimeNs now() const { return now_; }

  // Schedules `cb` at absolute time `at` (clamped to now()).
  EventId ScheduleAt(TimeNs at, Callback cb);
  EventId ScheduleAfter(TimeNs delay, Callback cb) { return ScheduleAt(now_ + delay, std::move(cb)); }

  // Cancelled events are skipped when they reach the head of the queue.
  void Cancel(EventId id);

  // Runs the next event; false when the queue is empty.
  bool RunOne();
  // Runs events with time <= `until`; leaves now() at `until` if the queue
  // still holds later events, else at the last event's time.
  void RunUntil(TimeNs until);
  // Runs until the queue is empty or `max_events` events ran; returns the
  // number of events run.
  uint64_t Run(uint64_t max_events = UINT64_MAX);

  bool empty() const { return queue_.size() == cancelled_.size(); }
  uint64_t events_run() const { return events_run_; }

 private:
  struct Event {
    TimeNs at;
    EventId id;
    Callback cb;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at != b.at ? a.at > b.at : a.id > b.id;
    }
  };

  TimeNs now_ = 0;
  EventId next_id_ = 1;
  uint64_t events_run_ = 0;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  // Ids of cancelled events still in the queue. Only looked up, never
  // iterated, so its hash order cannot leak into results.
  std::unordered_set<EventId> cancelled_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_EVENT_LOOP_H_
