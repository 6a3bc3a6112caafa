#ifndef SENDSIM_REALSOCK_FD_SOCKET_H_
#define SENDSIM_REALSOCK_FD_SOCKET_H_

// model::Socket on a connected, non-blocking kernel TCP socket: the
// messenger's writers (messenger/connection.h) issue their calls here exactly
// as they do on the model, and this class turns each one into the system call
// that reaches the same kernel function from user space.
//
// - sendmsg (ITER_KVEC, copy): sendmsg(2) with the call's MSG_MORE/MSG_EOR.
// - sendpage (<= v6.4's do_tcp_sendpages): user space reaches it only through
//   splice() from a pipe (fs/splice.c pipe_to_sendpage): every pipe buffer
//   becomes one sendpage call carrying MSG_MORE when the splice has
//   SPLICE_F_MORE, and MSG_SENDPAGE_NOTLAST on every buffer but the last of
//   that splice. So a page sent with NOTLAST is vmspliced into the pipe and
//   kept there; the first page call without NOTLAST splices the whole batch
//   in one call, which gives do_tcp_sendpages exactly the flags libceph
//   passes. A page without NOTLAST and nothing batched is one splice of one
//   buffer (MSG_MORE iff SPLICE_F_MORE): MORE-only, as v6.5's flags on a
//   sendpage kernel.
// - sendmsg_bvec with MSG_SPLICE_PAGES (v6.5+ ceph_tcp_sendpage): one page per
//   splice; v6.5+ splice_to_socket sends it as sendmsg(MSG_SPLICE_PAGES) with
//   MSG_MORE iff SPLICE_F_MORE, referencing the page as libceph does. Without
//   MSG_SPLICE_PAGES, or with MSG_EOR (splice cannot carry it), the page is
//   copied by sendmsg(2) with the call's flags.
// - setsockopt: TCP_CORK, TCP_NODELAY, SO_SNDBUF, TCP_MAXSEG,
//   TCP_NOTSENT_LOWAT.
//
// -EAGAIN arms `wants_write_space()`: the driver polls for POLLOUT (the
// sk_stream_is_writeable test libceph's ceph_sock_write_space applies) and
// then calls FireWriteSpace().

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/socket.h"

namespace sendsim::realsock {

struct FdSocketStats {
  uint64_t sendmsg_calls = 0;
  uint64_t splice_calls = 0;
  uint64_t spliced_buffers = 0;     // pipe buffers spliced = do_tcp_sendpages calls on a sendpage kernel
  uint64_t notlast_buffers = 0;     // of those, the ones NOTLAST reached (not last of their splice)
  uint64_t eor_copies = 0;          // page calls with MSG_EOR copied instead of spliced
  uint64_t eagains = 0;
  // A batch of NOTLAST pages that met a full send buffer: its rest and the
  // page that ended it were spliced after waiting for POLLOUT inside the
  // call (a blocking call).
  uint64_t batch_waits = 0;
};

class FdSocket : public model::Socket {
 public:
  // Takes ownership of `fd` (connected TCP socket; made non-blocking here).
  static absl::StatusOr<std::unique_ptr<FdSocket>> Create(int fd);
  ~FdSocket() override;
  FdSocket(const FdSocket&) = delete;
  FdSocket& operator=(const FdSocket&) = delete;

  int64_t sendpage(model::Page page, uint32_t offset, uint32_t size, int flags, DoneFn done) override;
  int64_t sendmsg(absl::Span<const model::Iovec> iov, int flags, DoneFn done) override;
  int64_t sendmsg_bvec(absl::Span<const model::BioVec> bvec, int flags, DoneFn done) override;
  int setsockopt(model::SockOpt opt, int64_t value) override;
  void set_write_space_callback(WriteSpaceFn fn) override { write_space_ = std::move(fn); }
  void set_call_tag(uint64_t tag) override { tag_ = tag; }
  bool owned() const override { return false; }
  model::TcpInfo info() const override;
  const model::Counters& counters() const override { return counters_; }

  int fd() const { return fd_; }
  // Called, instead of a bare poll for POLLOUT, while a NOTLAST batch waits
  // for room inside a call: a driver that must keep serving something else
  // meanwhile (the tun peer, whose ACKs make the room) waits there; it
  // returns after any progress, the batch is retried. An error fails the call.
  void set_block_hook(std::function<absl::Status()> hook) { block_hook_ = std::move(hook); }
  bool wants_write_space() const { return wants_write_space_; }
  // POLLOUT after an -EAGAIN: runs the write-space callback.
  void FireWriteSpace();
  const FdSocketStats& stats() const { return stats_; }
  // The first unexpected system call failure (a call then returns -errno).
  const absl::Status& error() const { return error_; }

 private:
  FdSocket(int fd, int pipe_rd, int pipe_wr) : fd_(fd), pipe_rd_(pipe_rd), pipe_wr_(pipe_wr) {}

  // Puts `len` bytes (of one page) into the pipe as one buffer of their own.
  absl::Status VmsplicePage(const uint8_t* data, uint32_t offset, uint32_t len);
  // splice(pipe -> socket) of `len` bytes; returns bytes moved or -errno.
  int64_t Splice(uint64_t len, bool more);
  // Throws away `len` unsent bytes left in the pipe.
  void Discard(uint64_t len);
  // Splices the batched NOTLAST pages, waiting for POLLOUT while the socket
  // is full.
  int64_t FinishBatch();
  // Waits for POLLOUT (or runs the block hook).
  absl::Status WaitForRoom();
  int64_t SplicePage(const uint8_t* data, uint32_t offset, uint32_t len, int flags);
  int64_t Result(int64_t r);

  int fd_;
  int pipe_rd_;
  int pipe_wr_;
  uint64_t batched_ = 0;         // NOTLAST bytes in the pipe, already reported as sent
  uint64_t batched_buffers_ = 0;
  bool wants_write_space_ = false;
  uint64_t tag_ = 0;
  WriteSpaceFn write_space_;
  std::function<absl::Status()> block_hook_;
  model::Counters counters_;
  FdSocketStats stats_;
  absl::Status error_;
};

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_FD_SOCKET_H_
