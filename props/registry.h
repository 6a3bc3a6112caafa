#ifndef SENDSIM_PROPS_REGISTRY_H_
#define SENDSIM_PROPS_REGISTRY_H_

// Every property by its stable name (used by --property, fixtures and the
// RapidCheck wrappers), with the generator limits it is explored under.

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "props/explore_lib.h"
#include "props/generators.h"
#include "props/properties.h"

namespace sendsim::props {

struct PropertySpec {
  std::string name;
  std::string summary;
  CaseLimits limits;
  std::function<PropertyResult(const Case&, const Runner&)> check;
  // False for statements we know to be false (the properties 4/5 as
  // stated); their counterexamples are fixtures and `weaker` names the
  // strongest versions that hold, which the default suite checks.
  bool expected_to_hold = true;
  std::vector<std::string> weaker;
  // Vacuity floors the explorer enforces under --fail_on_counterexample
  // (the sharded CI test) and --merge: set from measured shares with a wide
  // margin, so that only a generator or precondition drift trips them.
  Floors floors;
  // A paired measurement (CompareNotlastOutsideQuiescence): explored with
  // --property=comparisons, not with the claims ("holding").
  bool comparison = false;
  // Mutants (run in place of v1-notlast) this property must kill, each in at
  // least `min_share` of its judged cases; killed = a failing case or a
  // floor violation over the mutant's run (explore --mutation_score).
  struct MustKill {
    Writer mutant;
    double min_share = 0;
  };
  std::vector<MustKill> must_kill;
};

std::vector<PropertySpec> AllProperties();
absl::StatusOr<PropertySpec> PropertyByName(absl::string_view name);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_REGISTRY_H_
