// RapidCheck over the real model: every property of the registry on
// generated cases (case counts per target in props/BUILD, RC_PARAMS). A
// failure prints the shrunk case as a ready-to-save fixture; RapidCheck adds
// its reproduce string (paste it into the fixture's "reproduce:" line).

#include <string>

#include "gtest/gtest.h"
#include "props/fixture.h"
#include "props/generators.h"
#include "props/registry.h"
#include "props/run_case.h"
#include "rapidcheck/gtest.h"

namespace sendsim::props {
namespace {

void CheckProperty(const std::string& name) {
  absl::StatusOr<PropertySpec> spec = PropertyByName(name);
  RC_ASSERT(spec.ok());
  const Case c = *GenCase(spec->limits);
  const PropertyResult r = spec->check(c, RunCase);
  RC_PRE(r.verdict != Verdict::kSkipped);
  RC_TAG(c.profile, WriterName(c.writer));
  if (r.verdict == Verdict::kFails) {
    Fixture f;
    f.property = name;
    f.expect = Verdict::kFails;
    f.found_by = "rapidcheck";
    f.outcome = {r.detail};
    f.c = c;
    RC_FAIL(FormatFixture(f));
  }
}

// Each wrapper runs one registry entry; see properties.h for preconditions.
RC_GTEST_PROP(Props, Integrity, ()) { CheckProperty("integrity"); }
RC_GTEST_PROP(Props, Liveness, ()) { CheckProperty("liveness"); }
RC_GTEST_PROP(Props, LowerBoundQuiescent, ()) { CheckProperty("lower_bound_quiescent"); }
RC_GTEST_PROP(Props, DeterminismInvariants, ()) { CheckProperty("determinism_invariants"); }

}  // namespace
}  // namespace sendsim::props
