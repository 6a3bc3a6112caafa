// System calls of the kernel target, on real sockets, each on its own
// thread so that a blocking call can outlast its line (kernel_script.h).

#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <poll.h>
#include <sys/epoll.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <tuple>
#include <cstddef>
#include <cstring>
#include <fstream>

#include "absl/strings/str_format.h"
#include "packetdrill/kernel_script.h"
#include "model/constants.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

constexpr int64_t kNsPerUs = 1000;
constexpr int64_t kMaxBuffer = 64 << 20;  // a call's buffer is allocated for real

sockaddr_in Sockaddr(const char* addr, uint16_t port) {
  sockaddr_in a;
  std::memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  inet_pton(AF_INET, addr, &a.sin_addr);
  return a;
}

// A socket option the model knows: (level, name) as Linux numbers.
std::optional<std::pair<int, int>> SockOpt(const std::string& level, const std::string& name) {
  if (level == "SOL_SOCKET") {
    if (name == "SO_REUSEADDR") return std::make_pair(SOL_SOCKET, SO_REUSEADDR);
    if (name == "SO_SNDBUF") return std::make_pair(SOL_SOCKET, SO_SNDBUF);
    if (name == "SO_RCVBUF") return std::make_pair(SOL_SOCKET, SO_RCVBUF);
    if (name == "SO_ERROR") return std::make_pair(SOL_SOCKET, SO_ERROR);
    if (name == "SO_ZEROCOPY") return std::make_pair(SOL_SOCKET, SO_ZEROCOPY);
    if (name == "SO_MARK") return std::make_pair(SOL_SOCKET, SO_MARK);
    if (name == "SO_TIMESTAMPING") return std::make_pair(SOL_SOCKET, SO_TIMESTAMPING);
    if (name == "SO_LINGER") return std::make_pair(SOL_SOCKET, SO_LINGER);
    if (name == "SO_KEEPALIVE") return std::make_pair(SOL_SOCKET, SO_KEEPALIVE);
  }
  if (level == "SOL_IP" || level == "IPPROTO_IP") {
    if (name == "IP_FREEBIND") return std::make_pair(IPPROTO_IP, IP_FREEBIND);
    if (name == "IP_MTU_DISCOVER") return std::make_pair(IPPROTO_IP, IP_MTU_DISCOVER);
  }
  if (level == "SOL_TCP" || level == "IPPROTO_TCP") {
    if (name == "TCP_NODELAY") return std::make_pair(IPPROTO_TCP, TCP_NODELAY);
    if (name == "TCP_CORK") return std::make_pair(IPPROTO_TCP, TCP_CORK);
    if (name == "TCP_MAXSEG") return std::make_pair(IPPROTO_TCP, TCP_MAXSEG);
    if (name == "TCP_NOTSENT_LOWAT") return std::make_pair(IPPROTO_TCP, TCP_NOTSENT_LOWAT);
    if (name == "TCP_INQ") return std::make_pair(IPPROTO_TCP, TCP_INQ);
    if (name == "TCP_USER_TIMEOUT") return std::make_pair(IPPROTO_TCP, TCP_USER_TIMEOUT);
    if (name == "TCP_KEEPIDLE") return std::make_pair(IPPROTO_TCP, TCP_KEEPIDLE);
    if (name == "TCP_KEEPINTVL") return std::make_pair(IPPROTO_TCP, TCP_KEEPINTVL);
    if (name == "TCP_KEEPCNT") return std::make_pair(IPPROTO_TCP, TCP_KEEPCNT);
  }
  return std::nullopt;
}

// `[v]` or `v`.
std::optional<int64_t> BracketedInt(const Expr& x) {
  if (x.kind == Expr::Kind::kArray && x.children.size() == 1) return IntValue(x.children[0]);
  return IntValue(x);
}

bool Unchecked(const Expr& x) {
  return x.kind == Expr::Kind::kEllipsis ||
         (x.kind == Expr::Kind::kArray && x.children.size() == 1 && x.children[0].kind == Expr::Kind::kEllipsis);
}

std::pair<int64_t, int> CallResult(int64_t r) { return {r, r < 0 ? errno : 0}; }

// Consecutive 100 us polls that must find a call's thread asleep before the
// call counts as blocked (a thread also sleeps briefly on locks).
constexpr int kAsleepPolls = 5;

// The scheduling state of one of our threads ('R' running or runnable, 'S'
// or 'D' asleep in the kernel; 'R' while it has not started).
char ThreadState(int tid) {
  if (tid == 0) return 'R';
  std::ifstream in(absl::StrFormat("/proc/self/task/%d/stat", tid));
  std::string stat;
  std::getline(in, stat);
  const size_t paren = stat.rfind(')');  // the name may hold spaces and ')'
  return paren != std::string::npos && paren + 2 < stat.size() ? stat[paren + 2] : 'R';
}

}  // namespace

