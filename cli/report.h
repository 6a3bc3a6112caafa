#ifndef SENDSIM_CLI_REPORT_H_
#define SENDSIM_CLI_REPORT_H_

// The three output formats of a comparison. The first result is the
// baseline the others' change in packets is measured against.

#include <string>
#include <vector>

#include "cli/run_result.h"
#include "cli/scenario.h"

namespace sendsim::cli {

// Sizes shown per writer in the table (the seed's "top 5").
inline constexpr int kTableTopSizes = 5;

// Packet change of `r` against `base` in percent (0 when base has none).
double ChangePercent(const RunResult& r, const RunResult& base);

// Human table: per writer SIZE/COUNT top 5, totals, change vs the first
// writer and the sub-MSS packets broken down by push reason; then a summary.
std::string FormatTable(const Scenario& s, const std::vector<RunResult>& results);
// {"scenario": {...}, "results": [{"writer", "kernel", "packets", ...}]}
std::string FormatJson(const Scenario& s, const std::vector<RunResult>& results);
// Long form: writer,kernel,kind,key,value with kind in
// {total, size, reason_packets, reason_sub_mss, completion_ns, counter}.
std::string FormatCsv(const Scenario& s, const std::vector<RunResult>& results);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_REPORT_H_
