#include "packetdrill/syscalls.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "model/constants.h"
#include "packetdrill/handshake.h"
#include "packetdrill/passive_options.h"
#include "packetdrill/receive.h"
#include "packetdrill/syn_retransmit.h"
#include "packetdrill/sendfile.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

// What a send call (write, send, sendto, writev, sendmsg) passes: the
// lengths of its buffers (their contents do not matter) and its flags.
struct SendArgs {
  std::vector<uint64_t> lens;
  const Expr* flags = nullptr;
  bool null_buffer = false;  // the buffer argument is NULL
};

// A skip reason when the arguments are not understood.
absl::StatusOr<SendArgs> ParseSendArgs(const SyscallEvent& sc) {
  SendArgs a;
  auto len_of = [&](const Expr& x) -> bool {
    std::optional<int64_t> v = IntValue(x);
    if (!v || *v < 0) return false;
    a.lens.push_back(static_cast<uint64_t>(*v));
    return true;
  };
  auto iovecs = [&](const Expr& arr) -> bool {
    if (arr.kind != Expr::Kind::kArray) return false;
    for (const Expr& iov : arr.children) {
      if (iov.kind != Expr::Kind::kStruct || iov.children.size() != 2 || !len_of(iov.children[1])) return false;
    }
    return true;
  };
  const std::string& n = sc.name;
  bool ok = true;
  if (n == "write" || n == "send" || n == "sendto") a.null_buffer = sc.args.size() > 1 && IsNull(sc.args[1]);
  if (n == "write") {
    ok = sc.args.size() == 3 && len_of(sc.args[2]);
  } else if (n == "send") {
    ok = sc.args.size() == 4 && len_of(sc.args[2]);
    if (ok) a.flags = &sc.args[3];
  } else if (n == "sendto") {
    ok = sc.args.size() == 6 && len_of(sc.args[2]);
    if (ok) a.flags = &sc.args[3];
  } else if (n == "writev") {
    ok = sc.args.size() == 3 && iovecs(sc.args[1]);
  } else {  // sendmsg
    ok = sc.args.size() == 3 && sc.args[1].kind == Expr::Kind::kStruct;
    if (ok) {
      const Expr* iov = StructField(sc.args[1], "msg_iov");
      const Expr* ctl = StructField(sc.args[1], "msg_control");
      if (ctl != nullptr && ctl->kind != Expr::Kind::kEllipsis && !(ctl->kind == Expr::Kind::kInt && ctl->num == 0)) {
        return absl::UnimplementedError("sendmsg() control messages are not modelled");
      }
      ok = iov != nullptr && iovecs(*iov);
      a.flags = &sc.args[2];
    }
  }
  if (!ok) return absl::UnimplementedError(absl::StrFormat("%s() arguments not understood", n));
  return a;
}