int KernelScript::NewSocket(bool nonblock) {
  int fd = socket(AF_INET, SOCK_STREAM | (nonblock ? SOCK_NONBLOCK : 0), IPPROTO_TCP);
  if (fd >= 0) setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc_.c_str(), static_cast<socklen_t>(cc_.size()));
  return fd;
}

absl::StatusOr<int> KernelScript::RealFd(int line, const SyscallEvent& sc, size_t i) const {
  std::optional<int64_t> v = i < sc.args.size() ? IntValue(sc.args[i]) : std::nullopt;
  if (!v) return Skip(line, absl::StrFormat("%s(): non-literal file descriptor", sc.name));
  auto it = fds_.find(static_cast<int>(*v));
  if (it == fds_.end()) return -1;  // EBADF from the kernel
  return it->second;
}

absl::Status KernelScript::Syscall(const Event& e, const SyscallEvent& sc, int64_t t, int64_t tol, int64_t* done) {
  // One call at a time: an outstanding one may be about to return (its
  // thread not yet scheduled); give it the tolerance.
  for (const int64_t until = Now() + tol; pending_ && !pending_->done.load() && Now() <= until;) {
    timespec ts{0, 100000};
    nanosleep(&ts, nullptr);
  }
  if (absl::Status st = FinishPending(false); !st.ok()) return st;
  if (pending_) return Skip(e.line, "a second call while a blocking call is outstanding");
  Body body;
  std::function<void(int64_t)> after;
  if (absl::Status st = Prepare(e.line, sc, &body, &after); !st.ok()) return st;
  auto c = std::make_unique<Call>();
  c->line = e.line;
  c->sc = &sc;
  c->after = std::move(after);
  c->annotated = e.timing.block_end.has_value();
  const int64_t t0 = Now();
  if (c->annotated) {
    // As syscalls.cc (upstream's adjust_relative_event_times).
    const TimeSpec& end = *e.timing.block_end;
    int64_t te = end.usecs * kNsPerUs;
    if (end.kind == TimeKind::kRelative) te += t0;
    else if (e.timing.start.kind == TimeKind::kRelative) te += t - e.timing.start.usecs * kNsPerUs;
    const int64_t etol = Tolerance(te - t0);
    c->end_lo = te - etol;
    c->end_hi = te + etol;
  }
  Call* cp = c.get();
  // Calls that cannot block run here, without a thread's scheduling delay.
  static const char* const kNeverBlock[] = {"socket", "bind", "listen", "setsockopt", "getsockopt",
                                            "fcntl", "close", "shutdown", "ioctl", "open"};
  if (!c->annotated && std::any_of(std::begin(kNeverBlock), std::end(kNeverBlock),
                                   [&](const char* x) { return sc.name == x; })) {
    std::tie(cp->ret, cp->err) = body();
    cp->done_at = Now();
    cp->done.store(true);
    *done = cp->done_at;
    return CheckCall(*cp);
  }
  cp->th = std::thread([this, cp, body] {
    cp->tid.store(static_cast<int>(gettid()));
    auto [r, err] = body();
    cp->ret = r;
    cp->err = err;
    cp->done_at = Now();
    cp->done.store(true);
  });
  if (c->annotated) {
    pending_ = std::move(c);
    *done = t0;  // later events count from the start of a blocking call
    return absl::OkStatus();
  }
  // Blocked, as upstream decides it: not returned within the tolerance of
  // its time (counted from when it was issued if that was later) and
  // asleep in the kernel. A thread that is only waiting for a CPU on a
  // loaded machine is not blocked; it is waited for.
  const int64_t deadline = std::max(t, t0) + tol;
  for (int asleep = 0; !cp->done.load() && (Now() <= deadline || asleep < kAsleepPolls);) {
    const char state = ThreadState(cp->tid.load());
    asleep = state == 'S' || state == 'D' ? asleep + 1 : 0;
    timespec ts{0, 100000};
    nanosleep(&ts, nullptr);
  }
  if (!cp->done.load()) {
    pending_ = std::move(c);  // left blocked; the child process ends it
    return Fail(e.line, absl::StrFormat("%s() blocked; mark blocking calls with '...' (e.g. +0...0.1 %s(...))",
                                        sc.name, sc.name));
  }
  cp->th.join();
  *done = cp->done_at;
  absl::Status st = CheckCall(*cp);
  finished_.push_back(std::move(c));
  return st;
}

