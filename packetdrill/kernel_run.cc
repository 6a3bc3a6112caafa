#include "packetdrill/kernel_run.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_format.h"
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
// the verdict on `out`.
[[noreturn]] void ChildRun(const std::string& path, const KernelOptions& opts, int out) {
  signal(SIGPIPE, SIG_IGN);
  auto report = [out](char v, const std::string& reason) {  // ends the child
    std::string msg = std::string(1, v) + reason;
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
  if (unshare(CLONE_NEWNET) != 0) report(kFail, absl::StrFormat("unshare(CLONE_NEWNET): %s", std::strerror(errno)));
  absl::StatusOr<std::unique_ptr<TunDevice>> tun = TunDevice::Create();
  if (!tun.ok()) report(kFail, std::string(tun.status().message()));
  absl::Status st;
  {
    KernelScript run(*script, tun->get(), opts);
    st = run.Run();
  }
  if (st.ok()) report(kPass, "");
  report(st.code() == absl::StatusCode::kUnimplemented ? kSkip : kFail, std::string(st.message()));
  _exit(0);
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
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return {Verdict::kFail, "pipe failed"};
  pid_t pid = fork();
  if (pid < 0) return {Verdict::kFail, "fork failed"};
  if (pid == 0) {
    close(p[0]);
    ChildRun(path, opts, p[1]);
  }
  close(p[1]);
  std::string msg;
  char buf[4096];
  const int64_t deadline_ms = static_cast<int64_t>(opts.timeout_s) * 1000;
  int64_t waited_ms = 0;
  bool timed_out = false;
  for (;;) {
    pollfd pfd{p[0], POLLIN, 0};
    const int r = poll(&pfd, 1, 100);
    if (r == 0) {
      waited_ms += 100;
      if (waited_ms > deadline_ms) {
        timed_out = true;
        kill(pid, SIGKILL);
        break;
      }
      continue;
    }
    const ssize_t n = read(p[0], buf, sizeof(buf));
    if (n <= 0) break;
    msg.append(buf, static_cast<size_t>(n));
  }
  close(p[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  if (timed_out) return {Verdict::kFail, absl::StrFormat("%s: still running after %d s", path, opts.timeout_s)};
  if (msg.empty()) return {Verdict::kFail, absl::StrFormat("%s: the kernel run ended without a verdict", path)};
  const Verdict v = msg[0] == kPass ? Verdict::kPass : msg[0] == kSkip ? Verdict::kSkip : Verdict::kFail;
  return {v, msg.substr(1)};
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
  }
  out << absl::StrFormat("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed == 0 ? 0 : 1;
}

}  // namespace sendsim::packetdrill
