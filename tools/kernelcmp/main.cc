// kernelcmp: replays a sendsim workload through this machine's real TCP stack
// (two private network namespaces joined by a veth pair), captures the data
// direction and prints the packet figures beside the model's (profile linux-6.18) ones.
//
//   bazel run //tools/kernelcmp -- --scenario=FILE [--variants=all] [--repeats=3]
//
// Exit status: 0 done, 1 failure, 2 bad flags/scenario, 77 cannot run here
// (not root, no network namespaces, missing tools).

#include <stdlib.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/working_dir.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/kernelcmp/cleanup.h"
#include "tools/kernelcmp/host_presets.h"
#include "tools/kernelcmp/model_figures.h"
#include "tools/kernelcmp/recorded.h"
#include "tools/kernelcmp/report.h"
#include "tools/kernelcmp/runner.h"
#include "tools/kernelcmp/testbed.h"
#include "tools/kernelcmp/workload.h"

ABSL_FLAG(std::string, scenario, "",
          "JSON scenario file; kernelcmp reads messages, message_bytes, prefix_bytes, footer_bytes");
ABSL_FLAG(int64_t, messages, -1, "messages per run (overrides the scenario)");
ABSL_FLAG(int64_t, message_bytes, -1, "data bytes per message (overrides the scenario)");
ABSL_FLAG(int64_t, prefix_bytes, -1, "tag+header+front bytes per message (overrides the scenario)");
ABSL_FLAG(std::string, variants, "all",
          "comma list of v1-legacy,v1-splice,v1-cork,v2,sendmsg-all,sendfile,splice or all");
ABSL_FLAG(std::string, io, "nonblocking,blocking", "comma list of nonblocking,blocking");
ABSL_FLAG(std::string, placements, "rx-on-sender-cpu,rx-on-receiver-cpu",
          "comma list of rx-on-sender-cpu,rx-on-receiver-cpu");
ABSL_FLAG(int, repeats, 3, "kernel runs per variant, io mode and placement");
ABSL_FLAG(bool, tso, false, "TSO/GSO on the veth (captured skbs are split into MSS segments)");
ABSL_FLAG(std::string, format, "table", "table or json");
ABSL_FLAG(std::string, json_out, "", "also write the JSON entries to this file");
ABSL_FLAG(std::string, pcap_dir, "",
          "keep each run's capture as DIR/<variant>-<io>-<placement>-<run>.pcap (DIR must exist)");
ABSL_FLAG(int, sender_cpu, 0, "CPU the sender thread is pinned to");
ABSL_FLAG(int, receiver_cpu, 1, "CPU the receiver thread is pinned to");
ABSL_FLAG(bool, model_only, false, "skip the kernel runs (no root needed); print the model side");
ABSL_FLAG(std::string, kernel_json, "",
          "reuse the kernel side of an earlier --json_out (same scenario and flags) and rerun only the model, "
          "calibrated from it (no root needed)");
ABSL_FLAG(std::string, reference_json, "",
          "another recording (a --json_out) of the same workload: the kernel's own spread between it and this "
          "comparison's kernel side is the headline verdict's yardstick for the model (repeatability.h); its "
          "kernel runs are also judged against this comparison's ranges as the model is (the goal's second line)");
ABSL_FLAG(std::string, model_host, "",
          "a scenario file applied over each placement's host preset (testdata/kernelcmp/hosts/): network, "
          "tcp_*, receiver_* and host_* keys; what it sets is not calibrated from the kernel runs");
ABSL_FLAG(int64_t, model_between_calls_ns, -1,
          "model calibration: the sender's CPU between two calls, socket not held (default: measured)");
ABSL_FLAG(bool, model_rx_cpu_queue, true,
          "model the measured receive delay as the receiving CPU's queue (service time per segment, wakeup when "
          "idle); false: base + exponential spread");
