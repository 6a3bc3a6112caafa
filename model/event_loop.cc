#include "model/event_loop.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace sendsim::model {

void EventLoop::GrowRecs() {
  const uint32_t rec = static_cast<uint32_t>(recs_.size());
  if (rec > kRecMask) {
    std::fprintf(stderr, "EventLoop: more than %llu pending events\n", static_cast<unsigned long long>(kRecMask));
    std::abort();
  }
  recs_.emplace_back();
  pos_.push_back(kNotQueued);
  callbacks_.emplace_back();
  free_recs_.push_back(rec);
}

EventLoop::EventId EventLoop::ScheduleAt(TimeNs at, Callback cb) {
  const uint32_t rec = AllocRec(Kind::kFunction);
  callbacks_[rec] = std::move(cb);
  Queue(rec, ReserveKey(at));
  return IdOf(rec);
}

bool EventLoop::IsPending(EventId id) const {
  const uint64_t rec1 = id & 0xffffffffULL;
  if (rec1 == 0 || rec1 > recs_.size()) return false;
  const Rec& r = recs_[rec1 - 1];
  return (r.kind == Kind::kInline || r.kind == Kind::kFunction) && pos_[rec1 - 1] != kNotQueued &&
         r.gen == static_cast<uint32_t>(id >> 32);
}

void EventLoop::Cancel(EventId id) {
  if (!IsPending(id)) return;
  const uint32_t rec = static_cast<uint32_t>((id & 0xffffffffULL) - 1);
  Dequeue(rec);
  FreeRec(rec);
}

void EventLoop::Queue(uint32_t rec, Key key) {
  const Entry e{key.at, (key.seq << kRecBits) | rec};
  const uint32_t pos = pos_[rec];
  if (pos == kNotQueued) {
    if (root_dead_) {
      // Replaces the running event's entry: no key in the heap sorts before
      // the running event, so the new entry only moves down.
      root_dead_ = false;
      SiftDown(0, e);
      return;
    }
    heap_.push_back(e);
    SiftUp(heap_.size() - 1, e);
    if (heap_.size() > max_heap_) max_heap_ = heap_.size();
  } else if (Before(e, heap_[pos])) {
    SiftUp(pos, e);
  } else {
    SiftDown(pos, e);
  }
}

void EventLoop::Dequeue(uint32_t rec) {
  const uint32_t pos = pos_[rec];
  if (pos == kNotQueued) return;
  pos_[rec] = kNotQueued;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (pos == heap_.size()) return;  // it was the last entry
  if (pos > 0 && Before(last, heap_[(pos - 1) / kArity])) {
    SiftUp(pos, last);
  } else {
    SiftDown(pos, last);
  }
}

// A binary heap: the queue holds a handful of entries (one per event source
// plus pending one-shots), where a wider heap compares more per level.
void EventLoop::SiftUp(size_t i, Entry e) {
  while (i > 0) {
    const size_t parent = (i - 1) / kArity;
    if (!Before(e, heap_[parent])) break;
    Place(i, heap_[parent]);
    i = parent;
  }
  Place(i, e);
}

void EventLoop::SiftDown(size_t i, Entry e) {
  const size_t n = heap_.size();
  for (;;) {
    const size_t first = kArity * i + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = first + kArity < n ? first + kArity : n;
    for (size_t c = first + 1; c < end; ++c)
      if (Before(heap_[c], heap_[best])) best = c;
    if (!Before(heap_[best], e)) break;
    Place(i, heap_[best]);
    i = best;
  }
  Place(i, e);
}

void EventLoop::PopDeadRoot() {
  root_dead_ = false;
  const Entry last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) SiftDown(0, last);
}

bool EventLoop::RunOne() {
  if (root_dead_) PopDeadRoot();  // RunOne called from inside an event
  if (heap_.empty()) return false;
  const Entry top = heap_.front();
  const uint32_t rec = static_cast<uint32_t>(top.key & kRecMask);
  Rec& r = recs_[rec];
  pos_[rec] = kNotQueued;
  root_dead_ = true;
  now_ = top.at;
  ++events_run_;
  // recs_ may grow while the event runs: copy what the call needs first. A
  // one-shot record is recycled before its call (the callable is moved out),
  // so the event's id is no longer pending while it runs.
  switch (r.kind) {
    case Kind::kTimer: {
      const Fn fn = r.fn;
      fn(r.ctx);
      break;
    }
    case Kind::kInline: {
      const Fn fn = r.fn;
      InlineBuf buf;  // words, not chars: no stack-protector canary here
      std::memcpy(&buf, r.buf, kInlineBytes);
      FreeRec(rec);
      fn(&buf);
      break;
    }
    case Kind::kFunction: {
      const Callback cb = std::move(callbacks_[rec]);
      FreeRec(rec);
      cb();
      break;
    }
    case Kind::kFree:
      std::fprintf(stderr, "EventLoop: queued entry without an event\n");
      std::abort();
  }
  if (root_dead_) PopDeadRoot();
  if (post_event_hook_) post_event_hook_();
  return true;
}

void EventLoop::RunUntil(TimeNs until) {
  for (;;) {
    if (root_dead_) PopDeadRoot();
    if (heap_.empty() || heap_.front().at > until) break;
    RunOne();
  }
  if (now_ < until && !empty()) now_ = until;
}

uint64_t EventLoop::Run(uint64_t max_events) {
  uint64_t n = 0;
  while (n < max_events && RunOne()) ++n;
  return n;
}

EventLoop::Timer::Timer(EventLoop* loop, Fn fn, void* ctx) : loop_(loop), rec_(loop->AllocRec(Kind::kTimer)) {
  loop_->recs_[rec_].fn = fn;
  loop_->recs_[rec_].ctx = ctx;
}

EventLoop::Timer::~Timer() {
  loop_->Dequeue(rec_);
  loop_->FreeRec(rec_);
}

}  // namespace sendsim::model