absl::Status KernelScript::CheckCall(Call& c) {
  const SyscallEvent& sc = *c.sc;
  if (!sc.ret_any) {
    const int64_t got = c.ret >= 0 ? c.ret : -1;
    const std::string got_errno = c.ret < 0 ? ErrnoName(c.err) : "";
    if (got != sc.ret || (sc.ret < 0 && !sc.errno_name.empty() && sc.errno_name != got_errno)) {
      const std::string want = sc.ret < 0 && !sc.errno_name.empty() ? absl::StrFormat("-1 %s", sc.errno_name)
                                                                    : absl::StrFormat("%d", sc.ret);
      const std::string have = c.ret < 0 ? absl::StrFormat("-1 %s", got_errno) : absl::StrFormat("%d", c.ret);
      return Fail(c.line, absl::StrFormat("%s() returned %s, expected %s", sc.name, have, want));
    }
  }
  if (c.after && c.ret >= 0) c.after(c.ret);
  if (value_mismatch_) return *value_mismatch_;
  if (c.annotated && (c.done_at < c.end_lo || c.done_at > c.end_hi)) {
    return Fail(c.line, absl::StrFormat("blocking %s() returned at %.6f, expected at %.6f", sc.name,
                                        static_cast<double>(c.done_at) / 1e9,
                                        static_cast<double>(c.end_lo + c.end_hi) / 2e9));
  }
  return absl::OkStatus();
}

absl::Status KernelScript::FinishPending(bool wait) {
  if (!pending_) return absl::OkStatus();
  if (!pending_->done.load()) {
    if (!wait) return absl::OkStatus();
    const int64_t until = pending_->annotated ? pending_->end_hi : Now();
    while (!pending_->done.load() && Now() <= until) {
      timespec ts{0, 200000};
      nanosleep(&ts, nullptr);
    }
    if (!pending_->done.load()) {
      return Fail(pending_->line, absl::StrFormat("blocking %s() had not returned by the end of the script",
                                                  pending_->sc->name));
    }
  }
  pending_->th.join();
  absl::Status st = CheckCall(*pending_);
  finished_.push_back(std::move(pending_));
  return st;
}

// Parses a call's arguments now (the descriptor table is the main thread's)
// and returns what its thread runs, plus what a success changes here.
absl::Status KernelScript::Prepare(int line, const SyscallEvent& sc, Body* body,
                                   std::function<void(int64_t)>* after) {
  const std::string& n = sc.name;
  const std::vector<Expr>& a = sc.args;
  const int want_fd = static_cast<int>(sc.ret);
  auto fd_arg = [&](size_t i) { return RealFd(line, sc, i); };
  if (n == "socket") {
    bool nonblock = false;
    const Expr& t = a.size() > 1 ? a[1] : a[0];
    if (t.kind == Expr::Kind::kOr) {
      for (const Expr& x : t.children) nonblock |= x.text == "SOCK_NONBLOCK";
    }
    if (sc.ret_any || sc.ret < 0) return Skip(line, "socket() without an expected descriptor");
    auto real = std::make_shared<int>(-1);
    *body = [this, real, nonblock, want_fd] {
      *real = NewSocket(nonblock);
      return *real < 0 ? CallResult(-1) : std::make_pair(int64_t{want_fd}, 0);
    };
    *after = [this, real, want_fd, line](int64_t) {
      fds_[want_fd] = *real;
      // The script's congestion control, not the host's default (bbr on some
      // hosts; a new namespace inherits it and may not pick cubic itself).
      char cc[32] = {};
      socklen_t len = sizeof(cc) - 1;
      if (getsockopt(*real, IPPROTO_TCP, TCP_CONGESTION, cc, &len) != 0 || cc_ != cc) {
        value_mismatch_ = Fail(line, absl::StrFormat("congestion control %s could not be set on the kernel target "
                                                     "(the socket has %s)", cc_, cc));
      }
    };
    return absl::OkStatus();
  }
  if (n == "open") {
    if (a.empty() || a[0].kind != Expr::Kind::kString || a[0].text.rfind("/tmp/", 0) != 0 ||
        a[0].text.find("..") != std::string::npos) {
      return Skip(line, "open() of a path outside /tmp/ on the kernel target");
    }
    std::optional<int64_t> fl = a.size() > 1 ? IntValue(a[1]) : std::optional<int64_t>(0);
    std::optional<int64_t> mode = a.size() > 2 ? IntValue(a[2]) : std::optional<int64_t>(0644);
    if (!fl || !mode || sc.ret_any || sc.ret < 0) return Skip(line, "open() arguments not understood");
    auto real = std::make_shared<int>(-1);
    const std::string path = a[0].text;
    *body = [real, path, fl = *fl, mode = *mode, want_fd] {
      *real = open(path.c_str(), static_cast<int>(fl) | O_CLOEXEC, static_cast<mode_t>(mode));
      return *real < 0 ? CallResult(-1) : std::make_pair(int64_t{want_fd}, 0);
    };
    *after = [this, real, want_fd](int64_t) { fds_[want_fd] = *real; };
    return absl::OkStatus();
  }
  if (n == "poll") return PreparePoll(line, sc, body, after);
  if (n.rfind("epoll_", 0) == 0) return PrepareEpoll(line, sc, body, after);
  absl::StatusOr<int> fd = fd_arg(0);
  if (!fd.ok()) return fd.status();
  return PrepareOnFd(line, sc, *fd, body, after);
}

