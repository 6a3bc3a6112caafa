#ifndef SENDSIM_SCENARIO_SCENARIO_JSON_H_
#define SENDSIM_SCENARIO_SCENARIO_JSON_H_

// Scenario files: one JSON object whose keys are the flag names
// (testdata/scenarios/README.md). Strict: unknown or duplicate keys, wrong
// types and values that do not fit are errors naming the key path.

#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "scenario/scenario.h"
#include "nlohmann/json.hpp"

namespace sendsim::scenario {

// Keys absent from `text` keep their values from `base`. Only types and
// representability are checked here; ValidateScenario checks ranges.
// Errors are one line.
absl::StatusOr<Scenario> ScenarioFromJson(absl::string_view text, const Scenario& base = Scenario());

// Reads and parses FILE; errors start with the path.
absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path, const Scenario& base = Scenario());

// Every knob in the documented order (description only when non-empty).
nlohmann::ordered_json ScenarioToJsonValue(const Scenario& s);
// Pretty-printed, newline-terminated; ScenarioFromJson(ScenarioToJson(s)) == s.
std::string ScenarioToJson(const Scenario& s);

// Scenario files larger than this are rejected before parsing.
inline constexpr size_t kMaxScenarioFileBytes = 1 << 20;
// Deepest nesting accepted (the format needs 3: object, sizes array, entry).
inline constexpr int kMaxScenarioDepth = 16;

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_SCENARIO_JSON_H_
