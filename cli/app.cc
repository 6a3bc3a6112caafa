#include "cli/app.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/budget.h"
#include "cli/flags.h"
#include "cli/histogram_observer.h"
#include "cli/output_file.h"
#include "cli/pcap_writer.h"
#include "cli/report.h"
#include "scenario/scenario_json.h"
#include "cli/seed_runs.h"
#include "cli/subcommands.h"
#include "cli/svg_plot.h"
#include "scenario/text_util.h"
#include "cli/trace_writer.h"

namespace sendsim::cli {

using scenario::EffectiveKernel;
using scenario::EscapeForMessage;
using scenario::OneLine;
using scenario::Scenario;
using scenario::ScenarioToJson;
using scenario::ValidateScenario;
namespace {

int Fail(const AppEnv& env, int code, absl::string_view msg) {
  *env.err << "sendsim: " << scenario::ErrorLine(msg) << "\n";
  return code;
}

}  // namespace

std::string PerWriterPath(const std::string& path, const RunResult& id, size_t writer_count) {
  if (writer_count <= 1) return path;
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = has_ext ? path.substr(0, dot) : path;
  const std::string ext = has_ext ? path.substr(dot) : "";
  return absl::StrFormat("%s.%s-%s%s", stem, id.writer, id.kernel, ext);
}

namespace {

// The --trace and --pcap files of each writer, created (as temporary files)
// before the runs so that an unwritable path fails before a long run, and
// renamed into place only after every run succeeded.
class WriterOutputs {
 public:
  absl::Status Open(const Scenario& s) {
    const size_t writers = s.writers.size();
    trace_files_.resize(writers);
    pcap_files_.resize(writers);
    traces_.resize(writers);
    pcaps_.resize(writers);
    tees_.resize(writers);
    extra_.assign(writers, nullptr);
    for (size_t i = 0; i < writers; ++i) {
      std::vector<model::Observer*> observers;
      if (!s.trace.empty()) {
        trace_files_[i] = std::make_unique<OutputFile>();
        if (absl::Status st = trace_files_[i]->Open(PathFor(s, s.trace, i), "--trace"); !st.ok()) return st;
        traces_[i] = std::make_unique<TraceWriter>(&trace_files_[i]->stream());
        observers.push_back(traces_[i].get());
      }
      if (!s.pcap.empty()) {
        pcap_files_[i] = std::make_unique<OutputFile>();
        if (absl::Status st = pcap_files_[i]->Open(PathFor(s, s.pcap, i), "--pcap"); !st.ok()) return st;
        PcapOptions po;
        po.mss = s.mss;
        po.timestamps = s.timestamps;
        pcaps_[i] = std::make_unique<PcapWriter>(&pcap_files_[i]->stream(), po);
        observers.push_back(pcaps_[i].get());
      }
      if (!observers.empty()) {
        tees_[i] = std::make_unique<TeeObserver>(observers);
        extra_[i] = tees_[i].get();
      }
    }
    return absl::OkStatus();
  }

  // Per writer: the observer its first-seed run reports to (may be null).
  const std::vector<model::Observer*>& observers() const { return extra_; }

  absl::Status Commit() {
    for (size_t i = 0; i < extra_.size(); ++i) {
      if (pcaps_[i]) pcaps_[i]->Finish();
      if (trace_files_[i]) {
        if (absl::Status st = trace_files_[i]->Commit(); !st.ok()) return st;
      }
      if (pcap_files_[i]) {
        if (absl::Status st = pcap_files_[i]->Commit(); !st.ok()) return st;
      }
    }
    return absl::OkStatus();
  }

  static std::string PathFor(const Scenario& s, const std::string& path, size_t writer) {
    RunResult id;
    id.writer = s.writers[writer].writer;
    id.kernel = EffectiveKernel(s.writers[writer], s.kernel);
    return PerWriterPath(path, id, s.writers.size());
  }

