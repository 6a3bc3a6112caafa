#ifndef SENDSIM_PROPS_REGISTRY_H_
#define SENDSIM_PROPS_REGISTRY_H_

// Every property by its stable name (used by --property, fixtures and the
// RapidCheck wrappers), with the generator limits it is explored under.

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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
};

std::vector<PropertySpec> AllProperties();
absl::StatusOr<PropertySpec> PropertyByName(absl::string_view name);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_REGISTRY_H_