// Linux's checks of a send call's counts, before it looks at the socket:
// the errno it returns (vfs_write's rw_verify_area: a count that is
// negative as ssize_t is EINVAL; import_iovec: more than UIO_MAXIOV
// iovecs is EINVAL), or InvalidArgument naming an argument the script
// cannot mean (a count that disagrees with the iovecs it lists; a length
// Linux would read as a huge size and fault on). 0: fine.
constexpr int64_t kUioMaxIov = 1024;
constexpr int64_t kNrOpenDefault = 1 << 20;
absl::StatusOr<int> CheckSendCounts(const SyscallEvent& sc) {
  const std::string& n = sc.name;
  auto arg = [&](size_t i) { return i < sc.args.size() ? IntValue(sc.args[i]) : std::nullopt; };
  if (n == "write") {
    if (std::optional<int64_t> len = arg(2); len && *len < 0) return kErrEinval;
    return 0;
  }
  if (n == "send" || n == "sendto") {
    if (std::optional<int64_t> len = arg(2); len && *len < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s(): length %d is negative (Linux reads it as %u bytes)", n, *len, static_cast<uint64_t>(*len)));
    }
    return 0;
  }
  const Expr* list = nullptr;
  std::optional<int64_t> count;
  std::string count_name;
  if (n == "writev" && sc.args.size() == 3) {
    list = &sc.args[1];
    count = arg(2);
    count_name = "iovcnt";
  } else if (n == "sendmsg" && sc.args.size() == 3 && sc.args[1].kind == Expr::Kind::kStruct) {
    for (const Expr& f : sc.args[1].children) {
      if (f.kind != Expr::Kind::kField) continue;
      if (f.text == "msg_iov") {
        list = &f.children.back();
        if (f.children.size() == 2) {  // msg_iov(N)=[...]
          count = IntValue(f.children[0]);
          count_name = "msg_iov(N)";
        }
      } else if (f.text == "msg_iovlen") {
        count = IntValue(f.children.back());
        count_name = "msg_iovlen";
      }
    }
  }
  if (list == nullptr || list->kind != Expr::Kind::kArray) return 0;
  if (count && (*count < 0 || *count > kUioMaxIov)) return kErrEinval;
  if (count && static_cast<size_t>(*count) != list->children.size()) {
    return absl::InvalidArgumentError(absl::StrFormat("%s(): %s is %d but the list holds %d iovec%s", n, count_name,
                                                      *count, list->children.size(),
                                                      list->children.size() == 1 ? "" : "s"));
  }
  for (const Expr& iov : list->children) {
    if (iov.kind != Expr::Kind::kStruct || iov.children.size() != 2) continue;
    if (std::optional<int64_t> len = IntValue(iov.children[1]); len && *len < 0) {
      return absl::InvalidArgumentError(absl::StrFormat("%s(): iov_len %d is negative", n, *len));
    }
  }
  return 0;
}

// One struct pollfd of a poll() call; `revents` unset when not checked.
struct PollItem {
  int fd;
  int64_t events;
  std::optional<int64_t> revents;
};

// The pollfd array; a skip reason when it is not understood.
absl::StatusOr<std::vector<PollItem>> ParsePollFds(const Expr& arr) {
  std::vector<PollItem> items;
  for (const Expr& pf : arr.children) {
    if (pf.kind != Expr::Kind::kStruct) return absl::UnimplementedError("poll() entry not understood");
    const Expr* fdx = StructField(pf, "fd");
    const Expr* ev = StructField(pf, "events");
    const Expr* rev = StructField(pf, "revents");
    std::optional<int64_t> fd = fdx ? IntValue(*fdx) : std::nullopt;
    std::optional<int64_t> events = ev ? IntValue(*ev) : std::nullopt;
    if (!fd || !events) return absl::UnimplementedError("poll() entry without literal fd/events");
    PollItem it{static_cast<int>(*fd), *events, std::nullopt};
    if (rev && rev->kind != Expr::Kind::kEllipsis) {
      it.revents = IntValue(*rev);
      if (!it.revents) return absl::UnimplementedError("poll() revents not understood");
    }
    items.push_back(it);
  }
  return items;
}

}  // namespace

absl::Status SyscallDriver::Syscall(const Event& e, const SyscallEvent& sc, TimeNs tol, TimeNs* completed) {
  const Call c{e, sc, tol, completed};
  const std::string& n = sc.name;
  if (n == "socket") return SysSocket(c);
  if (n == "bind") return SysBind(c);
  if (n == "listen") return SysListen(c);
  if (n == "setsockopt" || n == "getsockopt") return SysSockopt(c);
  if (n == "accept" || n == "accept4") return SysAccept(c);
  if (n == "connect") return SysConnect(c);
  if (n == "fcntl") return SysFcntl(c);
  if (n == "write" || n == "send" || n == "sendto" || n == "sendmsg" || n == "writev") return SysSend(c);
  if (n == "sendfile") return SysSendfile(c);
  if (n == "open") return SysOpen(c);
  if (n == "close") return SysClose(c);
  if (n == "shutdown") return SysShutdown(c);
  if (n == "ioctl") return SysIoctl(c);
  if (n == "poll") return SysPoll(c);
  if (n == "epoll_create" || n == "epoll_create1") return SysEpollCreate(c);
  if (n == "epoll_ctl") return SysEpollCtl(c);
  if (n == "epoll_wait") return SysEpollWait(c);
  if (n == "read" || n == "recv" || n == "recvfrom") return SysRead(c);
  if (n == "readv" || n == "recvmsg") return SysRecvmsg(c);
  return run_.Skip(e.line, absl::StrFormat("system call %s() is not supported", n));
}

