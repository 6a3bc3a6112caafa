#ifndef SENDSIM_TOOLS_KERNELCMP_HOST_PRESETS_H_
#define SENDSIM_TOOLS_KERNELCMP_HOST_PRESETS_H_

// The testbed's placements as named host presets: scenario files in
// testdata/kernelcmp/hosts/ (network, TCP, receiver and host settings of
// the veth pair), compiled into the tool and read by the scenario reader.

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "scenario/scenario.h"

namespace sendsim::kernelcmp {

// The preset's scenario: Scenario() with the file's keys applied.
absl::StatusOr<scenario::Scenario> HostPresetScenario(absl::string_view name);
std::vector<std::string> HostPresetNames();

// A scenario file applied over each placement's preset (--model_host): its
// text and the keys it sets, which calibration then leaves alone.
struct HostOverride {
  std::string path;
  std::string text;
  std::set<std::string> keys;
  bool Sets(const std::string& key) const { return keys.count(key) != 0; }
};
absl::StatusOr<HostOverride> ReadHostOverride(const std::string& path);
// `base` with the file's keys applied, checked as a scenario is.
absl::StatusOr<scenario::Scenario> ApplyHostOverride(const HostOverride& o, const scenario::Scenario& base);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_HOST_PRESETS_H_
