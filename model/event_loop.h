#ifndef SENDSIM_MODEL_EVENT_LOOP_H_
#define SENDSIM_MODEL_EVENT_LOOP_H_

#include <cstdint>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace sendsim::model {

// Simulated time in integer nanoseconds since the start of the run.
using TimeNs = int64_t;

inline constexpr TimeNs kNsPerUs = 1000;
inline constexpr TimeNs kNsPerMs = 1000 * kNsPerUs;
inline constexpr TimeNs kNsPerSec = 1000 * kNsPerMs;

// The one clock of a simulation: a priority queue of events ordered by
// (time, insertion sequence). Ties run in insertion order, so a run is a pure
// function of its inputs. Nothing else in sendsim keeps time.
//
// Two kinds of events share the queue:
//  - one-shot callbacks (ScheduleAt), named by an EventId: cancelling an id
//    whose event already ran, was cancelled, or never existed is a harmless
//    no-op;
//  - Timers: a slot with at most one pending expiry that can be re-armed or
//    cancelled in place (the kernel's timer_list / mod_timer), calling a
//    plain function. A component whose events form a FIFO (a link's frames,
//    a NIC's completions) reserves each event's ordering key when it creates
//    the event (ReserveKey) and keeps only its head in the queue on one
//    Timer: the run order is exactly that of one ScheduleAt per event, while
//    the queue holds one entry per component instead of one per frame.
//
// Cancelled and re-armed events leave the queue at once, so it holds exactly
// the pending events.
class EventLoop {
 public:
  using Callback = std::function<void()>;

  // Identifies a scheduled event so that it can be cancelled (timers).
  // 0 is never a valid id.
  using EventId = uint64_t;

  // Where an event sorts: its time, then its insertion sequence number.
  struct Key {
    TimeNs at = 0;
    uint64_t seq = 0;
  };

  class Timer;

  // Callables ScheduleAt stores inline.
  static constexpr size_t kInlineBytes = 16;
  template <typename F, typename D = std::decay_t<F>>
  static constexpr bool kInlineCallable = !std::is_same_v<D, Callback> && std::is_invocable_r_v<void, D&> &&
                                          std::is_trivially_copyable_v<D> && sizeof(D) <= kInlineBytes &&
                                          alignof(D) <= alignof(void*);

  EventLoop() = default;
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  TimeNs now() const { return now_; }

  // Schedules `cb` at absolute time `at` (clamped to now()).
  EventId ScheduleAt(TimeNs at, Callback cb);
  // Same for a small trivially copyable callable (a lambda capturing a
  // pointer or two): stored in the queue's record, no std::function.
  template <typename F, std::enable_if_t<kInlineCallable<F>, int> = 0>
  EventId ScheduleAt(TimeNs at, F&& f) {
    using D = std::decay_t<F>;
    const uint32_t rec = AllocRec(Kind::kInline);
    Rec& r = recs_[rec];
    ::new (static_cast<void*>(r.buf)) D(std::forward<F>(f));
    r.fn = [](void* buf) { (*std::launder(static_cast<D*>(buf)))(); };
    Queue(rec, ReserveKey(at));
    return IdOf(rec);
  }
  template <typename F>
  EventId ScheduleAfter(TimeNs delay, F&& f) {
    return ScheduleAt(now_ + delay, std::forward<F>(f));
  }

  // The key ScheduleAt(at, ...) would give an event now, without scheduling
  // anything: for an event queued later with Timer::ArmAtKey, which then
  // sorts exactly where that ScheduleAt call would have put it.
  Key ReserveKey(TimeNs at) { return Key{at < now_ ? now_ : at, next_seq_++}; }

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

  bool empty() const { return queue_size() == 0; }
  // Time of the next pending event, or -1 when none is; for a driver that
  // runs the loop against an outside clock. Only between events (inside one
  // the running event's slot is still at the root).
  TimeNs NextEventTime() const { return heap_.empty() || root_dead_ ? -1 : heap_.front().at; }
  uint64_t events_run() const { return events_run_; }
  // Pending events in the queue (diagnostics).
  size_t queue_size() const { return heap_.size() - (root_dead_ ? 1 : 0); }
  size_t max_queue_size() const { return max_heap_; }

  // Called after every event (debug invariant checks). Null disables.
  void set_post_event_hook(Callback hook) { post_event_hook_ = std::move(hook); }