ABSL_FLAG(int, model_delay_refits, 0,
          "model runs to refit the receiving CPU's wakeup until the model's mean delay matches the kernel's "
          "(default 0: take the measured wakeup as it is; matching the mean fitted worse on 2 Dec 2026)");
ABSL_FLAG(bool, model_sender_run_delay, true,
          "model calibration: the sender thread's measured wait for its CPU per call (schedstat) is spent "
          "between calls");
ABSL_FLAG(bool, model_call_hold_from_trace, false,
          "model calibration: the socket hold per call from the syscall trace where measured (else from the "
          "sender's CPU per call)");
ABSL_FLAG(bool, model_rcvbuf_autotune, false,
          "model calibration: autotune the peer's receive buffer like this machine's receiver, from "
          "tcp_rmem[1] to tcp_rmem[2] (tcp_rcv_space_adjust; docs/notes/2026-12-02-kernelcmp-calibration.md)");
ABSL_FLAG(bool, trace_delays, true,
          "measure each run's receive-backlog delay with two net tracepoints (tracefs) and give it to "
          "the model; without tracefs the model keeps its fixed per-placement delays");
ABSL_FLAG(std::string, tracefs, "/sys/kernel/tracing", "where tracefs is mounted");
ABSL_FLAG(int, netdev_max_backlog, 30000, "net.core.netdev_max_backlog during the run");

namespace sendsim::kernelcmp {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCannotRun = 77;

int Fail(int code, const absl::Status& s) {
  std::fprintf(stderr, "kernelcmp: %s\n", std::string(s.message()).c_str());
  return code;
}

absl::StatusOr<Workload> WorkloadFromFlags() {
  Workload w;
  const std::string path = absl::GetFlag(FLAGS_scenario);
  if (!path.empty()) {
    std::ifstream in(path);
    if (!in) return absl::InvalidArgumentError(absl::StrFormat("cannot read scenario %s", path));
    std::stringstream ss;
    ss << in.rdbuf();
    absl::StatusOr<Workload> sw = WorkloadFromScenarioJson(ss.str(), w);
    if (!sw.ok()) {
      return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, sw.status().message()));
    }
    w = *sw;
  }
  struct Override {
    const char* name;
    int64_t value;
  };
  for (const Override& o : {Override{"messages", absl::GetFlag(FLAGS_messages)},
                            Override{"message_bytes", absl::GetFlag(FLAGS_message_bytes)},
                            Override{"prefix_bytes", absl::GetFlag(FLAGS_prefix_bytes)}}) {
    if (o.value == -1) continue;
    if (o.value < 0 || o.value > (int64_t{1} << 32)) {
      return absl::InvalidArgumentError(absl::StrFormat("--%s out of range", o.name));
    }
    if (absl::string_view(o.name) == "messages") w.messages = o.value;
    if (absl::string_view(o.name) == "message_bytes") w.message_bytes = o.value;
    if (absl::string_view(o.name) == "prefix_bytes") w.prefix_bytes = static_cast<uint32_t>(o.value);
  }
  absl::Status v = ValidateWorkload(w);
  if (!v.ok()) return v;
  return w;
}

// The testbed receiver's buffer: new namespaces copy tcp_rmem from the
// initial one (tcp_sk_init), the socket starts at tcp_rmem[1] and autotunes
// up to tcp_rmem[2], and the SYN-ACK's window scale is ilog2(max(tcp_rmem[2],
// rmem_max)) - 15 (tcp_select_initial_window, v6.x). False if unreadable.
bool HostReceiveBuffer(scenario::Scenario::Receiver* r) {
  std::ifstream f("/proc/sys/net/ipv4/tcp_rmem");
  std::ifstream g("/proc/sys/net/core/rmem_max");
  uint64_t lo = 0, def = 0, hi = 0, rmem_max = 0;
  if (!(f >> lo >> def >> hi) || !(g >> rmem_max)) return false;
  if (def == 0 || hi < def || hi > UINT32_MAX) return false;
  r->rcvbuf_autotune_initial = static_cast<uint32_t>(def);
  r->rcvbuf = static_cast<uint32_t>(hi);
  const int ilog2 = static_cast<int>(std::bit_width(std::max(hi, rmem_max))) - 1;
  r->wscale = static_cast<uint8_t>(std::clamp(ilog2 - 15, 0, 14));
  return true;
}

