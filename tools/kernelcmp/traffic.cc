#include "tools/kernelcmp/traffic.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "tools/kernelcmp/netstat.h"
#include "tools/kernelcmp/tcp_segs_out.h"

namespace sendsim::kernelcmp {
namespace {

absl::Status Errno(const std::string& what) {
  return absl::InternalError(absl::StrFormat("%s: %s", what, strerror(errno)));
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      Close();
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  ~Fd() { Close(); }
  int get() const { return fd_; }
  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

absl::Status SetCubic(int fd) {
  // The host default may be BBR and a namespace may not be allowed cubic as
  // its default; per socket, root may pick any available algorithm.
  const char cc[] = "cubic";
  if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, sizeof(cc) - 1) != 0) {
    return Errno("setsockopt(TCP_CONGESTION, cubic)");
  }
  char got[16] = {};
  socklen_t len = sizeof(got);
  if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, got, &len) != 0) {
    return Errno("getsockopt(TCP_CONGESTION)");
  }
  if (std::string(got) != "cubic") {
    return absl::InternalError(absl::StrFormat("congestion control is %s, not cubic", got));
  }
  return absl::OkStatus();
}

absl::Status PinToCpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  if (rc != 0) {
    errno = rc;
    return Errno(absl::StrFormat("pin to CPU %d", cpu));
  }
  return absl::OkStatus();
}

sockaddr_in Addr(const char* ip, uint16_t port) {
  sockaddr_in a = {};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  inet_pton(AF_INET, ip, &a.sin_addr);
  return a;
}

// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID): what a socket
// call costs the thread, sleeping excluded; softirq work that interrupts it is
// included, as it delays the thread's next call. A measurement of the
// testbed, never an input of the model's clock.
int64_t ThreadCpuNs() {
  timespec ts = {};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// The calling thread's time runnable but waiting for its CPU (the second
// field of /proc/thread-self/schedstat, CONFIG_SCHED_INFO); -1 if
// unreadable.
int64_t ThreadRunDelayNs() {
  std::ifstream f("/proc/thread-self/schedstat");
  int64_t cpu = 0, delay = -1;
  if (!(f >> cpu >> delay)) return -1;
  return delay;
}

// The sender side of one replay: issues the calls of one writer analogue.
class Replayer {
 public:
  Replayer(int sock, const Workload& w, IoMode io) : sock_(sock), w_(w), io_(io) {}

  absl::Status Init(Variant v) {
    const Framing f = FramingFor(w_, v);
    prefix_.assign(f.prefix_bytes, 0);
    for (size_t i = 0; i < prefix_.size(); ++i) prefix_[i] = static_cast<uint8_t>(0x40 + i % 61);
    prefix_[0] = 7;  // CEPH_MSGR_TAG_MSG
    footer_.assign(f.footer_bytes, 0xf0);
    // msgr2 corks for a whole worker run; in non-blocking mode a run ends at
    // EAGAIN, so the cork comes off while waiting for space.
    session_cork_ = v == Variant::kV2 && io_ == IoMode::kNonBlocking;
    // Writers with a call per page are sampled 1 call in 16; the few large
    // calls of sendmsg-all, sendfile and splice, every one.
    const bool per_page = v == Variant::kV1Legacy || v == Variant::kV1Splice || v == Variant::kV1Cork ||
                          v == Variant::kV2;
    sample_every_ = per_page ? kSampleEveryPerPage : 1;
    data_.resize(w_.message_bytes);
    for (size_t i = 0; i < data_.size(); ++i) data_[i] = static_cast<uint8_t>(i * 131 + 17);
    if (v == Variant::kSendfile || v == Variant::kSplice) {
      // Page-cache pages for sendfile/splice: a memfd holding one message's data.
      file_ = Fd(memfd_create("kernelcmp-data", MFD_CLOEXEC));
      if (file_.get() < 0) return Errno("memfd_create");
      size_t off = 0;
      while (off < data_.size()) {
        ssize_t n = write(file_.get(), data_.data() + off, data_.size() - off);
        if (n <= 0) return Errno("write memfd");
        off += n;
      }
    }
    if (v == Variant::kSplice) {
      int p[2];
      if (pipe2(p, O_CLOEXEC) != 0) return Errno("pipe");
      pipe_r_ = Fd(p[0]);
      pipe_w_ = Fd(p[1]);
    }
    if (io_ == IoMode::kNonBlocking) {
      // sendfile/splice take no MSG_DONTWAIT; they honour the file's O_NONBLOCK.
      int fl = fcntl(sock_, F_GETFL);
      if (fl < 0 || fcntl(sock_, F_SETFL, fl | O_NONBLOCK) != 0) return Errno("O_NONBLOCK");
    }
    return absl::OkStatus();
  }

  absl::Status SendMessage(Variant v) {
    switch (v) {
      case Variant::kV1Legacy:
      case Variant::kV1Splice:
        return PerPage(v == Variant::kV1Legacy);
      case Variant::kV1Cork:
        return V1Corked();
      case Variant::kV2:
        return V2Message();
      case Variant::kSendmsgAll:
        return OneSendmsg();
      case Variant::kSendfile:
      case Variant::kSplice:
        return FileBacked(v == Variant::kSplice);
    }
    return absl::InternalError("unknown variant");
  }

  // After the last message: msgr2's worker finds nothing more to send and
  // uncorks.
  absl::Status Finish() {
    if (session_cork_ && corked_) return SetCork(0);
    return absl::OkStatus();
  }

  uint64_t bytes_sent() const { return sent_; }
  uint64_t would_block() const { return would_block_; }
  uint64_t calls() const { return calls_; }
  int64_t call_cpu_ns() const { return call_cpu_ns_; }
  const CallCostFit& call_fit() const { return fit_; }

 private:
  int BaseFlags() const {
    return MSG_NOSIGNAL | (io_ == IoMode::kNonBlocking ? MSG_DONTWAIT : 0);
  }

  absl::Status WaitWritable() {
    ++would_block_;
    // ceph_con_v2_try_write: the run ends at EAGAIN with tcp_sock_set_cork(false);
    // the write-space callback starts a new run, which corks again.
    const bool recork = session_cork_ && corked_;
    if (recork) {
      absl::Status s = SetCork(0);
      if (!s.ok()) return s;
    }
    pollfd p = {sock_, POLLOUT, 0};
    int r;
    while ((r = poll(&p, 1, 30'000)) < 0) {
      if (errno != EINTR) return Errno("poll");
    }
    if (r == 0) return absl::DeadlineExceededError("sender: socket not writable for 30 s");
    if (recork) return SetCork(1);
    if (p.revents & (POLLERR | POLLHUP)) return absl::InternalError("socket error while sending");
    return absl::OkStatus();
  }

  // Repeats `call` (a send-family call returning bytes or -1/errno) until it
  // accepts something or fails: EINTR retries at once, EAGAIN waits until the
  // socket is writable (poll), as libceph's worker does after the write-space
  // callback.
  template <typename Call>
  absl::StatusOr<ssize_t> UntilAccepted(const char* what, Call call) {
    for (;;) {
      // Sampled calls also read the data segments sent during them
      // (TCP_INFO before and after, outside the timed part).
      uint32_t segs0 = 0;
      const bool sample = calls_ % sample_every_ == 0 && DataSegsOut(sock_, &segs0);
      const int64_t t0 = ThreadCpuNs();
      const ssize_t n = call();
      const int64_t cpu = ThreadCpuNs() - t0;
      const int saved_errno = errno;
      call_cpu_ns_ += cpu;
      ++calls_;
      uint32_t segs1 = 0;
      if (sample && DataSegsOut(sock_, &segs1)) fit_.Add(segs1 - segs0, cpu);
      errno = saved_errno;
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return Errno(what);
      absl::Status s = WaitWritable();
      if (!s.ok()) return s;
    }
  }

  // One "piece" send: like write_partial_kvec / ceph_tcp_sendpage, a short
  // count or EAGAIN resumes the same piece, with the same flags, once the
  // socket is writable again.
  absl::Status SendPiece(const uint8_t* p, size_t len, int flags) {
    while (len > 0) {
      absl::StatusOr<ssize_t> r = UntilAccepted("send", [&] { return send(sock_, p, len, flags | BaseFlags()); });
      if (!r.ok()) return r.status();
      const ssize_t n = *r;
      // A short count is retried at once (write_partial_kvec / do_sendmsg
      // loop); the retry normally gets EAGAIN, which waits.
      sent_ += n;
      p += n;
      len -= n;
    }
    return absl::OkStatus();
  }

  absl::Status PerPage(bool legacy) {
    absl::Status s = SendPiece(prefix_.data(), prefix_.size(), MSG_MORE);
    for (uint64_t off = 0; s.ok() && off < data_.size(); off += kPageBytes) {
      const size_t len = std::min<uint64_t>(kPageBytes, data_.size() - off);
      const bool last = off + len == data_.size();
      // v1 before 5.0: the payload's last page goes without MORE (EOR);
      // 6.x passes MORE on every page (docs/libceph-write-path.md §9).
      const int flags = legacy && last ? MSG_EOR : MSG_MORE;
      s = SendPiece(data_.data() + off, len, flags);
    }
    if (s.ok()) s = SendPiece(footer_.data(), footer_.size(), MSG_EOR);
    return s;
  }

  // TCP_CORK is a socket call like the sends (lock_sock .. release_sock,
  // and clearing it pushes the tail), so it is timed and counted as one:
  // its CPU is a call's, not time between calls, as the model charges it.
  absl::Status SetCork(int on) {
    absl::StatusOr<ssize_t> r = UntilAccepted("setsockopt(TCP_CORK)", [&]() -> ssize_t {
      return setsockopt(sock_, IPPROTO_TCP, TCP_CORK, &on, sizeof(on));
    });
    if (!r.ok()) return r.status();
    corked_ = on != 0;
    return absl::OkStatus();
  }

  // v1-cork: the v1-legacy call sequence with TCP_CORK set before the prefix
  // and cleared after the footer (clearing pushes the tail: NODELAY is set).
  absl::Status V1Corked() {
    absl::Status s = SetCork(1);
    if (s.ok()) s = PerPage(/*legacy=*/true);
    if (s.ok()) s = SetCork(0);
    return s;
  }

  // msgr2 crc mode: head + front in one sendmsg, one call per data page,
  // the epilogue; no MORE/EOR ("socket is corked"). Non-blocking: the cork
  // spans messages until a call would block (see WaitWritable, Finish);
  // blocking calls never end a worker run, so the cork spans one message.
  absl::Status V2Message() {
    absl::Status s;
    if (!corked_) s = SetCork(1);
    if (s.ok()) s = SendPiece(prefix_.data(), prefix_.size(), 0);
    for (uint64_t off = 0; s.ok() && off < data_.size(); off += kPageBytes) {
      s = SendPiece(data_.data() + off, std::min<uint64_t>(kPageBytes, data_.size() - off), 0);
    }
    if (s.ok()) s = SendPiece(footer_.data(), footer_.size(), 0);
    if (s.ok() && !session_cork_) s = SetCork(0);
    return s;
  }

  absl::Status OneSendmsg() {
    std::vector<iovec> iov;
    iov.push_back({prefix_.data(), prefix_.size()});
    for (uint64_t off = 0; off < data_.size(); off += kPageBytes) {
      iov.push_back({data_.data() + off, std::min<uint64_t>(kPageBytes, data_.size() - off)});
    }
    iov.push_back({footer_.data(), footer_.size()});
    size_t first = 0;
    while (first < iov.size()) {
      // Large messages need several calls (IOV_MAX); all but the last carry MORE.
      const size_t count = std::min<size_t>(IOV_MAX, iov.size() - first);
      msghdr msg = {};
      msg.msg_iov = iov.data() + first;
      msg.msg_iovlen = count;
      const int flags = first + count < iov.size() ? MSG_MORE : 0;
      absl::StatusOr<ssize_t> r = UntilAccepted("sendmsg", [&] { return sendmsg(sock_, &msg, flags | BaseFlags()); });
      if (!r.ok()) return r.status();
      const ssize_t n = *r;
      sent_ += n;
      size_t left = n;
      while (left > 0 && left >= iov[first].iov_len) {
        left -= iov[first].iov_len;
        ++first;
      }
      if (left > 0) {
        iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
        iov[first].iov_len -= left;
      }
    }
    return absl::OkStatus();
  }

  absl::Status FileBacked(bool use_splice) {
    absl::Status s = SendPiece(prefix_.data(), prefix_.size(), MSG_MORE);
    if (!s.ok()) return s;
    off_t off = 0;
    const off_t total = static_cast<off_t>(data_.size());
    while (s.ok() && off < total) {
      if (use_splice) {
        s = SpliceChunk(&off, total);
        continue;
      }
      absl::StatusOr<ssize_t> r = UntilAccepted("sendfile", [&] { return sendfile(sock_, file_.get(), &off, total - off); });
      if (!r.ok()) return r.status();
      sent_ += *r;
    }
    if (!s.ok()) return s;
    return SendPiece(footer_.data(), footer_.size(), MSG_EOR);
  }

  // One 64 KiB chunk: file -> empty pipe (16 page slots), then pipe -> socket
  // until the pipe is empty again, as splice(2) from a file would move it.
  // The footer follows, so every chunk goes with SPLICE_F_MORE (MSG_MORE).
  absl::Status SpliceChunk(off_t* off, off_t total) {
    const size_t want = std::min<off_t>(kSpliceChunkBytes, total - *off);
    size_t in_pipe = 0;
    while (in_pipe < want) {
      // NONBLOCK: the pipe is empty and the chunk fits, so a full pipe is a bug, not a wait.
      ssize_t n = splice(file_.get(), off, pipe_w_.get(), nullptr, want - in_pipe,
                         SPLICE_F_NONBLOCK);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Errno("splice into pipe");
      in_pipe += n;
    }
    while (in_pipe > 0) {
      absl::StatusOr<ssize_t> r = UntilAccepted(
          "splice to socket", [&] { return splice(pipe_r_.get(), nullptr, sock_, nullptr, in_pipe, SPLICE_F_MORE); });
      if (!r.ok()) return r.status();
      const ssize_t n = *r;
      if (n == 0) return absl::InternalError("splice to socket made no progress");
      sent_ += n;
      in_pipe -= n;
    }
    return absl::OkStatus();
  }

  int sock_;
  const Workload& w_;
  IoMode io_;
  std::vector<uint8_t> prefix_, footer_, data_;
  Fd file_, pipe_r_, pipe_w_;
  bool session_cork_ = false;
  bool corked_ = false;
  uint64_t sent_ = 0;
  uint64_t would_block_ = 0;
  uint64_t calls_ = 0;       // send-family calls, EAGAIN returns included
  int64_t call_cpu_ns_ = 0;  // thread CPU time inside them
  // A sampled call pays two TCP_INFO reads (~1 us each here) around it: 1
  // in 16 page calls gives enough samples and changes the pattern little.
  static constexpr uint64_t kSampleEveryPerPage = 16;
  uint64_t sample_every_ = kSampleEveryPerPage;
  CallCostFit fit_;
};

constexpr char kAutoCorking[] = "TcpExt.TCPAutoCorking";  // LINUX_MIB_TCPAUTOCORKING
constexpr char kDelayedAcks[] = "TcpExt.DelayedACKs";     // delayed-ACK timer fired and sent

}  // namespace

namespace {

// The receiver's listening socket and the sender's socket (cubic,
// TCP_NODELAY as libceph sets it), each in its namespace.
absl::Status OpenSockets(const Testbed& tb, Fd* listener, Fd* sender) {
  absl::Status s = tb.RunInNetns(tb.receiver_ns(), [&]() -> absl::Status {
    *listener = Fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (listener->get() < 0) return Errno("socket");
    int one = 1;
    setsockopt(listener->get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    absl::Status cs = SetCubic(listener->get());
    if (!cs.ok()) return cs;
    sockaddr_in a = Addr(Testbed::kReceiverIp, kReceiverPort);
    if (bind(listener->get(), reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) return Errno("bind");
    if (listen(listener->get(), 1) != 0) return Errno("listen");
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return tb.RunInNetns(tb.sender_ns(), [&]() -> absl::Status {
    *sender = Fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (sender->get() < 0) return Errno("socket");
    absl::Status cs = SetCubic(sender->get());
    if (!cs.ok()) return cs;
    int one = 1;
    if (setsockopt(sender->get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0) {
      return Errno("setsockopt(TCP_NODELAY)");
    }
    return absl::OkStatus();
  });
}

// A MIB counter of one namespace (-1 when unreadable).
int64_t NetnsCounter(const Testbed& tb, const std::string& ns, const char* name) {
  int64_t v = -1;
  (void)tb.RunInNetns(ns, [&]() -> absl::Status {
    absl::StatusOr<std::map<std::string, uint64_t>> m = ReadNetstat();
    if (m.ok() && m->count(name)) v = static_cast<int64_t>(m->at(name));
    return absl::OkStatus();
  });
  return v;
}

// The receiving application: accept, then read to EOF (non-blocking reads
// after poll, each read's CPU timed), pinned to its CPU.
absl::Status ReceiveToEof(const Testbed& tb, const Fd& listener, const Fd& sender, TrafficResult* result) {
  absl::Status pin = PinToCpu(tb.options().receiver_cpu);
  if (!pin.ok()) return pin;
  pollfd p = {listener.get(), POLLIN, 0};
  if (poll(&p, 1, 10'000) != 1) return absl::DeadlineExceededError("receiver: no connection within 10 s");
  Fd conn(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (conn.get() < 0) return Errno("accept");
  std::vector<uint8_t> buf(256 * 1024);
  while (true) {
    pollfd rp = {conn.get(), POLLIN, 0};
    if (poll(&rp, 1, 30'000) == 0) {
      shutdown(sender.get(), SHUT_RDWR);  // wake a sender blocked in a socket call
      return absl::DeadlineExceededError("receiver: no data for 30 s");
    }
    const int64_t t0 = ThreadCpuNs();
    ssize_t n = recv(conn.get(), buf.data(), buf.size(), MSG_DONTWAIT);
    result->read_cpu_ns += ThreadCpuNs() - t0;
    if (n == 0) return absl::OkStatus();
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Errno("recv");
    }
    result->bytes_received += n;
    ++result->reads;
  }
}

// The sending application: connect, replay the workload's calls, FIN;
// with its CPU, its wait for the CPU and the socket's tcp_info around it.
absl::Status SendWorkload(const Testbed& tb, const Fd& sender, const Workload& w, Variant variant, IoMode io,
                          TrafficResult* result) {
  absl::Status pin = PinToCpu(tb.options().sender_cpu);
  if (!pin.ok()) return pin;
  result->sender_tid = static_cast<int64_t>(syscall(SYS_gettid));
  result->sender_fd = sender.get();
  sockaddr_in a = Addr(Testbed::kReceiverIp, kReceiverPort);
  if (connect(sender.get(), reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) return Errno("connect");
  sockaddr_in local = {};
  socklen_t llen = sizeof(local);
  getsockname(sender.get(), reinterpret_cast<sockaddr*>(&local), &llen);
  result->sender_port = ntohs(local.sin_port);
  tcp_info ti = {};
  socklen_t tlen = sizeof(ti);
  if (getsockopt(sender.get(), IPPROTO_TCP, TCP_INFO, &ti, &tlen) != 0) return Errno("TCP_INFO");
  result->mss = ti.tcpi_snd_mss;
  Replayer r(sender.get(), w, io);
  absl::Status status = r.Init(variant);
  const int64_t thread0 = ThreadCpuNs();
  const int64_t delay0 = ThreadRunDelayNs();
  for (uint64_t m = 0; status.ok() && m < w.messages; ++m) status = r.SendMessage(variant);
  if (status.ok()) status = r.Finish();
  result->sender_thread_cpu_ns = ThreadCpuNs() - thread0;
  const int64_t delay1 = ThreadRunDelayNs();
  if (delay0 >= 0 && delay1 >= delay0) result->sender_run_delay_ns = delay1 - delay0;
  result->bytes_sent = r.bytes_sent();
  result->would_block = r.would_block();
  result->send_calls = r.calls();
  result->send_cpu_ns = r.call_cpu_ns();
  result->call_fit = r.call_fit();
  tlen = sizeof(ti);
  if (getsockopt(sender.get(), IPPROTO_TCP, TCP_INFO, &ti, &tlen) == 0) {
    result->total_retrans = ti.tcpi_total_retrans;
    result->snd_cwnd = ti.tcpi_snd_cwnd;
    result->rtt_us = ti.tcpi_rtt;
  }
  // FIN after the last byte; the receiver's read loop ends on it.
  shutdown(sender.get(), SHUT_WR);
  return status;
}

}  // namespace

absl::StatusOr<TrafficResult> RunTraffic(const Testbed& tb, const Workload& w, Variant variant,
                                         IoMode io) {
  Fd listener, sender;
  if (absl::Status s = OpenSockets(tb, &listener, &sender); !s.ok()) return s;

  // Each namespace's MIB counters around the run: what autocork did on the
  // sender, how the receiver's ACKs were decided.
  const int64_t autocorks0 = NetnsCounter(tb, tb.sender_ns(), kAutoCorking);
  const int64_t delayed0 = NetnsCounter(tb, tb.receiver_ns(), kDelayedAcks);

  // The two threads write disjoint fields of `result`.
  TrafficResult result;
  absl::Status recv_status, send_status;
  std::thread receiver([&] { recv_status = ReceiveToEof(tb, listener, sender, &result); });
  std::thread sender_thread([&] { send_status = SendWorkload(tb, sender, w, variant, io, &result); });
  sender_thread.join();
  if (!send_status.ok()) shutdown(sender.get(), SHUT_RDWR);  // unblock the receiver
  receiver.join();
  if (!send_status.ok()) return send_status;
  if (!recv_status.ok()) return recv_status;
  const int64_t autocorks1 = NetnsCounter(tb, tb.sender_ns(), kAutoCorking);
  const int64_t delayed1 = NetnsCounter(tb, tb.receiver_ns(), kDelayedAcks);
  if (autocorks0 >= 0 && autocorks1 >= autocorks0) result.autocorks = autocorks1 - autocorks0;
  if (delayed0 >= 0 && delayed1 >= delayed0) result.delayed_acks = delayed1 - delayed0;
  if (result.bytes_sent != StreamBytesFor(w, variant)) {
    return absl::InternalError(absl::StrFormat("sender sent %u bytes, workload is %u",
                                               result.bytes_sent, StreamBytesFor(w, variant)));
  }
  return result;
}

}  // namespace sendsim::kernelcmp
