#include "realsock/fd_socket.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::realsock {
namespace {

constexpr size_t kPageBytes = 4096;
// Room for the largest batch of NOTLAST pages (a 1 MiB message's data);
// fs.pipe-max-size is 1 MiB by default.
constexpr int kPipeBytes = 1 << 20;
// The flag bits a socket call may carry from user space.
constexpr int kUserFlags = model::kMsgMore | model::kMsgEor | model::kMsgDontwait | model::kMsgNosignal;

}  // namespace

absl::StatusOr<std::unique_ptr<FdSocket>> FdSocket::Create(int fd) {
  const int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0) {
    close(fd);
    return absl::InternalError(absl::StrFormat("fcntl(O_NONBLOCK): %s", std::strerror(errno)));
  }
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    close(fd);
    return absl::InternalError(absl::StrFormat("pipe2: %s", std::strerror(errno)));
  }
  if (fcntl(p[1], F_SETPIPE_SZ, kPipeBytes) < kPipeBytes) {
    const int e = errno;
    close(fd);
    close(p[0]);
    close(p[1]);
    return absl::FailedPreconditionError(
        absl::StrFormat("cannot grow a pipe to %d bytes (fs.pipe-max-size): %s", kPipeBytes, std::strerror(e)));
  }
  return std::unique_ptr<FdSocket>(new FdSocket(fd, p[0], p[1]));
}

FdSocket::~FdSocket() {
  close(pipe_rd_);
  close(pipe_wr_);
  close(fd_);
}

int64_t FdSocket::Result(int64_t r) {
  if (r >= 0) return r;
  if (r == -EAGAIN) {
    ++stats_.eagains;
    ++counters_.eagains;
    wants_write_space_ = true;
    return -model::kEagain;
  }
  if (error_.ok()) error_ = absl::InternalError(absl::StrFormat("socket call failed: %s", std::strerror(-r)));
  return r;
}

void FdSocket::FireWriteSpace() {
  wants_write_space_ = false;
  ++counters_.write_space_calls;
  if (write_space_) write_space_();
}

int64_t FdSocket::sendmsg(absl::Span<const model::Iovec> iov, int flags, DoneFn) {
  if (batched_ > 0) {
    if (int64_t r = FinishBatch(); r < 0) return Result(r);
  }
  std::vector<struct iovec> v;
  v.reserve(iov.size());
  for (const model::Iovec& e : iov) v.push_back({const_cast<uint8_t*>(e.base), e.len});
  struct msghdr mh = {};
  mh.msg_iov = v.data();
  mh.msg_iovlen = v.size();
  ++stats_.sendmsg_calls;
  const ssize_t r = ::sendmsg(fd_, &mh, (flags & kUserFlags) | MSG_DONTWAIT | MSG_NOSIGNAL);
  return Result(r < 0 ? -errno : r);
}

absl::Status FdSocket::VmsplicePage(const uint8_t* data, uint32_t offset, uint32_t len) {
  if (offset + len > kPageBytes) {
    return absl::InvalidArgumentError(absl::StrFormat("page piece %u+%u crosses the page", offset, len));
  }
  // A fresh page each time: the pipe (and later the skb) keeps a reference to
  // it, so it must never be written again.
  void* m = mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return absl::InternalError(absl::StrFormat("mmap: %s", std::strerror(errno)));
  uint8_t* p = static_cast<uint8_t*>(m) + offset;
  if (data != nullptr) {
    std::memcpy(p, data + offset, len);
  } else {
    std::memset(p, 0, len);
  }
  struct iovec v = {p, len};
  const ssize_t r = vmsplice(pipe_wr_, &v, 1, 0);
  const int e = errno;
  munmap(m, kPageBytes);
  if (r != static_cast<ssize_t>(len)) {
    return absl::InternalError(absl::StrFormat("vmsplice of %u bytes gave %d: %s", len, r, std::strerror(e)));
  }
  return absl::OkStatus();
}

int64_t FdSocket::Splice(uint64_t len, bool more) {
  ++stats_.splice_calls;
  const ssize_t r = splice(pipe_rd_, nullptr, fd_, nullptr, len, more ? SPLICE_F_MORE : 0);
  return r < 0 ? -errno : r;
}

void FdSocket::Discard(uint64_t len) {
  std::vector<uint8_t> sink(len);
  uint64_t got = 0;
  while (got < len) {
    const ssize_t r = read(pipe_rd_, sink.data() + got, len - got);
    if (r <= 0) {
      if (error_.ok()) error_ = absl::InternalError("could not empty the page pipe");
      return;
    }
    got += static_cast<uint64_t>(r);
  }
}

absl::Status FdSocket::WaitForRoom() {
  if (block_hook_) return block_hook_();
  struct pollfd pfd = {fd_, POLLOUT, 0};
  if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
    return absl::InternalError(absl::StrFormat("poll: %s", std::strerror(errno)));
  }
  return absl::OkStatus();
}

int64_t FdSocket::FinishBatch() {
  // Only reached when a batch is followed by a call of another kind: the
  // bytes were reported as sent, so wait for room as a blocking sendpage would.
  ++stats_.batch_waits;
  while (batched_ > 0) {
    const int64_t r = Splice(batched_, /*more=*/true);
    if (r > 0) {
      batched_ -= static_cast<uint64_t>(r);
      continue;
    }
    if (r != -EAGAIN) return r;
    if (absl::Status st = WaitForRoom(); !st.ok()) {
      if (error_.ok()) error_ = st;
      return -EIO;
    }
  }
  batched_buffers_ = 0;
  return 0;
}

