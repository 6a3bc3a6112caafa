#include "model/event_loop.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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
  if (slot > kSlotMask) {
    std::fprintf(stderr, "EventLoop: more than %llu pending events\n", static_cast<unsigned long long>(kSlotMask));
    std::abort();
  }
  PushEntry(Entry{at < now_ ? now_ : at, (next_seq_++ << kSlotBits) | slot});
  if (heap_.size() > max_heap_) max_heap_ = heap_.size();
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

// A 4-ary min-heap on (at, key): half the depth of a binary heap, and the
// four children of a node share a cache line (16-byte entries).
void EventLoop::PushEntry(Entry e) {
  size_t i = heap_.size();
  heap_.push_back(e);
  const Later later;
  while (i > 0) {
    const size_t parent = (i - 1) / 4;
    if (!later(heap_[parent], e)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void EventLoop::PopTop() {
  const Entry last = heap_.back();
  heap_.pop_back();
  const size_t n = heap_.size();
  if (n == 0) return;
  const Later later;
  size_t i = 0;
  for (;;) {
    const size_t first = 4 * i + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = first + 4 < n ? first + 4 : n;
    for (size_t c = first + 1; c < end; ++c)
      if (later(heap_[best], heap_[c])) best = c;
    if (!later(last, heap_[best])) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
}

bool EventLoop::RunOne() {
  while (!heap_.empty()) {
    const Entry e = heap_.front();
    PopTop();
    const uint32_t slot = static_cast<uint32_t>(e.key & kSlotMask);
    Slot& s = slots_[slot];
    if (!s.live) {
      free_slots_.push_back(slot);
      continue;
    }
    s.live = false;
    --live_;
    now_ = e.at;
    ++events_run_;
    // The slot is freed only after the callback, so it cannot be reused
    // (and its callback overwritten) while running.
    s.cb();
    s.cb = nullptr;
    free_slots_.push_back(slot);
    if (post_event_hook_) post_event_hook_();
    return true;
  }
  return false;
}

void EventLoop::RunUntil(TimeNs until) {
  while (!heap_.empty()) {
    // Skip cancelled heads so that their times do not count.
    const Entry& top = heap_.front();
    const uint32_t slot = static_cast<uint32_t>(top.key & kSlotMask);
    if (!slots_[slot].live) {
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
