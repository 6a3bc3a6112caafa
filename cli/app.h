#ifndef SENDSIM_CLI_APP_H_
#define SENDSIM_CLI_APP_H_

// The whole command as a function of its arguments, so tests can run it
// in-process with a fake runner.

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/progress.h"
#include "cli/run_result.h"
#include "scenario/scenario.h"
#include "model/observer.h"

namespace sendsim::cli {

using RunFn = std::function<absl::StatusOr<RunResult>(const scenario::Scenario&, const scenario::WriterSpec&, model::Observer* extra,
                                                      const ProgressFn&)>;

// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;  // the simulation itself failed
inline constexpr int kExitBadInput = 2;   // flags, scenario, names, output paths

struct AppEnv {
  std::ostream* out = nullptr;
  std::ostream* err = nullptr;
  bool err_is_tty = false;
  ProgressLine::ClockMs clock;  // null: monotonic clock
};

// `args` excludes argv[0].
int RunApp(const std::vector<std::string>& args, const AppEnv& env, const RunFn& run);

// Output path for one writer: `path` itself when only one writer runs,
// else "<stem>.<writer>-<kernel><ext>" (e.g. trace.v1-legacy-linux-4.19.csv).
std::string PerWriterPath(const std::string& path, const RunResult& id, size_t writer_count);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_APP_H_
