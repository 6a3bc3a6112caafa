#ifndef SENDSIM_MODEL_EVENT_LOOP_H_
#define SENDSIM_MODEL_EVENT_LOOP_H_

#include <cstdint>
#include <deque>
#include <functional>
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
//
// Callbacks live in recycled slots; the heap holds only small POD entries, so
// sifting never moves a std::function. An EventId names (slot, generation):
// cancelling an id whose event already ran, was cancelled, or never existed
// is a harmless no-op.
class EventLoop {
 public:
  using Callback = std::function<void()>;

  // Identifies a scheduled event so that it can be cancelled (timers).
  // 0 is never a valid id.
  using EventId = uint64_t;

  TimeNs now() const { return now_; }

  // Schedules `cb` at absolute time `at` (clamped to now()).
  EventId ScheduleAt(TimeNs at, Callback cb);
  EventId ScheduleAfter(TimeNs delay, Callback cb) { return ScheduleAt(now_ + delay, std::move(cb)); }

  // Cancels a pending event; no-op for ids that are not pending.
  void Cancel(EventId id);
  // True while `id` is scheduled and has neither run nor been cancelled.
  bool IsPending(EventId id) const;

  // Runs the next event; false when the queue is empty.
  bool RunOne();
  // Runs events with time <= `until`; leaves now() at `until` if the queue
  // still holds later events, else at the last event's time.
  void RunUntil(TimeNs until);
  // Runs until the queue is empty or `max_events` events ran; returns the
  // number of events run.
  uint64_t Run(uint64_t max_events = UINT64_MAX);
  // Runs events with time <= `t`, then sets now() to `t` (if later).
  void AdvanceTo(TimeNs t) {
    RunUntil(t);
    if (now_ < t) now_ = t;
  }

  bool empty() const { return live_ == 0; }
  uint64_t events_run() const { return events_run_; }
  // Heap entries, live or cancelled (diagnostics).
  size_t queue_size() const { return heap_.size(); }
  size_t max_queue_size() const { return max_heap_; }

  // Called after every event (debug invariant checks). Null disables.
  void set_post_event_hook(Callback hook) { post_event_hook_ = std::move(hook); }

 private:
  // 16 bytes: time, then insertion sequence (high 40 bits) and slot (low 24
  // bits). A slot is reused only after its entry left the heap, so the entry
  // needs no generation of its own.
  struct Entry {
    TimeNs at;
    uint64_t key;
  };
  static constexpr int kSlotBits = 24;
  static constexpr uint64_t kSlotMask = (1ULL << kSlotBits) - 1;
  struct Slot {
    Callback cb;
    uint32_t gen = 0;
    bool live = false;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.at != b.at ? a.at > b.at : a.key > b.key; }
  };
  void PushEntry(Entry e);
  void PopTop();

  TimeNs now_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t events_run_ = 0;
  uint64_t live_ = 0;
  std::vector<Entry> heap_;
  size_t max_heap_ = 0;
  std::deque<Slot> slots_;  // stable addresses: callbacks run in place
  std::vector<uint32_t> free_slots_;
  Callback post_event_hook_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_EVENT_LOOP_H_