// The calls on an open descriptor `f` (the script's first argument). Long
// on purpose: one short branch per system call, in the order of the model
// runner's driver (syscalls.cc), so that the two targets read side by side.
absl::Status KernelScript::PrepareOnFd(int line, const SyscallEvent& sc, const int f, Body* body,
                                       std::function<void(int64_t)>* after) {
  const std::string& n = sc.name;
  const std::vector<Expr>& a = sc.args;
  const int want_fd = static_cast<int>(sc.ret);
  auto fd_arg = [&](size_t i) { return RealFd(line, sc, i); };
  if (n == "bind" || n == "connect") {
    if (n == "connect") {
      active_ = true;
      conn_fd_ = f;
    }
    const bool is_bind = n == "bind";
    *body = [f, is_bind] {
      sockaddr_in sa = Sockaddr(is_bind ? kKernelLocalAddr : kKernelRemoteAddr, kKernelPort);
      const sockaddr* p = reinterpret_cast<const sockaddr*>(&sa);
      return CallResult(is_bind ? bind(f, p, sizeof(sa)) : connect(f, p, sizeof(sa)));
    };
    return absl::OkStatus();
  }
  if (n == "listen") {
    std::optional<int64_t> backlog = a.size() > 1 ? IntValue(a[1]) : std::nullopt;
    *body = [f, b = backlog.value_or(1)] { return CallResult(listen(f, static_cast<int>(b))); };
    return absl::OkStatus();
  }
  if (n == "accept" || n == "accept4") {
    if (sc.ret_any) return Skip(line, "accept() without an expected descriptor");
    // An expected error (EAGAIN on a non-blocking listener) is compared as
    // any call's; a descriptor where none was expected is reported as such.
    auto real = std::make_shared<int>(-1);
    *body = [f, real, want_fd] {
      *real = accept4(f, nullptr, nullptr, SOCK_CLOEXEC);
      if (*real < 0) return CallResult(-1);
      return std::make_pair(int64_t{want_fd >= 0 ? want_fd : *real}, 0);
    };
    *after = [this, real, want_fd](int64_t) {
      if (*real < 0 || want_fd < 0) return;
      fds_[want_fd] = *real;
      conn_fd_ = *real;
    };
    return absl::OkStatus();
  }
  if (n == "setsockopt" || n == "getsockopt") {
    if (a.size() != 5) return Fail(line, n + "() takes 5 arguments");
    std::optional<std::pair<int, int>> o = SockOpt(a[1].text, a[2].text);
    if (!o) return Skip(line, absl::StrFormat("%s(%s, %s) on the kernel target", n, a[1].text, a[2].text));
    if (n == "setsockopt" && o->second == SO_LINGER && o->first == SOL_SOCKET) {
      std::optional<LingerValue> l = LingerArg(a[3]);
      if (!l) return Skip(line, "setsockopt() value not understood");
      *body = [f, l = *l] {
        const linger v{l.onoff, l.linger};
        return CallResult(setsockopt(f, SOL_SOCKET, SO_LINGER, &v, sizeof(v)));
      };
      return absl::OkStatus();
    }
    if (n == "setsockopt") {
      std::optional<int64_t> v = BracketedInt(a[3]);
      if (!v) return Skip(line, "setsockopt() value not understood");
      *body = [f, o = *o, v = static_cast<int>(*v)] { return CallResult(setsockopt(f, o.first, o.second, &v, sizeof(v))); };
      return absl::OkStatus();
    }
    auto val = std::make_shared<int>(0);
    *body = [f, o = *o, val] {
      socklen_t len = sizeof(int);
      return CallResult(getsockopt(f, o.first, o.second, val.get(), &len));
    };
    const Expr want = a[3];
    *after = [this, val, want, line](int64_t) {
      std::optional<int64_t> w = BracketedInt(want);
      if (!Unchecked(want) && w && *w != *val) value_mismatch_ = Fail(line, absl::StrFormat("getsockopt() gave %d, expected %d", *val, *w));
    };
    return absl::OkStatus();
  }
  if (n == "fcntl") {
    std::optional<int64_t> cmd = a.size() > 1 ? IntValue(a[1]) : std::nullopt;
    std::optional<int64_t> arg = a.size() > 2 ? IntValue(a[2]) : std::optional<int64_t>(0);
    if (!cmd || !arg || (*cmd != kFGetfl && *cmd != kFSetfl)) return Skip(line, "fcntl() other than F_GETFL/F_SETFL");
    *body = [f, cmd = *cmd, arg = *arg] {
      return CallResult(fcntl(f, cmd == kFGetfl ? F_GETFL : F_SETFL, static_cast<int>(arg)));
    };
    return absl::OkStatus();
  }
  if (n == "write" || n == "send" || n == "read" || n == "recv") {
    // Plain values (-1: absent): g++ 12 -O2 misreads the optionals here as
    // maybe uninitialized.
    const int64_t length = a.size() > 2 ? IntValue(a[2]).value_or(-1) : -1;
    const int64_t flags = n == "write" || n == "read" ? 0 : (a.size() > 3 ? IntValue(a[3]).value_or(-1) : -1);
    if (length < 0 || flags < 0) return Skip(line, n + "() arguments not understood");
    if (length > kMaxBuffer) return Skip(line, n + "() of more than 64 MiB on the kernel target");
    const bool out = n == "write" || n == "send";
    const bool plain = n == "write" || n == "read";  // also on files
    const bool null = a.size() > 1 && IsNull(a[1]);  // the kernel sees a null pointer (EFAULT)
    *body = [f, out, plain, null, len = static_cast<size_t>(length), fl = static_cast<int>(flags)] {
      std::vector<char> storage(null ? 0 : len, 0);
      char* buf = null ? nullptr : storage.data();
      if (plain) return CallResult(out ? write(f, buf, len) : read(f, buf, len));
      return CallResult(out ? send(f, buf, len, fl | MSG_NOSIGNAL) : recv(f, buf, len, fl));
    };
    return absl::OkStatus();
  }
  if (n == "writev" || n == "sendmsg") {
    // The buffers' lengths (contents do not matter) and sendmsg's flags.
    const Expr* iov = n == "writev" ? (a.size() == 3 ? &a[1] : nullptr)
                                    : (a.size() == 3 ? StructField(a[1], "msg_iov") : nullptr);
    const Expr* ctl = n == "sendmsg" && a.size() == 3 ? StructField(a[1], "msg_control") : nullptr;
    if (ctl != nullptr && ctl->kind != Expr::Kind::kEllipsis && !(ctl->kind == Expr::Kind::kInt && ctl->num == 0)) {
      return Skip(line, "sendmsg() control messages on the kernel target");
    }
    std::optional<int64_t> fl = n == "writev" ? std::optional<int64_t>(0) : IntValue(a[2]);
    std::vector<size_t> lens;
    if (iov == nullptr || iov->kind != Expr::Kind::kArray || !fl) return Skip(line, n + "() arguments not understood");
    for (const Expr& x : iov->children) {
      std::optional<int64_t> l = x.kind == Expr::Kind::kStruct && x.children.size() == 2 ? IntValue(x.children[1])
                                                                                          : std::nullopt;
      if (!l || *l < 0 || *l > kMaxBuffer) return Skip(line, n + "() iovec not understood (or over 64 MiB)");
      lens.push_back(static_cast<size_t>(*l));
    }
    *body = [f, lens, fl = static_cast<int>(*fl)] {
      std::vector<std::vector<char>> bufs;
      std::vector<iovec> v;
      for (size_t l : lens) {
        bufs.emplace_back(l, 0);
        v.push_back(iovec{bufs.back().data(), l});
      }
      msghdr m;
      std::memset(&m, 0, sizeof(m));
      m.msg_iov = v.data();
      m.msg_iovlen = v.size();
      return CallResult(sendmsg(f, &m, fl | MSG_NOSIGNAL));
    };
    return absl::OkStatus();
  }
  if (n == "recvmsg" || n == "readv") return PrepareRecvmsg(line, sc, f, body, after);
  if (n == "sendfile") {
    absl::StatusOr<int> in = fd_arg(1);
    if (!in.ok()) return in.status();
    std::optional<int64_t> cnt = a.size() > 3 ? IntValue(a[3]) : std::nullopt;
    const bool null_off = a.size() > 2 && a[2].kind == Expr::Kind::kWord && a[2].text == "NULL";
    std::optional<int64_t> off = null_off ? std::optional<int64_t>(0) : (a.size() > 2 ? BracketedInt(a[2]) : std::nullopt);
    if (!cnt || !off) return Skip(line, "sendfile() arguments not understood");
    *body = [f, in = *in, null_off, off = *off, cnt = *cnt] {
      off_t o = off;
      return CallResult(sendfile(f, in, null_off ? nullptr : &o, static_cast<size_t>(cnt)));
    };
    return absl::OkStatus();
  }
  if (n == "close" || n == "shutdown") {
    std::optional<int64_t> how = a.size() > 1 ? IntValue(a[1]) : std::optional<int64_t>(0);
    if (!how) return Skip(line, "shutdown() argument not understood");
    const bool is_close = n == "close";
    *body = [f, is_close, how = static_cast<int>(*how)] { return CallResult(is_close ? close(f) : shutdown(f, how)); };
    if (is_close) {
      const int script_fd = static_cast<int>(IntValue(a[0]).value_or(-1));
      *after = [this, script_fd](int64_t) { fds_.erase(script_fd); };
    }
    return absl::OkStatus();
  }
  if (n == "ioctl") {
    std::optional<int64_t> req = a.size() == 3 ? IntValue(a[1]) : std::nullopt;
    if (!req || (*req != kSiocinq && *req != kSiocoutq && *req != kSiocoutqnsd)) {
      return Skip(line, "ioctl() other than SIOCINQ/SIOCOUTQ/SIOCOUTQNSD");
    }
    auto val = std::make_shared<int>(0);
    *body = [f, req = static_cast<unsigned long>(*req), val] { return CallResult(ioctl(f, req, val.get())); };
    const Expr want = a[2];
    *after = [this, val, want, line](int64_t) {
      std::optional<int64_t> w = BracketedInt(want);
      if (!Unchecked(want) && w && *w != *val) value_mismatch_ = Fail(line, absl::StrFormat("ioctl() gave %d, expected %d", *val, *w));
    };
    return absl::OkStatus();
  }
  return Skip(line, absl::StrFormat("system call %s() on the kernel target", n));
}