 private:
  std::vector<std::unique_ptr<OutputFile>> trace_files_, pcap_files_;
  std::vector<std::unique_ptr<TraceWriter>> traces_;
  std::vector<std::unique_ptr<PcapWriter>> pcaps_;
  std::vector<std::unique_ptr<TeeObserver>> tees_;
  std::vector<model::Observer*> extra_;
};

// Every file the command line names: the scenario file (an input) and each
// output, per writer where there are several.
std::vector<NamedPath> NamedPaths(const CliOptions& opts) {
  const Scenario& s = opts.scenario;
  std::vector<NamedPath> paths;
  if (opts.Given("scenario")) paths.push_back({"--scenario", opts.scenario_path, false});
  for (size_t i = 0; i < s.writers.size(); ++i) {
    if (!s.trace.empty()) paths.push_back({"--trace", WriterOutputs::PathFor(s, s.trace, i), true});
    if (!s.pcap.empty()) paths.push_back({"--pcap", WriterOutputs::PathFor(s, s.pcap, i), true});
  }
  if (!s.plot.empty()) paths.push_back({"--plot", s.plot, true});
  return paths;
}

// A validation message starts with the knob's name ("mss: ..."); say where
// the value came from: a flag, or the scenario file.
std::string WithOrigin(const CliOptions& opts, absl::string_view msg) {
  const size_t end = msg.find_first_of(":[ ");
  const std::string key(msg.substr(0, end));
  if (opts.Given(key)) return absl::StrCat("--", msg);
  if (opts.Given("scenario")) return absl::StrFormat("scenario %s: %s", EscapeForMessage(opts.scenario_path), msg);
  return std::string(msg);
}

}  // namespace

int RunApp(const std::vector<std::string>& args, const AppEnv& env, const RunFn& run) {
  absl::StatusOr<CliOptions> parsed = ParseCommandLine(args);
  if (!parsed.ok()) return Fail(env, kExitBadInput, parsed.status().message());
  const CliOptions& opts = *parsed;
  if (opts.help) {
    *env.out << UsageText();
    return kExitOk;
  }
  if (!opts.positional.empty()) {
    if (opts.positional[0] == "packetdrill") {
      const std::vector<std::string> files(opts.positional.begin() + 1, opts.positional.end());
      return RunPacketdrill(files, opts, *env.out, *env.err);
    }
    return Fail(env, kExitBadInput,
                absl::StrFormat("unexpected argument \"%s\" (the only subcommand is packetdrill; see --help)",
                                EscapeForMessage(opts.positional[0])));
  }
  for (const char* f : {"target", "tolerance_usecs", "tolerance_percent", "strict_segments", "record"}) {
    if (opts.Given(f)) {
      return Fail(env, kExitBadInput, absl::StrFormat("--%s applies to sendsim packetdrill only (see --help)", f));
    }
  }
  const Scenario& s = opts.scenario;
  if (absl::Status st = ValidateScenario(s); !st.ok()) return Fail(env, kExitBadInput, WithOrigin(opts, st.message()));
  if (absl::Status st = CheckDistinctPaths(NamedPaths(opts)); !st.ok()) {
    return Fail(env, kExitBadInput, st.message());
  }
  if (opts.dump_scenario) {
    *env.out << ScenarioToJson(s);
    return kExitOk;
  }
  const uint32_t threads = opts.threads != 0 ? opts.threads : std::max(1u, std::thread::hardware_concurrency());
  if (absl::Status st = CheckBudget(EstimateBudget(s, threads), opts.max_memory_mb, opts.max_minutes); !st.ok()) {
    return Fail(env, kExitBadInput, st.message());
  }

  // Created first so that an unwritable path fails before a long run; each
  // output is renamed into place only once everything succeeded.
  OutputFile plot;
  if (!s.plot.empty()) {
    if (absl::Status st = plot.Open(s.plot, "--plot"); !st.ok()) return Fail(env, kExitBadInput, st.message());
  }
  // --trace and --pcap observe each writer's run under the first seed.
  WriterOutputs outputs;
  if (absl::Status st = outputs.Open(s); !st.ok()) return Fail(env, kExitBadInput, st.message());

  ProgressLine progress(env.err, env.err_is_tty, env.clock);
  absl::StatusOr<std::vector<SeedRun>> runs = RunSeeds(
      s, outputs.observers(), opts.threads, run, [&](size_t runs_done, size_t jobs, uint64_t done, uint64_t total) {
        progress.Update(absl::StrFormat("%d/%d runs", runs_done, jobs), done, total);
      });
  progress.Clear();
  if (!runs.ok()) {
    const int code = absl::IsInvalidArgument(runs.status()) ? kExitBadInput : kExitRunFailed;
    return Fail(env, code, runs.status().message());
  }
  const std::vector<RunResult>& results = runs->front().results;
  if (!s.plot.empty()) {
    plot.stream() << RenderSizeHistogramSvg(
        results, absl::StrFormat("Packet sizes: %d messages, MSS %d, %s", s.messages, s.mss, s.kernel));
  }
  // An output that cannot be written whole is an output-path problem (2),
  // like one that cannot be created.
  if (absl::Status st = outputs.Commit(); !st.ok()) return Fail(env, kExitBadInput, st.message());
  if (!s.plot.empty()) {
    if (absl::Status st = plot.Commit(); !st.ok()) return Fail(env, kExitBadInput, st.message());
  }
  switch (opts.format) {
    case OutputFormat::kTable: *env.out << FormatTable(s, *runs); break;
    case OutputFormat::kJson: *env.out << FormatJson(s, *runs); break;
    case OutputFormat::kCsv: *env.out << FormatCsv(s, results); break;
  }
  return kExitOk;
}

}  // namespace sendsim::cli
