// RunOne on the real model and messenger: one model::Connection driven by a
// messenger::WorkloadDriver on a private event loop.
#include "cli/runner.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli/budget.h"
#include "cli/histogram_observer.h"
#include "scenario/build.h"
#include "messenger/connection.h"
#include "messenger/workload_driver.h"
#include "model/connection.h"
#include "model/profile.h"

namespace sendsim::cli {

using scenario::BuildConnectionConfig;
using scenario::BuildConnectionOptions;
using scenario::BuildDriverOptions;
using scenario::BuildWorkload;
using scenario::EffectiveKernel;
using scenario::Scenario;
using scenario::WriterSpec;
namespace {

// Events per slice of the loop between progress reports.
constexpr uint64_t kEventsPerSlice = 200000;

}  // namespace

absl::StatusOr<RunResult> RunOne(const Scenario& s, const WriterSpec& w, model::Observer* extra,
                                 const ProgressFn& progress) {
  const std::string kernel = EffectiveKernel(w, s.kernel);
  absl::StatusOr<model::Profile> profile = model::ProfileByName(kernel);
  if (!profile.ok()) return absl::InvalidArgumentError(std::string(profile.status().message()));
  absl::StatusOr<messenger::WriterKind> kind = messenger::ParseWriterKind(w.writer);
  if (!kind.ok()) return absl::InvalidArgumentError(std::string(kind.status().message()));
  const model::ConnectionConfig cfg = BuildConnectionConfig(s);
  if (absl::Status st = model::ValidateConfig(cfg); !st.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat("model rejects the configuration: %s", st.message()));
  }

  model::EventLoop loop;
  HistogramObserver hist(s.mss);
  std::vector<model::Observer*> observers = {&hist};
  if (extra != nullptr) observers.push_back(extra);
  TeeObserver tee(observers);

  messenger::DriverOptions dopt = BuildDriverOptions(s, cfg);
  messenger::WorkloadDriver driver(&loop, BuildWorkload(s), dopt, &tee);
  absl::StatusOr<std::unique_ptr<model::Connection>> conn = model::Connection::Create(&loop, cfg, *profile, &driver);
  if (!conn.ok()) return absl::InvalidArgumentError(std::string(conn.status().message()));
  if (absl::Status st = driver.Attach(&(*conn)->socket(), BuildConnectionOptions(s, cfg, *kind, *profile));
      !st.ok()) {
    return st;
  }
  driver.Start();

  // Messages complete in stream order, so one forward scan counts them.
  size_t done = 0;
  const auto& records = driver.records();
  const model::TimeNs horizon = SimulatedHorizonNs(s);
  while (!loop.empty()) {
    loop.Run(kEventsPerSlice);
    while (done < records.size() && records[done].acked >= 0) ++done;
    if (progress) progress(done, records.size());
    if (!loop.empty() && loop.now() > horizon) {
      // Every message acknowledged but events still due (timers, replies):
      // say so rather than report a stall that contradicts the count.
      return absl::DeadlineExceededError(absl::StrFormat(
          "no end after %d s of simulated time (%d of %d messages acknowledged%s)", horizon / model::kNsPerSec,
          done, records.size(), done == records.size() ? "; events were still pending" : ""));
    }
  }
  if (absl::Status st = driver.Finish(); !st.ok()) {
    return absl::InternalError(absl::StrFormat("run failed: %s", st.message()));
  }
  if (absl::Status st = (*conn)->CheckInvariants(); !st.ok()) {
    return absl::InternalError(absl::StrFormat("model invariant violated: %s", st.message()));
  }

  RunResult r;
  r.writer = w.writer;
  r.kernel = kernel;
  hist.FillResult(&r);
  r.completion_ns.reserve(records.size());
  for (const messenger::MessageRecord& m : records) {
    if (m.acked >= 0) {
      ++r.messages;
      r.completion_ns.push_back(m.completion_ns());
    }
  }
  r.counters = (*conn)->socket().counters();
  r.duration_ns = loop.now();
  return r;
}

}  // namespace sendsim::cli
