#include "cli/flags.h"

#include <functional>
#include <limits>
#include <set>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "scenario/scenario_json.h"
#include "scenario/text_util.h"

namespace {
const sendsim::scenario::Scenario& D() {
  static const auto* const kDefault = new sendsim::scenario::Scenario();
  return *kDefault;
}
}  // namespace

// Help strings: meaning [unit]. Source: where the default comes from.
// (Mirrored by the table in cli/README.md.)
ABSL_FLAG(std::string, scenario, "", "Scenario file (JSON, see testdata/scenarios/README.md); flags override it.");
ABSL_FLAG(std::string, format, "table",
          "Output: table (human), json (one object, every seed's run), csv (writer,kernel,kind,key,value; "
          "the first seed's run).");
ABSL_FLAG(bool, dump_scenario, false, "Print the effective scenario as JSON and exit without running.");

ABSL_FLAG(uint64_t, messages, D().messages,
          "Messages sent per writer [count]. Source: about 10,000 krbd-style 128 KiB OSD writes.");
ABSL_FLAG(std::string, sizes, "131072",
          "Data bytes per message, a weighted mix SIZE[:WEIGHT],... with K/M/G suffixes [bytes]. "
          "Source: krbd 128 KiB writes as in the 2018 measurement.");
ABSL_FLAG(uint32_t, front_len, D().front_len,
          "MOSDOp front length [bytes]. Source: the 2018 measurement's odd packet sizes imply 192 "
          "(1019 = 131339 mod 1448); docs/libceph-write-path.md 11.2 computes 277 for a luminous MOSDOp v8.");
ABSL_FLAG(std::string, layout, "bio",
          "Data item kind: pages, pagelist, bio, bvecs. Source: krbd passes block-layer bios (docs/libceph-write-path.md 7.1).");
ABSL_FLAG(uint32_t, page_offset, D().page_offset,
          "Offset of the first data byte in its first page [bytes, < 4096]. Source: page-cache and "
          "O_DIRECT 4 KiB I/O is page aligned.");
ABSL_FLAG(uint32_t, queue_depth, D().queue_depth,
          "OSD requests kept outstanding; a new one is submitted when a reply arrives [requests, 0 = all at "
          "t=0]. Source: a lightly loaded krbd client (fio iodepth=4; krbd allows 128). At >= 8 the 10 GbE link "
          "saturates and the model shows none of the 2018 measurement's per-page runts (docs/notes/2026-12-02-default-scenario-calibration.md).");
ABSL_FLAG(uint64_t, osd_reply_ns, D().osd_reply_ns,
          "OSD time from having the whole request to its reply [ns]. Source: SSD-backed BlueStore write "
          "latency of a few hundred us (UNVERIFIED).");
ABSL_FLAG(uint64_t, osd_reply_jitter_ns, D().osd_reply_jitter_ns,
          "Spread of the OSD reply time: each reply adds a seeded uniform draw from [0, this] [ns]. Source: "
          "no OSD measurement; one part of the reply path, a receiving thread's wakeup, measured 53-269 us "
          "across the kernel comparison's 128 KiB cells (tools/kernelcmp). Without spread the queue-depth "
          "workload repeats one 4-message cycle and the counts are phase artifacts (0: lockstep).");
ABSL_FLAG(uint32_t, mss, D().mss,
          "TCP MSS (mss_cache) [bytes]. Source: 1500 MTU - 20 IPv4 - 20 TCP - 12 timestamp option.");
ABSL_FLAG(uint32_t, mtu, D().mtu, "Interface MTU [bytes]. Source: Ethernet default; jumbo frames were optional.");
ABSL_FLAG(bool, timestamps, D().timestamps, "TCP timestamps option (12 bytes per segment). Source: net.ipv4.tcp_timestamps=1.");
ABSL_FLAG(bool, tso, D().tso, "NIC TCP segmentation offload. Source: on by default on 10 GbE NICs (ixgbe, i40e, mlx5).");
ABSL_FLAG(bool, nodelay, D().nodelay, "TCP_NODELAY. Source: libceph sets it on every connection.");
ABSL_FLAG(bool, autocorking, D().autocorking, "net.ipv4.tcp_autocorking. Source: kernel default 1 since 3.14.");
ABSL_FLAG(uint32_t, sndbuf, D().sndbuf,
          "SO_SNDBUF [bytes, 0 = autotuned from tcp_wmem]. Source: libceph does not set it.");
