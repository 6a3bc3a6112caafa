// Runs properties at scale:
//   bazel run -c opt //props:explore -- --property=NAME|all|holding --cases=N --seed=S [--save]
// Case i of a run is generated from (seed, i) alone, so runs are
// reproducible and the index space can be split: with TEST_TOTAL_SHARDS=T
// and TEST_SHARD_INDEX=k (set by Bazel test sharding, or by hand on several
// machines) this process takes the cases i with i % T == k.
//
// stderr: a progress line. stdout: per property, verdict counts, the
// comparison classification (strict / equal / reversed, and by how many
// packets), the runt-size distribution, and the throughput in cases/s.
// Wall-clock time is read only for the throughput figure and the progress
// line; no result depends on it.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/working_dir.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "props/fixture.h"
#include "props/generators.h"
#include "props/registry.h"
#include "props/run_case.h"
#include "props/shrink.h"

ABSL_FLAG(std::string, property, "all", "property name, 'all', or 'holding' (those expected to hold)");
ABSL_FLAG(int64_t, cases, 100, "cases per property (before sharding)");
ABSL_FLAG(uint64_t, seed, 1, "exploration seed");
ABSL_FLAG(bool, save, false, "shrink and save new counterexamples as fixtures");
ABSL_FLAG(std::string, out_dir, "",
          "where --save writes (default: $BUILD_WORKSPACE_DIRECTORY/testdata/fixtures, else ./)");
ABSL_FLAG(int, max_saves, 3, "counterexamples saved per property and run");
ABSL_FLAG(int, shrink_tries, 3000, "property evaluations spent shrinking one counterexample");
ABSL_FLAG(bool, fail_on_counterexample, false, "exit 1 when a property expected to hold fails");
ABSL_FLAG(int, show, 2, "counterexample details printed per property");
ABSL_FLAG(std::string, replay, "",
          "instead of exploring: run the fixture (or bare case) in this file under its property (or --property) "
          "and every real writer, and print the outcomes");

namespace sendsim::props {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t CaseKey(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + i + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct Classes {
  uint64_t strict = 0, equal = 0, reversed = 0;
  void Add(int64_t better, int64_t other) {
    if (better < other) ++strict;
    else if (better == other) ++equal;
    else ++reversed;
  }
  std::string Format() const {
    const double n = static_cast<double>(strict + equal + reversed);
    if (n == 0) return "n/a";
    return absl::StrFormat("strict %u (%.1f%%), equal %u (%.1f%%), reversed %u (%.1f%%)", strict,
                           100.0 * strict / n, equal, 100.0 * equal / n, reversed, 100.0 * reversed / n);
  }
};

struct Stats {
  uint64_t run = 0, holds = 0, fails = 0, skipped = 0, gen_failures = 0;
  Classes sub, packets;
  std::map<int64_t, uint64_t> packet_gain;  // other - better, in packets
  std::map<int64_t, uint64_t> sub_gain;     // other - better, in sub-MSS segments
  std::map<uint32_t, uint64_t> runts;       // runt size -> count (primary run)
  std::map<std::string, uint64_t> skip_reasons;
  double seconds = 0;
};

std::string Histogram(const std::map<int64_t, uint64_t>& h) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : h) parts.push_back(absl::StrFormat("%+d:%u", k, v));
  return absl::StrJoin(parts, " ");
}

std::string RuntSummary(const std::map<uint32_t, uint64_t>& runts, uint32_t top) {
  // Most frequent sizes first, then a coarse histogram by 256-byte ranges.
  std::vector<std::pair<uint64_t, uint32_t>> by_count;
  std::map<uint32_t, uint64_t> ranges;
  uint64_t total = 0;
  for (const auto& [len, n] : runts) {
    by_count.emplace_back(n, len);
    ranges[len / 256] += n;
    total += n;
  }
  std::sort(by_count.begin(), by_count.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::vector<std::string> tops;
  for (size_t i = 0; i < by_count.size() && i < top; ++i) {
    tops.push_back(absl::StrFormat("%u:%u", by_count[i].second, by_count[i].first));
  }
  std::vector<std::string> rs;
  for (const auto& [r, n] : ranges) rs.push_back(absl::StrFormat("[%u,%u):%u", r * 256, r * 256 + 256, n));
  return absl::StrFormat("%u runts; most frequent size:count %s\n    by range %s", total, absl::StrJoin(tops, " "),
                         absl::StrJoin(rs, " "));
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
    absl::PrintF("  already saved: %s\n", path.c_str());
    return true;
  }
  std::ofstream out(path);
  out << FormatFixture(f);
  if (!out) {
    absl::FPrintF(stderr, "explore: cannot write %s\n", path.c_str());
    return false;
  }
  absl::PrintF("  saved %s\n", path.c_str());
  return true;
}

