#ifndef SENDSIM_PROPS_MUTATION_H_
#define SENDSIM_PROPS_MUTATION_H_

// `explore --mutation_score`: how many deliberately wrong writers each
// property rejects. A mutant (push every page, drop NOTLAST, drop MORE,
// push at random pieces; props/case.h) runs wherever a property runs
// v1-notlast, on the property's own generated cases; the property kills it
// when a case fails or the mutant's run misses the property's vacuity
// floors (a comparison whose pair now always ties).

#include <cstdint>
#include <string>
#include <vector>

#include "props/case.h"
#include "props/explore_lib.h"
#include "props/registry.h"
#include "props/runner.h"

namespace sendsim::props {

// `base` with `mutant` in place of v1-notlast: a case whose writer is
// v1-notlast, or the assigned writer with v1-notlast's assignment (the
// candidate of the optimality properties; the alternatives stay as they are).
Runner MutantRunner(Writer mutant, Runner base);

struct MutantScore {
  std::string property;
  Writer mutant = HookWriter::kMutantPushEveryPage;
  Stats stats;
  std::string floor_violation;  // empty: the floors held on the mutant's run
  bool killed() const { return stats.fails > 0 || !floor_violation.empty(); }
};

// Every (property, mutant) pair over cases 0..cases-1 of `seed`.
std::vector<MutantScore> ScoreMutants(const std::vector<PropertySpec>& specs, int64_t cases, uint64_t seed,
                                      const Runner& base);
// The table as `explore --mutation_score` prints it, and the one-line
// reasons it fails: a must-kill mutant that survived or was killed in too
// few cases, or a mutant no property kills.
std::string MutationTable(const std::vector<MutantScore>& scores);
std::vector<std::string> MutationFailures(const std::vector<PropertySpec>& specs,
                                          const std::vector<MutantScore>& scores);

// The explorer's entry points (flag in mutation.cc).
bool MutationScoreRequested();
int RunMutationScore(const std::vector<PropertySpec>& specs);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_MUTATION_H_
