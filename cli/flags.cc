#include "cli/flags.h"

#include <functional>
#include <limits>
#include <set>
#include <type_traits>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "scenario/scenario_json.h"
#include "scenario/settings.h"
#include "scenario/text_util.h"

namespace {
const sendsim::scenario::Scenario& D() {
  static const auto* const kDefault = new sendsim::scenario::Scenario();
  return *kDefault;
}
}  // namespace

namespace sendsim::cli {

// How a Scenario member of each type is given on the command line: the
// Abseil flag's type, the flag's default from the member's, and the member
// from the flag's value (an error names the key).
template <typename T>
struct FlagCodec {  // numbers, bools and strings as they are
  using Flag = T;
  static Flag ToFlag(const T& v) { return v; }
  static absl::Status FromFlag(absl::string_view, const Flag& f, T* v) {
    *v = f;
    return absl::OkStatus();
  }
};
template <>
struct FlagCodec<uint8_t> {
  using Flag = uint32_t;
  static Flag ToFlag(uint8_t v) { return v; }
  static absl::Status FromFlag(absl::string_view key, Flag f, uint8_t* v) {
    if (f > 255) return absl::InvalidArgumentError(absl::StrFormat("%s: %d does not fit in 8 bits", key, f));
    *v = static_cast<uint8_t>(f);
    return absl::OkStatus();
  }
};
// Times (model::TimeNs): unsigned on the command line.
template <>
struct FlagCodec<int64_t> {
  using Flag = uint64_t;
  static Flag ToFlag(int64_t v) { return static_cast<uint64_t>(v); }
  static absl::Status FromFlag(absl::string_view key, Flag f, int64_t* v) {
    if (f > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return absl::InvalidArgumentError(absl::StrFormat("%s: %d does not fit in 63 bits", key, f));
    }
    *v = static_cast<int64_t>(f);
    return absl::OkStatus();
  }
};
// Structured and named values: a string flag, its text form and parser.
template <typename T, std::string (*Print)(const T&), absl::StatusOr<T> (*Parse)(absl::string_view)>
struct TextFlagCodec {
  using Flag = std::string;
  static Flag ToFlag(const T& v) { return Print(v); }
  static absl::Status FromFlag(absl::string_view, const Flag& f, T* v) {
    absl::StatusOr<T> parsed = Parse(f);
    if (!parsed.ok()) return parsed.status();
    *v = *std::move(parsed);
    return absl::OkStatus();
  }
};
template <typename E, absl::string_view (*Name)(E)>
std::string NameOf(const E& e) {
  return std::string(Name(e));
}
template <>
struct FlagCodec<std::vector<scenario::SizeMixEntry>>
    : TextFlagCodec<std::vector<scenario::SizeMixEntry>, SizeMixString, ParseSizeMix> {};
template <>
struct FlagCodec<std::vector<scenario::WriterSpec>>
    : TextFlagCodec<std::vector<scenario::WriterSpec>, WriterListString, ParseWriterList> {};
template <>
struct FlagCodec<scenario::DataLayout>
    : TextFlagCodec<scenario::DataLayout, NameOf<scenario::DataLayout, scenario::DataLayoutName>,
                    scenario::DataLayoutByName> {};
template <>
struct FlagCodec<scenario::GroMode>
    : TextFlagCodec<scenario::GroMode, NameOf<scenario::GroMode, scenario::GroModeName>, scenario::GroModeByName> {};
template <>
struct FlagCodec<model::CongestionControl>
    : TextFlagCodec<model::CongestionControl,
                    NameOf<model::CongestionControl, scenario::CongestionControlName>,
                    scenario::CongestionControlByName> {};

template <typename T>
using FlagCodecOf = FlagCodec<std::remove_cvref_t<T>>;

}  // namespace sendsim::cli

// Help strings: meaning [unit]. Source: where the default comes from.
// (Mirrored by the table in cli/README.md.)
ABSL_FLAG(std::string, scenario, "", "Scenario file (JSON, see testdata/scenarios/README.md); flags override it.");
ABSL_FLAG(std::string, format, "table",
          "Output: table (human), json (one object, every seed's run), csv (writer,kernel,kind,key,value; "
          "the first seed's run).");
ABSL_FLAG(bool, dump_scenario, false, "Print the effective scenario as JSON and exit without running.");

// One flag per setting of the table (scenario/settings.h), of the type its
// FlagCodec gives, defaulting to Scenario()'s value.
#define SENDSIM_SETTING_FLAG(key, member, group, check, help)                                             \
  ABSL_FLAG(sendsim::cli::FlagCodecOf<decltype(D().member)>::Flag, key,           \
            sendsim::cli::FlagCodecOf<decltype(D().member)>::ToFlag(D().member), help);
