// Runs properties at scale:
//   bazel run -c opt //props:explore -- --property=NAME|all|holding --cases=N --seed=S [--save]
// Case i of a run is generated from (seed, i) alone, so runs are
// reproducible and the index space can be split: with TEST_TOTAL_SHARDS=T
// and TEST_SHARD_INDEX=k (set by Bazel test sharding, or by hand on several
// machines) this process takes the cases i with i % T == k; --json_out
// writes its counts and --merge adds shard files up into one summary.
// Other modes: --replay (fixtures or bare cases), --trace_out (every case's
// packet trace, for the cross-process determinism test) and --map (map.h).
//
// stderr: a progress line. stdout: per property, verdict counts, the
// comparison classification (strict / equal / reversed, and by how many
// packets), the runt-size distribution, and the throughput in cases/s.
// Wall-clock time is read only for the throughput figure and the progress
// line; no result depends on it.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cli/working_dir.h"
#include "props/explore_lib.h"
#include "props/fixture.h"
#include "props/map.h"
#include "props/mutation.h"
#include "props/regret.h"
#include "props/registry.h"
#include "props/run_case.h"
#include "scenario/text_util.h"

ABSL_FLAG(std::string, property, "all",
          "property name, 'all', 'holding' (the claims expected to hold) or 'comparisons' (the paired measurements)");
ABSL_FLAG(int64_t, cases, 100, "cases per property (before sharding)");
ABSL_FLAG(uint64_t, seed, 1, "exploration seed");
ABSL_FLAG(bool, save, false, "shrink and save new counterexamples as fixtures");
ABSL_FLAG(std::string, out_dir, "",
          "where --save writes (default: $BUILD_WORKSPACE_DIRECTORY/testdata/fixtures, else ./)");
ABSL_FLAG(int, max_saves, 3, "counterexamples saved per property and run");
ABSL_FLAG(int, shrink_tries, 3000, "property evaluations spent shrinking one counterexample");
ABSL_FLAG(bool, fail_on_counterexample, false,
          "exit 1 when a property expected to hold fails, or a property's vacuity floors (share of cases judged, "
          "share of judged cases decisive) are not met");
ABSL_FLAG(int, show, 2, "counterexample details printed per property");
ABSL_FLAG(std::string, json_out, "", "also write this process's counts as JSON (one file per shard)");
ABSL_FLAG(std::string, merge, "",
          "instead of exploring: comma-separated --json_out files of one sharded run; print the merged summary");
ABSL_FLAG(std::string, trace_out, "",
          "instead of checking properties: write every case's full run (index, case, outcome, packets) to this file");
ABSL_FLAG(bool, trace_verdicts, false,
          "--trace_out: also run each case's property and append its verdict, decisive flag and comparisons");
ABSL_FLAG(std::string, replay, "",
          "instead of exploring: comma-separated fixture (or bare case) files; run each under its property (or "
          "--property) and every real writer, and print the outcomes");

namespace sendsim::props {
namespace {

using Clock = std::chrono::steady_clock;

// Fixtures, cases and shard summaries are a few KiB: capped so that
// /dev/zero or a huge file is refused instead of exhausting memory.
constexpr uint64_t kMaxInputBytes = 1 << 20;
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  return scenario::ReadFileCapped(path, kMaxInputBytes, "file");
}

absl::StatusOr<std::string> OutDir() {
  std::string dir = absl::GetFlag(FLAGS_out_dir);
  if (dir.empty()) {
    const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
    dir = ws != nullptr ? absl::StrCat(ws, "/testdata/fixtures") : ".";
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrFormat("--out_dir %s is not a directory", dir));
  }
  return dir;
}

