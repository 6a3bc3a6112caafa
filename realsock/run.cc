#include "realsock/run.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/strings/str_format.h"
#include "realsock/capture.h"
#include "realsock/receiver.h"

namespace sendsim::realsock {
namespace {

uint32_t Ip(const char* s) {
  struct in_addr a;
  inet_pton(AF_INET, s, &a);
  return ntohl(a.s_addr);
}

struct Sockets {
  int listen_fd = -1;
  int send_fd = -1;
  int recv_fd = -1;
  ~Sockets() {
    for (int fd : {listen_fd, send_fd, recv_fd}) {
      if (fd >= 0) close(fd);
    }
  }
};

absl::Status Errno(const char* what) { return absl::InternalError(absl::StrFormat("%s: %s", what, std::strerror(errno))); }

// Listens in the receiver's namespace; opens the capture and connects in the
// sender's (the capture sees the SYN, which gives kernelcmp's analysis the ISN).
absl::Status Connect(const Testbed& tb, const RunSpec& spec, Sockets* s, std::unique_ptr<Capture>* capture,
                     kernelcmp::Flow* flow) {
  struct sockaddr_in dst = {};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(spec.port);
  dst.sin_addr.s_addr = htonl(Ip(Testbed::kReceiverIp));
  absl::Status st = tb.RunInNetns(tb.receiver_ns(), [&]() -> absl::Status {
    s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->listen_fd < 0) return Errno("socket");
    const int one = 1;
    setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(s->listen_fd, reinterpret_cast<struct sockaddr*>(&dst), sizeof(dst)) != 0) return Errno("bind");
    if (listen(s->listen_fd, 1) != 0) return Errno("listen");
    return absl::OkStatus();
  });
  if (!st.ok()) return st;
  st = tb.RunInNetns(tb.sender_ns(), [&]() -> absl::Status {
    absl::StatusOr<std::unique_ptr<Capture>> c = Capture::Open(Testbed::kSenderDev);
    if (!c.ok()) return c.status();
    *capture = *std::move(c);
    s->send_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->send_fd < 0) return Errno("socket");
    const int nodelay = spec.nodelay ? 1 : 0;
    if (setsockopt(s->send_fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof(nodelay)) != 0) return Errno("TCP_NODELAY");
    if (connect(s->send_fd, reinterpret_cast<struct sockaddr*>(&dst), sizeof(dst)) != 0) return Errno("connect");
    struct sockaddr_in me = {};
    socklen_t len = sizeof(me);
    if (getsockname(s->send_fd, reinterpret_cast<struct sockaddr*>(&me), &len) != 0) return Errno("getsockname");
    *flow = {ntohl(me.sin_addr.s_addr), ntohs(me.sin_port), Ip(Testbed::kReceiverIp), spec.port};
    return absl::OkStatus();
  });
  if (!st.ok()) return st;
  s->recv_fd = accept4(s->listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
  if (s->recv_fd < 0) return Errno("accept");
  return absl::OkStatus();
}

bool AllReplied(const messenger::WorkloadDriver& d, bool replies) {
  for (const messenger::MessageRecord& r : d.records()) {
    if (r.delivered < 0 || (replies && r.replied < 0)) return false;
  }
  return true;
}