SENDSIM_SCENARIO_SETTINGS(SENDSIM_SETTING_FLAG)
#undef SENDSIM_SETTING_FLAG

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
ABSL_FLAG(bool, record, false,
          "sendsim packetdrill only: do not check the scripts' outbound lines; print every packet the target "
          "sent after the verdict, as script lines with their times (to write a script, or to compare the "
          "model with a kernel on the same inbound packets and calls).");
ABSL_FLAG(uint32_t, threads, 0,
          "Runs at once [threads, 0 = one per CPU]. The output does not depend on it.");
ABSL_FLAG(uint64_t, max_memory_mb, 4096,
          "Refuse a run whose estimated memory exceeds this [MiB]; the estimate is printed with the refusal.");
ABSL_FLAG(uint64_t, max_minutes, 60,
          "Refuse a run whose estimated run time exceeds this [minutes]; the estimate is printed with the refusal.");
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

const std::vector<Knob>& Knobs() {
  static const auto* const kKnobs = new std::vector<Knob>{
#define SENDSIM_KNOB(key, member, group, check, help)                                         \
  Knob{#key, [](Scenario* s) {                                                                \
         return FlagCodecOf<decltype(s->member)>::FromFlag(#key, absl::GetFlag(FLAGS_##key), &s->member); \
       }},
      SENDSIM_SCENARIO_SETTINGS(SENDSIM_KNOB)
#undef SENDSIM_KNOB
  };
  return *kKnobs;
}

// Flags that are not scenario knobs.
constexpr const char* kControlFlags[] = {"scenario",        "format",           "dump_scenario",   "threads",
                                         "target",          "max_memory_mb",    "max_minutes",     "tolerance_usecs",
                                         "tolerance_percent", "strict_segments", "record"};

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

namespace {

// The flag an argument names: NAME, or a bool's noNAME / no_NAME (then
// `negated`). Null if it names none of ours.
absl::CommandLineFlag* FindOurFlag(const std::string& name, bool has_value, bool* negated) {
  *negated = false;
  if (IsOurFlag(name)) return absl::FindCommandLineFlag(name);
  if (name.size() <= 2 || name.substr(0, 2) != "no") return nullptr;
  // --noNAME and --no-NAME (no_NAME once '-' became '_').
  const std::string base = name.size() > 3 && name[2] == '_' && IsOurFlag(name.substr(3)) ? name.substr(3)
                                                                                        : name.substr(2);
  absl::CommandLineFlag* flag = IsOurFlag(base) ? absl::FindCommandLineFlag(base) : nullptr;
  *negated = flag != nullptr && flag->IsOfType<bool>() && !has_value;
  return *negated ? flag : nullptr;
}

// One flag argument, body = "name[=value]" without the dashes; a value in
// the next argument moves `i` past it. Appends the flag's name to `specified`.
absl::Status SetFlagFromArg(const std::string& body, const std::vector<std::string>& args, size_t* i,
                            std::vector<std::string>* specified) {
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
  bool negated = false;
  absl::CommandLineFlag* flag = FindOurFlag(name, has_value, &negated);
  if (flag == nullptr) return Err(absl::StrFormat("unknown flag --%s (see --help)", EscapeForMessage(name)));
  if (flag->IsOfType<bool>()) {
    if (!has_value) value = negated ? "false" : "true";
  } else if (!has_value) {
    if (*i + 1 >= args.size()) return Err(absl::StrFormat("flag --%s needs a value", flag->Name()));
    // "--trace --messages=1" would otherwise write a file named
    // "--messages=1" and run with the default message count.
    if (absl::StartsWith(args[*i + 1], "--")) {
      return Err(absl::StrFormat(
          "flag --%s needs a value, got the flag \"%s\" (write --%s=VALUE for a value starting with \"--\")",
          flag->Name(), EscapeForMessage(args[*i + 1]), flag->Name()));
    }
    value = args[++*i];
  }
  std::string error;
  if (IsIntegerFlag(*flag) && !IsDecimal(value)) {
    return Err(absl::StrFormat("bad value \"%s\" for --%s: not a decimal integer", EscapeForMessage(value),
                               flag->Name()));
  }
  if (!flag->ParseFrom(value, &error)) {
    return Err(absl::StrFormat("bad value \"%s\" for --%s: %s", EscapeForMessage(value), flag->Name(), error));
  }
  specified->push_back(std::string(flag->Name()));
  return absl::OkStatus();
}

// The argv loop: positional arguments, --help, and every flag set through
// Abseil's reflection; opts->given gets the flags present.
absl::Status ParseArgs(const std::vector<std::string>& args, CliOptions* opts) {
  std::vector<std::string> specified;  // in command-line order, repeats allowed (last wins)
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      opts->positional.insert(opts->positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      opts->positional.push_back(arg);
      continue;
    }
    const std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    const std::string head = body.substr(0, body.find('='));
    if (head == "help" || head == "h" || head == "helpfull") {
      opts->help = true;
      continue;
    }
    if (absl::Status st = SetFlagFromArg(body, args, &i, &specified); !st.ok()) return st;
  }
  opts->given = std::set<std::string>(specified.begin(), specified.end());
  return absl::OkStatus();
}

