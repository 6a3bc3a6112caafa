#include "tools/kernelreplay/kernel_case.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "messenger/connection.h"
#include "model/profile.h"
#include "props/payload.h"
#include "props/runner.h"
#include "props/setup.h"
#include "realsock/receiver.h"
#include "scenario/build.h"

namespace sendsim::kernelreplay {
namespace {

using model::TimeNs;
using realsock::MonotonicNs;

constexpr uint16_t kPeerPort = 6800;
constexpr TimeNs kHandshakeTimeoutNs = 10 * model::kNsPerSec;

absl::Status Errno(const char* what) {
  return absl::InternalError(absl::StrFormat("%s: %s", what, std::strerror(errno)));
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// Sleeps in ppoll until one of `fds` is ready or `until` (monotonic ns)
// passes. The deadline is a timerfd, whose hrtimer fires on time: ppoll's
// own timeout gets a slack of 0.1 % of the wait (select_estimate_accuracy),
// so a wait of one 50 ms RTT would wake 50 us late, after later ACKs were
// due. `until` < 0: no deadline.
absl::Status SleepUntil(int timer_fd, std::vector<struct pollfd>* fds, TimeNs until) {
  struct itimerspec its = {};
  if (until >= 0) {
    const TimeNs at = std::max<TimeNs>(until, 1);
    its.it_value = {static_cast<time_t>(at / model::kNsPerSec), static_cast<long>(at % model::kNsPerSec)};
  }
  if (timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &its, nullptr) != 0) return Errno("timerfd_settime");
  fds->push_back({timer_fd, POLLIN, 0});
  const int r = ppoll(fds->data(), fds->size(), nullptr, nullptr);
  fds->pop_back();
  uint64_t expirations = 0;
  if (read(timer_fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN) return Errno("read timerfd");
  if (r < 0 && errno != EINTR) return Errno("ppoll");
  return absl::OkStatus();
}

// What `fd` reported for `events` after sleeping until `until` at most.
short WaitFd(int timer_fd, int fd, short events, TimeNs until) {
  std::vector<struct pollfd> p = {{fd, events, 0}};
  if (!SleepUntil(timer_fd, &p, until).ok()) return 0;
  return p[0].revents;
}

// connect() to the peer: the SYN is answered one RTT later (its way there
// and the SYN-ACK's way back, as the model's handshake RTT sample), the
// third ACK is read and dropped.
absl::StatusOr<realsock::TunHandshake> Handshake(int sock, int timer_fd, realsock::TunDevice* tun,
                                                 const model::ConnectionConfig& cfg, const model::Profile& profile) {
  struct sockaddr_in dst = {};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(kPeerPort);
  inet_pton(AF_INET, realsock::kTunPeerIp, &dst.sin_addr);
  if (connect(sock, reinterpret_cast<struct sockaddr*>(&dst), sizeof(dst)) == 0 || errno != EINPROGRESS) {
    return Errno("connect");
  }
  const TimeNs give_up = MonotonicNs() + kHandshakeTimeoutNs;
  std::optional<realsock::TunSegment> syn;
  while (!syn.has_value()) {
    if (MonotonicNs() > give_up) return absl::DeadlineExceededError("no SYN on the tun");
    WaitFd(timer_fd, tun->fd(), POLLIN, give_up);
    for (;;) {
      absl::StatusOr<std::optional<realsock::TunSegment>> r = tun->Read();
      if (!r.ok()) return r.status();
      if (!r->has_value()) break;
      if ((**r).dport == kPeerPort && ((**r).flags & 0x02) != 0) syn = **r;  // TCPHDR_SYN
    }
  }
  realsock::TunHandshake hs;
  hs.local_port = syn->sport;
  hs.peer_port = syn->dport;
  hs.kernel_isn = syn->seq;
  hs.peer_isn = 1000;
  const TimeNs answer_at = MonotonicNs() + 2 * cfg.one_way_delay_ns;
  while (MonotonicNs() < answer_at) WaitFd(timer_fd, -1, 0, answer_at);
  const realsock::TunSegment synack = realsock::SynAckFor(*syn, cfg, profile, hs.peer_isn, realsock::TunTsval());
  if (absl::Status st = tun->Write(synack); !st.ok()) return st;
  if ((WaitFd(timer_fd, sock, POLLOUT, give_up) & POLLOUT) == 0) return absl::DeadlineExceededError("connect did not finish");
  int err = 0;
  socklen_t len = sizeof(err);
  getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) return absl::InternalError(absl::StrFormat("connect: %s", std::strerror(err)));
  // tcp_rcv_synsent_state_process sent the third ACK before the socket
  // became writable: read it (and anything else) away.
  for (;;) {
    absl::StatusOr<std::optional<realsock::TunSegment>> r = tun->Read();
    if (!r.ok()) return r.status();
    if (!r->has_value()) break;
    if ((**r).sport == hs.local_port && (**r).has_ts) hs.last_tsval = (**r).tsval;
  }
  return hs;
}

absl::Status Sockopt(int fd, int level, int name, int value, const char* what) {
  if (setsockopt(fd, level, name, &value, sizeof(value)) != 0) return Errno(what);
  return absl::OkStatus();
}

// The sysctls, route and timer slack a case sets on this kernel.
absl::Status ConfigureKernel(const props::Case& c, realsock::TunDevice* tun) {
  if (absl::Status st = WriteSysctl("/proc/sys/net/ipv4/tcp_autocorking", c.net.autocorking ? "1" : "0"); !st.ok()) {
    return st;
  }
  if (absl::Status st = WriteSysctl("/proc/sys/net/ipv4/tcp_no_metrics_save", "1"); !st.ok()) return st;
  if (c.net.tcp.cwnd_clamp != 0) {
    return absl::InvalidArgumentError("cwnd_clamp: a route's locked cwnd reaches tcp_init_metrics only through a "
                                      "cached tcp_metrics entry; replay with cwnd_clamp 0 (KernelExpressible)");
  }
  if (absl::Status st = tun->SetRoute(c.net.tcp.initcwnd); !st.ok()) return st;
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  return absl::OkStatus();
}

// A non-blocking socket with the case's options set before connect, as the
// model sets them at creation (SO_SNDBUF locks the buffer:
// tcp_init_buffer_space then leaves it).
absl::Status OpenSocket(const props::Case& c, Fd* sock) {
  sock->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (sock->fd < 0) return Errno("socket");
  if (absl::Status st = Sockopt(sock->fd, IPPROTO_TCP, TCP_NODELAY, c.net.nodelay ? 1 : 0, "TCP_NODELAY"); !st.ok()) {
    return st;
  }
  return Sockopt(sock->fd, SOL_SOCKET, SO_SNDBUF, static_cast<int>(c.net.sndbuf), "SO_SNDBUF");
}

// One established connection's run: the model's loop and peer behind the
// tun, the writer on the kernel socket; time 0 is `origin` (monotonic ns).
//
// The loop's events run one instant at a time: after the events due at one
// instant (the ACKs the reverse link delivers then), the kernel's answer is
// read from the tun at that instant and, when the writer waits for room, the
// socket is polled for POLLOUT before the next instant's events run. So the
// kernel's writer wakes between two ACKs due at different times, as the
// model's writer does (sk_stream_write_space runs inside each ACK's
// tcp_check_space), however late the guest's timer woke this process.
class KernelRun {
 public:
  KernelRun(realsock::TunDevice* tun, int fd, int timer_fd, TimeNs origin, const model::ConnectionConfig& cfg,
            const model::Profile& profile, const realsock::TunHandshake& hs, std::FILE* trace)
      : tun_(tun), fd_(fd), timer_fd_(timer_fd), origin_(origin), first_byte_(hs.kernel_isn + 1), trace_(trace),
        peer_(&loop_, tun, cfg, profile, hs) {
    if (trace_ != nullptr) {
      peer_.set_ack_trace([this](uint64_t acked, uint32_t win) {
        Trace(absl::StrFormat("ack %llu win %u", static_cast<unsigned long long>(acked), win));
      });
    }
  }
  // The writer's socket (on `fd`), once wrapped.
  void set_socket(realsock::FdSocket* s) { s_ = s; }