// poll([{fd=N, events=E[, revents=R]}...], n, timeout): each revents given
// is checked when the call returns.
absl::Status KernelScript::PreparePoll(int line, const SyscallEvent& sc, Body* body,
                                       std::function<void(int64_t)>* after) {
  const std::vector<Expr>& a = sc.args;
  std::optional<int64_t> timeout = a.size() == 3 ? IntValue(a[2]) : std::nullopt;
  if (!timeout || a[0].kind != Expr::Kind::kArray) return Skip(line, "poll() arguments not understood");
  auto fds = std::make_shared<std::vector<pollfd>>();
  std::vector<std::optional<int64_t>> want;
  for (const Expr& x : a[0].children) {
    const Expr* fdx = x.kind == Expr::Kind::kStruct ? StructField(x, "fd") : nullptr;
    const Expr* ev = x.kind == Expr::Kind::kStruct ? StructField(x, "events") : nullptr;
    const Expr* rev = x.kind == Expr::Kind::kStruct ? StructField(x, "revents") : nullptr;
    std::optional<int64_t> sfd = fdx ? IntValue(*fdx) : std::nullopt;
    std::optional<int64_t> events = ev ? IntValue(*ev) : std::nullopt;
    if (!sfd || !events) return Skip(line, "poll() entry without literal fd/events");
    auto it = fds_.find(static_cast<int>(*sfd));
    fds->push_back(pollfd{it == fds_.end() ? -1 : it->second, static_cast<short>(*events), 0});
    want.push_back(rev && rev->kind != Expr::Kind::kEllipsis ? IntValue(*rev) : std::nullopt);
  }
  *body = [fds, t = static_cast<int>(*timeout)] { return CallResult(poll(fds->data(), fds->size(), t)); };
  *after = [this, fds, want, line](int64_t) {
    for (size_t i = 0; i < want.size(); ++i) {
      if (want[i] && *want[i] != (*fds)[i].revents) {
        value_mismatch_ = Fail(line, absl::StrFormat("poll(): entry %d revents 0x%x, expected 0x%x", i,
                                                     (*fds)[i].revents, *want[i]));
      }
    }
  };
  return absl::OkStatus();
}

