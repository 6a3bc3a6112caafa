#ifndef SENDSIM_PROPS_FIXTURE_H_
#define SENDSIM_PROPS_FIXTURE_H_

// Saved property counterexamples (and regression cases) as readable text;
// format in testdata/fixtures/README.md.

#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "props/case.h"
#include "props/properties.h"

namespace sendsim::props {

struct Fixture {
  std::string property;               // registry name
  Verdict expect = Verdict::kFails;   // what the property returns on the case
  std::vector<std::string> also_holds;  // weaker properties that must hold on it
  std::string found_by;               // "explore --property=.. --seed=.. case=N" or "rapidcheck"
  std::string reproduce = "-";        // RapidCheck reproduce string (RC_PARAMS="reproduce=..."), or "-"
  std::vector<std::string> outcome;   // informational: what the run showed when saved
  std::vector<std::string> notes;
  Case c;
};

std::string FormatFixture(const Fixture& f);
absl::StatusOr<Fixture> ParseFixture(absl::string_view text);
absl::StatusOr<Fixture> ReadFixtureFile(const std::string& path);
// File name derived from property and case content (stable, no clock).
std::string FixtureFileName(const Fixture& f);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_FIXTURE_H_
