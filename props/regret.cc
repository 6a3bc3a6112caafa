#include "props/regret.h"

#include <algorithm>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "props/explore_lib.h"
#include "props/generators.h"
#include "props/outcome.h"
#include "props/properties.h"
#include "props/run_case.h"

ABSL_DECLARE_FLAG(uint64_t, seed);  // explore.cc

ABSL_FLAG(bool, regret, false,
          "instead of checking properties: each v1 writer's regret against the best per-piece flag assignment "
          "(exhaustive) on small cases outside the quiescent regime");
ABSL_FLAG(int64_t, regret_cases, 1000, "--regret: cases drawn");

namespace sendsim::props {
namespace {

// Small layouts (1-2 messages, 2-7 pieces, no revoke) on the sendpage
// kernels, configurations drawn as the map's.
CaseLimits RegretLimits() {
  CaseLimits l;
  l.profiles = {"linux-4.19", "linux-5.0"};
  l.writers = {WriterKind::kV1Notlast};
  l.layout.allow_revoke = false;
  l.layout.min_pieces = 2;
  l.layout.max_pieces = 7;
  l.layout.max_messages = 2;
  return l;
}

bool Counts(const Case& c, const Runner& run, int64_t* runts, int64_t* packets) {
  absl::StatusOr<Outcome> o = run(c, RunDepth::kWire);
  if (!o.ok()) return false;
  *runts = static_cast<int64_t>(SubMss(*o));
  *packets = static_cast<int64_t>(DataPackets(*o));
  return true;
}

}  // namespace

std::vector<Writer> RegretWriters() {
  return {WriterKind::kV1Legacy, WriterKind::kV1Notlast,  WriterKind::kV1More,
          WriterKind::kV1Cork,   WriterKind::kV1Sendmsg, WriterKind::kV1CorkBatch};
}

RegretResult ComputeRegret(int64_t cases, uint64_t seed, const Runner& run) {
  RegretResult res;
  for (Writer w : RegretWriters()) res.rows.push_back(RegretRow{w});
  const CaseGenerator gen(RegretLimits());
  for (int64_t i = 0; i < cases; ++i) {
    std::optional<Case> c = gen.Draw(seed, static_cast<uint64_t>(i));
    if (!c.has_value() || IsQuiescentConfig(c->net, V1WireBytes(c->layout)) ||
        FreePieces(c->layout) > kExhaustiveFreePieces) {
      ++res.skipped;
      continue;
    }
    // The best assignment: v1-notlast's own and every other one.
    std::vector<std::vector<PieceFlags>> all = AlternativeAssignments(c->layout, 0, c->seed);
    all.push_back(NotlastAssignment(c->layout));
    int64_t best_r = INT64_MAX, best_p = INT64_MAX;
    bool ok = true;
    for (const std::vector<PieceFlags>& a : all) {
      Case x = *c;
      x.writer = HookWriter::kAssigned;
      x.assignment = a;
      int64_t r = 0, p = 0;
      ok = ok && Counts(x, run, &r, &p);
      best_r = std::min(best_r, r);
      best_p = std::min(best_p, p);
    }
    std::vector<std::pair<int64_t, int64_t>> got;
    for (const RegretRow& row : res.rows) {
      Case x = *c;
      x.writer = row.writer;
      int64_t r = 0, p = 0;
      ok = ok && Counts(x, run, &r, &p);
      got.emplace_back(r, p);
    }
    if (!ok) {
      ++res.skipped;
      continue;
    }
    ++res.cases;
    res.best_runts += best_r;
    res.best_packets += best_p;
    for (size_t w = 0; w < res.rows.size(); ++w) {
      RegretRow& row = res.rows[w];
      const int64_t dr = got[w].first - best_r;
      ++row.cases;
      row.sum_runts += dr;
      row.sum_packets += got[w].second - best_p;
      row.worse_runts += dr > 0 ? 1 : 0;
      row.better_runts += dr < 0 ? 1 : 0;
      row.max_runts = std::max(row.max_runts, dr);
    }
  }
  return res;
}

std::string RegretTable(const RegretResult& r, uint64_t seed) {
  std::string out = absl::StrFormat(
      "regret: seed=%u, %u cases outside the quiescent regime (1-2 messages, 2-7 pieces, at most %d free; %u "
      "drawn cases skipped: quiescent or more free pieces); the best of the 3^k per-piece flag assignments sends "
      "%.3f sub-MSS and %.2f packets per case\n\n",
      seed, r.cases, kExhaustiveFreePieces, r.skipped, r.cases ? static_cast<double>(r.best_runts) / r.cases : 0.0,
      r.cases ? static_cast<double>(r.best_packets) / r.cases : 0.0);
  absl::StrAppend(&out,
                  "| writer | sub-MSS regret per case | packets regret per case | cases worse than the best "
                  "assignment (95 % Wilson) | cases better | worst |\n|---|---|---|---|---|---|\n");
  for (const RegretRow& row : r.rows) {
    const double n = row.cases ? static_cast<double>(row.cases) : 1.0;
    absl::StrAppendFormat(&out, "| %s | %+.3f | %+.3f | %s | %s | %+d |\n", WriterName(row.writer),
                          row.sum_runts / n, row.sum_packets / n, ShareWithInterval(row.worse_runts, row.cases),
                          ShareWithInterval(row.better_runts, row.cases), row.max_runts);
  }
  return out;
}

bool RegretRequested() { return absl::GetFlag(FLAGS_regret); }

int RunRegret() {
  const int64_t cases = absl::GetFlag(FLAGS_regret_cases);
  if (cases <= 0) {
    absl::FPrintF(stderr, "explore: --regret_cases must be > 0\n");
    return 2;
  }
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  absl::PrintF("%s", RegretTable(ComputeRegret(cases, seed, RunCase), seed));
  return 0;
}

}  // namespace sendsim::props