// Returns false when saving failed.
bool SaveFixture(const PropertySpec& spec, const Case& c, const PropertyResult& r, uint64_t seed, uint64_t i,
                 const std::string& dir) {
  Fixture f;
  f.property = spec.name;
  f.expect = Verdict::kFails;
  f.also_holds = spec.weaker;
  f.found_by = absl::StrFormat("explore --property=%s --seed=%u case=%u (shrunk)", spec.name, seed, i);
  f.outcome = {r.detail};
  f.notes = {"mechanism: (explain before committing)"};
  f.c = c;
  const std::string path = absl::StrCat(dir, "/", FixtureFileName(f));
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    absl::PrintF("  already saved: %s\n", path);
    return true;
  }
  std::ofstream out(path);
  out << FormatFixture(f);
  if (!out) {
    absl::FPrintF(stderr, "explore: cannot write %s\n", path);
    return false;
  }
  absl::PrintF("  saved %s\n", path);
  return true;
}

// Shrinks a failing case through its recorded choices.
Case Shrink(const PropertySpec& spec, const CaseGenerator& gen, const std::vector<uint64_t>& choices, int size,
            int* tries) {
  auto fails = [&](const std::vector<uint64_t>& ch) {
    std::optional<Case> x = gen.Replay(ch, size);
    return x.has_value() && spec.check(*x, RunCase).verdict == Verdict::kFails;
  };
  return *gen.Replay(ShrinkChoices(choices, fails, absl::GetFlag(FLAGS_shrink_tries), tries), size);
}

std::vector<PropertySpec> SelectedSpecs() {
  const std::string which = absl::GetFlag(FLAGS_property);
  std::vector<PropertySpec> specs;
  for (PropertySpec& p : AllProperties()) {
    const bool holding = p.expected_to_hold && !p.comparison;
    if (which == "all" || (which == "holding" && holding) || (which == "comparisons" && p.comparison) ||
        p.name == which) {
      specs.push_back(p);
    }
  }
  return specs;
}

// Prints a FLOOR line when `st` misses the property's vacuity floors; true then.
bool ReportFloors(const PropertySpec& spec, const Stats& st) {
  const std::string why = FloorViolation(st, spec.floors);
  if (why.empty()) return false;
  absl::PrintF("FLOOR %s\n", why);
  return true;
}

// One property over this shard's cases; false when saving a fixture failed.
bool ExploreProperty(const PropertySpec& spec, int shards, int shard, const std::string& dir, Stats* st,
                     bool* unexpected_failure) {
  const int64_t cases = absl::GetFlag(FLAGS_cases);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  int saved = 0, shown = 0;
  const auto t0 = Clock::now();
  auto last_progress = t0;
  const CaseGenerator gen(spec.limits);
  st->property = spec.name;
  for (int64_t i = shard; i < cases; i += shards) {
    const auto now = Clock::now();
    if (now - last_progress > std::chrono::milliseconds(500)) {
      last_progress = now;
      const double s = std::chrono::duration<double>(now - t0).count();
      absl::FPrintF(stderr, "\r%s: %d/%d cases, %u fail, %u skipped, %.1f cases/s   ", spec.name, i, cases, st->fails,
                    st->skipped, s > 0 ? st->run / s : 0.0);
    }
    std::vector<uint64_t> choices;
    const std::optional<Case> c = gen.Draw(seed, static_cast<uint64_t>(i), &choices);
    if (!c.has_value()) {
      ++st->gen_failures;
      continue;
    }
    const PropertyResult r = spec.check(*c, RunCase);
    st->Add(r);
    if (r.verdict != Verdict::kFails) continue;
    if (spec.expected_to_hold) *unexpected_failure = true;
    if (shown < absl::GetFlag(FLAGS_show)) {
      ++shown;
      absl::PrintF("%s FAILS on case %d:\n%s  %s\n", spec.name, i, FormatCase(*c), r.detail);
    }
    if (!dir.empty() && saved < absl::GetFlag(FLAGS_max_saves)) {
      int tries = 0;
      const Case small = Shrink(spec, gen, choices, CaseSize(static_cast<uint64_t>(i)), &tries);
      const PropertyResult sr = spec.check(small, RunCase);
      absl::PrintF("  shrunk in %d evaluations to:\n%s  %s\n", tries, FormatCase(small), sr.detail);
      if (!SaveFixture(spec, small, sr, seed, static_cast<uint64_t>(i), dir)) return false;
      ++saved;
    }
  }
  st->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  absl::FPrintF(stderr, "\r%*s\r", 100, "");
  return true;
}

