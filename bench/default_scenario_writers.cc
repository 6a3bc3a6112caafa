// The CLI's default scenario (scenario::Scenario{}) run once per writer,
// including props' comparison writers that the CLI cannot select by name
// yet (v1-more, v1-sendmsg, v1-cork-batch): packets, sub-MSS packets and the
// change against v1-notlast. Deterministic; it measures results, not speed:
//   bazel run -c opt //bench:default_scenario_writers
// Each run is the writer's Simulation of the scenario, as the CLI's RunOne.

#include <cstdio>
#include <string>

#include "absl/strings/str_format.h"
#include "cli/histogram_observer.h"
#include "cli/run_result.h"
#include "messenger/writer_policy.h"
#include "scenario/scenario.h"
#include "scenario/simulation.h"

namespace sendsim::cli {

using scenario::Scenario;
namespace {

absl::StatusOr<RunResult> Run(const Scenario& s, messenger::WriterKind kind, const std::string& kernel) {
  scenario::Simulation sim;
  sim.scenario = s;
  sim.scenario.kernel = kernel;
  HistogramObserver hist(s.mss);
  sim.observers = {&hist};
  scenario::MessengerWorkload app = scenario::MessengerWorkload::ForScenario(s, kind);
  absl::StatusOr<scenario::SimulationResult> run = sim.Run(app);
  if (!run.ok()) return run.status();
  if (absl::Status st = app.driver().Finish(); !st.ok()) return st;
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
