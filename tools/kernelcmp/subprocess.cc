#include "tools/kernelcmp/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::kernelcmp {
namespace {

int64_t NowMs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1'000'000;
}

// In the child after fork: only async-signal-safe calls until exec.
[[noreturn]] void ExecChild(const std::vector<std::string>& argv, int out_fd, int err_fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Signals blocked in our threads (see SignalGuard) must not stay blocked in the child.
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_UNBLOCK, &all, nullptr);
  int null_fd = open("/dev/null", O_RDWR);
  dup2(null_fd, 0);
  dup2(out_fd >= 0 ? out_fd : null_fd, 1);
  dup2(err_fd >= 0 ? err_fd : null_fd, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  _exit(127);
}

absl::Status ErrnoStatus(const char* what) {
  return absl::InternalError(absl::StrFormat("%s: %s", what, strerror(errno)));
}

}  // namespace

absl::StatusOr<CommandResult> RunCommand(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command");
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return ErrnoStatus("pipe");
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return ErrnoStatus("pipe");
  }
  pid_t pid = fork();
  if (pid < 0) return ErrnoStatus("fork");
  if (pid == 0) ExecChild(argv, out_pipe[1], err_pipe[1]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  CommandResult result;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  char buf[4096];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->append(buf, n);
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (result.exit_code == 127) {
    return absl::NotFoundError(absl::StrFormat("cannot run %s (not installed?)", argv[0]));
  }
  return result;
}

absl::StatusOr<std::string> RunChecked(const std::vector<std::string>& argv) {
  absl::StatusOr<CommandResult> r = RunCommand(argv);
  if (!r.ok()) return r.status();
  if (r->exit_code != 0) {
    std::string err = r->err;
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    return absl::InternalError(absl::StrFormat("`%s` exited with %d: %s", absl::StrJoin(argv, " "),
                                               r->exit_code, err));
  }
  return r->out;
}

absl::StatusOr<BackgroundProcess> BackgroundProcess::Start(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("empty command");
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) return ErrnoStatus("pipe");
  pid_t pid = fork();
  if (pid < 0) return ErrnoStatus("fork");
  if (pid == 0) ExecChild(argv, -1, err_pipe[1]);
  close(err_pipe[1]);
  return BackgroundProcess(pid, err_pipe[0]);
}

BackgroundProcess::BackgroundProcess(BackgroundProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      err_fd_(std::exchange(other.err_fd_, -1)),
      err_(std::move(other.err_)) {}

BackgroundProcess& BackgroundProcess::operator=(BackgroundProcess&& other) noexcept {
  if (this != &other) {
    Reset();
    pid_ = std::exchange(other.pid_, -1);
    err_fd_ = std::exchange(other.err_fd_, -1);
    err_ = std::move(other.err_);
  }
  return *this;
}

BackgroundProcess::~BackgroundProcess() { Reset(); }

void BackgroundProcess::Reset() {
  if (pid_ > 0) StopAndWait(SIGKILL, 1000);
  if (err_fd_ >= 0) close(err_fd_);
  err_fd_ = -1;
  pid_ = -1;
}

bool BackgroundProcess::DrainOnce(int timeout_ms) {
  if (err_fd_ < 0) return false;
  pollfd p = {err_fd_, POLLIN, 0};
  int r = poll(&p, 1, timeout_ms);
  if (r <= 0) return true;
  char buf[4096];
  ssize_t n = read(err_fd_, buf, sizeof(buf));
  if (n > 0) {
    err_.append(buf, n);
    return true;
  }
  if (n < 0 && errno == EINTR) return true;
  close(err_fd_);
  err_fd_ = -1;
  return false;
}

absl::Status BackgroundProcess::WaitForStderr(const std::string& needle, int timeout_ms) {
  const int64_t deadline = NowMs() + timeout_ms;
  while (err_.find(needle) == std::string::npos) {
    const int64_t left = deadline - NowMs();
    if (left <= 0) {
      return absl::DeadlineExceededError(
          absl::StrFormat("timed out waiting for \"%s\"; stderr so far: %s", needle, err_));
    }
    if (!DrainOnce(static_cast<int>(left))) {
      return absl::InternalError(
          absl::StrFormat("process exited before printing \"%s\": %s", needle, err_));
    }
  }
  return absl::OkStatus();
}

int BackgroundProcess::StopAndWait(int sig, int timeout_ms) {
  if (pid_ <= 0) return -1;
  kill(pid_, sig);
  const int64_t deadline = NowMs() + timeout_ms;
  int status = 0;
  bool escalated = false;
  while (true) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) break;
    if (!DrainOnce(20) && NowMs() < deadline) {
      // stderr closed: the child is exiting; keep polling waitpid.
      struct timespec ts = {0, 5'000'000};
      nanosleep(&ts, nullptr);
    }
    if (!escalated && NowMs() >= deadline) {
      kill(pid_, SIGKILL);
      escalated = true;
    }
  }
  while (DrainOnce(0)) {
    if (err_fd_ < 0) break;
    pollfd p = {err_fd_, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) break;
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace sendsim::kernelcmp