// The placement's host preset, this machine's receive buffer
// (--model_rcvbuf_autotune), then --model_host's file and
// --model_between_calls_ns. The file was checked over each preset by
// SelectionFromFlags.
ModelSettings SettingsFor(Placement p, const std::optional<HostOverride>& host) {
  ModelSettings s = DefaultModelSettings(p);
  if (absl::GetFlag(FLAGS_model_rcvbuf_autotune) && !HostReceiveBuffer(&s.scenario.receiver)) {
    std::fprintf(stderr, "kernelcmp: cannot read tcp_rmem/rmem_max; the model keeps its fixed receive buffer\n");
  }
  if (host.has_value()) {
    absl::StatusOr<scenario::Scenario> sc = ApplyHostOverride(*host, s.scenario);
    if (sc.ok()) s.scenario = *std::move(sc);
  }
  if (int64_t v = absl::GetFlag(FLAGS_model_between_calls_ns); v >= 0) s.between_calls_ns = v;
  return s;
}

// What to run, from the flags; a bad flag is a usage error.
struct Selection {
  Workload workload;
  std::vector<Variant> variants;
  std::vector<IoMode> ios;
  std::vector<Placement> placements;
  int repeats = 0;
  std::string format;
  int netdev_max_backlog = 0;
  bool model_only = false;
  std::string reference_json;
  std::vector<RecordedCell> reference;  // --reference_json's cells
  std::optional<HostOverride> model_host;  // --model_host
};

absl::StatusOr<std::string> MakeWorkDir(CleanupStack* cleanup) {
  char tmpl[] = "/tmp/kernelcmp.XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return absl::InternalError("mkdtemp failed");
  std::string dir = tmpl;
  cleanup->Push("remove " + dir, [dir] {
    unlink((dir + "/run.pcap").c_str());
    rmdir(dir.c_str());
  });
  return dir;
}

// The table or JSON on stdout, and --json_out.
int Print(const std::vector<Cell>& cells, const Selection& sel, bool tso, bool calibrated) {
  const Workload& w = sel.workload;
  const std::string out = sel.format == "json" ? FormatJson(cells, w, tso) : FormatTable(cells, w, tso);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (sel.format == "table") {
    for (Placement p : sel.placements) {
      absl::PrintF("model settings %s: %s%s\n", PlacementName(p),
                   DescribeModelSettings(SettingsFor(p, sel.model_host)),
                   calibrated ? " (the fallback: each cell's call costs, reader and delays come from its "
                                "kernel runs unless a flag pins them; JSON model_settings has each cell's)"
                              : "");
    }
  }
  const std::string json_out = absl::GetFlag(FLAGS_json_out);
  if (!json_out.empty()) {
    std::ofstream f(json_out);
    f << FormatJson(cells, w, tso);
    if (!f) return Fail(kExitFailure, absl::InternalError("cannot write " + json_out));
  }
  return 0;
}