// The event loop against the clock, until every message is delivered and
// replied and nothing is left to do.
absl::Status Drive(model::EventLoop* loop, messenger::WorkloadDriver* driver, FdSocket* sock, Receiver* rx,
                   Capture* capture, model::TimeNs origin, const RunSpec& spec) {
  uint64_t offset = 0;
  for (;;) {
    const model::TimeNs now = MonotonicNs() - origin;
    for (model::TimeNs next = loop->NextEventTime(); next >= 0 && next <= now; next = loop->NextEventTime()) {
      loop->RunOne();
    }
    if (!sock->error().ok()) return sock->error();
    if (!driver->connection().error().ok()) return driver->connection().error();
    if (loop->NextEventTime() < 0 && !sock->wants_write_space() && driver->connection().idle() &&
        AllReplied(*driver, spec.driver.replies)) {
      return absl::OkStatus();
    }
    if (now > spec.deadline_ns) {
      return absl::DeadlineExceededError(absl::StrFormat("not finished after %d ms", now / model::kNsPerMs));
    }
    struct pollfd pfd[3] = {{rx->event_fd(), POLLIN, 0}, {capture ? capture->fd() : -1, POLLIN, 0}, {sock->fd(), 0, 0}};
    if (sock->wants_write_space()) pfd[2].events = POLLOUT;
    const model::TimeNs next = loop->NextEventTime();
    const model::TimeNs wait = next < 0 ? 100 * model::kNsPerMs : std::max<model::TimeNs>(0, next - now);
    const struct timespec ts = {static_cast<time_t>(wait / model::kNsPerSec), static_cast<long>(wait % model::kNsPerSec)};
    if (ppoll(pfd, 3, &ts, nullptr) < 0 && errno != EINTR) return Errno("ppoll");
    if (capture != nullptr && (pfd[1].revents & POLLIN) != 0) {
      if (absl::Status s = capture->Drain(); !s.ok()) return s;
    }
    if ((pfd[0].revents & POLLIN) != 0) {
      for (Chunk& c : rx->Take()) {
        loop->AdvanceTo(c.t);
        driver->OnDeliver(c.t, static_cast<uint32_t>(offset), c.bytes.data(), static_cast<uint32_t>(c.bytes.size()));
        offset += c.bytes.size();
      }
    }
    if ((pfd[2].revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
      loop->AdvanceTo(MonotonicNs() - origin);
      sock->FireWriteSpace();
    }
  }
}

}  // namespace

absl::StatusOr<RunOutcome> RunOnSockets(int send_fd, int recv_fd, const RunSpec& spec, Capture* capture) {
  // Sleeps end when asked: the default 50 us of slack would stretch every
  // CPU gap the connection charges.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  absl::StatusOr<std::unique_ptr<FdSocket>> sock = FdSocket::Create(send_fd);
  if (!sock.ok()) {
    close(recv_fd);
    return sock.status();
  }
  model::EventLoop loop;
  messenger::WorkloadDriver driver(&loop, spec.messages, spec.driver);
  if (absl::Status st = driver.Attach(sock->get(), spec.connection); !st.ok()) {
    close(recv_fd);
    return st;
  }
  const model::TimeNs origin = MonotonicNs();
  Receiver rx(recv_fd, origin);
  driver.Start();
  absl::Status st = Drive(&loop, &driver, sock->get(), &rx, capture, origin, spec);
  RunOutcome out;
  out.duration_ns = loop.now();
  out.socket = (*sock)->stats();
  sock->reset();  // closes the connection: the receiver reads EOF
  absl::Status rs = rx.Join();
  if (!st.ok()) return st;
  if (!rs.ok()) return rs;
  if (absl::Status f = driver.Finish(); !f.ok()) return f;
  out.messages = driver.decoder().messages();
  return out;
}

absl::StatusOr<RunOutcome> RunWriter(const Testbed& tb, const RunSpec& spec) {
  Sockets s;
  std::unique_ptr<Capture> capture;
  kernelcmp::Flow flow;
  if (absl::Status st = Connect(tb, spec, &s, &capture, &flow); !st.ok()) return st;
  const int send_fd = s.send_fd;
  const int recv_fd = s.recv_fd;
  s.send_fd = s.recv_fd = -1;  // RunOnSockets owns them now
  absl::StatusOr<RunOutcome> out = RunOnSockets(send_fd, recv_fd, spec, capture.get());
  if (!out.ok()) return out;
  if (absl::Status c = capture->Finish(); !c.ok()) return c;
  absl::StatusOr<kernelcmp::RunFigures> fig =
      kernelcmp::AnalyzeFlow(capture->segments(), flow, spec.mss, /*split_tso=*/true);
  if (!fig.ok()) return fig.status();
  out->figures = *fig;
  return out;
}

}  // namespace sendsim::realsock