// ---------------------------------------------------------------- issuing calls

void SyscallDriver::StartPending(const Call& c, TimeNs t0) {
  run_.pending.emplace();
  Pending& p = *run_.pending;
  p.line = c.line();
  p.name = c.sc.name;
  p.sc = &c.sc;
  p.annotated = c.e.timing.block_end.has_value();
  if (!p.annotated) return;
  const TimeSpec& end = *c.e.timing.block_end;
  const TimeSpec& start = c.e.timing.start;
  // Upstream (run.c, adjust_relative_event_times): when the start is
  // relative, the end gets the same offset as the start, the previous
  // event's time: in "+.1...0.38" the call starts 0.1 s after the previous
  // event and must return 0.38 s after it. An end written "+b" (our
  // extension) counts from the start.
  TimeNs te = end.usecs * model::kNsPerUs;
  if (end.kind == TimeKind::kRelative) {
    te += t0;
  } else if (start.kind == TimeKind::kRelative) {
    te += t0 - start.usecs * model::kNsPerUs;
  }
  TimeNs etol = run_.Tolerance(te - t0);
  p.end_lo = te - etol;
  p.end_hi = te + etol;
  p.expected_end = TimeText(te);
}

absl::Status SyscallDriver::Issue(const Call& c, const std::function<int64_t(model::Socket::DoneFn)>& start) {
  if (run_.pending && !run_.pending->done) {
    return run_.Skip(c.line(), "a second call while a blocking call is outstanding");
  }
  const TimeNs t0 = run_.loop.now();
  StartPending(c, t0);
  Pending& p = *run_.pending;
  int64_t r = start([this](int64_t ret) {
    if (run_.pending && !run_.pending->done) run_.Complete(ret);
  });
  if (r != model::Socket::kInProgress && !p.done) run_.Complete(r);
  if (run_.failure) return *run_.failure;
  if (p.annotated) {
    *c.completed = t0;  // later events count from the start of a blocking call
    return absl::OkStatus();
  }
  if (!p.done) run_.Advance(t0 + c.tol, [this] { return run_.pending->done; });
  if (run_.failure) return *run_.failure;
  if (!p.done) {
    return run_.Fail(c.line(), absl::StrFormat("%s() blocked; mark blocking calls with '...' (e.g. +0...0.1 %s(...))",
                                               c.sc.name, c.sc.name));
  }
  if (absl::Status st = run_.CheckReturn(c.line(), c.sc.name, c.sc, p.ret); !st.ok()) return st;
  *c.completed = p.done_at;
  return absl::OkStatus();
}

absl::Status SyscallDriver::Immediate(const Call& c, int64_t r) {
  return Issue(c, [r](model::Socket::DoneFn) { return r; });
}

absl::Status SyscallDriver::Wait(const Call& c, std::function<bool()> ready, std::function<int64_t()> finish,
                                 TimeNs timeout_at) {
  return Issue(c, [&](model::Socket::DoneFn) -> int64_t {
    if (ready()) return finish();
    run_.pending->ready = ready;
    run_.pending->finish = finish;
    run_.pending->timeout_at = timeout_at;
    // Nothing else may happen at the timeout: an event there ends the wait
    // on time (CheckPending runs after every event).
    if (timeout_at >= 0) run_.loop.ScheduleAt(timeout_at, [] {});
    return model::Socket::kInProgress;
  });
}

// An out-parameter such as getsockopt's [value] or ioctl's [count]: `...`
// or `[...]` is not checked; an integer must equal what the model gives.
absl::Status SyscallDriver::CheckOutValue(int line, const std::string& call, const Expr& x, int64_t val) const {
  const bool unchecked = x.kind == Expr::Kind::kEllipsis ||
                         (x.kind == Expr::Kind::kArray && x.children.size() == 1 &&
                          x.children[0].kind == Expr::Kind::kEllipsis);
  if (unchecked) return absl::OkStatus();
  std::optional<int64_t> want = IntValue(x);
  if (!want) return run_.Skip(line, absl::StrFormat("%s with a non-integer value", call));
  if (*want != val) return run_.Fail(line, absl::StrFormat("%s gave %d, expected %d", call, val, *want));
  return absl::OkStatus();
}

