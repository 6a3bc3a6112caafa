// realsock: the messenger's writers on this kernel's TCP sockets, beside the
// model's figures for the same workload (README.md in this folder).
//
// Exit status: 0 done, 1 failure, 2 bad flags or recording, 77 cannot run
// here (reason printed).

#include <sys/utsname.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "realsock/compare.h"
#include "realsock/live.h"
#include "tools/kernelcmp/cleanup.h"

ABSL_FLAG(std::string, writers, "v1-legacy,v1-notlast,v1-cork,v1-splice,v2",
          "comma list of writers (the default scenario's)");
ABSL_FLAG(int64_t, messages, 200, "128 KiB messages per writer");
ABSL_FLAG(std::string, profile, "",
          "model profile to compare with (default: the one matching this kernel's version)");
ABSL_FLAG(bool, shape, true, "netem on the veth: 25 us each way and 10000 Mbit/s, the default scenario's path");
ABSL_FLAG(std::string, json_out, "",
          "write the recording (kernel and model figures) to this file; with --recorded, the recording with "
          "the model's side recomputed");
ABSL_FLAG(std::string, recorded, "",
          "model only: recompute the model's side of this recording and compare; exit 1 if it moved");

namespace sendsim::realsock {
namespace {

int Fail(int code, const std::string& msg) {
  std::fprintf(stderr, "realsock: %s\n", msg.c_str());
  return code;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrFormat("cannot read %s", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int ModelOnly(const std::string& path, const std::string& out) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return Fail(2, std::string(text.status().message()));
  absl::StatusOr<Recording> rec = RecordingFromJson(*text);
  if (!rec.ok()) return Fail(2, absl::StrFormat("%s: %s", path, rec.status().message()));
  std::vector<std::string> writers;
  for (const Figures& f : rec->kernel_runs) writers.push_back(f.writer);
  const scenario::Scenario s = ComparisonScenario(rec->profile, rec->messages, writers);
  Recording now = *rec;
  now.model_runs.clear();
  for (const std::string& w : writers) {
    absl::StatusOr<Figures> f = ModelFigures(s, w);
    if (!f.ok()) return Fail(1, absl::StrFormat("model, %s: %s", w, f.status().message()));
    now.model_runs.push_back(*f);
  }
  std::fputs(FormatComparison(now).c_str(), stdout);
  if (!out.empty()) {
    // The kernel side as recorded, the model side as the model gives it now
    // (after an intended model change).
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    f << RecordingToJson(now);
    if (!f.good()) return Fail(1, absl::StrFormat("cannot write %s", out));
    return 0;
  }
  if (now.model_runs != rec->model_runs) {
    return Fail(1, absl::StrFormat("the model's figures moved from those recorded in %s (re-record with --json_out "
                                   "on the kernel, or see what changed)",
                                   path));
  }
  std::printf("\nthe model's figures equal the recording's\n");
  return 0;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "the messenger's writers on this kernel's TCP sockets (two namespaces over veth), beside the model.\n"
      "  realsock [--writers=...] [--messages=N] [--json_out=FILE]   live run (root)\n"
      "  realsock --recorded=FILE                                    model only, against a recording");
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) return Fail(2, absl::StrFormat("unexpected argument '%s'", rest[1]));
  if (!absl::GetFlag(FLAGS_recorded).empty()) return ModelOnly(absl::GetFlag(FLAGS_recorded), absl::GetFlag(FLAGS_json_out));
  const int64_t messages = absl::GetFlag(FLAGS_messages);
  if (messages < 1 || messages > 100000) return Fail(2, "--messages must be in [1, 100000]");
  std::vector<std::string> writers = absl::StrSplit(absl::GetFlag(FLAGS_writers), ',', absl::SkipEmpty());
  if (writers.empty()) return Fail(2, "--writers is empty");

  struct utsname u;
  uname(&u);
  LiveOptions opts;
  opts.kernel = u.release;
  opts.profile = absl::GetFlag(FLAGS_profile).empty() ? ProfileForKernel(u.release) : absl::GetFlag(FLAGS_profile);
  opts.messages = static_cast<uint64_t>(messages);
  opts.writers = writers;
  opts.testbed.shape = absl::GetFlag(FLAGS_shape);
  if (absl::Status v = ValidateLive(opts); !v.ok()) return Fail(2, std::string(v.message()));

  kernelcmp::CleanupStack cleanup;
  kernelcmp::SignalGuard guard(&cleanup);
  absl::StatusOr<Recording> rec = RunLive(opts, &cleanup);
  if (!rec.ok()) {
    return Fail(rec.status().code() == absl::StatusCode::kUnavailable ? 77 : 1,
                std::string(rec.status().message()));
  }
  std::fputs(FormatComparison(*rec).c_str(), stdout);
  const std::string out = absl::GetFlag(FLAGS_json_out);
  if (!out.empty()) {
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    f << RecordingToJson(*rec);
    if (!f.good()) return Fail(1, absl::StrFormat("cannot write %s", out));
  }
  return 0;
}

}  // namespace
}  // namespace sendsim::realsock

int main(int argc, char** argv) { return sendsim::realsock::Main(argc, argv); }
