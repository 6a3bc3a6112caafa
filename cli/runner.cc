// RunOne on the real model and messenger: the writer's Simulation of the
// scenario, its messages pushed by the messenger's workload driver.
#include "cli/runner.h"

#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli/budget.h"
#include "cli/histogram_observer.h"
#include "messenger/workload_driver.h"
#include "messenger/writer_policy.h"
#include "scenario/simulation.h"

namespace sendsim::cli {

using scenario::EffectiveKernel;
using scenario::Scenario;
using scenario::WriterSpec;
namespace {

// Events per slice of the loop between progress reports.
constexpr uint64_t kEventsPerSlice = 200000;

// Messages complete in stream order, so one forward scan counts them.
size_t CountDone(const std::vector<messenger::MessageRecord>& records, size_t done) {
  while (done < records.size() && records[done].acked >= 0) ++done;
  return done;
}

}  // namespace

absl::StatusOr<RunResult> RunOne(const Scenario& s, const WriterSpec& w, model::Observer* extra,
                                 const ProgressFn& progress) {
  absl::StatusOr<messenger::WriterKind> kind = messenger::ParseWriterKind(w.writer);
  if (!kind.ok()) return absl::InvalidArgumentError(std::string(kind.status().message()));
  scenario::Simulation sim;
  sim.scenario = s;
  sim.scenario.kernel = EffectiveKernel(w, s.kernel);
  HistogramObserver hist(s.mss);
  sim.observers = {&hist, extra};
  scenario::MessengerWorkload app = scenario::MessengerWorkload::ForScenario(s, *kind);
  size_t done = 0;
  const model::TimeNs horizon = SimulatedHorizonNs(s);
  sim.plan.slice_events = kEventsPerSlice;
  sim.plan.horizon_ns = horizon;
  sim.plan.progress = [&] {
    done = CountDone(app.driver().records(), done);
    if (progress) progress(done, app.driver().records().size());
  };
  absl::StatusOr<scenario::SimulationResult> run = sim.Run(app);
  // Before the run: an unknown kernel or knobs the model rejects, bad input.
  if (!run.ok()) return absl::InvalidArgumentError(std::string(run.status().message()));
  const std::vector<messenger::MessageRecord>& records = app.driver().records();
  if (run->stopped_at_horizon) {
    // Every message acknowledged but events still due (timers, replies):
    // say so rather than report a stall that contradicts the count.
    done = CountDone(records, 0);
    return absl::DeadlineExceededError(absl::StrFormat(
        "no end after %d s of simulated time (%d of %d messages acknowledged%s)", horizon / model::kNsPerSec, done,
        records.size(), done == records.size() ? "; events were still pending" : ""));
  }
  if (absl::Status st = app.driver().Finish(); !st.ok()) {
    return absl::InternalError(absl::StrFormat("run failed: %s", st.message()));
  }
  if (!run->invariants.ok()) {
    return absl::InternalError(absl::StrFormat("model invariant violated: %s", run->invariants.message()));
  }

  RunResult r;
  r.writer = w.writer;
  r.kernel = sim.scenario.kernel;
  hist.FillResult(&r);
  r.completion_ns.reserve(records.size());
  for (const messenger::MessageRecord& m : records) {
    if (m.acked >= 0) {
      ++r.messages;
      r.completion_ns.push_back(m.completion_ns());
    }
  }
  r.counters = run->counters;
  r.duration_ns = run->end_ns;
  return r;
}

}  // namespace sendsim::cli
