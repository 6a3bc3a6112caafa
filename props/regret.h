#ifndef SENDSIM_PROPS_REGRET_H_
#define SENDSIM_PROPS_REGRET_H_

// `explore --regret`: outside the quiescent regime, how far each v1 writer
// is from the best per-piece flag assignment under the same case's timing.
// Per case (small layouts: at most kExhaustiveFreePieces free pieces, so the
// 3^k assignments of {MORE|NOTLAST, MORE, none} are all run, the payload's
// last piece MORE as v1-notlast has it), the best assignment's sub-MSS count
// and packets; per writer, regret = its count - the best. A writer outside
// the assignment space (corking, one sendmsg) can have negative regret.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "props/case.h"
#include "props/runner.h"

namespace sendsim::props {

struct RegretRow {
  Writer writer = WriterKind::kV1Notlast;
  uint64_t cases = 0;
  int64_t sum_runts = 0, sum_packets = 0;  // regret sums
  uint64_t worse_runts = 0, better_runts = 0;  // cases with regret > 0 / < 0
  int64_t max_runts = 0;
};

struct RegretResult {
  uint64_t cases = 0, skipped = 0;
  int64_t best_runts = 0, best_packets = 0;  // sums over the cases
  std::vector<RegretRow> rows;
};

std::vector<Writer> RegretWriters();
RegretResult ComputeRegret(int64_t cases, uint64_t seed, const Runner& run);
std::string RegretTable(const RegretResult& r, uint64_t seed);

// The explorer's entry points (flags in regret.cc).
bool RegretRequested();
int RunRegret();

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_REGRET_H_