bool WriteJson(const ShardResult& r) {
  const std::string path = absl::GetFlag(FLAGS_json_out);
  if (path.empty()) return true;
  std::ofstream out(path);
  out << ShardResultToJson(r);
  if (!out) {
    absl::FPrintF(stderr, "explore: cannot write %s\n", path);
    return false;
  }
  return true;
}

int Run(int shards, int shard) {
  const int64_t cases = absl::GetFlag(FLAGS_cases);
  if (cases < 0) {
    absl::FPrintF(stderr, "explore: --cases must be >= 0\n");
    return 2;
  }
  const std::vector<PropertySpec> specs = SelectedSpecs();
  if (specs.empty()) {
    absl::FPrintF(stderr, "explore: %s\n", PropertyByName(absl::GetFlag(FLAGS_property)).status().message());
    return 2;
  }
  std::string dir;
  if (absl::GetFlag(FLAGS_save)) {
    absl::StatusOr<std::string> d = OutDir();
    if (!d.ok()) {
      absl::FPrintF(stderr, "explore: %s\n", d.status().message());
      return 2;
    }
    dir = *d;
  }
  ShardResult result{absl::GetFlag(FLAGS_seed), cases, shard, shards, {}};
  bool unexpected_failure = false;
  absl::PrintF("explore seed=%u cases=%d shard=%d/%d\n", result.seed, cases, shard, shards);
  bool below_floor = false;
  for (const PropertySpec& spec : specs) {
    Stats st;
    if (!ExploreProperty(spec, shards, shard, dir, &st, &unexpected_failure)) return 2;
    absl::PrintF("%s", FormatStats(st, spec.summary, /*throughput=*/true));
    below_floor |= ReportFloors(spec, st);
    std::fflush(stdout);
    result.properties.push_back(std::move(st));
  }
  if (!WriteJson(result)) return 2;
  return (unexpected_failure || below_floor) && absl::GetFlag(FLAGS_fail_on_counterexample) ? 1 : 0;
}

int Merge(const std::string& list) {
  std::vector<ShardResult> shards;
  bool bad = false;
  for (absl::string_view path : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    absl::StatusOr<std::string> text = ReadFile(std::string(path));
    absl::StatusOr<ShardResult> r = text.ok() ? ShardResultFromJson(*text) : text.status();
    if (!r.ok()) {
      absl::FPrintF(stderr, "explore: %s: %s\n", path, r.status().message());
      bad = true;
      continue;
    }
    shards.push_back(*std::move(r));
  }
  if (bad) return 2;
  absl::StatusOr<ShardResult> merged = MergeShards(shards);
  if (!merged.ok()) {
    absl::FPrintF(stderr, "explore: %s\n", merged.status().message());
    return 2;
  }
  absl::PrintF("explore merged %d of %d shards: seed=%u cases=%d\n", shards.size(), merged->shards, merged->seed,
               merged->cases);
  bool expected_failed = false;
  for (const Stats& st : merged->properties) {
    absl::StatusOr<PropertySpec> spec = PropertyByName(st.property);
    absl::PrintF("%s", FormatStats(st, spec.ok() ? spec->summary : "(unknown property)", /*throughput=*/false));
    expected_failed |= spec.ok() && spec->expected_to_hold && st.fails > 0;
    expected_failed |= spec.ok() && ReportFloors(*spec, st);
  }
  if (static_cast<int>(shards.size()) != merged->shards) {
    absl::FPrintF(stderr, "explore: only %d of %d shards\n", shards.size(), merged->shards);
    return 2;
  }
  return expected_failed && absl::GetFlag(FLAGS_fail_on_counterexample) ? 1 : 0;
}

