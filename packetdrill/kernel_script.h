#ifndef SENDSIM_PACKETDRILL_KERNEL_SCRIPT_H_
#define SENDSIM_PACKETDRILL_KERNEL_SCRIPT_H_

// One script's run on the kernel target (kernel_run.h), inside the child
// process: the event walk and packets (kernel_script.cc) and the system
// calls and TCP_INFO (kernel_calls.cc).

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/kernel_run.h"
#include "packetdrill/kernel_tun.h"
#include "packetdrill/outbound.h"

namespace sendsim::packetdrill {

inline constexpr uint16_t kKernelPort = 8080;         // the script's socket binds/connects to this port
inline constexpr uint16_t kRemotePassivePort = 40000;  // the peer's port when it connects to us
inline constexpr uint32_t kRemoteIsn = 1000000;        // the peer's ISN on the wire

class KernelScript {
 public:
  // `host_netns` and `own_netns`: descriptors of the host's and the script's
  // network namespaces; `restore_out`: where each host-wide sysctl's old
  // value goes before it is changed ("path\tvalue\n"; the parent process
  // puts them back whatever happens to this one). -1: host-wide sysctls SKIP.
  KernelScript(const Script& s, TunDevice* tun, const KernelOptions& o, int host_netns = -1, int own_netns = -1,
               int restore_out = -1)
      : script_(s), tun_(tun), opts_(o), host_netns_(host_netns), own_netns_(own_netns), restore_out_(restore_out) {}
  ~KernelScript();
  absl::Status Run();
  // With --record: every packet the kernel sent, as CaptureLines (what is
  // still unread on tun0 is read first). Empty otherwise.
  std::vector<std::string> TakeSent();

 private:
  // A system call on its own thread (it may block).
  struct Call {
    std::thread th;
    std::atomic<bool> done{false};
    std::atomic<int> tid{0};  // the thread's id, for its scheduling state
    int64_t ret = 0;
    int err = 0;
    int64_t done_at = 0;
    int line = 0;
    const SyscallEvent* sc = nullptr;
    bool annotated = false;
    int64_t end_lo = 0, end_hi = 0;
    std::function<void(int64_t)> after;  // on success, in the main thread (fd table)
    bool checked = false;
  };
  using Body = std::function<std::pair<int64_t, int>()>;  // (return value, errno)

  absl::Status Fail(int line, const std::string& msg) const;
  absl::Status Skip(int line, const std::string& msg) const;
  int64_t Tolerance(int64_t gap) const;
  void SleepUntil(int64_t t) const;
  int64_t Now() const { return tun_->Now() - origin_; }

  absl::Status Step(const Event& e);
  absl::Status Inbound(const Event& e, const PacketEvent& p);
  absl::Status InboundIcmp(const Event& e, const PacketEvent& p);
  absl::Status Outbound(const Event& e, const PacketEvent& p, int64_t t, int64_t lo, int64_t hi, int64_t* last);
  std::optional<Capture> NextCapture(int64_t deadline);
  // --record: reads what tun0 holds by `until` into sent_.
  void DrainSent(int64_t until);
  absl::Status Command(int line, const std::string& text);
  absl::Status SetSysctl(int line, const std::string& name, const std::string& value,
                         std::vector<std::pair<std::string, std::string>>* old);
  absl::Status SetHostSysctl(int line, const std::string& name, const std::string& path, const std::string& value,
                             std::vector<std::pair<std::string, std::string>>* old);
  absl::Status Code(int line, const std::string& code);

  // kernel_calls.cc
  absl::Status Syscall(const Event& e, const SyscallEvent& sc, int64_t t, int64_t tol, int64_t* done);
  absl::Status Prepare(int line, const SyscallEvent& sc, Body* body, std::function<void(int64_t)>* after);
  absl::Status PreparePoll(int line, const SyscallEvent& sc, Body* body, std::function<void(int64_t)>* after);
  absl::Status PrepareEpoll(int line, const SyscallEvent& sc, Body* body, std::function<void(int64_t)>* after);
  absl::Status PrepareOnFd(int line, const SyscallEvent& sc, int f, Body* body, std::function<void(int64_t)>* after);
  // recvmsg() and readv() (kernel_recvmsg.cc).
  absl::Status PrepareRecvmsg(int line, const SyscallEvent& sc, int f, Body* body, std::function<void(int64_t)>* after);
  absl::Status CheckCall(Call& c);
  absl::Status FinishPending(bool wait);
  absl::StatusOr<int> RealFd(int line, const SyscallEvent& sc, size_t i) const;
  int NewSocket(bool nonblock);

  const Script& script_;
  TunDevice* tun_;
  const KernelOptions opts_;
  const int host_netns_, own_netns_, restore_out_;
  int64_t origin_ = 0;
  MatchRules rules_ = opts_.rules;  // then the script's option lines
  std::string cc_ = "cubic";
  std::string tmpdir_;
  // What /tmp/sysctl_restore_${PPID}.sh puts back (the latest set_sysctls.py call's old values).
  std::optional<std::vector<std::pair<std::string, std::string>>> sysctl_restore_;

  int64_t prev_done_ = 0, prev_script_ = 0;
  int64_t busy_until_ = 0;  // when the last command or assert block returned
  std::vector<std::string> sent_;  // --record
  bool prev_inbound_ = false;

  std::map<int, int> fds_;         // script descriptor -> real descriptor
  int conn_fd_ = -1;               // the connection's real descriptor (TCP_INFO)
  bool active_ = false;            // connect() was called
  std::optional<uint32_t> k_isn_;  // the kernel's ISN, from its SYN or SYN-ACK
  std::optional<uint32_t> peer_syn_seq_;  // the script number of the peer's first SYN or SYN-ACK
  uint16_t k_port_ = kKernelPort;  // the kernel's port (ephemeral on an active open)
  uint32_t last_k_tsval_ = 0;      // echoed in the peer's TS ecr
  std::unique_ptr<Call> pending_;
  std::optional<absl::Status> value_mismatch_;  // an out-value (getsockopt, ioctl) differed
  std::vector<std::unique_ptr<Call>> finished_;  // joined at the end
};

// The tcpi_* names of asserts.h from the kernel's TCP_INFO of `fd`.
// `absent` gets the tcp_info fields the running kernel's struct lacks.
absl::StatusOr<std::map<std::string, int64_t>> KernelTcpiValues(int fd, std::map<std::string, std::string>* absent);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_KERNEL_SCRIPT_H_