absl::StatusOr<int> SyscallDriver::FdArg(const Call& c, size_t i) const {
  if (i >= c.sc.args.size()) {
    return run_.Fail(c.line(), absl::StrFormat("%s(): missing argument %d", c.sc.name, i + 1));
  }
  std::optional<int64_t> v = IntValue(c.sc.args[i]);
  if (!v) return run_.Skip(c.line(), absl::StrFormat("%s(): non-literal file descriptor", c.sc.name));
  // Descriptors are C ints; a wider value would wrap onto another one.
  if (*v < INT32_MIN || *v > INT32_MAX) {
    return run_.Fail(c.line(), absl::StrFormat("%s(): file descriptor %d is out of range for a 32-bit integer",
                                               c.sc.name, *v));
  }
  return static_cast<int>(*v);
}

bool SyscallDriver::IsConnFd(int fd) const {
  auto it = fds_.find(fd);
  return it != fds_.end() && it->second.connection;
}

// ---------------------------------------------------------------- the socket and its connection

absl::Status SyscallDriver::SysSocket(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.size() != 3) return run_.Fail(c.line(), "socket() takes 3 arguments");
  // SOCK_STREAM, optionally |SOCK_NONBLOCK (|SOCK_CLOEXEC).
  bool stream = sc.args[1].kind == Expr::Kind::kEllipsis, nonblock = false;
  std::vector<const Expr*> parts;
  if (sc.args[1].kind == Expr::Kind::kOr) {
    for (const Expr& x : sc.args[1].children) parts.push_back(&x);
  } else {
    parts.push_back(&sc.args[1]);
  }
  for (const Expr* x : parts) {
    if (x->kind != Expr::Kind::kWord) continue;
    if (x->text == "SOCK_STREAM") stream = true;
    else if (x->text == "SOCK_NONBLOCK") nonblock = true;
    else if (x->text != "SOCK_CLOEXEC") stream = false;
  }
  if (!stream) return run_.Skip(c.line(), "only SOCK_STREAM sockets are modelled");
  if (sc.ret_any || sc.ret < 0) return run_.Skip(c.line(), "socket() without an expected descriptor");
  if (run_.sock.phase != SocketPhase::kNone) return run_.Skip(c.line(), "more than one TCP socket per script");
  int fd = static_cast<int>(sc.ret);
  if (fds_.count(fd)) return run_.Fail(c.line(), absl::StrFormat("descriptor %d is already in use", fd));
  Fd f;
  f.listener = true;
  f.nonblock = nonblock;
  fds_[fd] = f;
  run_.sock.phase = SocketPhase::kCreated;
  return Immediate(c, fd);
}

// __sys_bind: an fd that is not open is EBADF (sockfd_lookup_light), one
// that is not a socket ENOTSOCK. The address itself is not modelled.
absl::Status SyscallDriver::SysBind(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  auto it = fds_.find(*fd);
  if (it == fds_.end()) return Immediate(c, -kErrEbadf);
  if (it->second.kind != Fd::Kind::kTcp) return Immediate(c, -kErrEnotsock);
  return Immediate(c, 0);
}

absl::Status SyscallDriver::SysListen(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd) || !fds_[*fd].listener) return Immediate(c, -kErrEbadf);
  if (run_.sock.phase != SocketPhase::kCreated) return run_.Skip(c.line(), "listen() in this state");
  run_.sock.phase = SocketPhase::kListen;
  run_.sock.listening = true;
  return Immediate(c, 0);
}

absl::Status SyscallDriver::SysAccept(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd) || !fds_[*fd].listener) return Immediate(c, -kErrEbadf);
  const SocketPhase phase = run_.sock.phase;
  if (phase != SocketPhase::kListen && phase != SocketPhase::kSynRcvd && phase != SocketPhase::kEstablished) {
    return run_.Skip(c.line(), "accept() on a socket that is not listening");
  }
  if (accepted_) return run_.Skip(c.line(), "a second accept() (one connection per script)");
  if (c.sc.ret_any) return run_.Skip(c.line(), "accept() without an expected descriptor");
  const int newfd = static_cast<int>(c.sc.ret);
  auto ready = [this] { return run_.sock.phase == SocketPhase::kEstablished; };
  auto finish = [this, newfd]() -> int64_t {
    if (newfd < 0 || fds_.count(newfd)) return -kErrEinval;
    Fd f;
    f.connection = true;
    fds_[newfd] = f;
    accepted_ = true;
    return newfd;
  };
  if (!ready() && fds_[*fd].nonblock) return Immediate(c, -kErrEagain);
  return Wait(c, ready, finish, -1);
}

