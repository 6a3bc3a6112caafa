// close() and shutdown() on the model target: the calls' own checks and the
// FIN they send; what happens to the connection afterwards (orphaning,
// lingering, TIME_WAIT) is teardown.cc's.

#include <cstdint>
#include <optional>

#include "absl/strings/str_format.h"
#include "packetdrill/reset.h"
#include "packetdrill/syn_retransmit.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/syscalls.h"
#include "packetdrill/teardown.h"

namespace sendsim::packetdrill {

absl::Status SyscallDriver::SysClose(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  auto it = fds_.find(*fd);
  if (it == fds_.end()) return Immediate(c, -kErrEbadf);
  ScriptSocket& sock = run_.sock;
  const bool connection = it->second.connection;
  if (connection && sock.phase == SocketPhase::kEstablished && Connected() && !sock.reset) {
    bool reset = false;
    if (absl::Status st = CloseWithReset(run_, c.line(), &reset); !st.ok()) return st;
    // tcp_close -> tcp_send_fin (in the model): the FIN rides on unsent
    // data or goes alone, pushed with TCP_NAGLE_OFF.
    if (!reset) {
      if (absl::Status st = SendFin(c.line()); !st.ok()) return st;
    }
    sock.phase = SocketPhase::kClosed;
  } else if (it->second.connection) {
    // Also SYN-SENT: tcp_close only sets TCP_CLOSE (nothing is sent).
    StopSynRetransmit(run_);
    sock.phase = SocketPhase::kClosed;
  } else if (it->second.listener && sock.phase != SocketPhase::kNone) {
    // inet_csk_listen_stop drops a pending handshake with the listener.
    sock.listening = false;
    if (sock.phase == SocketPhase::kListen || sock.phase == SocketPhase::kSynRcvd) sock.phase = SocketPhase::kClosed;
  }
  fds_.erase(it);
  // eventpoll_release: a closed descriptor leaves every epoll instance.
  for (auto& [n, f] : fds_) f.watched.erase(*fd);
  if (!connection) return Immediate(c, 0);
  // A lingering close (SO_LINGER with a time) sleeps in
  // sk_stream_wait_close until our FIN is acknowledged or the time is up,
  // and returns 0 either way; then the socket is orphaned.
  auto finish = [this]() -> int64_t {
    OrphanOnClose(run_);
    return 0;
  };
  if (!LingerWaits(run_)) return Immediate(c, finish());
  auto ready = [this] { return !StreamClosing(run_.sock); };
  return Wait(c, ready, finish, run_.loop.now() + LingerTimeoutNs(run_));
}

absl::Status SyscallDriver::SendFin(int line) {
  ScriptSocket& sock = run_.sock;
  if (sock.fin_seq) return absl::OkStatus();
  const model::TcpInfo i = sock.ep->socket().info();
  const uint32_t fin = static_cast<uint32_t>(1 + i.bytes_sent + i.notsent_bytes);  // 1 + write_seq
  if (int r = sock.ep->Shutdown(); r != 0) return run_.Fail(line, absl::StrFormat("model refused the FIN (%d)", r));
  sock.fin_seq = fin;
  return absl::OkStatus();
}

// shutdown(fd, how): inet_shutdown sets RCV_SHUTDOWN for SHUT_RD and
// SHUT_RDWR (reads then return 0 once the queue is empty, tcp_recvmsg), and
// tcp_shutdown sends the FIN for SHUT_WR and SHUT_RDWR; the fd stays open,
// later writes fail with EPIPE.
absl::Status SyscallDriver::SysShutdown(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  std::optional<int64_t> how = c.sc.args.size() == 2 ? IntValue(c.sc.args[1]) : std::nullopt;
  if (!how || *how < 0 || *how > 2) return run_.Skip(c.line(), "shutdown() how not understood");
  if (!IsConnFd(*fd) || !Connected()) return Immediate(c, -kErrEnotconn);
  if (run_.sock.reset) return Immediate(c, -kErrEnotconn);  // inet_shutdown in TCP_CLOSE
  if (*how != 1) run_.sock.rcv_shutdown = true;  // SHUT_RD = 0, SHUT_RDWR = 2
  if (*how != 0) {
    if (absl::Status st = SendFin(c.line()); !st.ok()) return st;
  }
  run_.sock.Wakeup(true, 0);  // inet_shutdown -> sk_state_change
  return Immediate(c, 0);
}

}  // namespace sendsim::packetdrill
