#include "packetdrill/uml_target.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

constexpr int kCannotRunHere = 77;  // tools/uml/run.sh's "cannot run here"

// Runs argv with stdout and stderr forwarded to `out` and `err` as they
// arrive; returns the exit status (128 + signal when killed).
absl::StatusOr<int> RunForwarding(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return absl::InternalError(std::strerror(errno));
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return absl::InternalError(std::strerror(errno));
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(absl::StrFormat("fork: %s", std::strerror(errno)));
  if (pid == 0) {
    const int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  std::array<pollfd, 2> fds = {pollfd{out_pipe[0], POLLIN, 0}, pollfd{err_pipe[0], POLLIN, 0}};
  std::array<std::ostream*, 2> sinks = {&out, &err};
  int open_fds = 2;
  char buf[8192];
  while (open_fds > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->write(buf, n);
        sinks[i]->flush();
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      close(fds[i].fd);
      fds[i].fd = -1;
      --open_fds;
    }
  }
  for (const pollfd& p : fds) {
    if (p.fd >= 0) close(p.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

bool Executable(const std::filesystem::path& p) { return access(p.c_str(), X_OK) == 0; }

}  // namespace

std::optional<std::string> UmlSeries(std::string_view target) {
  if (target == "uml-6.1") return "6.1";
  if (target == "uml-6.12") return "6.12";
  return std::nullopt;
}

std::vector<std::string> UmlTargetNames() { return {"uml-6.1", "uml-6.12"}; }

absl::StatusOr<std::string> FindUmlLauncher() {
  if (const char* env = std::getenv("SENDSIM_UML_RUN"); env != nullptr && *env != '\0') {
    if (!Executable(env)) return absl::NotFoundError(absl::StrFormat("SENDSIM_UML_RUN=%s is not executable", env));
    return std::string(env);
  }
  const std::filesystem::path rel = "sendsim/tools/uml/run.sh";
  std::vector<std::filesystem::path> candidates;
  if (const char* dir = std::getenv("RUNFILES_DIR"); dir != nullptr && *dir != '\0') candidates.push_back(dir / rel);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(std::filesystem::path(exe.string() + ".runfiles") / rel);
    // A copy of the binary beside a checkout's tools/ (bazel-bin/cli/sendsim
    // resolves into the output base, so this is for copies only).
    candidates.push_back(exe.parent_path().parent_path() / "tools/uml/run.sh");
  }
  for (const std::filesystem::path& c : candidates) {
    if (Executable(c)) return c.string();
  }
  return absl::NotFoundError("tools/uml/run.sh not found beside this binary (set SENDSIM_UML_RUN to its path)");
}

int UmlPacketdrillMain(const std::string& series, const std::vector<std::string>& files, const MatchRules& rules,
                       std::ostream& out, std::ostream& err) {
  if (files.empty()) {
    err << "sendsim packetdrill: no script files given\n";
    return 2;
  }
  absl::StatusOr<std::string> launcher = FindUmlLauncher();
  if (!launcher.ok()) {
    err << "sendsim packetdrill: cannot run here: " << launcher.status().message() << "\n";
    return kCannotRunHere;
  }
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe", ec);
  if (ec) {
    err << "sendsim packetdrill: cannot run here: /proc/self/exe: " << ec.message() << "\n";
    return kCannotRunHere;
  }
  // Inside the guest the host's / is the root, read-only, and the working
  // directory is ours, so this binary and the scripts keep their paths.
  std::vector<std::string> argv = {*launcher, "--kernel", series, "--", self.string(), "packetdrill",
                                   "--target=kernel"};
  argv.push_back(absl::StrFormat("--tolerance_usecs=%d", rules.tolerance_usecs));
  argv.push_back(absl::StrFormat("--tolerance_percent=%.17g", rules.tolerance_percent));
  if (rules.strict_segments) argv.push_back("--strict_segments");
  if (rules.record) argv.push_back("--record");
  argv.insert(argv.end(), files.begin(), files.end());
  absl::StatusOr<int> rc = RunForwarding(argv, out, err);
  if (!rc.ok()) {
    err << "sendsim packetdrill: cannot start " << *launcher << ": " << rc.status().message() << "\n";
    return kCannotRunHere;
  }
  return *rc;
}

}  // namespace sendsim::packetdrill