  model::EventLoop& loop() { return loop_; }
  realsock::TunPeer& peer() { return peer_; }

  // A NOTLAST batch blocked inside a call (FdSocket::FinishBatch): the
  // peer's events (ACKs leaving the reverse link) must still run, and the
  // batch goes on only once the socket is writable (POLLOUT, the
  // sk_stream_is_writeable test libceph's write-space callback applies
  // before the model's writer sends again after its -EAGAIN).
  absl::Status Blocked(TimeNs horizon) {
    blocked_ = true;
    absl::Status st = absl::OkStatus();
    bool writable = false;
    while (st.ok()) {
      if (Now() > horizon) {
        st = absl::DeadlineExceededError("blocked past the horizon");
        break;
      }
      st = Settle(&writable);
      if (st.ok() && !writable) writable = PollWritable();
      if (writable) {
        Trace("batch goes on");
        break;
      }
      if (st.ok()) st = WaitOnce(true);
    }
    blocked_ = false;
    return st;
  }

  // Until every byte is written and acknowledged, an error, or the horizon.
  absl::Status Drive(const messenger::CephConnection& ceph, TimeNs horizon, bool* completed) {
    for (;;) {
      bool unused = false;
      if (absl::Status st = Settle(&unused); !st.ok()) return st;
      if (s_->wants_write_space() && PollWritable()) {
        Trace("write space");
        s_->FireWriteSpace();
        if (absl::Status st = DrainTun(); !st.ok()) return st;
        continue;
      }
      if (!s_->error().ok()) return s_->error();
      if (!ceph.error().ok()) return ceph.error();
      if (!peer_.error().ok()) return peer_.error();
      if (loop_.now() > 0 && ceph.idle() && ceph.out_queue_size() == 0 && !s_->wants_write_space() &&
          ceph.bytes_written() > 0 && peer_.acked() >= ceph.bytes_written()) {
        *completed = true;
        return absl::OkStatus();
      }
      if (Now() > horizon) return absl::OkStatus();
      if (absl::Status st = WaitOnce(s_->wants_write_space()); !st.ok()) return st;
    }
  }

