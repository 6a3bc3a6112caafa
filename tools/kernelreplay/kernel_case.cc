#include "tools/kernelreplay/kernel_case.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

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

// Sleeps in ppoll until `fd` has `events` or `until` (monotonic ns) passes.
short WaitFd(int fd, short events, TimeNs until) {
  const TimeNs wait = std::max<TimeNs>(0, until - MonotonicNs());
  struct pollfd p = {fd, events, 0};
  const struct timespec ts = {static_cast<time_t>(wait / model::kNsPerSec), static_cast<long>(wait % model::kNsPerSec)};
  if (ppoll(&p, 1, &ts, nullptr) <= 0) return 0;
  return p.revents;
}

// connect() to the peer: the SYN is answered one RTT later (its way there
// and the SYN-ACK's way back, as the model's handshake RTT sample), the
// third ACK is read and dropped.
absl::StatusOr<realsock::TunHandshake> Handshake(int sock, realsock::TunDevice* tun, const model::ConnectionConfig& cfg,
                                                 const model::Profile& profile) {
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
    WaitFd(tun->fd(), POLLIN, give_up);
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
  while (MonotonicNs() < answer_at) WaitFd(-1, 0, answer_at);
  const realsock::TunSegment synack = realsock::SynAckFor(*syn, cfg, profile, hs.peer_isn, realsock::TunTsval());
  if (absl::Status st = tun->Write(synack); !st.ok()) return st;
  if ((WaitFd(sock, POLLOUT, give_up) & POLLOUT) == 0) return absl::DeadlineExceededError("connect did not finish");
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
class KernelRun {
 public:
  KernelRun(realsock::TunDevice* tun, int fd, TimeNs origin, const model::ConnectionConfig& cfg,
            const model::Profile& profile, const realsock::TunHandshake& hs)
      : tun_(tun), fd_(fd), origin_(origin), peer_(&loop_, tun, cfg, profile, hs) {}
  // The writer's socket (on `fd`), once wrapped.
  void set_socket(realsock::FdSocket* s) { s_ = s; }

  model::EventLoop& loop() { return loop_; }
  realsock::TunPeer& peer() { return peer_; }

  // One wait: sleep until the next event, a packet on the tun or (when
  // asked) room on the socket; read the tun into the peer. Events due by
  // then run in the caller (inside a writer's blocking call only the
  // peer's: the loop's other events wait for the call to return).
  absl::Status WaitOnce(bool want_pollout, bool* writable) {
    const TimeNs now = MonotonicNs() - origin_;
    struct pollfd pfd[2] = {{tun_->fd(), POLLIN, 0}, {fd_, static_cast<short>(want_pollout ? POLLOUT : 0), 0}};
    const TimeNs next = loop_.NextEventTime();
    const TimeNs wait = next < 0 ? 100 * model::kNsPerMs : std::max<TimeNs>(0, next - now);
    const struct timespec ts = {static_cast<time_t>(wait / model::kNsPerSec),
                                static_cast<long>(wait % model::kNsPerSec)};
    if (ppoll(pfd, 2, &ts, nullptr) < 0 && errno != EINTR) return Errno("ppoll");
    if ((pfd[0].revents & POLLIN) != 0) {
      loop_.AdvanceTo(MonotonicNs() - origin_);
      for (;;) {
        absl::StatusOr<std::optional<realsock::TunSegment>> r = tun_->Read();
        if (!r.ok()) return r.status();
        if (!r->has_value()) break;
        peer_.OnKernelSegment(**r);
      }
    }
    *writable = (pfd[1].revents & (POLLOUT | POLLERR | POLLHUP)) != 0;
    return absl::OkStatus();
  }

  // A NOTLAST batch blocked inside a call (FdSocket::FinishBatch): the
  // peer's events (ACKs leaving the reverse link) must still run. The loop
  // runs them from inside the writer's event (EventLoop allows a nested
  // RunOne); the writer has nothing else queued while its call runs.
  absl::Status Blocked(TimeNs horizon) {
    const TimeNs now = MonotonicNs() - origin_;
    if (now > horizon) return absl::DeadlineExceededError("blocked past the horizon");
    for (TimeNs next = loop_.NextEventTime(); next >= 0 && next <= now; next = loop_.NextEventTime()) loop_.RunOne();
    bool writable = false;
    return WaitOnce(true, &writable);
  }

  // Until every byte is written and acknowledged, an error, or the horizon.
  absl::Status Drive(const messenger::CephConnection& ceph, TimeNs horizon, bool* completed) {
    for (;;) {
      const TimeNs now = MonotonicNs() - origin_;
      for (TimeNs next = loop_.NextEventTime(); next >= 0 && next <= now; next = loop_.NextEventTime()) loop_.RunOne();
      if (!s_->error().ok()) return s_->error();
      if (!ceph.error().ok()) return ceph.error();
      if (!peer_.error().ok()) return peer_.error();
      if (loop_.now() > 0 && ceph.idle() && ceph.out_queue_size() == 0 && !s_->wants_write_space() &&
          ceph.bytes_written() > 0 && peer_.acked() >= ceph.bytes_written()) {
        *completed = true;
        return absl::OkStatus();
      }
      if (now > horizon) return absl::OkStatus();
      bool writable = false;
      if (absl::Status st = WaitOnce(s_->wants_write_space(), &writable); !st.ok()) return st;
      if (writable) {
        loop_.AdvanceTo(MonotonicNs() - origin_);
        s_->FireWriteSpace();
      }
    }
  }

 private:
  realsock::TunDevice* tun_;
  int fd_;
  TimeNs origin_;
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

absl::StatusOr<KernelCaseRun> RunKernelCase(const props::Case& c, realsock::TunDevice* tun) {
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
  Fd sock;
  if (absl::Status st = OpenSocket(c, &sock); !st.ok()) return st;
  absl::StatusOr<realsock::TunHandshake> hs = Handshake(sock.fd, tun, cfg, *profile);
  if (!hs.ok()) return hs.status();

  // Time 0: the connection is established, as the model's run starts.
  KernelRun run(tun, sock.fd, MonotonicNs(), cfg, *profile, *hs);
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