// Every case's full run, one line per case in index order: the text two
// processes (or the union of two shards) must reproduce byte for byte.
int Trace(int shards, int shard) {
  const std::vector<PropertySpec> specs = SelectedSpecs();
  if (specs.empty()) {
    absl::FPrintF(stderr, "explore: %s\n", PropertyByName(absl::GetFlag(FLAGS_property)).status().message());
    return 2;
  }
  std::ofstream out(absl::GetFlag(FLAGS_trace_out));
  for (const PropertySpec& spec : specs) {
    const CaseGenerator gen(spec.limits);
    for (int64_t i = shard; i < absl::GetFlag(FLAGS_cases); i += shards) {
      const std::optional<Case> c = gen.Draw(absl::GetFlag(FLAGS_seed), static_cast<uint64_t>(i));
      if (!c.has_value()) continue;
      absl::StatusOr<Outcome> o = RunCase(*c);
      std::vector<std::string> pk;
      if (o.ok()) {
        for (const PacketRecord& p : o->packets) {
          pk.push_back(absl::StrFormat("%d:%u+%u/%x/%d%s", p.time, p.seq, p.len, p.flags, p.reason,
                                       p.retransmit ? "R" : ""));
        }
      }
      // One line per case, "property index | case | outcome | packets [| verdict]".
      std::string text = FormatCase(*c);
      std::replace(text.begin(), text.end(), '\n', ';');
      std::string verdict;
      if (absl::GetFlag(FLAGS_trace_verdicts)) {
        const PropertyResult r = spec.check(*c, RunCase);
        std::vector<std::string> cmps;
        for (const Comparison& cmp : r.comparisons) {
          cmps.push_back(absl::StrFormat("%s %d/%d %d/%d", cmp.label, cmp.better_sub_mss, cmp.other_sub_mss,
                                         cmp.better_packets, cmp.other_packets));
        }
        verdict = absl::StrFormat(" | %s decisive=%d %s", VerdictName(r.verdict), r.decisive, absl::StrJoin(cmps, "; "));
      }
      out << absl::StrFormat("%s %08d | %s | %s | %s%s\n", spec.name, i, text,
                             o.ok() ? Summarize(*o) : o.status().ToString(), absl::StrJoin(pk, " "), verdict);
    }
  }
  if (!out) {
    absl::FPrintF(stderr, "explore: cannot write %s\n", absl::GetFlag(FLAGS_trace_out));
    return 2;
  }
  return 0;
}

// Replays one file; false when it cannot be read or parsed (one line on stderr).
bool ReplayOne(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) {
    absl::FPrintF(stderr, "explore: %s\n", scenario::ErrorLine(text.status().message()));
    return false;
  }
  Fixture f;
  if (absl::StatusOr<Fixture> fx = ParseFixture(*text); fx.ok()) {
    f = *fx;
  } else if (absl::StatusOr<Case> c = ParseCase(*text); c.ok()) {
    f.c = *c;
    f.property = absl::GetFlag(FLAGS_property);
  } else {
    // A bare case (neither "property:" nor "case:") is reported with the
    // case's error, anything else with the fixture's.
    const bool fixture = text->find("property:") != std::string::npos || text->find("case:") != std::string::npos;
    const absl::Status& why = fixture ? fx.status() : c.status();
    absl::FPrintF(stderr, "explore: %s\n",
                  scenario::ErrorLine(absl::StrCat(scenario::EscapeForMessage(path), ": ", why.message())));
    return false;
  }
  // Everything that would make the runs meaningless is refused before any
  // runs: an unknown property, a network or profile outside the model's
  // ranges, a writer its kernel lacks.
  std::optional<PropertySpec> spec;
  if (f.property != "all" && f.property != "holding" && f.property != "comparisons") {
    absl::StatusOr<PropertySpec> s = PropertyByName(f.property);
    if (!s.ok()) {
      absl::FPrintF(stderr, "explore: %s\n",
                    scenario::ErrorLine(absl::StrCat(scenario::EscapeForMessage(path), ": ", s.status().message())));
      return false;
    }
    spec = *s;
  }
  if (absl::Status st = CheckCaseRunnable(f.c); !st.ok()) {
    absl::FPrintF(stderr, "explore: %s\n",
                  scenario::ErrorLine(absl::StrCat(scenario::EscapeForMessage(path), ": ", st.message())));
    return false;
  }
  absl::PrintF("== %s\n%s", path, FormatCase(f.c));
  std::vector<Writer> writers = {f.c.writer};
  for (Writer w : AllWriters()) writers.push_back(w);
  for (Writer w : writers) {
    Case x = f.c;
    x.writer = w;
    if (w != HookWriter::kAssigned) x.assignment.clear();
    absl::StatusOr<Outcome> o = RunCase(x);
    absl::PrintF("%-22s %s\n", WriterName(w), o.ok() ? Summarize(*o) : o.status().ToString());
    if (o.ok() && w == f.c.writer) {
      std::vector<std::string> pk;
      for (const PacketRecord& p : o->packets) {
        pk.push_back(absl::StrFormat("%d:%u+%u%s/%d", p.time, p.seq, p.len, (p.flags & kPsh) ? "P" : "", p.reason));
      }
      absl::PrintF("  packets (t:seq+len[P]/reason): %s\n", absl::StrJoin(pk, " "));
    }
  }
  if (spec.has_value()) {
    const PropertyResult r = spec->check(f.c, RunCase);
    absl::PrintF("%s: %s\n  %s\n", f.property, VerdictName(r.verdict), r.detail);
  }
  return true;
}

