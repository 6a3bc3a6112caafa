#include "tools/kernelcmp/host_presets.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "scenario/scenario_json.h"
#include "scenario/text_util.h"

namespace sendsim::kernelcmp {
namespace {

struct PresetFile {
  const char* name;
  const char* json;
};

constexpr PresetFile kPresets[] = {
#include "tools/kernelcmp/host_presets.inc"
};

}  // namespace

std::vector<std::string> HostPresetNames() {
  std::vector<std::string> names;
  for (const PresetFile& p : kPresets) names.push_back(p.name);
  return names;
}

absl::StatusOr<scenario::Scenario> HostPresetScenario(absl::string_view name) {
  for (const PresetFile& p : kPresets) {
    if (name != p.name) continue;
    absl::StatusOr<scenario::Scenario> s = scenario::ScenarioFromJson(p.json);
    if (!s.ok()) return absl::InternalError(absl::StrFormat("host preset %s: %s", name, s.status().message()));
    return s;
  }
  return absl::NotFoundError(absl::StrFormat("unknown host preset \"%s\" (known: %s)", name,
                                             absl::StrJoin(HostPresetNames(), ", ")));
}

absl::StatusOr<HostOverride> ReadHostOverride(const std::string& path) {
  HostOverride o;
  o.path = path;
  absl::StatusOr<std::string> text = scenario::ReadFileCapped(path, scenario::kMaxScenarioFileBytes, "scenario");
  if (!text.ok()) return text.status();
  o.text = *std::move(text);
  // The strict reader first, so that the keys below come from a good file.
  absl::StatusOr<scenario::Scenario> s = ApplyHostOverride(o, scenario::Scenario());
  if (!s.ok()) return s.status();
  const nlohmann::json j = nlohmann::json::parse(o.text);  // kept alive while iterating
  for (const auto& [key, value] : j.items()) o.keys.insert(key);
  return o;
}

absl::StatusOr<scenario::Scenario> ApplyHostOverride(const HostOverride& o, const scenario::Scenario& base) {
  absl::StatusOr<scenario::Scenario> s = scenario::ScenarioFromJson(o.text, base);
  if (s.ok()) {
    if (absl::Status st = scenario::ValidateNetworkAndHost(*s); !st.ok()) s = st;
  }
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("scenario %s: %s", scenario::EscapeForMessage(o.path), s.status().message()));
  }
  return s;
}

}  // namespace sendsim::kernelcmp
