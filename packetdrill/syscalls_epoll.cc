// epoll on the model target (fs/eventpoll.c): an instance keeps its watched
// descriptors and a ready list. A descriptor joins the ready list when
// epoll_ctl finds it ready (ep_insert, ep_modify) or when its socket wakes
// its waiters with an interesting key (ep_poll_callback: sk_data_ready,
// sk_write_space, sk_state_change). epoll_wait takes ready descriptors off
// the list, polls each (tcp_poll) and reports those with events left;
// level-triggered ones go back on the list, edge-triggered ones (EPOLLET)
// wait for the next wakeup, one-shot ones (EPOLLONESHOT) for EPOLL_CTL_MOD
// (ep_send_events).

#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/syscalls.h"

namespace sendsim::packetdrill {
namespace {

// Event bits a watched descriptor always reports (do_epoll_ctl adds them).
constexpr int64_t kAlwaysReported = kPollErr | kPollHup;
// EP_PRIVATE_BITS: how an item is reported, not what it waits for.
constexpr int64_t kPrivateBits = kEpollWakeup | kEpollOneshot | kEpollEt | kEpollExclusive;
// EPOLLEXCLUSIVE_OK_BITS: what an exclusive item may also ask for.
constexpr int64_t kExclusiveOkBits = kPollIn | kPollOut | kPollErr | kPollHup | kEpollWakeup | kEpollEt | kEpollExclusive;

// The events an item waits for: none once an EPOLLONESHOT item has fired
// (ep_send_events leaves it only the private bits, and ep_poll_callback
// then ignores every wakeup) until EPOLL_CTL_MOD arms it again.
int64_t Interest(int64_t events) { return (events & ~kPrivateBits) == 0 ? 0 : events | kAlwaysReported; }

}  // namespace

SyscallDriver::SyscallDriver(RunState& run) : run_(run) {
  run_.sock.wakeup = [this](bool connection, int64_t key) { Wakeup(connection, key); };
}

void SyscallDriver::Wakeup(bool connection, int64_t key) {
  for (auto& [epfd, ep] : fds_) {
    if (ep.kind != Fd::Kind::kEpoll) continue;
    for (auto& [fd, item] : ep.watched) {
      auto it = fds_.find(fd);
      if (it == fds_.end() || it->second.kind != Fd::Kind::kTcp) continue;
      const bool is_conn = it->second.connection;
      if (is_conn != connection) continue;
      // ep_poll_callback: a key that names none of the watched events is
      // ignored (do_epoll_ctl adds EPOLLERR and EPOLLHUP to them); a key of
      // 0 (a state change) wakes every item.
      const int64_t interest = Interest(item.events);
      if (interest == 0 || (key != 0 && !(key & interest))) continue;
      item.ready = true;
    }
  }
}

int64_t SyscallDriver::EpollEvents(Fd& ep, int64_t max, bool consume,
                                   std::vector<std::pair<int64_t, uint64_t>>* out) {
  int64_t n = 0;
  for (auto& [fd, item] : ep.watched) {
    if (n >= max) break;
    if (!item.ready) continue;
    const int64_t revents = Revents(fd) & Interest(item.events);
    if (consume) item.ready = revents != 0 && !(item.events & kEpollEt);
    if (revents == 0) continue;
    // ep_send_events: a one-shot item reported once is disarmed.
    if (consume && (item.events & kEpollOneshot)) {
      item.events &= kPrivateBits;
      item.ready = false;
    }
    ++n;
    if (out) out->emplace_back(revents, item.data);
  }
  return n;
}

absl::Status SyscallDriver::SysEpollCreate(const Call& c) {
  const SyscallEvent& sc = c.sc;
  std::optional<int64_t> arg = sc.args.size() == 1 ? IntValue(sc.args[0]) : std::nullopt;
  if (!arg) return run_.Skip(c.line(), absl::StrFormat("%s() arguments not understood", sc.name));
  // epoll_create: size must be positive; epoll_create1: only EPOLL_CLOEXEC.
  if (sc.name == "epoll_create" ? *arg <= 0 : (*arg & ~kOCloexec) != 0) return Immediate(c, -kErrEinval);
  if (sc.ret_any || sc.ret < 0) return run_.Skip(c.line(), absl::StrFormat("%s() without an expected descriptor", sc.name));
  const int fd = static_cast<int>(sc.ret);
  if (fds_.count(fd)) return run_.Fail(c.line(), absl::StrFormat("descriptor %d is already in use", fd));
  Fd f;
  f.kind = Fd::Kind::kEpoll;
  fds_[fd] = f;
  return Immediate(c, fd);
}

absl::Status SyscallDriver::SysEpollCtl(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.size() != 4) return run_.Fail(c.line(), "epoll_ctl() takes 4 arguments");
  absl::StatusOr<int> epfd = FdArg(c, 0);
  if (!epfd.ok()) return epfd.status();
  std::optional<int64_t> op = IntValue(sc.args[1]);
  absl::StatusOr<int> fd = FdArg(c, 2);
  if (!fd.ok()) return fd.status();
  if (!op) return run_.Skip(c.line(), "epoll_ctl() operation not understood");
  std::optional<EpollEventArg> ev = EpollEventValue(sc.args[3]);
  if (!ev && *op != kEpollCtlDel) return run_.Skip(c.line(), "epoll_ctl() event not understood");
  auto ep = fds_.find(*epfd);
  auto target = fds_.find(*fd);
  if (ep == fds_.end() || target == fds_.end()) return Immediate(c, -kErrEbadf);
  if (ep->second.kind != Fd::Kind::kEpoll || *epfd == *fd) return Immediate(c, -kErrEinval);
  if (target->second.kind != Fd::Kind::kTcp) return Immediate(c, -kErrEperm);  // regular files cannot be watched
  std::map<int, EpollItem>& watched = ep->second.watched;
  const bool present = watched.count(*fd) != 0;
  // do_epoll_ctl: EPOLLEXCLUSIVE only on EPOLL_CTL_ADD and only with
  // EPOLLEXCLUSIVE_OK_BITS; an exclusive item cannot be modified. With one
  // epoll instance per script an exclusive wakeup wakes the same waiter as
  // any other, and EPOLLWAKEUP (root: CAP_BLOCK_SUSPEND) only holds a
  // wakeup source, so both report as plain items.
  if (ev && *op != kEpollCtlDel && (ev->events & kEpollExclusive) &&
      (*op != kEpollCtlAdd || (ev->events & ~kExclusiveOkBits))) {
    return Immediate(c, -kErrEinval);
  }
  if (*op == kEpollCtlMod && present && (watched[*fd].events & kEpollExclusive)) return Immediate(c, -kErrEinval);
  if (*op == kEpollCtlDel) {
    if (!present) return Immediate(c, -kErrEnoent);
    watched.erase(*fd);
    return Immediate(c, 0);
  }
  if (*op != kEpollCtlAdd && *op != kEpollCtlMod) return Immediate(c, -kErrEinval);
  if (*op == kEpollCtlAdd && present) return Immediate(c, -kErrEexist);
  if (*op == kEpollCtlMod && !present) return Immediate(c, -kErrEnoent);
  EpollItem& item = watched[*fd];
  item.events = ev->events;
  item.data = ev->data;
  // ep_insert / ep_modify poll the descriptor once (tcp_poll) and queue it
  // when it is ready already.
  if (Revents(*fd) & Interest(item.events)) item.ready = true;
  return Immediate(c, 0);
}