int Run(int shards, int shard) {
  const std::string which = absl::GetFlag(FLAGS_property);
  const int64_t cases = absl::GetFlag(FLAGS_cases);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  const bool save = absl::GetFlag(FLAGS_save);
  if (cases < 0) {
    absl::FPrintF(stderr, "explore: --cases must be >= 0\n");
    return 2;
  }
  std::vector<PropertySpec> specs;
  for (PropertySpec& p : AllProperties()) {
    if (which == "all" || (which == "holding" && p.expected_to_hold) || p.name == which) specs.push_back(p);
  }
  if (specs.empty()) {
    absl::FPrintF(stderr, "explore: %s\n", std::string(PropertyByName(which).status().message()).c_str());
    return 2;
  }
  std::string dir;
  if (save) {
    absl::StatusOr<std::string> d = OutDir();
    if (!d.ok()) {
      absl::FPrintF(stderr, "explore: %s\n", std::string(d.status().message()).c_str());
      return 2;
    }
    dir = *d;
  }
  bool unexpected_failure = false;
  absl::PrintF("explore seed=%u cases=%d shard=%d/%d\n", seed, cases, shard, shards);
  for (const PropertySpec& spec : specs) {
    Stats st;
    int saved = 0, shown = 0;
    const auto t0 = Clock::now();
    auto last_progress = t0;
    const rc::Gen<Case> gen = GenCase(spec.limits);
    for (int64_t i = 0; i < cases; ++i) {
      if (i % shards != shard) continue;
      const auto now = Clock::now();
      if (now - last_progress > std::chrono::milliseconds(500)) {
        last_progress = now;
        const double s = std::chrono::duration<double>(now - t0).count();
        absl::FPrintF(stderr, "\r%s: %d/%d cases, %u fail, %u skipped, %.1f cases/s   ", spec.name.c_str(), i, cases,
                     st.fails, st.skipped, s > 0 ? st.run / s : 0.0);
      }
      std::optional<rc::Shrinkable<Case>> s;
      try {
        s = gen(rc::Random(CaseKey(seed, static_cast<uint64_t>(i))), static_cast<int>(i % (rc::kNominalSize + 1)));
        (void)s->value();
      } catch (...) {
        ++st.gen_failures;  // generator discarded (suchThat / RC_PRE)
        continue;
      }
      const Case c = s->value();
      const PropertyResult r = spec.check(c, RunCase);
      ++st.run;
      for (const auto& [len, n] : r.runts) st.runts[len] += n;
      for (const Comparison& cmp : r.comparisons) {
        st.sub.Add(cmp.better_sub_mss, cmp.other_sub_mss);
        st.packets.Add(cmp.better_packets, cmp.other_packets);
        ++st.packet_gain[cmp.other_packets - cmp.better_packets];
        ++st.sub_gain[cmp.other_sub_mss - cmp.better_sub_mss];
      }
      if (r.verdict == Verdict::kHolds) {
        ++st.holds;
        continue;
      }
      if (r.verdict == Verdict::kSkipped) {
        ++st.skipped;
        ++st.skip_reasons[r.detail.substr(0, 60)];
        continue;
      }
      ++st.fails;
      if (spec.expected_to_hold) unexpected_failure = true;
      if (shown < absl::GetFlag(FLAGS_show)) {
        ++shown;
        absl::PrintF("%s FAILS on case %d:\n%s  %s\n", spec.name.c_str(), i, FormatCase(c).c_str(), r.detail.c_str());
      }
      if (save && saved < absl::GetFlag(FLAGS_max_saves)) {
        int tries = 0;
        const Case small = ShrinkGreedy<Case>(
            *s, [&spec](const Case& x) { return spec.check(x, RunCase).verdict == Verdict::kFails; },
            absl::GetFlag(FLAGS_shrink_tries), &tries);
        const PropertyResult sr = spec.check(small, RunCase);
        absl::PrintF("  shrunk in %d evaluations to:\n%s  %s\n", tries, FormatCase(small).c_str(), sr.detail.c_str());
        if (!SaveFixture(spec, small, sr, seed, static_cast<uint64_t>(i), dir)) return 2;
        ++saved;
      }
    }
    st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    absl::FPrintF(stderr, "\r%*s\r", 100, "");
    absl::PrintF("\n== %s: %s\n", spec.name.c_str(), spec.summary.c_str());
    absl::PrintF("  cases %u: holds %u, fails %u, skipped %u (generator discards %u)\n", st.run, st.holds, st.fails,
                st.skipped, st.gen_failures);
    for (const auto& [why, n] : st.skip_reasons) absl::PrintF("    skipped %u: %s\n", n, why.c_str());
    if (st.sub.strict + st.sub.equal + st.sub.reversed > 0) {
      absl::PrintF("  sub-MSS (claimed better vs other): %s\n", st.sub.Format().c_str());
      absl::PrintF("  packets (claimed better vs other): %s\n", st.packets.Format().c_str());
      absl::PrintF("  packets saved (other - better): %s\n", Histogram(st.packet_gain).c_str());
      absl::PrintF("  sub-MSS saved (other - better): %s\n", Histogram(st.sub_gain).c_str());
    }
    absl::PrintF("  %s\n", RuntSummary(st.runts, 12).c_str());
    absl::PrintF("  throughput: %.1f cases/s (%.2f s)\n", st.seconds > 0 ? st.run / st.seconds : 0.0, st.seconds);
    std::fflush(stdout);
  }
  return unexpected_failure && absl::GetFlag(FLAGS_fail_on_counterexample) ? 1 : 0;
}