// The model beside a cell's kernel side. The sender's CPU per call and the
// reader's copy rate and wakeup latency decide how often an ACK reaches the
// sender between two page calls (each one pushes the held tail); they are
// properties of this testbed, so they come from the cell's own runs unless
// pinned.
void RunModelSide(const Selection& sel, Cell* c) {
  const Workload& w = sel.workload;
  ModelSettings settings = SettingsFor(c->placement, sel.model_host);
  // What --model_host sets stays as set.
  auto pinned = [&sel](const std::string& key) { return sel.model_host.has_value() && sel.model_host->Sets(key); };
  Calibration cal;
  cal.call_cost = !pinned("call_cost_ns");
  cal.xmit_cost = !pinned("host_xmit_cost_ns");
  cal.hold = absl::GetFlag(FLAGS_model_call_hold_from_trace);
  cal.run_delay = absl::GetFlag(FLAGS_model_sender_run_delay);
  cal.between_calls = absl::GetFlag(FLAGS_model_between_calls_ns) < 0;
  cal.read_rate = !pinned("receiver_app_read_bytes_per_sec");
  cal.read_wakeup = !pinned("host_app_read_wakeup_ns");
  cal.delay = !pinned("rtt_ns") && !pinned("host_data_delay_spread_ns") && !pinned("host_rx_cpu_service_ns") &&
              !pinned("host_rx_cpu_wakeup_ns");
  cal.rx_cpu_queue = absl::GetFlag(FLAGS_model_rx_cpu_queue);
  const CellSummary ks = SummarizeCell(*c, w);
  CalibrateFromKernel(ks, cal, &settings);
  absl::StatusOr<ModelFigures> m = RunModelFor(w, c->variant, c->io, settings);
  // --model_delay_refits: the wakeup is refitted until the model's mean
  // delay matches the kernel's (RefitWakeup).
  const int refits = cal.delay && cal.rx_cpu_queue ? absl::GetFlag(FLAGS_model_delay_refits) : 0;
  for (int i = 0; i < refits && m.ok() && RefitWakeup(ks, m->delays, &settings); ++i) {
    m = RunModelFor(w, c->variant, c->io, settings);
  }
  c->model_settings = DescribeModelSettings(settings);
  if (m.ok()) {
    c->model = *m;
  } else {
    c->model_error = std::string(m.status().message());
  }
}

