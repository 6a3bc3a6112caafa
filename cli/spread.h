#ifndef SENDSIM_CLI_SPREAD_H_
#define SENDSIM_CLI_SPREAD_H_

// Each writer's figures across the runs of several seeds: how firm a
// figure of one run is. Timings that vary on a real host (the OSD reply
// time) are seeded, so one run is one draw.

#include <cstdint>
#include <string>
#include <vector>

#include "cli/seed_runs.h"
#include "nlohmann/json.hpp"

namespace sendsim::cli {

struct Spread {
  double mean = 0;
  double min = 0;
  double max = 0;
};
// Zeros when `xs` is empty.
Spread SpreadOf(const std::vector<double>& xs);

struct SizeShare {
  uint32_t size = 0;
  Spread share_pct;  // % of the writer's packets, per run (0 in a run without it)
};

struct WriterSpread {
  std::string writer;
  std::string kernel;
  Spread packets;
  Spread sub_mss_packets;
  Spread change_pct;            // against the first writer of the same run
  std::vector<SizeShare> top;   // the most frequent sizes of all runs pooled, as in the table
};

// One entry per writer (the writers of runs[0], in order). Every run must
// hold the same writers in the same order (RunSeeds' output does).
std::vector<WriterSpread> ComputeSpread(const std::vector<SeedRun>& runs);

// "Over N seeds (A-B), mean [min, max]:" and one row per writer, then each
// writer's top sizes with their shares.
std::string FormatSpreadTable(const std::vector<SeedRun>& runs, const std::vector<WriterSpread>& spread);

// {"mean", "min", "max"}, rounded to 4 decimals so that the text is stable.
nlohmann::ordered_json SpreadJson(const Spread& s);
// {"seeds": [...], "writers": [{"writer", "kernel", "packets", "sub_mss_packets",
// "change_pct", "top_sizes": [{"size", "share_pct"}]}]}
nlohmann::ordered_json SpreadsJson(const std::vector<SeedRun>& runs, const std::vector<WriterSpread>& spread);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_SPREAD_H_
