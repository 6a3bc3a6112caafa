// The CLI's default scenario (scenario::Scenario{}) run once per writer,
// including props' comparison writers that the CLI cannot select by name
// yet (v1-more, v1-sendmsg, v1-cork-batch): packets, sub-MSS packets and the
// change against v1-notlast. Deterministic; it measures results, not speed:
//   bazel run -c opt //bench:default_scenario_writers
// The run loop is cli/runner.cc's RunOne with the writer given as a kind.

#include <cstdio>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli/histogram_observer.h"
#include "cli/run_result.h"
#include "scenario/build.h"
#include "scenario/scenario.h"
#include "messenger/workload_driver.h"
#include "messenger/writer_policy.h"
#include "model/connection.h"
#include "model/profile.h"

namespace sendsim::cli {

using scenario::BuildConnectionConfig;
using scenario::BuildConnectionOptions;
using scenario::BuildDriverOptions;
using scenario::BuildWorkload;
using scenario::Scenario;
namespace {

absl::StatusOr<RunResult> Run(const Scenario& s, messenger::WriterKind kind, const std::string& kernel) {
  absl::StatusOr<model::Profile> profile = model::ProfileByName(kernel);
  if (!profile.ok()) return profile.status();
  const model::ConnectionConfig cfg = BuildConnectionConfig(s);
  model::EventLoop loop;
  HistogramObserver hist(s.mss);
  messenger::WorkloadDriver driver(&loop, BuildWorkload(s), BuildDriverOptions(s, cfg), &hist);
  absl::StatusOr<std::unique_ptr<model::Connection>> conn = model::Connection::Create(&loop, cfg, *profile, &driver);
  if (!conn.ok()) return conn.status();
  if (absl::Status st = driver.Attach(&(*conn)->socket(), BuildConnectionOptions(s, cfg, kind, *profile)); !st.ok()) {
    return st;
  }
  driver.Start();
  loop.Run();
  if (absl::Status st = driver.Finish(); !st.ok()) return st;
  RunResult r;
  hist.FillResult(&r);
  return r;
}

int Main() {
  const Scenario s;
  struct W {
    messenger::WriterKind kind;
    const char* kernel;  // empty: the scenario's
  };
  const W writers[] = {
      {messenger::WriterKind::kV1Notlast, ""}, {messenger::WriterKind::kV1Legacy, ""},
      {messenger::WriterKind::kV1More, ""},    {messenger::WriterKind::kV1Cork, ""},
      {messenger::WriterKind::kV1Sendmsg, ""}, {messenger::WriterKind::kV1CorkBatch, ""},
      {messenger::WriterKind::kV1Splice, "linux-6.8"}, {messenger::WriterKind::kV2, ""},
  };
  absl::PrintF("default scenario: %u messages, kernel %s\n| writer | kernel | packets | sub-MSS | vs v1-notlast |\n"
               "|---|---|---|---|---|\n",
               s.messages, s.kernel);
  uint64_t ref = 0;
  for (const W& w : writers) {
    const std::string kernel = *w.kernel != '\0' ? w.kernel : s.kernel;
    absl::StatusOr<RunResult> r = Run(s, w.kind, kernel);
    if (!r.ok()) {
      absl::FPrintF(stderr, "%s: %s\n", messenger::WriterKindName(w.kind), r.status().message());
      return 1;
    }
    if (w.kind == messenger::WriterKind::kV1Notlast) ref = r->sub_mss_packets;
    absl::PrintF("| %s | %s | %u | %u | %+.1f%% sub-MSS |\n", messenger::WriterKindName(w.kind), kernel, r->packets,
                 r->sub_mss_packets, ref == 0 ? 0.0 : 100.0 * (1.0 * r->sub_mss_packets - ref) / ref);
  }
  return 0;
}

}  // namespace
}  // namespace sendsim::cli

int main() { return sendsim::cli::Main(); }
