#ifndef SENDSIM_CLI_REPORT_H_
#define SENDSIM_CLI_REPORT_H_

// The three output formats of a comparison. The first result is the
// baseline the others' change in packets is measured against.

#include <string>
#include <vector>

#include "cli/run_result.h"
#include "scenario/scenario.h"
#include "cli/seed_runs.h"

namespace sendsim::cli {

// Sizes shown per writer in the table (the 2018 measurement's "top 5").
inline constexpr int kTableTopSizes = 5;

// Packet change of `r` against `base` in percent (0 when base has none).
double ChangePercent(const RunResult& r, const RunResult& base);

// Human table: per writer SIZE/COUNT top 5, totals, change vs the first
// writer and the sub-MSS packets broken down by push reason; then a summary.
std::string FormatTable(const scenario::Scenario& s, const std::vector<RunResult>& results);
// {"scenario": {...}, "results": [{"writer", "kernel", "packets", ...}]}
std::string FormatJson(const scenario::Scenario& s, const std::vector<RunResult>& results);

// Several seeds (runs[0] under the scenario's own seed): the table above of
// runs[0], then each writer's spread across the runs and the 2018
// measurement's criteria (cli/spread.h, cli/reported_criteria.h).
std::string FormatTable(const scenario::Scenario& s, const std::vector<SeedRun>& runs);
// As FormatJson above for runs[0], plus "seed_runs": [{"seed", "results"}]
// for the other seeds, "spread" and "reported_criteria".
std::string FormatJson(const scenario::Scenario& s, const std::vector<SeedRun>& runs);

// Long form: writer,kernel,kind,key,value with kind in
// {total, size, reason_packets, reason_sub_mss, completion_ns, counter}.
std::string FormatCsv(const scenario::Scenario& s, const std::vector<RunResult>& results);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_REPORT_H_
