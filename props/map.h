#ifndef SENDSIM_PROPS_MAP_H_
#define SENDSIM_PROPS_MAP_H_

// `explore --map`: where the last-page-flag rule is optimal. The map is a
// list of cells; each cell pins one axis (per-call CPU cost, crc cost, RTT,
// ACK policy, window, send buffer, pieces per message, page offsets, front
// and middle sizes, messages in flight, MSS, kernel profile, or the
// quiescent regime) and draws --map_cases random cases for the rest from
// the general generator (no revoke). Every writer of kMapWriters runs on the
// same cases; per cell and writer the map counts how often the writer is
// optimal (no writer has fewer sub-MSS segments; "both": nor fewer packets)
// and how often it is strictly better or worse than v1-notlast in sub-MSS
// segments and in packets, and keeps the case where it is worst against
// v1-notlast (printed as a case text for --replay).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "props/case.h"

namespace sendsim::props {

// The writers compared, in column order (v1-notlast is the reference).
std::vector<Writer> MapWriters();

struct MapWriterStats {
  uint64_t cases = 0;  // runs that completed without a runner error
  uint64_t optimal_runts = 0, optimal_both = 0;
  uint64_t runts_better = 0, runts_worse = 0, packets_better = 0, packets_worse = 0;
  uint64_t sum_runts = 0, sum_packets = 0;
  int64_t worst_runts = 0, worst_packets = 0;  // max (writer - v1-notlast), runts first
  std::string worst_case;                      // FormatCase text, empty when never worse
};

struct MapCellResult {
  std::string axis, value;
  uint64_t cases = 0;
  std::vector<MapWriterStats> writers;  // MapWriters() order
};

struct MapOptions {
  uint64_t seed = 1;
  int64_t cases_per_cell = 300;
  std::vector<std::string> axes;  // empty: every axis
};

absl::StatusOr<std::vector<MapCellResult>> BuildMap(const MapOptions& opt);
std::string MapText(const std::vector<MapCellResult>& cells, const MapOptions& opt);
std::string MapJson(const std::vector<MapCellResult>& cells, const MapOptions& opt);
// Heat map of the share of cases in which each writer is optimal in sub-MSS
// segments (rows: cells, columns: writers).
std::string MapSvg(const std::vector<MapCellResult>& cells);

// A map cell's name and the first `n` cases it draws (the same cases, in
// the same order, that BuildMap runs in that cell for `seed`), with the
// cell's axis pinned; writer and profile as drawn (callers set their own).
struct MapCellCases {
  std::string axis, value;
  std::vector<Case> cases;
};
std::vector<std::pair<std::string, std::string>> MapCellNames();
absl::StatusOr<MapCellCases> CellCases(const std::string& axis, const std::string& value, int64_t n, uint64_t seed);

// The explorer's entry points (flags in map.cc).
bool MapRequested();
int RunMap(int shards, int shard);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_MAP_H_
