#include "props/mutation.h"

#include <map>
#include <utility>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "props/run_case.h"

ABSL_DECLARE_FLAG(int64_t, cases);              // explore.cc
ABSL_DECLARE_FLAG(uint64_t, seed);              // explore.cc
ABSL_DECLARE_FLAG(bool, fail_on_counterexample);  // explore.cc

ABSL_FLAG(bool, mutation_score, false,
          "instead of checking properties: run every mutant writer in place of v1-notlast through each selected "
          "property expected to hold (--cases each) and print which mutants each property kills");

namespace sendsim::props {

Runner MutantRunner(Writer mutant, Runner base) {
  return [mutant, base = std::move(base)](const Case& c, RunDepth depth) -> absl::StatusOr<Outcome> {
    const bool notlast = c.writer == WriterKind::kV1Notlast ||
                         (c.writer == HookWriter::kAssigned && c.assignment == NotlastAssignment(c.layout));
    if (!notlast) return base(c, depth);
    Case x = c;
    x.writer = mutant;
    x.assignment.clear();
    return base(x, depth);
  };
}

std::vector<MutantScore> ScoreMutants(const std::vector<PropertySpec>& specs, int64_t cases, uint64_t seed,
                                      const Runner& base) {
  std::vector<MutantScore> out;
  for (const PropertySpec& spec : specs) {
    const CaseGenerator gen(spec.limits);
    for (Writer m : MutantWriters()) {
      MutantScore s{spec.name, m, {}, ""};
      s.stats.property = spec.name;
      const Runner run = MutantRunner(m, base);
      for (int64_t i = 0; i < cases; ++i) {
        const std::optional<Case> c = gen.Draw(seed, static_cast<uint64_t>(i));
        if (!c.has_value()) {
          ++s.stats.gen_failures;
          continue;
        }
        s.stats.Add(spec.check(*c, run));
      }
      s.floor_violation = FloorViolation(s.stats, spec.floors);
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::string MutationTable(const std::vector<MutantScore>& scores) {
  std::string out = "| property | mutant | judged | failing cases (95 % Wilson) | floors | killed |\n|---|---|---|---|---|---|\n";
  for (const MutantScore& s : scores) {
    const uint64_t judged = s.stats.holds + s.stats.fails;
    absl::StrAppendFormat(&out, "| %s | %s | %u | %u, %s | %s | %s |\n", s.property, WriterName(s.mutant), judged,
                          s.stats.fails, ShareWithInterval(s.stats.fails, judged),
                          s.floor_violation.empty() ? "held" : "missed", s.killed() ? "yes" : "no");
  }
  return out;
}

std::vector<std::string> MutationFailures(const std::vector<PropertySpec>& specs,
                                          const std::vector<MutantScore>& scores) {
  std::vector<std::string> out;
  std::map<std::pair<std::string, Writer>, const MutantScore*> by;
  std::map<Writer, int> kills;
  for (const MutantScore& s : scores) {
    by[{s.property, s.mutant}] = &s;
    kills[s.mutant] += s.killed() ? 1 : 0;
  }
  for (const PropertySpec& spec : specs) {
    for (const PropertySpec::MustKill& k : spec.must_kill) {
      auto it = by.find({spec.name, k.mutant});
      if (it == by.end()) continue;
      const MutantScore& s = *it->second;
      const uint64_t judged = s.stats.holds + s.stats.fails;
      const double share = judged > 0 ? static_cast<double>(s.stats.fails) / judged : 0.0;
      if (!s.killed()) {
        out.push_back(absl::StrFormat("%s: mutant %s survives (%u judged cases, none fails, floors held)", spec.name,
                                      WriterName(k.mutant), judged));
      } else if (s.stats.fails > 0 && share < k.min_share) {
        out.push_back(absl::StrFormat("%s: kills %s in %.1f %% of %u judged cases, below %.0f %%", spec.name,
                                      WriterName(k.mutant), 100 * share, judged, 100 * k.min_share));
      }
    }
  }
  for (const auto& [m, n] : kills) {
    if (n == 0) out.push_back(absl::StrFormat("no property kills mutant %s", WriterName(m)));
  }
  return out;
}

bool MutationScoreRequested() { return absl::GetFlag(FLAGS_mutation_score); }

int RunMutationScore(const std::vector<PropertySpec>& selected) {
  std::vector<PropertySpec> specs;
  // With every property selected, only those that must kill a mutant
  // (the others are not claims about flags: integrity, liveness, ...).
  const bool all = selected.size() == AllProperties().size();
  for (const PropertySpec& p : selected) {
    if (p.expected_to_hold && (!all || !p.must_kill.empty())) specs.push_back(p);
  }
  const int64_t cases = absl::GetFlag(FLAGS_cases);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  absl::PrintF("mutation score: seed=%u, %d cases per property and mutant; a mutant runs wherever the property "
               "runs v1-notlast; killed = a failing case or a missed vacuity floor\n\n",
               seed, cases);
  const std::vector<MutantScore> scores = ScoreMutants(specs, cases, seed, RunCase);
  absl::PrintF("%s", MutationTable(scores));
  const std::vector<std::string> failures = MutationFailures(specs, scores);
  for (const std::string& f : failures) absl::PrintF("MUTANT %s\n", f);
  return !failures.empty() && absl::GetFlag(FLAGS_fail_on_counterexample) ? 1 : 0;
}

}  // namespace sendsim::props
