#include "packetdrill/kernel_run.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "netdev/host_lock.h"
#include "packetdrill/kernel_script.h"
#include "packetdrill/kernel_tun.h"
#include "packetdrill/parser.h"

namespace sendsim::packetdrill {
namespace {

// The child's verdict on the pipe: one byte, then the reason.
constexpr char kPass = 'P', kFail = 'F', kSkip = 'S';

// SCHED_FIFO priority of the child: above every normal task, below the
// kernel's own real-time threads (which use 50 and up).
constexpr int kRealTimePriority = 10;

// In the child: a fresh network namespace with its tun device, the script,
// the verdict on `out`, the old values of host-wide sysctls on `restore`.
[[noreturn]] void ChildRun(const std::string& path, const KernelOptions& opts, int out, int restore) {
  signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> sent;  // --record
  auto report = [out, &sent](char v, const std::string& reason) {  // ends the child
    std::string msg = std::string(1, v) + reason;
    if (!sent.empty()) msg += '\0' + absl::StrJoin(sent, "\n");
    ssize_t unused = write(out, msg.data(), msg.size());
    (void)unused;
    _exit(0);
  };
  absl::StatusOr<Script> script = ParseScriptFile(path);
  if (!script.ok()) report(kFail, std::string(script.status().message()));
  // Real-time priority for the script's threads (the tun reader, the calls):
  // on a loaded machine a normal-priority process wakes milliseconds late, so
  // a packet's capture time and an event's start drift past the tolerance
  // and verdicts flip between runs. Real packetdrill takes packet times from
  // the kernel; waking at once gets us the same. Without the privilege the
  // run goes on at normal priority.
  const sched_param rt{kRealTimePriority};
  sched_setscheduler(0, SCHED_FIFO, &rt);
  const int host_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  if (unshare(CLONE_NEWNET) != 0) report(kFail, absl::StrFormat("unshare(CLONE_NEWNET): %s", std::strerror(errno)));
  const int own_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  absl::StatusOr<std::unique_ptr<TunDevice>> tun = TunDevice::Create();
  if (!tun.ok()) report(kFail, std::string(tun.status().message()));
  absl::Status st;
  {
    KernelScript run(*script, tun->get(), opts, host_netns, own_netns, restore);
    st = run.Run();
    sent = run.TakeSent();
  }
  if (st.ok()) report(kPass, "");
  report(st.code() == absl::StatusCode::kUnimplemented ? kSkip : kFail, std::string(st.message()));
  _exit(0);
}

// A signal that would end this process while a script may have changed a
// host-wide sysctl: noted, so the run ends and the values go back first.
volatile sig_atomic_t g_stop_signal = 0;
void NoteStopSignal(int sig) { g_stop_signal = sig; }

// Writes back the host-wide sysctls a child changed ("path\tvalue\n"
// records, the first per path being the original), last changed first.
void RestoreHostSysctls(const std::string& records) {
  std::vector<std::pair<std::string, std::string>> olds;
  size_t at = 0;
  for (size_t nl; (nl = records.find('\n', at)) != std::string::npos; at = nl + 1) {
    const std::string rec = records.substr(at, nl - at);
    const size_t tab = rec.find('\t');
    if (tab == std::string::npos || rec.rfind("/proc/sys/", 0) != 0) continue;
    const std::string path = rec.substr(0, tab);
    if (std::none_of(olds.begin(), olds.end(), [&](const auto& o) { return o.first == path; })) {
      olds.emplace_back(path, rec.substr(tab + 1));
    }
  }
  for (auto it = olds.rbegin(); it != olds.rend(); ++it) {
    std::ofstream f(it->first);
    f << it->second << "\n";
  }
}

}  // namespace

absl::Status CheckKernelTarget() {
  if (geteuid() != 0) return absl::FailedPreconditionError("the kernel target needs root");
  if (access("/dev/net/tun", R_OK | W_OK) != 0) return absl::FailedPreconditionError("no /dev/net/tun");
  pid_t pid = fork();
  if (pid < 0) return absl::InternalError("fork failed");
  if (pid == 0) _exit(unshare(CLONE_NEWNET) == 0 ? 0 : 1);
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return absl::FailedPreconditionError("cannot create network namespaces");
  return absl::OkStatus();
}

Result RunScriptOnKernel(const std::string& path, const KernelOptions& opts) {
  // One script at a time on this kernel, across processes (host_lock.h);
  // the child inherits the lock and holds it until it ends.
  absl::StatusOr<netdev::HostLock> lock =
      netdev::HostLock::Acquire(netdev::DefaultHostLockPath(), netdev::kHostLockWaitS);
  if (!lock.ok()) return {Verdict::kFail, absl::StrFormat("%s: %s", path, lock.status().message())};
  int p[2], r[2];
  if (pipe2(p, O_CLOEXEC) != 0) return {Verdict::kFail, "pipe failed"};
  if (pipe2(r, O_CLOEXEC) != 0) {
    close(p[0]);
    close(p[1]);
    return {Verdict::kFail, "pipe failed"};
  }
  // Until the host-wide sysctls are back, SIGINT, SIGTERM and SIGHUP only
  // end the child; the signal is raised again afterwards.
  struct sigaction note {}, old_int {}, old_term {}, old_hup {};
  note.sa_handler = NoteStopSignal;
  sigaction(SIGINT, &note, &old_int);
  sigaction(SIGTERM, &note, &old_term);
  sigaction(SIGHUP, &note, &old_hup);
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    close(r[0]);
    ChildRun(path, opts, p[1], r[1]);
  }
  close(p[1]);
  close(r[1]);
  std::string msg, restore;
  char buf[4096];
  const int64_t deadline_ms = static_cast<int64_t>(opts.timeout_s) * 1000;
  int64_t waited_ms = 0;
  bool timed_out = false, verdict_done = pid < 0;
  while (!verdict_done) {
    pollfd pfd[2] = {{p[0], POLLIN, 0}, {r[0], POLLIN, 0}};
    const int n = poll(pfd, 2, 100);
    if (g_stop_signal != 0) {
      kill(pid, SIGKILL);
      break;
    }
    if (n <= 0) {
      waited_ms += n == 0 ? 100 : 0;
      if (waited_ms > deadline_ms) {
        timed_out = true;
        kill(pid, SIGKILL);
        break;
      }
      continue;
    }
    if (pfd[1].revents != 0) {
      const ssize_t k = read(r[0], buf, sizeof(buf));
      if (k > 0) restore.append(buf, static_cast<size_t>(k));
    }
    if (pfd[0].revents != 0) {
      const ssize_t k = read(p[0], buf, sizeof(buf));
      if (k <= 0) verdict_done = true;
      else msg.append(buf, static_cast<size_t>(k));
    }
  }
  close(p[0]);
  int st = 0;
  if (pid > 0) waitpid(pid, &st, 0);
  // Whatever the child wrote before it ended.
  for (ssize_t k; (k = read(r[0], buf, sizeof(buf))) > 0;) restore.append(buf, static_cast<size_t>(k));
  close(r[0]);
  RestoreHostSysctls(restore);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  if (g_stop_signal != 0) raise(g_stop_signal);
  if (pid < 0) return {Verdict::kFail, "fork failed"};
  if (timed_out) return {Verdict::kFail, absl::StrFormat("%s: still running after %d s", path, opts.timeout_s)};
  if (msg.empty()) return {Verdict::kFail, absl::StrFormat("%s: the kernel run ended without a verdict", path)};
  const Verdict v = msg[0] == kPass ? Verdict::kPass : msg[0] == kSkip ? Verdict::kSkip : Verdict::kFail;
  const size_t nul = msg.find('\0');
  Result res(v, msg.substr(1, nul == std::string::npos ? std::string::npos : nul - 1));
  if (nul != std::string::npos) res.sent = absl::StrSplit(msg.substr(nul + 1), '\n');
  return res;
}

int KernelPacketdrillMain(const std::vector<std::string>& files, const KernelOptions& opts, std::ostream& out,
                          std::ostream& err) {
  if (absl::Status st = CheckKernelTarget(); !st.ok()) {
    err << "packetdrill --target=kernel: " << st.message() << "\n";
    return 2;
  }
  if (files.empty()) {
    err << "packetdrill --target=kernel: no script files given\n";
    return 2;
  }
  int passed = 0, failed = 0, skipped = 0;
  for (const std::string& f : files) {
    Result r = RunScriptOnKernel(f, opts);
    const char* v = r.verdict == Verdict::kPass ? "PASS" : r.verdict == Verdict::kFail ? "FAIL" : "SKIP";
    (r.verdict == Verdict::kPass ? passed : r.verdict == Verdict::kFail ? failed : skipped) += 1;
    out << v << " " << f << (r.reason.empty() ? "" : ": ") << r.reason << "\n";
    for (const std::string& line : r.sent) out << line << "\n";
  }
  out << absl::StrFormat("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed == 0 ? 0 : 1;
}

}  // namespace sendsim::packetdrill