ABSL_FLAG(uint32_t, hz, D().hz, "Kernel HZ (jiffy = 1/HZ s) [100|250|300|1000]. Source: Debian/Ubuntu CONFIG_HZ_250.");
ABSL_FLAG(uint64_t, link_mbps, D().link_mbps, "Link rate [Mbit/s]. Source: 10 GbE, the 2018 Ceph norm.");
ABSL_FLAG(uint64_t, rtt_ns, D().rtt_ns,
          "Round-trip propagation + switching, half each way [ns]. Source: same-rack 10 GbE ping, 20-100 us.");
ABSL_FLAG(uint64_t, tx_completion_ns, D().tx_completion_ns,
          "NIC TX-completion delay after the last bit (interrupt coalescing; releases autocork/TSQ) [ns]. "
          "Source: ethtool -c tx-usecs / adaptive ITR, plausibly 5-50 us (UNVERIFIED).");
ABSL_FLAG(uint64_t, call_cost_ns, D().call_cost_ns,
          "CPU time of one socket call holding the socket [ns]. Source: estimate for a 2018 Xeon "
          "do_tcp_sendpages of one page, 1-2 us (UNVERIFIED).");
ABSL_FLAG(uint64_t, crc_ns_per_page, D().crc_ns_per_page,
          "crc32c work between page calls [ns per 4 KiB]. Source: docs/libceph-write-path.md 10.1 estimate (~1 us).");
ABSL_FLAG(bool, delayed_ack, D().delayed_ack, "Peer delays ACKs (false: quickack every segment). Source: Linux default.");
ABSL_FLAG(uint32_t, ack_every, D().ack_every,
          "Full-sized segments per immediate ACK [segments]. Source: Linux __tcp_ack_snd_check (more than one MSS).");
ABSL_FLAG(std::string, gro, "batch", "Peer GRO: off or batch. Source: GRO is on by default in Linux NIC drivers.");
ABSL_FLAG(uint64_t, gro_flush_ns, D().gro_flush_ns,
          "Peer GRO: a gap longer than this ends a batch (NAPI poll) [ns]. Source: rx interrupt coalescing, "
          "a few us at 10 GbE (UNVERIFIED).");
ABSL_FLAG(uint64_t, ack_proc_ns, D().ack_proc_ns,
          "Peer softirq latency before an ACK leaves [ns]. Source: receive softirq + TX, a few us (UNVERIFIED).");
ABSL_FLAG(std::string, kernel, D().kernel,
          "Kernel profile of the sender: linux-4.19|linux-5.0|linux-6.8|linux-6.18; also sendsim packetdrill's "
          "default. Source: the 2018 measurement's era (v4.19).");
ABSL_FLAG(std::string, writers, "v1-legacy,v1-notlast,v1-cork,v1-splice@linux-6.8,v2@linux-6.8",
          "Writers to compare, WRITER[@KERNEL],...; the first is the baseline. Known: v1-legacy, v1-notlast, "
          "v1-cork, v1-splice, v2, and the comparison writers v1-more (MORE without NOTLAST), v1-sendmsg (one "
          "sendmsg per message), v1-cork-batch (TCP_CORK held across more_to_follow; props/README.md).");
ABSL_FLAG(uint64_t, seed, D().seed,
          "Seed of the first run's PRNG streams (size mix draws, page contents, OSD reply spread). Same inputs "
          "+ seed = same output.");
ABSL_FLAG(uint32_t, seeds, D().seeds,
          "Runs of the comparison, under seeds seed .. seed+N-1 [runs, 1-1000]. The table, csv, --trace, "
          "--pcap and --plot are the first run's; the spread across runs and the 2018 measurement's criteria "
          "follow the table, and JSON carries every run.");
ABSL_FLAG(std::string, target, "model",
          "sendsim packetdrill only: run the scripts on the model, or on this machine's kernel over a tun "
          "device in a network namespace (kernel; root only), or on Linux 6.1 or 6.12 as user-mode Linux in "
          "virtual time (uml-6.1, uml-6.12; deterministic; kernels from tools/uml/build.sh).");
