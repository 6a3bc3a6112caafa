#include "netdev/ip_cmd.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::netdev {

int RunArgv(const std::vector<std::string>& argv) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    // Quiet: `ip` complains on stderr about what the caller already reports.
    const int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    std::vector<char*> a;
    for (const std::string& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execvp(a[0], a.data());
    _exit(127);
  }
  int st = 0;
  if (waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

absl::Status RunIp(const std::vector<std::string>& argv) {
  if (RunArgv(argv) != 0) return absl::UnavailableError(absl::StrFormat("'%s' failed", absl::StrJoin(argv, " ")));
  return absl::OkStatus();
}

}  // namespace sendsim::netdev