absl::Status SyscallDriver::SysConnect(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd) || !fds_[*fd].listener) return Immediate(c, -kErrEbadf);
  ScriptSocket& sock = run_.sock;
  if (sock.phase != SocketPhase::kCreated) return run_.Skip(c.line(), "connect() in this state");
  sock.neg = Negotiate(run_.settings, HandshakeOpts(sock.listen_opts), nullptr, run_.profile.initial_rwnd_capped,
                       run_.profile.initial_rcv_wnd_u16_max);
  // tcp_ecn_send_syn: tcp_ecn=1 asks for ECN with ECE and CWR on the SYN.
  sock.ecn_syn = run_.settings.tcp_ecn == 1;
  run_.EmitSyn(kFlagSyn | (sock.ecn_syn ? kFlagEce | kFlagCwr : 0), 0, 0);
  ArmSynRetransmit(run_);
  sock.syn_at = run_.loop.now();
  sock.active_open = true;
  sock.phase = SocketPhase::kSynSent;
  fds_[*fd].connection = true;
  accepted_ = true;
  if (fds_[*fd].nonblock) return Immediate(c, -kErrEinprogress);
  // inet_wait_for_connect wakes on a refusal too; __inet_stream_connect
  // then returns sock_error, or ECONNABORTED with none pending.
  return Wait(
      c, [this] { return run_.sock.phase == SocketPhase::kEstablished || run_.sock.reset; },
      [this]() -> int64_t {
        if (!run_.sock.reset) return 0;
        // ...and disconnects the socket (tcp_disconnect: sk_shutdown 0).
        run_.sock.disconnected = true;
        const int e = run_.sock.TakeSockError();
        return -(e != 0 ? e : kErrEconnaborted);
      },
      -1);
}

absl::Status SyscallDriver::SysFcntl(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  const std::vector<Expr>& args = c.sc.args;
  std::optional<int64_t> cmd = args.size() >= 2 ? IntValue(args[1]) : std::nullopt;
  if (cmd == kFSetfl && args.size() == 3) {
    std::optional<int64_t> fl = IntValue(args[2]);
    if (!fl) return run_.Skip(c.line(), "fcntl(F_SETFL) with a non-literal value");
    if (*fl & ~(kONonblock | kORdwr | kOWronly)) return run_.Skip(c.line(), "fcntl flags other than O_NONBLOCK");
    fds_[*fd].nonblock = *fl & kONonblock;
    return Immediate(c, 0);
  }
  if (cmd == kFGetfl) return Immediate(c, kORdwr | (fds_[*fd].nonblock ? kONonblock : 0));
  return run_.Skip(c.line(), "fcntl() command other than F_GETFL/F_SETFL");
}

// ---------------------------------------------------------------- sending

// Model flags for a send call; unsupported flags -> Skip.
absl::StatusOr<int> SyscallDriver::SendFlags(const Call& c, const Expr* flags_expr, int fd) {
  int64_t f = 0;
  if (flags_expr != nullptr && flags_expr->kind != Expr::Kind::kEllipsis) {
    std::optional<int64_t> v = IntValue(*flags_expr);
    if (!v) return run_.Skip(c.line(), "unknown send flags");
    f = *v;
  }
  const int64_t known = model::kMsgMore | model::kMsgEor | model::kMsgDontwait | model::kMsgNosignal | model::kMsgZerocopy;
  if (f & ~known) return run_.Skip(c.line(), absl::StrFormat("send flags 0x%x are not modelled", f & ~known));
  // tcp_sendmsg_locked honours MSG_ZEROCOPY only with SO_ZEROCOPY set (else
  // it copies); completions reach the error queue (syscalls_recvmsg.cc).
  if ((f & model::kMsgZerocopy) && !run_.sock.conn_opts.zerocopy) f &= ~model::kMsgZerocopy;
  f &= ~model::kMsgNosignal;
  if (fds_[fd].nonblock) f |= model::kMsgDontwait;
  return static_cast<int>(f);
}