ABSL_FLAG(int64_t, tolerance_usecs, 4000,
          "sendsim packetdrill only: how far (us) an event may be from its script time, at least "
          "[0-3600000000]; a script's own --tolerance_usecs line wins. Source: packetdrill's default.");
ABSL_FLAG(double, tolerance_percent, 12.5,
          "sendsim packetdrill only: the tolerance is at least this share (%) of the time since the previous "
          "event [0-100]; a script's own line wins. Source: packetdrill's default.");
ABSL_FLAG(bool, strict_segments, false,
          "sendsim packetdrill only: match each outbound script line against exactly one packet instead of "
          "joining consecutive packets up to the line's length. Source: packetdrill's flag.");
ABSL_FLAG(uint32_t, threads, 0,
          "Runs at once [threads, 0 = one per CPU]. The output does not depend on it.");
ABSL_FLAG(uint64_t, max_memory_mb, 4096,
          "Refuse a run whose estimated memory exceeds this [MiB]; the estimate is printed with the refusal.");
ABSL_FLAG(uint64_t, max_minutes, 60,
          "Refuse a run whose estimated run time exceeds this [minutes]; the estimate is printed with the refusal.");
ABSL_FLAG(std::string, trace, "",
          "Write one CSV row per wire packet to FILE (per writer FILE.<writer>-<kernel>.csv when several run).");
ABSL_FLAG(std::string, pcap, "", "Write a pcap of the run to FILE (per writer suffix as for --trace).");
ABSL_FLAG(std::string, plot, "", "Write an SVG of the writers' size histograms to FILE.");