 private:
  TimeNs Now() const { return MonotonicNs() - origin_; }

  void Trace(const std::string& what) {
    if (trace_ == nullptr) return;
    std::fprintf(trace_, "%12lld %12lld %s\n", static_cast<long long>(loop_.now()), static_cast<long long>(Now()),
                 what.c_str());
  }

  // Runs every instant that has passed, one at a time: after each, the
  // kernel's answer is read at that instant, and a writer waiting for room
  // that the instant's ACKs made writable is woken there. Inside a blocked
  // call the writer cannot be called back: Settle stops at that instant
  // with `*writable_blocked` set. Else the loop comes up to the present and
  // the tun is read.
  absl::Status Settle(bool* writable_blocked) {
    for (TimeNs t = loop_.NextEventTime(); t >= 0 && t <= Now(); t = loop_.NextEventTime()) {
      while (loop_.NextEventTime() == t) loop_.RunOne();
      if (absl::Status st = DrainTun(); !st.ok()) return st;
      if (blocked_) {
        if (PollWritable()) {
          *writable_blocked = true;
          return absl::OkStatus();
        }
        continue;
      }
      if (s_->wants_write_space() && PollWritable()) {
        Trace("write space");
        s_->FireWriteSpace();
        if (absl::Status st = DrainTun(); !st.ok()) return st;
      }
    }
    loop_.AdvanceTo(std::max(loop_.now(), Now()));
    return DrainTun();
  }

  // Every packet queued on the tun, into the peer at the loop's time.
  absl::Status DrainTun() {
    for (;;) {
      absl::StatusOr<std::optional<realsock::TunSegment>> r = tun_->Read();
      if (!r.ok()) return r.status();
      if (!r->has_value()) return absl::OkStatus();
      if (trace_ != nullptr && (**r).len > 0) {
        Trace(absl::StrFormat("data %u+%u", (**r).seq - first_byte_, (**r).len));
      }
      peer_.OnKernelSegment(**r);
    }
  }