absl::Status SyscallDriver::SysEpollWait(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.size() != 4) return run_.Fail(c.line(), "epoll_wait() takes 4 arguments");
  absl::StatusOr<int> epfd = FdArg(c, 0);
  if (!epfd.ok()) return epfd.status();
  std::optional<int64_t> max = IntValue(sc.args[2]);
  std::optional<int64_t> timeout = IntValue(sc.args[3]);
  if (!max || !timeout) return run_.Skip(c.line(), "epoll_wait() arguments not understood");
  // The expected events: one struct, an array of them, or `...`.
  std::vector<EpollEventArg> want;
  const Expr& w = sc.args[1];
  if (w.kind != Expr::Kind::kEllipsis) {
    std::vector<const Expr*> items;
    if (w.kind == Expr::Kind::kArray) {
      for (const Expr& x : w.children) items.push_back(&x);
    } else {
      items.push_back(&w);
    }
    for (const Expr* x : items) {
      std::optional<EpollEventArg> e = EpollEventValue(*x);
      if (!e) return run_.Skip(c.line(), "epoll_wait() events not understood");
      want.push_back(*e);
    }
  }
  auto ep = fds_.find(*epfd);
  if (ep == fds_.end()) return Immediate(c, -kErrEbadf);
  if (ep->second.kind != Fd::Kind::kEpoll || *max <= 0) return Immediate(c, -kErrEinval);
  const int efd = *epfd;
  const int64_t maxevents = *max;
  auto got = std::make_shared<std::vector<std::pair<int64_t, uint64_t>>>();
  auto ready = [this, efd, maxevents] { return EpollEvents(fds_[efd], maxevents, false, nullptr) > 0; };
  auto finish = [this, efd, maxevents, got] { return EpollEvents(fds_[efd], maxevents, true, got.get()); };
  const model::TimeNs timeout_at = *timeout < 0 ? -1 : run_.loop.now() + *timeout * model::kNsPerMs;
  absl::Status st = *timeout == 0 ? Immediate(c, finish()) : Wait(c, ready, finish, timeout_at);
  if (!st.ok() || c.e.timing.block_end) return st;  // events of a blocking wait are checked at return: not supported
  for (size_t i = 0; i < want.size() && i < got->size(); ++i) {
    if ((*got)[i].first != want[i].events || (*got)[i].second != want[i].data) {
      return run_.Fail(c.line(), absl::StrFormat("epoll_wait(): event %d is {events=0x%x, data=%d}, expected "
                                                 "{events=0x%x, data=%d}",
                                                 i, (*got)[i].first, (*got)[i].second, want[i].events, want[i].data));
    }
  }
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
