#include "cli/app.h"

#include <fstream>
#include <memory>

#include "absl/strings/str_format.h"
#include "cli/flags.h"
#include "cli/histogram_observer.h"
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
  *env.err << "sendsim: " << OneLine(std::string(msg)) << "\n";
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

// The --trace and --pcap files of each writer, opened before the runs (an
// unwritable path fails before a long run) and finished after them.
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
      RunResult id;
      id.writer = s.writers[i].writer;
      id.kernel = EffectiveKernel(s.writers[i], s.kernel);
      std::vector<model::Observer*> observers;
      if (!s.trace.empty()) {
        const std::string path = PerWriterPath(s.trace, id, writers);
        trace_files_[i].open(path, std::ios::binary | std::ios::trunc);
        if (!trace_files_[i]) return absl::InvalidArgumentError("--trace: cannot write " + EscapeForMessage(path));
        traces_[i] = std::make_unique<TraceWriter>(&trace_files_[i]);
        observers.push_back(traces_[i].get());
      }
      if (!s.pcap.empty()) {
        const std::string path = PerWriterPath(s.pcap, id, writers);
        pcap_files_[i].open(path, std::ios::binary | std::ios::trunc);
        if (!pcap_files_[i]) return absl::InvalidArgumentError("--pcap: cannot write " + EscapeForMessage(path));
        PcapOptions po;
        po.mss = s.mss;
        po.timestamps = s.timestamps;
        pcaps_[i] = std::make_unique<PcapWriter>(&pcap_files_[i], po);
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

  absl::Status Finish() {
    for (size_t i = 0; i < extra_.size(); ++i) {
      if (pcaps_[i]) pcaps_[i]->Finish();
      if (traces_[i]) trace_files_[i].flush();
      if ((traces_[i] && !trace_files_[i]) || (pcaps_[i] && !pcap_files_[i])) {
        return absl::InternalError("write error on a --trace/--pcap file");
      }
    }
    return absl::OkStatus();
  }

 private:
  std::vector<std::ofstream> trace_files_, pcap_files_;
  std::vector<std::unique_ptr<TraceWriter>> traces_;
  std::vector<std::unique_ptr<PcapWriter>> pcaps_;
  std::vector<std::unique_ptr<TeeObserver>> tees_;
  std::vector<model::Observer*> extra_;
};

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
  for (const char* f : {"target", "tolerance_usecs", "tolerance_percent", "strict_segments"}) {
    if (opts.Given(f)) {
      return Fail(env, kExitBadInput, absl::StrFormat("--%s applies to sendsim packetdrill only (see --help)", f));
    }
  }
  const Scenario& s = opts.scenario;
  if (absl::Status st = ValidateScenario(s); !st.ok()) return Fail(env, kExitBadInput, st.message());
  if (opts.dump_scenario) {
    *env.out << ScenarioToJson(s);
    return kExitOk;
  }

  // Opened first so that an unwritable path fails before a long run.
  std::ofstream plot;
  if (!s.plot.empty()) {
    plot.open(s.plot, std::ios::binary | std::ios::trunc);
    if (!plot) return Fail(env, kExitBadInput, absl::StrFormat("--plot: cannot write %s", EscapeForMessage(s.plot)));
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
  if (absl::Status st = outputs.Finish(); !st.ok()) return Fail(env, kExitRunFailed, st.message());
  const std::vector<RunResult>& results = runs->front().results;

  if (!s.plot.empty()) {
    plot << RenderSizeHistogramSvg(
        results, absl::StrFormat("Packet sizes: %d messages, MSS %d, %s", s.messages, s.mss, s.kernel));
    plot.flush();
    if (!plot) return Fail(env, kExitRunFailed, absl::StrFormat("--plot: write error on %s", EscapeForMessage(s.plot)));
  }
  switch (opts.format) {
    case OutputFormat::kTable: *env.out << FormatTable(s, *runs); break;
    case OutputFormat::kJson: *env.out << FormatJson(s, *runs); break;
    case OutputFormat::kCsv: *env.out << FormatCsv(s, results); break;
  }
  return kExitOk;
}

}  // namespace sendsim::cli