int Replay(const std::string& list) {
  int bad = 0, files = 0;
  for (absl::string_view path : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    ++files;
    bad += ReplayOne(std::string(path)) ? 0 : 1;
  }
  if (files == 0) {
    absl::FPrintF(stderr, "explore: --replay names no file\n");
    return 2;
  }
  return bad > 0 ? 2 : 0;
}

// Reads a non-negative integer environment variable; -1 when unset.
int EnvInt(const char* name, bool* bad) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return -1;
  int x;
  if (!absl::SimpleAtoi(v, &x) || x < 0) {
    absl::FPrintF(stderr, "explore: %s=%s is not a non-negative integer\n", name, v);
    *bad = true;
  }
  return x;
}

}  // namespace
}  // namespace sendsim::props

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "explore --property=NAME|all|holding|comparisons --cases=N --seed=S [--save] [--json_out=F] | --merge=F,F.. | "
      "--replay=F,F.. | --trace_out=F | --map [map flags]\n"
      "Sharding: TEST_TOTAL_SHARDS / TEST_SHARD_INDEX select cases i with i % total == index.");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (absl::Status s = sendsim::cli::EnterUserWorkingDirectory(); !s.ok()) {
    absl::FPrintF(stderr, "explore: %s\n", s.message());
    return 2;
  }
  if (rest.size() > 1) {
    absl::FPrintF(stderr, "explore: unexpected argument '%s'\n", rest[1]);
    return 2;
  }
  bool bad = false;
  int shards = sendsim::props::EnvInt("TEST_TOTAL_SHARDS", &bad);
  int shard = sendsim::props::EnvInt("TEST_SHARD_INDEX", &bad);
  if (bad) return 2;
  if (shards <= 0) shards = 1;
  if (shard < 0) shard = 0;
  if (shard >= shards) {
    absl::FPrintF(stderr, "explore: TEST_SHARD_INDEX %d >= TEST_TOTAL_SHARDS %d\n", shard, shards);
    return 2;
  }
  // Tell Bazel that this binary understands sharding.
  if (const char* f = std::getenv("TEST_SHARD_STATUS_FILE"); f != nullptr && *f != '\0') std::ofstream(f) << "";
  if (!absl::GetFlag(FLAGS_merge).empty()) return sendsim::props::Merge(absl::GetFlag(FLAGS_merge));
  if (!absl::GetFlag(FLAGS_replay).empty()) return sendsim::props::Replay(absl::GetFlag(FLAGS_replay));
  if (!absl::GetFlag(FLAGS_trace_out).empty()) return sendsim::props::Trace(shards, shard);
  if (sendsim::props::MapRequested()) return sendsim::props::RunMap(shards, shard);
  if (sendsim::props::RegretRequested()) return sendsim::props::RunRegret();
  if (sendsim::props::MutationScoreRequested()) return sendsim::props::RunMutationScore(sendsim::props::SelectedSpecs());
  return sendsim::props::Run(shards, shard);
}