// epoll_create(size) / epoll_create1(flags), epoll_ctl(ep, op, fd, {events=E, fd=D}),
// epoll_wait(ep, {events=E, fd=D} or [...] or ..., maxevents, timeout): the
// script's data value is what the kernel keeps and echoes; each expected
// event is checked when the call returns.
absl::Status KernelScript::PrepareEpoll(int line, const SyscallEvent& sc, Body* body,
                                        std::function<void(int64_t)>* after) {
  const std::string& n = sc.name;
  const std::vector<Expr>& a = sc.args;
  const int want_fd = static_cast<int>(sc.ret);
  if (n == "epoll_create" || n == "epoll_create1") {
    std::optional<int64_t> arg = a.size() == 1 ? IntValue(a[0]) : std::nullopt;
    if (!arg || sc.ret_any || sc.ret < 0) return Skip(line, n + "() arguments not understood");
    auto real = std::make_shared<int>(-1);
    const bool create1 = n == "epoll_create1";
    *body = [real, create1, arg = static_cast<int>(*arg), want_fd] {
      // O_CLOEXEC in both: the runner's descriptors must not leak into helpers it starts.
      *real = create1 ? epoll_create1(arg | EPOLL_CLOEXEC) : (arg <= 0 ? (errno = EINVAL, -1) : epoll_create1(EPOLL_CLOEXEC));
      return *real < 0 ? CallResult(-1) : std::make_pair(int64_t{want_fd}, 0);
    };
    *after = [this, real, want_fd](int64_t) { fds_[want_fd] = *real; };
    return absl::OkStatus();
  }
  absl::StatusOr<int> ep = RealFd(line, sc, 0);
  if (!ep.ok()) return ep.status();
  if (n == "epoll_ctl") {
    if (a.size() != 4) return Fail(line, "epoll_ctl() takes 4 arguments");
    absl::StatusOr<int> fd = RealFd(line, sc, 2);
    if (!fd.ok()) return fd.status();
    std::optional<int64_t> op = IntValue(a[1]);
    std::optional<EpollEventArg> ev = EpollEventValue(a[3]);
    if (!op || (!ev && *op != kEpollCtlDel)) return Skip(line, "epoll_ctl() arguments not understood");
    const EpollEventArg e = ev.value_or(EpollEventArg{});
    *body = [ep = *ep, fd = *fd, op = static_cast<int>(*op), e] {
      epoll_event x;
      std::memset(&x, 0, sizeof(x));
      x.events = static_cast<uint32_t>(e.events);
      x.data.u64 = e.data;
      return CallResult(epoll_ctl(ep, op, fd, &x));
    };
    return absl::OkStatus();
  }
  if (n != "epoll_wait" || a.size() != 4) return Skip(line, absl::StrFormat("system call %s() on the kernel target", n));
  std::optional<int64_t> max = IntValue(a[2]);
  std::optional<int64_t> timeout = IntValue(a[3]);
  if (!max || !timeout || *max > 1024) return Skip(line, "epoll_wait() arguments not understood");
  std::vector<EpollEventArg> want;
  if (a[1].kind == Expr::Kind::kArray || a[1].kind == Expr::Kind::kStruct) {
    const std::vector<Expr> one = {a[1]};
    for (const Expr& x : a[1].kind == Expr::Kind::kArray ? a[1].children : one) {
      std::optional<EpollEventArg> e = EpollEventValue(x);
      if (!e) return Skip(line, "epoll_wait() events not understood");
      want.push_back(*e);
    }
  }
  auto got = std::make_shared<std::vector<epoll_event>>(static_cast<size_t>(std::max<int64_t>(*max, 1)));
  *body = [ep = *ep, got, max = static_cast<int>(*max), t = static_cast<int>(*timeout)] {
    return CallResult(epoll_wait(ep, got->data(), max, t));
  };
  *after = [this, got, want, line](int64_t r) {
    for (size_t i = 0; i < want.size() && static_cast<int64_t>(i) < r; ++i) {
      const epoll_event& e = (*got)[i];
      if (e.events != static_cast<uint32_t>(want[i].events) || e.data.u64 != want[i].data) {
        value_mismatch_ = Fail(line, absl::StrFormat("epoll_wait(): event %d is {events=0x%x, data=%d}, expected "
                                                     "{events=0x%x, data=%d}",
                                                     i, e.events, e.data.u64, want[i].events, want[i].data));
      }
    }
  };
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, int64_t>> KernelTcpiValues(int fd, std::map<std::string, std::string>* absent) {
  // This machine's <linux/tcp.h> ends struct tcp_info at tcpi_snd_wnd; v6.2
  // appended tcpi_rcv_wnd and tcpi_rehash (u32 each), v6.7 tcpi_total_rto,
  // tcpi_total_rto_recoveries (u16 each) and tcpi_total_rto_time (u32). The
  // kernel copies min(optlen, its struct's size) and returns that length.
  constexpr size_t kTail = offsetof(tcp_info, tcpi_snd_wnd) + sizeof(uint32_t);
  unsigned char buf[kTail + 64] = {};
  socklen_t len = sizeof(buf);
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, buf, &len) != 0) {
    return absl::InternalError(absl::StrFormat("TCP_INFO: %s", std::strerror(errno)));
  }
  tcp_info i;
  std::memcpy(&i, buf, sizeof(i));
  uint16_t total_rto = 0, total_rto_recoveries = 0;
  uint32_t total_rto_time = 0;
  std::memcpy(&total_rto, buf + kTail + 8, sizeof(total_rto));
  std::memcpy(&total_rto_recoveries, buf + kTail + 10, sizeof(total_rto_recoveries));
  std::memcpy(&total_rto_time, buf + kTail + 12, sizeof(total_rto_time));
  const bool has_total_rto = len >= kTail + 16;
  uint32_t rcv_wnd = 0, rehash = 0;
  std::memcpy(&rcv_wnd, buf + kTail, sizeof(rcv_wnd));
  std::memcpy(&rehash, buf + kTail + 4, sizeof(rehash));
  const bool has_rcv_wnd = len >= kTail + 8;
  std::map<std::string, int64_t> v = {
      {"tcpi_snd_cwnd", i.tcpi_snd_cwnd}, {"tcpi_snd_ssthresh", i.tcpi_snd_ssthresh},
      {"tcpi_snd_mss", i.tcpi_snd_mss}, {"tcpi_advmss", i.tcpi_advmss}, {"tcpi_rtt", i.tcpi_rtt},
      {"tcpi_unacked", i.tcpi_unacked}, {"tcpi_notsent_bytes", i.tcpi_notsent_bytes},
      {"tcpi_bytes_sent", static_cast<int64_t>(i.tcpi_bytes_sent)},
      {"tcpi_bytes_acked", static_cast<int64_t>(i.tcpi_bytes_acked)}, {"tcpi_snd_wnd", i.tcpi_snd_wnd},
      {"tcpi_snd_wscale", int64_t{i.tcpi_snd_wscale}}, {"tcpi_rcv_wscale", int64_t{i.tcpi_rcv_wscale}},
      {"tcpi_data_segs_out", i.tcpi_data_segs_out}, {"tcpi_rcv_mss", i.tcpi_rcv_mss}, {"tcpi_rto", i.tcpi_rto},
      {"tcpi_ca_state", i.tcpi_ca_state}, {"tcpi_retransmits", i.tcpi_retransmits}, {"tcpi_probes", i.tcpi_probes},
      {"tcpi_backoff", i.tcpi_backoff}, {"tcpi_lost", i.tcpi_lost}, {"tcpi_retrans", i.tcpi_retrans},
      {"tcpi_sacked", i.tcpi_sacked}, {"tcpi_reordering", i.tcpi_reordering},
      {"tcpi_total_retrans", i.tcpi_total_retrans}, {"tcpi_delivered", i.tcpi_delivered},
      {"tcpi_delivered_ce", i.tcpi_delivered_ce}, {"tcpi_dsack_dups", i.tcpi_dsack_dups},
      {"tcpi_pacing_rate", static_cast<int64_t>(i.tcpi_pacing_rate)}, {"tcpi_state", i.tcpi_state},
      {"tcpi_options", i.tcpi_options},
      {"tcpi_busy_time", static_cast<int64_t>(i.tcpi_busy_time)},
      {"tcpi_rwnd_limited", static_cast<int64_t>(i.tcpi_rwnd_limited)},
      {"tcpi_sndbuf_limited", static_cast<int64_t>(i.tcpi_sndbuf_limited)},
      {"tcpi_rttvar", i.tcpi_rttvar}, {"tcpi_min_rtt", i.tcpi_min_rtt},
      {"tcpi_bytes_retrans", static_cast<int64_t>(i.tcpi_bytes_retrans)},
      {"tcpi_last_data_sent", i.tcpi_last_data_sent}, {"tcpi_last_ack_recv", i.tcpi_last_ack_recv},
      {"tcpi_last_data_recv", i.tcpi_last_data_recv}, {"tcpi_pmtu", i.tcpi_pmtu},
      {"tcpi_bytes_received", static_cast<int64_t>(i.tcpi_bytes_received)},
      {"tcpi_segs_out", i.tcpi_segs_out}, {"tcpi_segs_in", i.tcpi_segs_in},
      {"tcpi_data_segs_in", i.tcpi_data_segs_in}, {"tcpi_ato", i.tcpi_ato},
      {"tcpi_rcv_ssthresh", i.tcpi_rcv_ssthresh}, {"tcpi_rcv_rtt", i.tcpi_rcv_rtt},
      {"tcpi_rcv_space", i.tcpi_rcv_space}, {"tcpi_reord_seen", i.tcpi_reord_seen},
      {"tcpi_rcv_ooopack", i.tcpi_rcv_ooopack}, {"tcpi_fackets", i.tcpi_fackets},
      {"tcpi_last_ack_sent", i.tcpi_last_ack_sent},
      {"tcpi_fastopen_client_fail", int64_t{i.tcpi_fastopen_client_fail}},
      {"tcpi_delivery_rate_app_limited", int64_t{i.tcpi_delivery_rate_app_limited}},
      {"tcpi_delivery_rate", static_cast<int64_t>(i.tcpi_delivery_rate)},
      {"tcpi_max_pacing_rate", static_cast<int64_t>(i.tcpi_max_pacing_rate)},
      {"TCP_CA_Open", 0}, {"TCP_CA_Disorder", 1}, {"TCP_CA_CWR", 2}, {"TCP_CA_Recovery", 3}, {"TCP_CA_Loss", 4},
      {"TCP_ESTABLISHED", 1}, {"TCP_FIN_WAIT1", 4}, {"TCP_FIN_WAIT2", 5}, {"TCP_TIME_WAIT", 6},
      {"TCP_CLOSE", 7}, {"TCP_CLOSE_WAIT", 8}, {"TCP_LAST_ACK", 9}, {"TCP_CLOSING", 11},
      {"TCPI_OPT_TIMESTAMPS", 1}, {"TCPI_OPT_SACK", 2}, {"TCPI_OPT_WSCALE", 4}, {"TCPI_OPT_ECN", 8},
      {"TCPI_OPT_ECN_SEEN", 16},
  };
  if (has_rcv_wnd) {
    v["tcpi_rcv_wnd"] = rcv_wnd;
    v["tcpi_rehash"] = rehash;
  } else {
    for (const char* f : {"tcpi_rcv_wnd", "tcpi_rehash"}) {
      (*absent)[f] = absl::StrFormat("%s is not in this kernel's struct tcp_info", f);
    }
  }
  if (has_total_rto) {
    v["tcpi_total_rto"] = total_rto;
    v["tcpi_total_rto_recoveries"] = total_rto_recoveries;
    v["tcpi_total_rto_time"] = total_rto_time;
  } else {
    for (const char* f : {"tcpi_total_rto", "tcpi_total_rto_recoveries", "tcpi_total_rto_time"}) {
      (*absent)[f] = absl::StrFormat("%s is not in this kernel's struct tcp_info", f);
    }
  }
  return v;
}

}  // namespace sendsim::packetdrill