 private:
  using Fn = void (*)(void* ctx);
  static constexpr uint32_t kNotQueued = UINT32_MAX;

  // 16 bytes: time, then insertion sequence (high 40 bits) and record (low
  // 24 bits).
  struct Entry {
    TimeNs at;
    uint64_t key;
  };
  static constexpr size_t kArity = 2;
  static constexpr int kRecBits = 24;
  static constexpr uint64_t kRecMask = (1ULL << kRecBits) - 1;
  // What an entry runs: a Timer's fn(ctx), an inline callable in `buf`
  // (fn invokes it), or a std::function in callbacks_. One-shot records are
  // recycled when their event runs or is cancelled; Timer records belong to
  // their Timer.
  enum class Kind : uint8_t { kFree, kTimer, kInline, kFunction };
  struct Rec {
    Fn fn = nullptr;
    void* ctx = nullptr;
    uint32_t gen = 0;
    Kind kind = Kind::kFree;
    alignas(void*) unsigned char buf[kInlineBytes];
  };
  struct InlineBuf {
    uint64_t words[kInlineBytes / sizeof(uint64_t)];
  };
  // One 128-bit comparison (times are never negative): no data-dependent
  // branch in the sift loops.
  static bool Before(const Entry& a, const Entry& b) {
    using U = unsigned __int128;
    return ((U(static_cast<uint64_t>(a.at)) << 64) | a.key) < ((U(static_cast<uint64_t>(b.at)) << 64) | b.key);
  }

  uint32_t AllocRec(Kind kind) {
    if (free_recs_.empty()) GrowRecs();
    const uint32_t rec = free_recs_.back();
    free_recs_.pop_back();
    Rec& r = recs_[rec];
    ++r.gen;
    r.kind = kind;
    return rec;
  }
  void GrowRecs();  // adds one free record
  void FreeRec(uint32_t rec) {
    Rec& r = recs_[rec];
    if (r.kind == Kind::kFunction) callbacks_[rec] = nullptr;
    r.kind = Kind::kFree;
    r.fn = nullptr;
    r.ctx = nullptr;
    free_recs_.push_back(rec);
  }
  EventId IdOf(uint32_t rec) const { return (static_cast<uint64_t>(recs_[rec].gen) << 32) | (rec + 1ULL); }
  void PopDeadRoot();
  void Queue(uint32_t rec, Key key);  // inserts, or moves an already queued record
  void Dequeue(uint32_t rec);
  void Place(size_t i, const Entry& e) {
    heap_[i] = e;
    pos_[e.key & kRecMask] = static_cast<uint32_t>(i);
  }
  void SiftUp(size_t i, Entry e);
  void SiftDown(size_t i, Entry e);

  TimeNs now_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t events_run_ = 0;
  std::vector<Entry> heap_;  // binary min-heap on (at, key)
  size_t max_heap_ = 0;
  // While an event runs, its entry stays at the root: the first event queued
  // meanwhile replaces it (one sift instead of a pop and a push).
  bool root_dead_ = false;
  std::vector<Rec> recs_;
  std::vector<uint32_t> pos_;  // by record: index in heap_, or kNotQueued (dense: sifts touch one line)
  std::vector<Callback> callbacks_;  // by record, for Kind::kFunction
  std::vector<uint32_t> free_recs_;
  Callback post_event_hook_;
};

// A re-armable event with at most one pending expiry, calling fn(ctx).
// Arming a pending timer moves it (it sorts as a newly scheduled event);
// destroying the timer cancels it. The timer must not outlive its loop.
class EventLoop::Timer {
 public:
  using Fn = EventLoop::Fn;

  Timer(EventLoop* loop, Fn fn, void* ctx);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Fires at `at` (clamped to now()), after everything scheduled so far for
  // the same time.
  void ArmAt(TimeNs at) { loop_->Queue(rec_, loop_->ReserveKey(at)); }
  // Fires at a key reserved earlier with ReserveKey; the key must not sort
  // before the event running now.
  void ArmAtKey(Key key) { loop_->Queue(rec_, key); }
  void Cancel() { loop_->Dequeue(rec_); }
  bool pending() const { return loop_->pos_[rec_] != kNotQueued; }

 private:
  EventLoop* loop_;
  uint32_t rec_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_EVENT_LOOP_H_
