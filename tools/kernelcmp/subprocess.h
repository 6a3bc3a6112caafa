#ifndef SENDSIM_TOOLS_KERNELCMP_SUBPROCESS_H_
#define SENDSIM_TOOLS_KERNELCMP_SUBPROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sendsim::kernelcmp {

// Output of a finished command.
struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs argv[0] (looked up in PATH) to completion with no shell, collecting
// stdout and stderr. Fails only if the command could not be started.
absl::StatusOr<CommandResult> RunCommand(const std::vector<std::string>& argv);

// Like RunCommand, but a nonzero exit is an error carrying the command line
// and its stderr.
absl::StatusOr<std::string> RunChecked(const std::vector<std::string>& argv);

// A child started in the background with stderr captured to a pipe (stdout is
// discarded). The child dies with us (PR_SET_PDEATHSIG), and the destructor
// kills and reaps it, so no path leaves it running.
class BackgroundProcess {
 public:
  static absl::StatusOr<BackgroundProcess> Start(const std::vector<std::string>& argv);

  BackgroundProcess(BackgroundProcess&& other) noexcept;
  BackgroundProcess& operator=(BackgroundProcess&& other) noexcept;
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;
  ~BackgroundProcess();

  // Reads stderr until `needle` appears, the child exits or `timeout_ms`
  // passes. Everything read is kept (see Stderr()).
  absl::Status WaitForStderr(const std::string& needle, int timeout_ms);

  // Sends `sig`, then waits up to `timeout_ms` for the exit, draining stderr;
  // escalates to SIGKILL after that. Returns the exit code (-1 on a signal).
  int StopAndWait(int sig, int timeout_ms);

  const std::string& Stderr() const { return err_; }
  pid_t pid() const { return pid_; }

 private:
  BackgroundProcess(pid_t pid, int err_fd) : pid_(pid), err_fd_(err_fd) {}
  // Reads what is available within `timeout_ms`; false on EOF.
  bool DrainOnce(int timeout_ms);
  void Reset();

  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string err_;
};

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_SUBPROCESS_H_
