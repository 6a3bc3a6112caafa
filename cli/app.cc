#include "cli/app.h"

#include <fstream>
#include <memory>

#include "absl/strings/str_format.h"
#include "cli/flags.h"
#include "cli/histogram_observer.h"
#include "cli/pcap_writer.h"
#include "cli/report.h"
#include "cli/scenario_json.h"
#include "cli/subcommands.h"
#include "cli/svg_plot.h"
#include "cli/text_util.h"
#include "cli/trace_writer.h"

namespace sendsim::cli {
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

  ProgressLine progress(env.err, env.err_is_tty, env.clock);
  std::vector<RunResult> results;
  for (size_t i = 0; i < s.writers.size(); ++i) {
    const WriterSpec& w = s.writers[i];
    RunResult id;
    id.writer = w.writer;
    id.kernel = EffectiveKernel(w, s.kernel);

    // Optional per-run outputs.
    std::vector<model::Observer*> extra;
    std::ofstream trace_file, pcap_file;
    std::unique_ptr<TraceWriter> trace;
    std::unique_ptr<PcapWriter> pcap;
    if (!s.trace.empty()) {
      const std::string path = PerWriterPath(s.trace, id, s.writers.size());
      trace_file.open(path, std::ios::binary | std::ios::trunc);
      if (!trace_file) return Fail(env, kExitBadInput, absl::StrFormat("--trace: cannot write %s", EscapeForMessage(path)));
      trace = std::make_unique<TraceWriter>(&trace_file);
      extra.push_back(trace.get());
    }
    if (!s.pcap.empty()) {
      const std::string path = PerWriterPath(s.pcap, id, s.writers.size());
      pcap_file.open(path, std::ios::binary | std::ios::trunc);
      if (!pcap_file) return Fail(env, kExitBadInput, absl::StrFormat("--pcap: cannot write %s", EscapeForMessage(path)));
      PcapOptions po;
      po.mss = s.mss;
      po.timestamps = s.timestamps;
      pcap = std::make_unique<PcapWriter>(&pcap_file, po);
      extra.push_back(pcap.get());
    }
    TeeObserver tee(extra);
    const std::string label = absl::StrFormat("%s (%s) %d/%d", id.writer, id.kernel, i + 1, s.writers.size());
    absl::StatusOr<RunResult> r =
        run(s, w, extra.empty() ? nullptr : &tee,
            [&](uint64_t done, uint64_t total) { progress.Update(label, done, total); });
    if (!r.ok()) {
      progress.Clear();
      const int code = absl::IsInvalidArgument(r.status()) ? kExitBadInput : kExitRunFailed;
      return Fail(env, code, absl::StrFormat("%s on %s: %s", id.writer, id.kernel, r.status().message()));
    }
    if (pcap) pcap->Finish();
    if (trace_file) trace_file.flush();
    if ((trace && !trace_file) || (pcap && !pcap_file)) {
      return Fail(env, kExitRunFailed, "write error on a --trace/--pcap file");
    }
    results.push_back(*std::move(r));
  }
  progress.Clear();

  if (!s.plot.empty()) {
    plot << RenderSizeHistogramSvg(
        results, absl::StrFormat("Packet sizes: %d messages, MSS %d, %s", s.messages, s.mss, s.kernel));
    plot.flush();
    if (!plot) return Fail(env, kExitRunFailed, absl::StrFormat("--plot: write error on %s", EscapeForMessage(s.plot)));
  }
  switch (opts.format) {
    case OutputFormat::kTable: *env.out << FormatTable(s, results); break;
    case OutputFormat::kJson: *env.out << FormatJson(s, results); break;
    case OutputFormat::kCsv: *env.out << FormatCsv(s, results); break;
  }
  return kExitOk;
}

}  // namespace sendsim::cli