int64_t FdSocket::SplicePage(const uint8_t* data, uint32_t offset, uint32_t len, int flags) {
  if (absl::Status s = VmsplicePage(data, offset, len); !s.ok()) {
    if (error_.ok()) error_ = s;
    return -EIO;
  }
  if ((flags & model::kMsgSendpageNotlast) != 0) {
    // pipe_to_sendpage: NOTLAST for every buffer but the last of one splice.
    batched_ += len;
    ++batched_buffers_;
    return len;
  }
  const uint64_t total = batched_ + len;
  const uint64_t buffers = batched_buffers_ + 1;
  const bool more = (flags & model::kMsgMore) != 0;
  uint64_t moved = 0;
  bool waited = false;
  for (;;) {
    const int64_t r = Splice(total - moved, more);
    if (r < 0 && r != -EAGAIN) return r;
    if (r > 0) moved += static_cast<uint64_t>(r);
    if (moved >= batched_) break;
    // Part of the batch is still at the pipe's head, this page behind it.
    // Those pages were reported as sent, so the batch cannot be given back:
    // wait for room and splice its rest together with this page, so that
    // do_tcp_sendpages still sees NOTLAST on every buffer but this page's.
    // (Splicing the rest alone would end it without NOTLAST: a tcp_push the
    // kernel under libceph never makes there.)
    if (r > 0) continue;
    if (!waited) ++stats_.batch_waits;
    waited = true;
    if (absl::Status st = WaitForRoom(); !st.ok()) {
      if (error_.ok()) error_ = st;
      return -EIO;
    }
  }
  const uint64_t sent = moved - batched_;
  stats_.spliced_buffers += buffers - (sent == 0 ? 1 : 0);
  stats_.notlast_buffers += batched_buffers_;
  batched_ = 0;
  batched_buffers_ = 0;
  if (sent == len) return len;
  // This page went in part (or not at all): drop its rest so the writer's
  // retry offers it again.
  Discard(len - sent);
  return sent > 0 ? static_cast<int64_t>(sent) : -EAGAIN;
}

int64_t FdSocket::sendpage(model::Page page, uint32_t offset, uint32_t size, int flags, DoneFn) {
  return Result(SplicePage(page.data, offset, size, flags));
}

int64_t FdSocket::sendmsg_bvec(absl::Span<const model::BioVec> bvec, int flags, DoneFn done) {
  const bool splice_pages = (flags & model::kMsgSplicePages) != 0;
  if (splice_pages && bvec.size() == 1 && (flags & model::kMsgEor) == 0) {
    const model::BioVec& b = bvec[0];
    return Result(SplicePage(b.page.data, b.offset, b.len, flags & ~model::kMsgSendpageNotlast));
  }
  if (splice_pages) ++stats_.eor_copies;
  std::vector<model::Iovec> iov;
  std::vector<std::vector<uint8_t>> zeros;
  for (const model::BioVec& b : bvec) {
    if (b.page.data != nullptr) {
      iov.push_back({b.page.data + b.offset, b.len});
    } else {
      zeros.emplace_back(b.len, 0);
      iov.push_back({zeros.back().data(), b.len});
    }
  }
  return sendmsg(iov, flags, std::move(done));
}

int FdSocket::setsockopt(model::SockOpt opt, int64_t value) {
  if (batched_ > 0) {
    if (int64_t r = FinishBatch(); r < 0) return static_cast<int>(Result(r));
  }
  int level = IPPROTO_TCP;
  int name = 0;
  switch (opt) {
    case model::SockOpt::kTcpNodelay:
      name = TCP_NODELAY;
      break;
    case model::SockOpt::kTcpCork:
      name = TCP_CORK;
      break;
    case model::SockOpt::kSoSndbuf:
      level = SOL_SOCKET;
      name = SO_SNDBUF;
      break;
    case model::SockOpt::kTcpMaxseg:
      name = TCP_MAXSEG;
      break;
    case model::SockOpt::kTcpNotsentLowat:
      name = TCP_NOTSENT_LOWAT;
      break;
    case model::SockOpt::kTcpUserTimeout:
      name = TCP_USER_TIMEOUT;
      break;
    case model::SockOpt::kSoTimestamping:
      level = SOL_SOCKET;
      name = SO_TIMESTAMPING;
      break;
  }
  const int v = static_cast<int>(value);
  if (::setsockopt(fd_, level, name, &v, sizeof(v)) != 0) return -errno;
  return 0;
}

model::TcpInfo FdSocket::info() const {
  struct tcp_info ti = {};
  socklen_t len = sizeof(ti);
  model::TcpInfo out;
  if (getsockopt(fd_, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) return out;
  // Older kernels return a shorter struct; the fields used here are in 6.1's.
  out.snd_cwnd = ti.tcpi_snd_cwnd;
  out.snd_ssthresh = ti.tcpi_snd_ssthresh;
  out.snd_mss = ti.tcpi_snd_mss;
  out.advmss = ti.tcpi_advmss;
  out.rtt_us = ti.tcpi_rtt;
  out.unacked = ti.tcpi_unacked;
  out.rto_us = ti.tcpi_rto;
  out.total_retrans = ti.tcpi_total_retrans;
  return out;
}

}  // namespace sendsim::realsock