int Replay(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    absl::FPrintF(stderr, "explore: cannot read %s\n", path);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  Fixture f;
  if (absl::StatusOr<Fixture> fx = ParseFixture(ss.str()); fx.ok()) {
    f = *fx;
  } else if (absl::StatusOr<Case> c = ParseCase(ss.str()); c.ok()) {
    f.c = *c;
    f.property = absl::GetFlag(FLAGS_property);
  } else {
    absl::FPrintF(stderr, "explore: %s: %s\n", path, fx.status().message());
    return 2;
  }
  absl::PrintF("%s", FormatCase(f.c));
  for (Writer w : {f.c.writer, Writer::kV1Legacy, Writer::kV1Notlast, Writer::kV1Cork, Writer::kV1Splice, Writer::kV2}) {
    Case x = f.c;
    x.writer = w;
    if (w != Writer::kAssigned) x.assignment.clear();
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
  if (f.property != "all" && f.property != "holding") {
    absl::StatusOr<PropertySpec> spec = PropertyByName(f.property);
    if (!spec.ok()) {
      absl::FPrintF(stderr, "explore: %s\n", spec.status().message());
      return 2;
    }
    PropertyResult r = spec->check(f.c, RunCase);
    absl::PrintF("%s: %s\n  %s\n", f.property, VerdictName(r.verdict), r.detail);
  }
  return 0;
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
      "explore --property=NAME|all|holding --cases=N --seed=S [--save] [--out_dir=DIR]\n"
      "Sharding: TEST_TOTAL_SHARDS / TEST_SHARD_INDEX select cases i with i % total == index.");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (absl::Status s = sendsim::cli::EnterUserWorkingDirectory(); !s.ok()) {
    absl::FPrintF(stderr, "%s: %s\n", "explore", s.message());
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
  if (!absl::GetFlag(FLAGS_replay).empty()) return sendsim::props::Replay(absl::GetFlag(FLAGS_replay));
  return sendsim::props::Run(shards, shard);
}