namespace sendsim::cli {

using scenario::DataLayout;
using scenario::DataLayoutByName;
using scenario::EscapeForMessage;
using scenario::GroMode;
using scenario::GroModeByName;
using scenario::LoadScenarioFile;
using scenario::OneLine;
using scenario::ParseWriterSpec;
using scenario::Scenario;
using scenario::SizeMixEntry;
using scenario::WriterSpec;
using scenario::WriterSpecString;
namespace {

absl::Status Err(std::string msg) { return absl::InvalidArgumentError(OneLine(std::move(msg))); }

using Apply = std::function<absl::Status(Scenario*)>;
struct Knob {
  const char* name;
  Apply apply;  // copies the flag's value into the scenario
};

#define SENDSIM_KNOB(name, field) \
  Knob { #name, [](Scenario* s) { s->field = absl::GetFlag(FLAGS_##name); return absl::OkStatus(); } }

const std::vector<Knob>& Knobs() {
  static const auto* const kKnobs = new std::vector<Knob>{
      SENDSIM_KNOB(messages, messages),
      Knob{"sizes",
           [](Scenario* s) {
             absl::StatusOr<std::vector<SizeMixEntry>> m = ParseSizeMix(absl::GetFlag(FLAGS_sizes));
             if (!m.ok()) return m.status();
             s->sizes = *std::move(m);
             return absl::OkStatus();
           }},
      SENDSIM_KNOB(front_len, front_len),
      Knob{"layout",
           [](Scenario* s) {
             absl::StatusOr<DataLayout> l = DataLayoutByName(absl::GetFlag(FLAGS_layout));
             if (!l.ok()) return l.status();
             s->layout = *l;
             return absl::OkStatus();
           }},
      SENDSIM_KNOB(page_offset, page_offset),
      SENDSIM_KNOB(queue_depth, queue_depth),
      SENDSIM_KNOB(osd_reply_ns, osd_reply_ns),
      SENDSIM_KNOB(osd_reply_jitter_ns, osd_reply_jitter_ns),
      SENDSIM_KNOB(mss, mss),
      SENDSIM_KNOB(mtu, mtu),
      SENDSIM_KNOB(timestamps, timestamps),
      SENDSIM_KNOB(tso, tso),
      SENDSIM_KNOB(nodelay, nodelay),
      SENDSIM_KNOB(autocorking, autocorking),
      SENDSIM_KNOB(sndbuf, sndbuf),
      SENDSIM_KNOB(hz, hz),
      SENDSIM_KNOB(link_mbps, link_mbps),
      SENDSIM_KNOB(rtt_ns, rtt_ns),
      SENDSIM_KNOB(tx_completion_ns, tx_completion_ns),
      SENDSIM_KNOB(call_cost_ns, call_cost_ns),
      SENDSIM_KNOB(crc_ns_per_page, crc_ns_per_page),
      SENDSIM_KNOB(delayed_ack, delayed_ack),
      SENDSIM_KNOB(ack_every, ack_every),
      Knob{"gro",
           [](Scenario* s) {
             absl::StatusOr<GroMode> g = GroModeByName(absl::GetFlag(FLAGS_gro));
             if (!g.ok()) return g.status();
             s->gro = *g;
             return absl::OkStatus();
           }},
      SENDSIM_KNOB(gro_flush_ns, gro_flush_ns),
      SENDSIM_KNOB(ack_proc_ns, ack_proc_ns),
      SENDSIM_KNOB(kernel, kernel),
      Knob{"writers",
           [](Scenario* s) {
             absl::StatusOr<std::vector<WriterSpec>> w = ParseWriterList(absl::GetFlag(FLAGS_writers));
             if (!w.ok()) return w.status();
             s->writers = *std::move(w);
             return absl::OkStatus();
           }},
      SENDSIM_KNOB(seed, seed),
      SENDSIM_KNOB(seeds, seeds),
      SENDSIM_KNOB(trace, trace),
      SENDSIM_KNOB(pcap, pcap),
      SENDSIM_KNOB(plot, plot),
  };
  return *kKnobs;
}
#undef SENDSIM_KNOB

// Flags that are not scenario knobs.
constexpr const char* kControlFlags[] = {"scenario",        "format",           "dump_scenario",   "threads",
                                         "target",          "max_memory_mb",    "max_minutes",     "tolerance_usecs",
                                         "tolerance_percent", "strict_segments"};

std::vector<std::string> AllFlagNames() {
  std::vector<std::string> names(std::begin(kControlFlags), std::end(kControlFlags));
  for (const Knob& k : Knobs()) names.push_back(k.name);
  return names;
}

bool IsOurFlag(const std::string& name) {
  for (const std::string& n : AllFlagNames()) {
    if (n == name) return true;
  }
  return false;
}

// Resets every flag so that repeated parses (tests) start from the defaults.
void ResetFlags() {
  for (const std::string& n : AllFlagNames()) {
    absl::CommandLineFlag* f = absl::FindCommandLineFlag(n);
    std::string err;
    if (f != nullptr) f->ParseFrom(f->DefaultValue(), &err);
  }
}

bool IsIntegerFlag(const absl::CommandLineFlag& f) {
  return f.IsOfType<uint64_t>() || f.IsOfType<uint32_t>() || f.IsOfType<int64_t>() || f.IsOfType<int32_t>();
}

// Abseil also reads "0x10" and "+5"; a count or a time in a command line is
// decimal, and a typo should not become a different number.
bool IsDecimal(absl::string_view v) {
  if (!v.empty() && v[0] == '-') v.remove_prefix(1);
  if (v.empty()) return false;
  for (char c : v) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

absl::StatusOr<uint64_t> ParseBytes(absl::string_view text, absl::string_view what) {
  std::string t = absl::AsciiStrToUpper(absl::StripAsciiWhitespace(text));
  uint64_t mult = 1;
  if (!t.empty()) {
    const char c = t.back();
    if (c == 'K' || c == 'M' || c == 'G') {
      mult = c == 'K' ? (uint64_t{1} << 10) : c == 'M' ? (uint64_t{1} << 20) : (uint64_t{1} << 30);
      t.pop_back();
    }
  }
  uint64_t v = 0;
  if (t.empty() || !absl::SimpleAtoi(t, &v) || t[0] == '-' || t[0] == '+') {
    return Err(absl::StrFormat("%s: \"%s\" is not a byte count", what, EscapeForMessage(text)));
  }
  if (v > std::numeric_limits<uint64_t>::max() / mult) {
    return Err(absl::StrFormat("%s: \"%s\" overflows 64 bits", what, EscapeForMessage(text)));
  }
  return v * mult;
}

}  // namespace

std::vector<std::string> KnobFlagNames() {
  std::vector<std::string> names;
  for (const Knob& k : Knobs()) names.push_back(k.name);
  return names;
}

absl::StatusOr<std::vector<SizeMixEntry>> ParseSizeMix(absl::string_view text) {
  std::vector<SizeMixEntry> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    std::vector<absl::string_view> f = absl::StrSplit(part, ':');
    if (f.size() > 2) return Err(absl::StrFormat("sizes: \"%s\" is not SIZE[:WEIGHT]", EscapeForMessage(part)));
    absl::StatusOr<uint64_t> bytes = ParseBytes(f[0], "sizes");
    if (!bytes.ok()) return bytes.status();
    SizeMixEntry e{*bytes, 1};
    if (f.size() == 2 && (!absl::SimpleAtoi(f[1], &e.weight) || f[1].empty() || f[1][0] == '-')) {
      return Err(absl::StrFormat("sizes: weight \"%s\" is not a 32-bit unsigned integer", EscapeForMessage(f[1])));
    }
    out.push_back(e);
  }
  return out;
}

std::string SizeMixString(const std::vector<SizeMixEntry>& sizes) {
  return absl::StrJoin(sizes, ",", [](std::string* o, const SizeMixEntry& e) {
    absl::StrAppend(o, e.bytes);
    if (e.weight != 1) absl::StrAppend(o, ":", e.weight);
  });
}

absl::StatusOr<std::vector<WriterSpec>> ParseWriterList(absl::string_view text) {
  std::vector<WriterSpec> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    absl::StatusOr<WriterSpec> w = ParseWriterSpec(absl::StripAsciiWhitespace(part));
    if (!w.ok()) return Err(std::string(w.status().message()));
    out.push_back(*std::move(w));
  }
  return out;
}

std::string WriterListString(const std::vector<WriterSpec>& writers) {
  return absl::StrJoin(writers, ",", [](std::string* o, const WriterSpec& w) { o->append(WriterSpecString(w)); });
}

absl::StatusOr<CliOptions> ParseCommandLine(const std::vector<std::string>& args) {
  ResetFlags();
  CliOptions opts;
  std::vector<std::string> specified;  // in command-line order, repeats allowed (last wins)
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      opts.positional.insert(opts.positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      opts.positional.push_back(arg);
      continue;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string name = body;
    std::string value;
    bool has_value = false;
    if (const size_t eq = body.find('='); eq != std::string::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    for (char& c : name) {
      if (c == '-') c = '_';
    }
    if (name == "help" || name == "h" || name == "helpfull") {
      opts.help = true;
      continue;
    }
    absl::CommandLineFlag* flag = IsOurFlag(name) ? absl::FindCommandLineFlag(name) : nullptr;
    bool negated = false;
    // --noNAME and --no-NAME (no_NAME once '-' became '_').
    if (flag == nullptr && name.size() > 2 && name.substr(0, 2) == "no") {
      const std::string base = name.size() > 3 && name[2] == '_' && IsOurFlag(name.substr(3)) ? name.substr(3)
                                                                                            : name.substr(2);
      flag = IsOurFlag(base) ? absl::FindCommandLineFlag(base) : nullptr;
      negated = flag != nullptr && flag->IsOfType<bool>() && !has_value;
      if (!negated) flag = nullptr;
    }
    if (flag == nullptr) {
      return Err(absl::StrFormat("unknown flag --%s (see --help)", EscapeForMessage(name)));
    }
    if (flag->IsOfType<bool>()) {
      if (!has_value) value = negated ? "false" : "true";
    } else if (!has_value) {
      if (i + 1 >= args.size()) return Err(absl::StrFormat("flag --%s needs a value", flag->Name()));
      value = args[++i];
    }
    std::string error;
    if (IsIntegerFlag(*flag) && !IsDecimal(value)) {
      return Err(absl::StrFormat("bad value \"%s\" for --%s: not a decimal integer", EscapeForMessage(value),
                                 flag->Name()));
    }
    if (!flag->ParseFrom(value, &error)) {
      return Err(absl::StrFormat("bad value \"%s\" for --%s: %s", EscapeForMessage(value), flag->Name(), error));
    }
    specified.push_back(std::string(flag->Name()));
  }

  opts.given = std::set<std::string>(specified.begin(), specified.end());
  const std::set<std::string>& given = opts.given;
  if (given.count("scenario")) {
    opts.scenario_path = absl::GetFlag(FLAGS_scenario);
    absl::StatusOr<Scenario> s = LoadScenarioFile(absl::GetFlag(FLAGS_scenario), opts.scenario);
    if (!s.ok()) return Err(std::string(s.status().message()));
    opts.scenario = *std::move(s);
  }
  for (const Knob& k : Knobs()) {
    if (!given.count(k.name)) continue;
    if (absl::Status st = k.apply(&opts.scenario); !st.ok()) {
      return Err(absl::StrFormat("--%s", st.message()));
    }
  }
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format == "table") {
    opts.format = OutputFormat::kTable;
  } else if (format == "json") {
    opts.format = OutputFormat::kJson;
  } else if (format == "csv") {
    opts.format = OutputFormat::kCsv;
  } else {
    return Err(absl::StrFormat("--format: unknown format \"%s\" (known: table, json, csv)", EscapeForMessage(format)));
  }
  opts.dump_scenario = absl::GetFlag(FLAGS_dump_scenario);
  opts.target = absl::GetFlag(FLAGS_target);
  if (opts.target != "model" && opts.target != "kernel" && opts.target != "uml-6.1" && opts.target != "uml-6.12") {
    return Err(absl::StrFormat("--target: unknown target \"%s\" (known: model, kernel, uml-6.1, uml-6.12)",
                               EscapeForMessage(opts.target)));
  }
  opts.tolerance_usecs = absl::GetFlag(FLAGS_tolerance_usecs);
  if (opts.tolerance_usecs < 0 || opts.tolerance_usecs > 3600LL * 1000000) {
    return Err(absl::StrFormat("--tolerance_usecs: %d is out of range [0, 3600000000]", opts.tolerance_usecs));
  }
  opts.tolerance_percent = absl::GetFlag(FLAGS_tolerance_percent);
  if (!(opts.tolerance_percent >= 0 && opts.tolerance_percent <= 100)) {
    return Err(absl::StrFormat("--tolerance_percent: %g is out of range [0, 100]", opts.tolerance_percent));
  }
  opts.strict_segments = absl::GetFlag(FLAGS_strict_segments);
  opts.max_memory_mb = absl::GetFlag(FLAGS_max_memory_mb);
  opts.max_minutes = absl::GetFlag(FLAGS_max_minutes);
  opts.threads = absl::GetFlag(FLAGS_threads);
  if (opts.threads > kMaxThreads) {
    return Err(absl::StrFormat("--threads: %d is out of range [0, %d]", opts.threads, kMaxThreads));
  }
  return opts;
}

std::string UsageText() {
  std::string out =
      "Usage: sendsim [FLAGS]                 run the scenario, compare the writers\n"
      "       sendsim packetdrill [--kernel=PROFILE] [--target=model|kernel|uml-6.1|uml-6.12]\n"
      "                           [--tolerance_usecs=N] [--tolerance_percent=P] [--strict_segments] FILE...\n"
      "                                        run packetdrill scripts on the model (or the kernel);\n"
      "                                        the default profile is --kernel's below, or the first of a\n"
      "                                        script's // profiles: header when it does not list it\n"
      "\n"
      "Simulates libceph's messenger writing OSD requests into a model of the Linux TCP send path and\n"
      "prints the packet sizes each writer produces. Flags use --name=value; '-' and '_' are the same\n"
      "in names; bool flags also take --name / --noname. Every default and its source: docs/cli-reference.md.\n"
      "\nFlags:\n";
  for (const std::string& n : AllFlagNames()) {
    const absl::CommandLineFlag* f = absl::FindCommandLineFlag(n);
    if (f == nullptr) continue;
    std::string name = n;
    for (char& c : name) {
      if (c == '_') c = '-';
    }
    const std::string def = f->DefaultValue();
    absl::StrAppendFormat(&out, "  --%s (default: %s)\n", name, def.empty() ? "\"\"" : def);
    // Word-wrap the help at 100 columns, indented by 6.
    std::string line = "     ";
    for (absl::string_view word : absl::StrSplit(f->Help(), ' ', absl::SkipEmpty())) {
      if (line.size() + 1 + word.size() > 100 && line.size() > 6) {
        out += line + "\n";
        line = "     ";
      }
      absl::StrAppend(&line, " ", word);
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace sendsim::cli
