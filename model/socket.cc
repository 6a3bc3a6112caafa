#include "model/socket.h"

#include <utility>

namespace sendsim::model {

void AfterCpu(EventLoop* loop, Socket* sock, TimeNs cpu_ns, std::function<void()> next) {
  const TimeNs base = sock->cpu_stolen_ns();
  loop->ScheduleAfter(cpu_ns, [loop, sock, base, next = std::move(next)]() mutable {
    const TimeNs extra = sock->cpu_stolen_ns() - base;
    if (extra > 0) {
      AfterCpu(loop, sock, extra, std::move(next));
      return;
    }
    next();
  });
}

}  // namespace sendsim::model