  bool PollWritable() {
    struct pollfd p = {fd_, POLLOUT, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
  }

  // Sleeps until the next event is due, a packet is on the tun or (when
  // asked) the socket has room; the caller settles what happened.
  absl::Status WaitOnce(bool want_pollout) {
    std::vector<struct pollfd> pfd = {{tun_->fd(), POLLIN, 0},
                                      {fd_, static_cast<short>(want_pollout ? POLLOUT : 0), 0}};
    const TimeNs next = loop_.NextEventTime();
    const TimeNs until = next < 0 ? Now() + 100 * model::kNsPerMs : std::max(next, Now());
    return SleepUntil(timer_fd_, &pfd, origin_ + until);
  }

  realsock::TunDevice* tun_;
  int fd_;
  int timer_fd_;
  TimeNs origin_;
  uint32_t first_byte_;  // the kernel's ISN + 1
  std::FILE* trace_;
  bool blocked_ = false;  // inside a writer's call (Blocked)
  realsock::FdSocket* s_ = nullptr;
  model::EventLoop loop_;
  realsock::TunPeer peer_;
};

}  // namespace

props::Case KernelExpressible(props::Case c) {
  c.net.hz = 250;
  c.net.tso = true;
  c.net.tcp.cwnd_clamp = 0;
  c.net.host.tx_orphan_at_xmit = true;
  return c;
}

absl::StatusOr<std::string> ReadSysctl(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return absl::UnavailableError(absl::StrFormat("cannot read %s", path));
  return line;
}

absl::Status WriteSysctl(const std::string& path, const std::string& value) {
  std::ofstream out(path);
  out << value << "\n";
  out.close();
  if (!out) return absl::UnavailableError(absl::StrFormat("cannot write %s", path));
  return absl::OkStatus();
}

absl::StatusOr<KernelCaseRun> RunKernelCase(const props::Case& c, realsock::TunDevice* tun, std::FILE* trace) {
  if (absl::Status st = props::ValidateCase(c); !st.ok()) return st;
  if (absl::Status st = props::ValidateCaseSetup(c); !st.ok()) return st;
  absl::StatusOr<model::Profile> profile = model::ProfileByName(c.net.kernel);
  if (!profile.ok()) return profile.status();
  const model::ConnectionConfig cfg = scenario::BuildConnectionConfig(
      c.net, {.track_payload = false, .full_trace = false, .record_data_timing = false});
  absl::StatusOr<messenger::ConnectionOptions> opts = props::MessengerOptions(c, profile->has_sendpage);
  if (!opts.ok()) return opts.status();
  absl::StatusOr<std::vector<messenger::CephMsgRef>> msgs = props::BuildMessages(c);
  if (!msgs.ok()) return msgs.status();
  if (absl::Status st = ConfigureKernel(c, tun); !st.ok()) return st;
  Fd timer;
  timer.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (timer.fd < 0) return Errno("timerfd_create");
  Fd sock;
  if (absl::Status st = OpenSocket(c, &sock); !st.ok()) return st;
  absl::StatusOr<realsock::TunHandshake> hs = Handshake(sock.fd, timer.fd, tun, cfg, *profile);
  if (!hs.ok()) return hs.status();

  // Time 0: the connection is established, as the model's run starts.
  KernelRun run(tun, sock.fd, timer.fd, MonotonicNs(), cfg, *profile, *hs, trace);
  absl::StatusOr<std::unique_ptr<realsock::FdSocket>> fdsock = realsock::FdSocket::Create(sock.fd);
  if (!fdsock.ok()) return fdsock.status();
  const int fd = sock.fd;
  sock.fd = -1;  // the FdSocket owns it
  realsock::FdSocket* s = fdsock->get();
  run.set_socket(s);
  auto ceph = std::make_unique<messenger::CephConnection>(&run.loop(), s, *std::move(opts));
  run.loop().ScheduleAt(0, [&] {
    for (const messenger::CephMsgRef& m : *msgs) ceph->ceph_con_send(m);
  });
  const TimeNs horizon = props::LivenessHorizonNs(c);
  s->set_block_hook([&]() -> absl::Status { return run.Blocked(horizon); });
  KernelCaseRun out;
  const absl::Status st = run.Drive(*ceph, horizon, &out.completed);
  s->set_block_hook(nullptr);
  out.duration_ns = run.loop().now();
  out.socket = s->stats();
  out.packets = run.peer().packets();
  // An RST ends the connection at once (no FIN exchange, no TIME_WAIT):
  // SO_LINGER with a zero timeout, then close.
  const struct linger lg = {1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
  ceph.reset();
  fdsock->reset();
  for (;;) {
    absl::StatusOr<std::optional<realsock::TunSegment>> r = tun->Read();
    if (!r.ok() || !r->has_value()) break;
  }
  if (!st.ok()) return st;
  return out;
}

}  // namespace sendsim::kernelreplay