absl::Status SyscallDriver::SysSend(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  absl::StatusOr<int> bad_count = CheckSendCounts(c.sc);
  if (!bad_count.ok()) return run_.Fail(c.line(), std::string(bad_count.status().message()));
  if (*bad_count != 0) return Immediate(c, -*bad_count);
  if (fds_[*fd].kind == Fd::Kind::kFile) return WriteFile(c, *fd);
  if (IsConnFd(*fd) && run_.sock.RefusedOrAborted()) {
    // tcp_sendmsg_locked -> sk_stream_wait_connect in TCP_CLOSE: the pending
    // error (sock_error), else EPIPE.
    const int e = run_.sock.TakeSockError();
    return Immediate(c, -(e != 0 ? e : kErrEpipe));
  }
  if (!IsConnFd(*fd) || !Connected()) {
    return run_.Skip(c.line(), absl::StrFormat("%s() on a socket that is not connected", c.sc.name));
  }
  if (run_.sock.phase == SocketPhase::kClosed) return Immediate(c, -kErrEbadf);
  absl::StatusOr<SendArgs> args = ParseSendArgs(c.sc);
  if (!args.ok()) return run_.At(c.line(), args.status());
  absl::StatusOr<int> f = SendFlags(c, args->flags, *fd);
  if (!f.ok()) return f.status();
  // A NULL buffer: tcp_sendmsg's copy from user memory faults before a byte
  // is queued, so the call fails with EFAULT (a zero length copies nothing).
  if (args->null_buffer && !args->lens.empty() && args->lens[0] > 0) return Immediate(c, -kErrEfault);
  auto iov = std::make_shared<std::vector<model::Iovec>>();
  for (uint64_t l : args->lens) iov->push_back(model::Iovec{nullptr, l});
  const int mflags = *f;
  return Issue(c, [this, iov, mflags](model::Socket::DoneFn done) {
    return run_.sock.ep->socket().sendmsg(absl::MakeConstSpan(*iov), mflags, std::move(done));
  });
}

// read()/recv()/recvfrom() on the connection: the peer's data that
// receive.cc queued. Blocks (or EAGAIN) while nothing is queued, the peer
// has not closed and the reading side is not shut down; then 0 (tcp_recvmsg
// copies queued data before it looks at RCV_SHUTDOWN).
absl::Status SyscallDriver::SysRead(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  if (fds_[*fd].kind == Fd::Kind::kFile) return run_.Skip(c.line(), "reading a file is not modelled");
  const std::vector<Expr>& args = c.sc.args;
  std::optional<int64_t> len = args.size() >= 3 ? IntValue(args[2]) : std::nullopt;
  if (!len || *len < 0) return run_.Skip(c.line(), absl::StrFormat("%s() length not understood", c.sc.name));
  bool dontwait = fds_[*fd].nonblock;
  if (c.sc.name != "read") {
    std::optional<int64_t> fl = args.size() >= 4 ? IntValue(args[3]) : std::nullopt;
    if (!fl || (*fl & ~model::kMsgDontwait)) {
      return run_.Skip(c.line(), absl::StrFormat("%s() flags other than MSG_DONTWAIT are not modelled", c.sc.name));
    }
    if (*fl & model::kMsgDontwait) dontwait = true;
  }
  return ReadStream(c, *fd, static_cast<uint64_t>(*len), dontwait, nullptr);
}

