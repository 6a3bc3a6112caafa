#include "model/event_loop.h"

#include <utility>

namespace sendsim::model {

EventLoop::EventId EventLoop::ScheduleAt(TimeNs at, Callback cb) {
  const EventId id = next_id_++;
  queue_.push(Event{at < now_ ? now_ : at, id, std::move(cb)});
  return id;
}

void EventLoop::Cancel(EventId id) {
  if (id != 0 && id < next_id_) cancelled_.insert(id);
}

bool EventLoop::RunOne() {
  while (!queue_.empty()) {
    // priority_queue::top is const; the callback is moved out before pop.
    Event ev = std::move(const_cast<Event&>(queue_.top()));
    queue_.pop();
    if (auto it = cancelled_.find(ev.id); it != cancelled_.end()) {
      cancelled_.erase(it);
      continue;
    }
    now_ = ev.at;
    ++events_run_;
    ev.cb();
    return true;
  }
  return false;
}

void EventLoop::RunUntil(TimeNs until) {
  while (!queue_.empty() && queue_.top().at <= until) {
    if (!RunOne()) break;
  }
  if (now_ < until && !empty()) now_ = until;
}

uint64_t EventLoop::Run(uint64_t max_events) {
  uint64_t n = 0;
  while (n < max_events && RunOne()) ++n;
  return n;
}

}  // namespace sendsim::model
