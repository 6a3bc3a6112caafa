#ifndef SENDSIM_CLI_FLAGS_H_
#define SENDSIM_CLI_FLAGS_H_

// The command line: one Abseil flag per scenario knob (named like the
// scenario file's keys), plus --scenario, --format, --dump-scenario, --help.
// We parse argv ourselves through Abseil's flag reflection so that every
// problem becomes one line and exit code 2 (absl::ParseCommandLine exits 1).

#include <set>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "scenario/scenario.h"

namespace sendsim::cli {

enum class OutputFormat { kTable, kJson, kCsv };

inline constexpr uint32_t kMaxThreads = 256;

struct CliOptions {
  scenario::Scenario scenario;  // file (if any), then flags; not yet validated
  std::string scenario_path;    // --scenario
  OutputFormat format = OutputFormat::kTable;
  bool dump_scenario = false;
  uint32_t threads = 0;  // runs at once; 0: one per CPU
  uint64_t max_memory_mb = 4096;  // refuse runs estimated above (cli/budget.h)
  uint64_t max_minutes = 60;
  std::string target = "model";  // sendsim packetdrill: model or kernel
  // sendsim packetdrill: packetdrill's matching flags (packetdrill/outbound.h).
  int64_t tolerance_usecs = 4000;
  double tolerance_percent = 12.5;
  bool strict_segments = false;
  bool record = false;  // sendsim packetdrill --record
  bool help = false;
  std::vector<std::string> positional;  // e.g. {"packetdrill", "a.pkt"}
  std::set<std::string> given;          // flags present on the command line ('_' form)
  bool Given(const std::string& flag) const { return given.count(flag) != 0; }
};

// `args` excludes argv[0]. "--name=value", "--name value", "-name=value",
// "--bool"/"--nobool", '-' or '_' in names, "--" ends the flags.
absl::StatusOr<CliOptions> ParseCommandLine(const std::vector<std::string>& args);

// Names of the flags that set scenario knobs (same as the JSON keys).
std::vector<std::string> KnobFlagNames();

// --help text: every flag with its unit, default and where the default comes from.
std::string UsageText();

// "131072", "4096:3,128K:1", "4M" (K/M/G binary suffixes).
absl::StatusOr<std::vector<scenario::SizeMixEntry>> ParseSizeMix(absl::string_view text);
std::string SizeMixString(const std::vector<scenario::SizeMixEntry>& sizes);
absl::StatusOr<std::vector<scenario::WriterSpec>> ParseWriterList(absl::string_view text);
std::string WriterListString(const std::vector<scenario::WriterSpec>& writers);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_FLAGS_H_