// The read itself, shared with recvmsg()/readv(): `on_read` runs right
// after the copy (tcp_recvmsg's cmsgs come from that moment).
absl::Status SyscallDriver::ReadStream(const Call& c, int fd, uint64_t want, bool dontwait,
                                       std::function<void()> on_read) {
  if (IsConnFd(fd) && run_.sock.RefusedOrAborted()) {
    // tcp_recvmsg: the pending error once (sock_error), then 0: tcp_done
    // set RCV_SHUTDOWN; after tcp_disconnect, ENOTCONN (TCP_CLOSE).
    if (run_.sock.disconnected) return Immediate(c, -kErrEnotconn);
    return Immediate(c, -run_.sock.TakeSockError());
  }
  if (!IsConnFd(fd) || !Connected()) return Immediate(c, -kErrEnotconn);
  auto ready = [this] {
    return run_.sock.rcv.queued > 0 || run_.sock.peer_fin || run_.sock.rcv_shutdown || run_.sock.reset;
  };
  auto finish = [this, want, on_read]() -> int64_t {
    const uint64_t n = std::min(want, run_.sock.rcv.queued);
    // tcp_recvmsg with nothing queued: after the peer's FIN (SOCK_DONE) 0,
    // else a reset's pending error once (sock_error), then 0 (RCV_SHUTDOWN).
    if (run_.sock.reset) {
      if (n == 0 && !run_.sock.peer_fin && run_.sock.HasSockError()) return -run_.sock.TakeSockError();
      run_.sock.rcv.queued -= n;
    } else {
      OnRead(run_, n);
    }
    if (on_read) on_read();
    return static_cast<int64_t>(n);
  };
  if (!ready() && dontwait) return Immediate(c, -kErrEagain);
  return Wait(c, ready, finish, -1);
}

// ---------------------------------------------------------------- queue sizes and readiness

// tcp_ioctl: SIOCOUTQ = write_seq - snd_una, SIOCOUTQNSD = write_seq -
// snd_nxt (a queued FIN counts, as in Linux), SIOCINQ = the peer's unread
// data (a received FIN is not counted).
absl::Status SyscallDriver::SysIoctl(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  std::optional<int64_t> req = c.sc.args.size() == 3 ? IntValue(c.sc.args[1]) : std::nullopt;
  if (!req || (*req != kSiocinq && *req != kSiocoutq && *req != kSiocoutqnsd)) {
    return run_.Skip(c.line(), "ioctl() other than SIOCINQ/SIOCOUTQ/SIOCOUTQNSD");
  }
  if (!IsConnFd(*fd) || !Connected()) return Immediate(c, -kErrEinval);  // LISTEN
  if (run_.sock.reset) return run_.Skip(c.line(), "ioctl() after a reset is not modelled");
  const model::TcpInfo i = run_.sock.ep->socket().info();
  const uint64_t write_seq = i.bytes_sent + i.notsent_bytes;
  int64_t val = 0;
  if (*req == kSiocoutq) val = static_cast<int64_t>(write_seq - i.bytes_acked);
  if (*req == kSiocoutqnsd) val = i.notsent_bytes;
  if (*req == kSiocinq) val = static_cast<int64_t>(run_.sock.rcv.queued);
  if (absl::Status st = CheckOutValue(c.line(), "ioctl()", c.sc.args[2], val); !st.ok()) return st;
  return Immediate(c, 0);
}

// tcp_poll: POLLOUT from the model (sk_stream_is_writeable with
// TCP_NOTSENT_LOWAT, or SEND_SHUTDOWN).
int64_t SyscallDriver::Revents(int fd) const {
  auto it = fds_.find(fd);
  if (it == fds_.end()) return kPollNval;
  if (it->second.kind == Fd::Kind::kFile) return kPollIn | kPollOut | kPollRdnorm | kPollWrnorm;
  if (!it->second.connection) {
    // Listener: readable when a connection is ready to accept.
    return run_.sock.phase == SocketPhase::kEstablished && !accepted_ ? (kPollIn | kPollRdnorm) : 0;
  }
  if (run_.sock.RefusedOrAborted()) {
    // tcp_poll in TCP_CLOSE: POLLHUP. With SHUTDOWN_MASK (tcp_done) readable
    // and writable (both directions shut), POLLERR while sk_err is pending;
    // after tcp_disconnect only writable (an empty queue).
    if (run_.sock.disconnected) return kPollHup | kPollOut | kPollWrnorm;
    return kPollHup | kPollIn | kPollRdnorm | kPollRdhup | kPollOut | kPollWrnorm |
           (run_.sock.HasSockError() ? kPollErr : 0);
  }
  if (!Connected() || run_.sock.phase == SocketPhase::kSynSent) return 0;
  int64_t in = run_.sock.rcv.queued > 0 ? (kPollIn | kPollRdnorm) : 0;
  // tcp_poll: RCV_SHUTDOWN (ours, or the peer's FIN) reads as POLLIN|POLLRDHUP,
  // both directions shut as POLLHUP.
  // A reset shuts both directions (SHUTDOWN_MASK: POLLHUP) and leaves
  // sk_err until it is read (POLLERR).
  const bool reset = run_.sock.reset;
  const bool rcv_shut = run_.sock.rcv_shutdown || run_.sock.peer_fin || reset;
  if (rcv_shut) in |= kPollIn | kPollRdnorm | kPollRdhup;
  if ((rcv_shut && run_.sock.fin_seq) || reset) in |= kPollHup;
  if (reset && run_.sock.HasSockError()) in |= kPollErr;
  // tcp_poll: a non-empty error queue (MSG_ZEROCOPY completions) is POLLERR.
  if (run_.sock.ep->socket().errqueue_pending()) in |= kPollErr;
  return in | (run_.sock.ep->PollOut() ? (kPollOut | kPollWrnorm) : 0);
}

