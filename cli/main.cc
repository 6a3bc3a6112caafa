#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/runner.h"
#include "cli/working_dir.h"

int main(int argc, char** argv) {
  // With stdout closed, the next file opened (an output) would become fd 1
  // and receive the table.
  if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
    std::cerr << "sendsim: cannot write to standard output (it is closed)\n";
    return 2;
  }
  if (absl::Status s = sendsim::cli::EnterUserWorkingDirectory(); !s.ok()) {
    std::cerr << "sendsim: " << s.message() << "\n";
    return 2;
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  sendsim::cli::AppEnv env;
  env.out = &std::cout;
  env.err = &std::cerr;
  env.err_is_tty = isatty(STDERR_FILENO) == 1;
  const int code = sendsim::cli::RunApp(args, env, sendsim::cli::RunOne);
  // A full disk or a closed pipe on stdout must not look like success.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "sendsim: cannot write to standard output\n";
    return code == 0 ? 2 : code;
  }
  return code;
}