// The scenario: the file (--scenario), then every setting's flag given.
absl::Status ApplyScenario(CliOptions* opts) {
  if (opts->Given("scenario")) {
    opts->scenario_path = absl::GetFlag(FLAGS_scenario);
    absl::StatusOr<Scenario> s = LoadScenarioFile(absl::GetFlag(FLAGS_scenario), opts->scenario);
    if (!s.ok()) return Err(std::string(s.status().message()));
    opts->scenario = *std::move(s);
  }
  for (const Knob& k : Knobs()) {
    if (!opts->Given(k.name)) continue;
    if (absl::Status st = k.apply(&opts->scenario); !st.ok()) {
      return Err(absl::StrFormat("--%s", st.message()));
    }
  }
  return absl::OkStatus();
}

// The flags that are not settings: output, targets, tolerances, budgets.
absl::Status ReadControlFlags(CliOptions* opts) {
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format == "table") {
    opts->format = OutputFormat::kTable;
  } else if (format == "json") {
    opts->format = OutputFormat::kJson;
  } else if (format == "csv") {
    opts->format = OutputFormat::kCsv;
  } else {
    return Err(absl::StrFormat("--format: unknown format \"%s\" (known: table, json, csv)", EscapeForMessage(format)));
  }
  opts->dump_scenario = absl::GetFlag(FLAGS_dump_scenario);
  opts->target = absl::GetFlag(FLAGS_target);
  if (opts->target != "model" && opts->target != "kernel" && opts->target != "uml-6.1" &&
      opts->target != "uml-6.12") {
    return Err(absl::StrFormat("--target: unknown target \"%s\" (known: model, kernel, uml-6.1, uml-6.12)",
                               EscapeForMessage(opts->target)));
  }
  opts->tolerance_usecs = absl::GetFlag(FLAGS_tolerance_usecs);
  if (opts->tolerance_usecs < 0 || opts->tolerance_usecs > 3600LL * 1000000) {
    return Err(absl::StrFormat("--tolerance_usecs: %d is out of range [0, 3600000000]", opts->tolerance_usecs));
  }
  opts->tolerance_percent = absl::GetFlag(FLAGS_tolerance_percent);
  if (!(opts->tolerance_percent >= 0 && opts->tolerance_percent <= 100)) {
    return Err(absl::StrFormat("--tolerance_percent: %g is out of range [0, 100]", opts->tolerance_percent));
  }
  opts->strict_segments = absl::GetFlag(FLAGS_strict_segments);
  opts->record = absl::GetFlag(FLAGS_record);
  opts->max_memory_mb = absl::GetFlag(FLAGS_max_memory_mb);
  opts->max_minutes = absl::GetFlag(FLAGS_max_minutes);
  opts->threads = absl::GetFlag(FLAGS_threads);
  if (opts->threads > kMaxThreads) {
    return Err(absl::StrFormat("--threads: %d is out of range [0, %d]", opts->threads, kMaxThreads));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CliOptions> ParseCommandLine(const std::vector<std::string>& args) {
  ResetFlags();
  CliOptions opts;
  if (absl::Status st = ParseArgs(args, &opts); !st.ok()) return st;
  if (absl::Status st = ApplyScenario(&opts); !st.ok()) return st;
  if (absl::Status st = ReadControlFlags(&opts); !st.ok()) return st;
  return opts;
}

std::string UsageText() {
  std::string out =
      "Usage: sendsim [FLAGS]                 run the scenario, compare the writers\n"
      "       sendsim packetdrill [--kernel=PROFILE] [--target=model|kernel|uml-6.1|uml-6.12]\n"
      "                           [--tolerance_usecs=N] [--tolerance_percent=P] [--strict_segments]\n"
      "                           [--record] FILE...\n"
      "                                        run packetdrill scripts on the model (or the kernel);\n"
      "                                        the default profile is linux-6.18, or the first of a\n"
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