absl::Status SyscallDriver::SysPoll(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.size() != 3 || sc.args[0].kind != Expr::Kind::kArray) {
    return run_.Skip(c.line(), "poll() arguments not understood");
  }
  absl::StatusOr<std::vector<PollItem>> parsed = ParsePollFds(sc.args[0]);
  if (!parsed.ok()) return run_.At(c.line(), parsed.status());
  // do_sys_poll: nfds above RLIMIT_NOFILE is EINVAL (fs.nr_open, 1048576 by
  // default, bounds any such limit); a count that disagrees with the array
  // would make Linux read past it or ignore entries.
  std::optional<int64_t> nfds = IntValue(sc.args[1]);
  if (!nfds) return run_.Skip(c.line(), "poll() nfds not understood");
  if (*nfds < 0 || *nfds > kNrOpenDefault) return Immediate(c, -kErrEinval);
  if (static_cast<size_t>(*nfds) != parsed->size()) {
    return run_.Fail(c.line(), absl::StrFormat("poll(): nfds is %d but the array holds %d pollfd%s", *nfds,
                                               parsed->size(), parsed->size() == 1 ? "" : "s"));
  }
  for (const PollItem& it : *parsed) {
    auto f = fds_.find(it.fd);
    if (f != fds_.end() && f->second.kind == Fd::Kind::kEpoll) {
      return run_.Skip(c.line(), "poll() on an epoll descriptor is not modelled");
    }
  }
  auto items = std::make_shared<std::vector<PollItem>>(*std::move(parsed));
  std::optional<int64_t> timeout = IntValue(sc.args[2]);
  if (!timeout) return run_.Skip(c.line(), "poll() timeout not understood");
  // The timeout is a C int of milliseconds; a wider value is not one Linux
  // could be given (and would overflow the nanoseconds below).
  if (*timeout < INT32_MIN || *timeout > INT32_MAX) {
    return run_.Fail(c.line(), absl::StrFormat("poll(): timeout %d ms is out of range for a 32-bit integer", *timeout));
  }
  auto compute = [this, items](std::vector<int64_t>* out) {
    int64_t n = 0;
    for (const PollItem& it : *items) {
      int64_t r = Revents(it.fd) & (it.events | kPollErr | kPollHup | kPollNval);
      if (out) out->push_back(r);
      if (r != 0) ++n;
    }
    return n;
  };
  auto ready = [compute] { return compute(nullptr) > 0; };
  auto finish = [compute] { return compute(nullptr); };
  const TimeNs timeout_at = *timeout < 0 ? -1 : run_.loop.now() + *timeout * model::kNsPerMs;
  absl::Status st = *timeout == 0 ? Immediate(c, compute(nullptr)) : Wait(c, ready, finish, timeout_at);
  if (!st.ok() || c.e.timing.block_end) return st;  // revents of a blocking poll are checked at return: not supported
  std::vector<int64_t> rev;
  compute(&rev);
  for (size_t i = 0; i < items->size(); ++i) {
    if ((*items)[i].revents && *(*items)[i].revents != rev[i]) {
      return run_.Fail(c.line(), absl::StrFormat("poll(): fd %d revents 0x%x, expected 0x%x", (*items)[i].fd, rev[i],
                                                 *(*items)[i].revents));
    }
  }
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