// An earlier --json_out of the workload `w` (--kernel_json, --reference_json).
absl::StatusOr<std::vector<RecordedCell>> ReadRecorded(const std::string& path, const Workload& w) {
  std::ifstream f(path);
  if (!f) return absl::NotFoundError("cannot read " + path);
  std::stringstream text;
  text << f.rdbuf();
  absl::StatusOr<std::vector<RecordedCell>> rec = ParseRecordedJson(text.str(), w, absl::GetFlag(FLAGS_tso));
  if (!rec.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", rec.status().message()));
  return rec;
}

// --kernel_json: the cells of an earlier run that the variant, io and
// placement lists select, each with the model rerun beside it.
absl::StatusOr<std::vector<Cell>> RecordedCells(const std::string& path, const Selection& sel) {
  const std::vector<Variant>& variants = sel.variants;
  const std::vector<IoMode>& ios = sel.ios;
  const std::vector<Placement>& placements = sel.placements;
  absl::StatusOr<std::vector<RecordedCell>> rec = ReadRecorded(path, sel.workload);
  if (!rec.ok()) return rec.status();
  std::vector<Cell> cells;
  for (const RecordedCell& r : *rec) {
    if (std::find(variants.begin(), variants.end(), r.variant) == variants.end() ||
        std::find(ios.begin(), ios.end(), r.io) == ios.end() ||
        std::find(placements.begin(), placements.end(), r.placement) == placements.end()) {
      continue;
    }
    Cell c{r.variant, r.io, r.placement, {}, std::nullopt, "", "", r.kernel, std::nullopt};
    RunModelSide(sel, &c);
    cells.push_back(std::move(c));
  }
  if (cells.empty()) return absl::InvalidArgumentError(path + ": no recorded cell matches the selection");
  return cells;
}

// --reference_json's cells, attached by variant, io mode and placement.
absl::Status AttachReference(const std::string& path, const std::vector<RecordedCell>& ref,
                             std::vector<Cell>* cells) {
  bool any = false;
  for (Cell& c : *cells) {
    for (const RecordedCell& r : ref) {
      if (r.variant == c.variant && r.io == c.io && r.placement == c.placement) {
        c.reference = r.kernel;
        any = true;
      }
    }
  }
  if (!any) return absl::InvalidArgumentError(path + ": no recorded cell matches the selection");
  return absl::OkStatus();
}

absl::StatusOr<Selection> SelectionFromFlags() {
  Selection sel;
  absl::StatusOr<Workload> w = WorkloadFromFlags();
  if (!w.ok()) return w.status();
  sel.workload = *std::move(w);
  auto variants = ParseList<Variant>(absl::GetFlag(FLAGS_variants), ParseVariant, AllVariants());
  if (!variants.ok()) return variants.status();
  sel.variants = *std::move(variants);
  auto ios = ParseList<IoMode>(absl::GetFlag(FLAGS_io), ParseIoMode, {IoMode::kNonBlocking, IoMode::kBlocking});
  if (!ios.ok()) return ios.status();
  sel.ios = *std::move(ios);
  auto placements = ParseList<Placement>(absl::GetFlag(FLAGS_placements), ParsePlacement,
                                         {Placement::kSenderCpu, Placement::kReceiverCpu});
  if (!placements.ok()) return placements.status();
  sel.placements = *std::move(placements);
  sel.repeats = absl::GetFlag(FLAGS_repeats);
  if (sel.repeats < 1 || sel.repeats > 100) return absl::InvalidArgumentError("--repeats must be in 1..100");
  sel.format = absl::GetFlag(FLAGS_format);
  if (sel.format != "table" && sel.format != "json") {
    return absl::InvalidArgumentError("--format must be table or json");
  }
  sel.netdev_max_backlog = absl::GetFlag(FLAGS_netdev_max_backlog);
  if (sel.netdev_max_backlog < 1000 || sel.netdev_max_backlog > 10'000'000) {
    return absl::InvalidArgumentError("--netdev_max_backlog out of range");
  }
  sel.model_only = absl::GetFlag(FLAGS_model_only);
  sel.reference_json = absl::GetFlag(FLAGS_reference_json);
  if (!sel.reference_json.empty()) {
    if (sel.model_only) return absl::InvalidArgumentError("--reference_json needs a kernel side (not --model_only)");
    // Read before any kernel run, so that a bad file fails at once.
    absl::StatusOr<std::vector<RecordedCell>> ref = ReadRecorded(sel.reference_json, sel.workload);
    if (!ref.ok()) return ref.status();
    sel.reference = *std::move(ref);
  }
  if (const std::string host = absl::GetFlag(FLAGS_model_host); !host.empty()) {
    absl::StatusOr<HostOverride> o = ReadHostOverride(host);
    if (!o.ok()) return o.status();
    for (Placement p : sel.placements) {  // over each preset, so that SettingsFor cannot fail
      absl::StatusOr<scenario::Scenario> s = ApplyHostOverride(*o, DefaultModelSettings(p).scenario);
      if (!s.ok()) return s.status();
    }
    sel.model_host = *std::move(o);
  }
  if (!absl::GetFlag(FLAGS_kernel_json).empty() && sel.model_only) {
    return absl::InvalidArgumentError("--kernel_json and --model_only exclude each other");
  }
  return sel;
}

// One kernel run's progress line: what it measured, so that a long
// comparison can be followed (and a bad run spotted) as it goes.
std::string ProgressLine(const RunOutcome& o) {
  if (!o.valid) return "invalid: " + o.invalid_reason;
  const TrafficResult& t = o.traffic;
  const uint64_t calls = std::max<uint64_t>(t.send_calls, 1);
  std::string line = absl::StrFormat(
      "%u packets, %u sub-MSS, %u ACKs, %u reads (%.0f MB/s of recv CPU), %u calls of %.1f us CPU",
      o.figures.packets, o.figures.sub_mss_packets, o.figures.acks, t.reads,
      t.bytes_received * 1e3 / std::max<int64_t>(t.read_cpu_ns, 1), t.send_calls, t.send_cpu_ns / 1e3 / calls);
  absl::StrAppendFormat(&line, ", cwnd %u, srtt %u us at the end", t.snd_cwnd, t.rtt_us);
  if (t.sender_run_delay_ns >= 0) {
    absl::StrAppendFormat(&line, ", sender waited %.1f us per call for its CPU", t.sender_run_delay_ns / 1e3 / calls);
  }
  double base = 0, per_seg = 0;
  if (t.call_fit.Fit(&base, &per_seg)) {
    absl::StrAppendFormat(&line, " (fit over %u calls: %.1f us + %.1f us per segment sent)", t.call_fit.samples(),
                          base / 1e3, per_seg / 1e3);
  }
  if (o.delays.has_value()) {
    const DelaySummary& d = *o.delays;
    absl::StrAppendFormat(&line,
                          ", backlog delay p5 %.1f / median %.1f / mean %.1f us (receiving CPU: %.1f us "
                          "per packet, wakeup %.1f us, %u of %u packets found it idle, %u of them "
                          "deferred %.1f us)",
                          d.p5_ns / 1e3, d.median_ns / 1e3, d.mean_ns / 1e3, d.rx_service_ns / 1e3,
                          d.rx_wakeup_ns / 1e3, d.idle_packets, d.packets, d.deferred_packets,
                          d.rx_deferred_ns / 1e3);
  }
  if (o.holds.has_value()) {
    double hb = 0, hs = 0;
    const bool fitted = o.holds->fit.Fit(&hb, &hs);
    absl::StrAppendFormat(&line, ", socket held %.1f us per call over %u calls%s (%u with receive work inline)",
                          o.holds->mean_ns / 1e3, o.holds->calls,
                          fitted ? absl::StrFormat(": %.1f us + %.1f us per segment sent", hb / 1e3, hs / 1e3)
                                 : std::string(),
                          o.holds->calls_with_receive);
  }
  if (!o.delays.has_value() && !o.delay_error.empty()) {
    absl::StrAppendFormat(&line, ", no delay trace: %s", o.delay_error);
  }
  return line;
}

// tracefs for the backlog-delay measurement: used when writable, else the
// model keeps its fixed delays (said once, not an error). Empty: none.
std::string UsableTracefs() {
  if (!absl::GetFlag(FLAGS_trace_delays)) return "";
  const std::string root = absl::GetFlag(FLAGS_tracefs);
  if (access((root + "/events/net/net_dev_start_xmit/enable").c_str(), W_OK) == 0 &&
      access((root + "/buffer_size_kb").c_str(), W_OK) == 0) {
    return root;
  }
  std::fprintf(stderr,
               "kernelcmp: no writable tracefs at %s (net events); the model keeps its fixed "
               "per-placement delays\n",
               root.c_str());
  return "";
}

// The kernel runs of one cell, with progress lines and (--pcap_dir) the
// captures kept.
absl::Status RunKernelSide(const Selection& sel, Testbed& tb, CleanupStack* cleanup, const std::string& dir,
                           const std::string& tracefs_root, Cell* c) {
  const std::string pcap_dir = absl::GetFlag(FLAGS_pcap_dir);
  for (int r = 0; r < sel.repeats; ++r) {
    const RunSpec spec{sel.workload, c->variant, c->io, c->placement, tracefs_root};
    absl::StatusOr<RunOutcome> o = RunOnce(tb, cleanup, spec, dir);
    if (!o.ok()) return o.status();
    std::fprintf(stderr, "kernelcmp: %s %s %s run %d: %s\n", std::string(VariantName(c->variant)).c_str(),
                 std::string(IoModeName(c->io)).c_str(), std::string(PlacementName(c->placement)).c_str(), r + 1,
                 ProgressLine(*o).c_str());
    c->runs.push_back(*std::move(o));
    if (!pcap_dir.empty()) {
      const std::string dst = absl::StrFormat("%s/%s-%s-%s-%d.pcap", pcap_dir, VariantName(c->variant),
                                              IoModeName(c->io), PlacementName(c->placement), r + 1);
      if (std::rename((dir + "/run.pcap").c_str(), dst.c_str()) != 0) {
        return absl::InternalError("cannot move the capture to " + dst);
      }
    }
  }
  return absl::OkStatus();
}

// Kernel runs (unless --model_only) and the model beside each cell.
int RunCells(const Selection& sel) {
  TestbedOptions opts;
  opts.tso = absl::GetFlag(FLAGS_tso);
  opts.sender_cpu = absl::GetFlag(FLAGS_sender_cpu);
  opts.receiver_cpu = absl::GetFlag(FLAGS_receiver_cpu);
  opts.netdev_max_backlog = static_cast<uint32_t>(sel.netdev_max_backlog);
  if (!sel.model_only) {
    absl::Status can = CheckCanRun(opts);
    if (!can.ok()) return Fail(kExitCannotRun, can);
  }

  // Declared before the guard so it outlives it: the guard's thread may run it.
  CleanupStack cleanup;
  SignalGuard guard(&cleanup);
  signal(SIGPIPE, SIG_IGN);
  absl::StatusOr<std::string> dir = MakeWorkDir(&cleanup);
  if (!dir.ok()) return Fail(kExitFailure, dir.status());
  absl::StatusOr<std::unique_ptr<Testbed>> tb = std::unique_ptr<Testbed>();
  if (!sel.model_only) tb = Testbed::Create(opts, &cleanup);
  if (!tb.ok()) return Fail(kExitFailure, tb.status());
  const std::string tracefs_root = sel.model_only ? "" : UsableTracefs();

  std::vector<Cell> cells;
  for (Variant v : sel.variants) {
    for (IoMode io : sel.ios) {
      for (Placement p : sel.placements) {
        Cell c{v, io, p, {}, std::nullopt, "", "", std::nullopt, std::nullopt};
        if (!sel.model_only) {
          if (absl::Status s = RunKernelSide(sel, **tb, &cleanup, *dir, tracefs_root, &c); !s.ok()) {
            return Fail(kExitFailure, s);
          }
        }
        RunModelSide(sel, &c);
        cells.push_back(std::move(c));
      }
    }
  }
  tb->reset();  // namespaces gone before we print
  cleanup.RunAll();
  if (!sel.reference_json.empty()) {
    if (absl::Status s = AttachReference(sel.reference_json, sel.reference, &cells); !s.ok()) {
      return Fail(kExitUsage, s);
    }
  }
  return Print(cells, sel, opts.tso, /*calibrated=*/!sel.model_only);
}

int Main() {
  absl::StatusOr<Selection> sel = SelectionFromFlags();
  if (!sel.ok()) return Fail(kExitUsage, sel.status());
  const std::string kernel_json = absl::GetFlag(FLAGS_kernel_json);
  if (kernel_json.empty()) return RunCells(*sel);
  // A recorded kernel side: only the model runs.
  absl::StatusOr<std::vector<Cell>> cells =
      RecordedCells(kernel_json, *sel);
  if (!cells.ok()) return Fail(kExitUsage, cells.status());
  if (!sel->reference_json.empty()) {
    if (absl::Status s = AttachReference(sel->reference_json, sel->reference, &*cells); !s.ok()) {
      return Fail(kExitUsage, s);
    }
  }
  return Print(*cells, *sel, absl::GetFlag(FLAGS_tso), /*calibrated=*/true);
}

}  // namespace
}  // namespace sendsim::kernelcmp

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "compare sendsim's linux-6.18 figures with this machine's kernel (needs root)");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (absl::Status s = sendsim::cli::EnterUserWorkingDirectory(); !s.ok()) {
    absl::FPrintF(stderr, "%s: %s\n", "kernelcmp", s.message());
    return 2;
  }
  if (rest.size() > 1) {
    std::fprintf(stderr, "kernelcmp: unexpected argument %s\n", rest[1]);
    return 2;
  }
  return sendsim::kernelcmp::Main();
}
