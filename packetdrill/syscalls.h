#ifndef SENDSIM_PACKETDRILL_SYSCALLS_H_
#define SENDSIM_PACKETDRILL_SYSCALLS_H_

// The system-call driver: packetdrill's run_system_call.c. Each of the
// script's system calls is answered as Linux's socket layer would answer it
// for the script's one TCP socket: socket/bind/listen/accept/connect and the
// socket options before the connection exists are the runner's own (the
// model starts from an established socket), the send calls, sendfile,
// poll, ioctl, shutdown and close reach the model socket. A call that blocks
// stays pending while time runs; one written "a...b" is checked when it
// returns, one without "..." must return within the tolerance. Calls and
// arguments outside the send path make the script SKIP.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/socket.h"
#include "model/types.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

class SyscallDriver {
 public:
  // Registers itself as the socket's wakeup sink (epoll's ep_poll_callback).
  explicit SyscallDriver(RunState& run);
  SyscallDriver(const SyscallDriver&) = delete;
  SyscallDriver& operator=(const SyscallDriver&) = delete;

  // Runs the system call `sc` of event `e` now; `tol` is the tolerance of its
  // start time. `*completed` is when later relative times count from.
  absl::Status Syscall(const Event& e, const SyscallEvent& sc, model::TimeNs tol, model::TimeNs* completed);

 private:
  // One watched descriptor of an epoll instance (struct epitem).
  struct EpollItem {
    int64_t events = 0;  // EPOLLIN... plus EPOLLET, EPOLLONESHOT, ...
    uint64_t data = 0;
    bool ready = false;  // on the instance's ready list (rdllist)
  };
  // Fd table entry.
  struct Fd {
    enum class Kind { kTcp, kFile, kEpoll } kind = Kind::kTcp;
    bool nonblock = false;
    bool listener = false;    // the socket() fd (listening, or the connecting socket)
    bool connection = false;  // the established connection (accepted fd, or the connected socket)
    std::string path;
    uint64_t size = 0;
    uint64_t offset = 0;  // file position (write, sendfile without an offset)
    std::map<int, EpollItem> watched;  // kEpoll: by watched descriptor
  };

  // One system call being run.
  struct Call {
    const Event& e;
    const SyscallEvent& sc;
    model::TimeNs tol;
    model::TimeNs* completed;
    int line() const { return e.line; }
  };

  // Blocking: `start` issues the call, returning its result or kInProgress
  // with `done` to be called later.
  absl::Status Issue(const Call& c, const std::function<int64_t(model::Socket::DoneFn)>& start);
  // A call whose result is known now.
  absl::Status Immediate(const Call& c, int64_t r);
  // A call that waits for a condition the runner evaluates (accept, connect, poll).
  absl::Status Wait(const Call& c, std::function<bool()> ready, std::function<int64_t()> finish,
                    model::TimeNs timeout_at);
  absl::Status CheckOutValue(int line, const std::string& call, const Expr& x, int64_t val) const;
  void StartPending(const Call& c, model::TimeNs t0);

  absl::StatusOr<int> FdArg(const Call& c, size_t i) const;
  bool IsConnFd(int fd) const;
  bool Connected() const { return run_.sock.ep != nullptr; }

  absl::Status SysSocket(const Call& c);
  absl::Status SysBind(const Call& c);
  absl::Status SysListen(const Call& c);
  absl::Status SysSockopt(const Call& c);
  absl::Status SetSockopt(const Call& c, const std::string& opt, bool on_conn, int fd);
  absl::Status SetBeforeConnection(const Call& c, model::SockOpt mo, int64_t v);
  absl::Status GetSockopt(const Call& c, const std::string& opt, bool on_conn);
  absl::Status SysAccept(const Call& c);
  absl::Status SysConnect(const Call& c);
  absl::Status SysFcntl(const Call& c);
  absl::StatusOr<int> SendFlags(const Call& c, const Expr* flags_expr, int fd);
  absl::Status SysSend(const Call& c);
  absl::Status SysRead(const Call& c);
  absl::Status ReadStream(const Call& c, int fd, uint64_t want, bool dontwait, std::function<void()> on_read);
  absl::Status SysRecvmsg(const Call& c);  // and readv() (syscalls_recvmsg.cc)
  absl::Status SysSendfile(const Call& c);
  absl::Status SysOpen(const Call& c);
  absl::Status WriteFile(const Call& c, int fd);
  absl::Status SysClose(const Call& c);
  absl::Status SendFin(int line);
  absl::Status SysShutdown(const Call& c);
  absl::Status SysIoctl(const Call& c);
  // tcp_poll of descriptor `fd`; like tcp_poll it sets SOCK_NOSPACE on a
  // connection that is not writeable (so the next write space wakes it).
  int64_t Revents(int fd) const;
  absl::Status SysPoll(const Call& c);
  absl::Status SysEpollCreate(const Call& c);
  absl::Status SysEpollCtl(const Call& c);
  absl::Status SysEpollWait(const Call& c);
  // A wakeup with poll `key` (0: every event) on the connection's or the
  // listener's wait queue: ep_poll_callback queues each interested item.
  void Wakeup(bool connection, int64_t key);
  // ep_send_events' count for epoll instance `ep` (up to `max`); `consume`
  // also takes reported items off the ready list (unless level-triggered)
  // and fills `out`.
  int64_t EpollEvents(Fd& ep, int64_t max, bool consume, std::vector<std::pair<int64_t, uint64_t>>* out);

  RunState& run_;
  std::map<int, Fd> fds_;
  // Options of passive_options.h by (on the connection, name); the
  // listener's are inherited.
  std::map<std::pair<bool, std::string>, int64_t> passive_;
  int64_t PassiveValue(const std::string& name) const;  // syscalls_recvmsg.cc
  bool accepted_ = false;
  int64_t listen_sndbuf_ = 0;  // sk_sndbuf after SO_SNDBUF on the socket before the connection
};

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SYSCALLS_H_
