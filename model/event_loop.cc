#include "model/event_loop.h"

#include <algorithm>
#include <utility>

namespace sendsim::model {

EventLoop::EventId EventLoop::ScheduleAt(TimeNs at, Callback cb) {
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[slot];
  ++s.gen;
  s.cb = std::move(cb);
  s.live = true;
  ++live_;
  heap_.push_back(Entry{at < now_ ? now_ : at, next_seq_++, slot, s.gen});
  std::push_heap(heap_.begin(), heap_.end(), Later);
  return (static_cast<uint64_t>(s.gen) << 32) | (slot + 1ULL);
}

bool EventLoop::IsPending(EventId id) const {
  const uint64_t slot1 = id & 0xffffffffULL;
  if (slot1 == 0 || slot1 > slots_.size()) return false;
  const Slot& s = slots_[slot1 - 1];
  return s.live && s.gen == static_cast<uint32_t>(id >> 32);
}

void EventLoop::Cancel(EventId id) {
  if (!IsPending(id)) return;
  Slot& s = slots_[(id & 0xffffffffULL) - 1];
  s.live = false;
  s.cb = nullptr;
  --live_;
  // The heap entry stays; PopTop frees the slot when it surfaces.
}

void EventLoop::PopTop() {
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  heap_.pop_back();
}

bool EventLoop::RunOne() {
  while (!heap_.empty()) {
    const Entry e = heap_.front();
    PopTop();
    Slot& s = slots_[e.slot];
    if (s.gen != e.gen || !s.live) {
      free_slots_.push_back(e.slot);
      continue;
    }
    Callback cb = std::move(s.cb);
    s.cb = nullptr;
    s.live = false;
    --live_;
    free_slots_.push_back(e.slot);
    now_ = e.at;
    ++events_run_;
    cb();
    if (post_event_hook_) post_event_hook_();
    return true;
  }
  return false;
}

void EventLoop::RunUntil(TimeNs until) {
  while (!heap_.empty()) {
    // Skip cancelled heads so that their times do not count.
    const Entry& top = heap_.front();
    const Slot& s = slots_[top.slot];
    if (s.gen != top.gen || !s.live) {
      const uint32_t slot = top.slot;
      PopTop();
      free_slots_.push_back(slot);
      continue;
    }
    if (top.at > until) break;
    RunOne();
  }
  if (now_ < until && !empty()) now_ = until;
}

uint64_t EventLoop::Run(uint64_t max_events) {
  uint64_t n = 0;
  while (n < max_events && RunOne()) ++n;
  return n;
}

}  // namespace sendsim::model
