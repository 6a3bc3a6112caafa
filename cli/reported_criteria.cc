#include "cli/reported_criteria.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "cli/report.h"

namespace sendsim::cli {
namespace {

// The sizes the 2018 measurement names.
constexpr uint32_t kFull = 1448;
constexpr uint32_t kFooter = 21;

uint64_t CountOf(const RunResult& r, uint32_t size) {
  const auto it = r.histogram.find(size);
  return it == r.histogram.end() ? 0 : it->second;
}

// 1-based place of `size` in the table's order (count desc, size asc); a
// size the run never sent comes after every size it did.
size_t RankOf(const RunResult& r, uint32_t size) {
  const std::vector<SizeCount> sorted = SortedHistogram(r);
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i].size == size) return i + 1;
  }
  return sorted.size() + 1;
}

// The n-th (1-based) most frequent size other than `size`: its count, 0 if none.
uint64_t NthOtherCount(const RunResult& r, uint32_t size, size_t n) {
  size_t seen = 0;
  for (const SizeCount& sc : SortedHistogram(r)) {
    if (sc.size == size) continue;
    if (++seen == n) return sc.count;
  }
  return 0;
}

double PerMessage(uint64_t count, const RunResult& r) {
  return r.messages == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(r.messages);
}

std::optional<size_t> IndexOf(const SeedRun& run, const char* writer) {
  for (size_t i = 0; i < run.results.size(); ++i) {
    if (run.results[i].writer == writer) return i;
  }
  return std::nullopt;
}

double Mean(const std::vector<double>& xs) { return SpreadOf(xs).mean; }

// `size` among the first five of `writer`'s sizes.
CriterionReport TopFive(const std::vector<SeedRun>& runs, size_t w, uint32_t size, const std::string& reported,
                        const std::string& mechanism) {
  CriterionReport c;
  const std::string& writer = runs[0].results[w].writer;
  c.criterion = absl::StrFormat("%d in %s's top 5", size, writer);
  c.reported = reported;
  c.kind = CriterionReport::Kind::kTopFive;
  std::vector<double> rank, margin, per_msg, fifth_per_msg;
  for (const SeedRun& run : runs) {
    const RunResult& r = run.results[w];
    const size_t k = RankOf(r, size);
    const uint64_t fifth = NthOtherCount(r, size, kTableTopSizes);
    c.held += k <= static_cast<size_t>(kTableTopSizes) ? 1 : 0;
    rank.push_back(static_cast<double>(k));
    margin.push_back(static_cast<double>(CountOf(r, size)) - static_cast<double>(fifth));
    per_msg.push_back(PerMessage(CountOf(r, size), r));
    fifth_per_msg.push_back(PerMessage(fifth, r));
  }
  c.runs = runs.size();
  c.value = SpreadOf(rank);
  c.margin = SpreadOf(margin);
  if (c.held < c.runs) {
    c.why = absl::StrFormat("%s sent %.3f %d-byte packets per message, the 5th size %.3f: %s", writer, Mean(per_msg),
                            size, Mean(fifth_per_msg), mechanism);
  }
  return c;
}

CriterionReport FullFirst(const std::vector<SeedRun>& runs, size_t w, const std::string& reported) {
  CriterionReport c;
  const std::string& writer = runs[0].results[w].writer;
  c.criterion = absl::StrFormat("%d first, %s", kFull, writer);
  c.reported = reported;
  c.kind = CriterionReport::Kind::kFirst;
  std::vector<double> rank, margin;
  for (const SeedRun& run : runs) {
    const RunResult& r = run.results[w];
    const size_t k = RankOf(r, kFull);
    c.held += k == 1 ? 1 : 0;
    rank.push_back(static_cast<double>(k));
    const double lead = static_cast<double>(CountOf(r, kFull)) - static_cast<double>(NthOtherCount(r, kFull, 1));
    margin.push_back(r.packets == 0 ? 0.0 : 100.0 * lead / static_cast<double>(r.packets));
  }
  c.runs = runs.size();
  c.value = SpreadOf(rank);
  c.margin = SpreadOf(margin);
  if (c.held < c.runs) {
    c.why = absl::StrFormat("%s sent more packets of another size than full segments: runts outnumber %d-byte "
                            "segments only when nearly every call is pushed on its own",
                            writer, kFull);
  }
  return c;
}

CriterionReport Reduction(const std::vector<SeedRun>& runs, size_t legacy, size_t notlast) {
  CriterionReport c;
  c.criterion = absl::StrFormat("5-10 %% fewer packets, %s vs %s", runs[0].results[notlast].writer,
                                runs[0].results[legacy].writer);
  c.reported = "5-10 % fewer packets";
  c.kind = CriterionReport::Kind::kReduction;
  std::vector<double> change, margin, before, after, before_sub;
  for (const SeedRun& run : runs) {
    const RunResult& l = run.results[legacy];
    const RunResult& n = run.results[notlast];
    const double x = ChangePercent(n, l);
    c.held += x >= -10.0 && x <= -5.0 ? 1 : 0;
    change.push_back(x);
    margin.push_back(std::min(x + 10.0, -5.0 - x));
    before.push_back(PerMessage(l.packets, l));
    after.push_back(PerMessage(n.packets, n));
    before_sub.push_back(PerMessage(l.sub_mss_packets, l));
  }
  c.runs = runs.size();
  c.value = SpreadOf(change);
  c.margin = SpreadOf(margin);
  if (c.held < c.runs) {
    // The bound missed: 5 % when some run reduces less, else 10 %.
    const bool too_few = c.value.max > -5.0;
    const double b = Mean(before), a = Mean(after);
    c.why = absl::StrFormat(
        "%s sends %.2f packets per message, %.2f of them sub-MSS; %s leaves out %.2f per message, and %s "
        "would take %.2f",
        runs[0].results[legacy].writer, b, Mean(before_sub), runs[0].results[notlast].writer, b - a,
        too_few ? "5 %" : "10 %", (too_few ? 0.05 : 0.10) * b);
  }
  return c;
}

std::string Signed(const Spread& s, int digits) {
  return absl::StrFormat("%+.*f [%+.*f, %+.*f]", digits, s.mean, digits, s.min, digits, s.max);
}

std::string ValueText(const CriterionReport& c) {
  if (c.kind == CriterionReport::Kind::kReduction) {
    return absl::StrFormat("%+.2f %% [%+.2f, %+.2f]", c.value.mean, c.value.min, c.value.max);
  }
  if (c.value.min == c.value.max) return absl::StrFormat("rank %.0f", c.value.min);
  return absl::StrFormat("rank %.1f [%.0f, %.0f]", c.value.mean, c.value.min, c.value.max);
}

std::string MarginText(const CriterionReport& c) {
  switch (c.kind) {
    case CriterionReport::Kind::kFirst: return Signed(c.margin, 2) + " pts";
    case CriterionReport::Kind::kTopFive: return Signed(c.margin, 0) + " pkts";
    case CriterionReport::Kind::kReduction: return Signed(c.margin, 2) + " pts";
  }
  return "";
}

// `text` after `lead`, wrapped at `width` columns, continued under its start.
std::string Wrapped(const std::string& lead, const std::string& text, size_t width) {
  std::string out = lead, line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && lead.size() + line.size() + 1 + word.size() > width) {
      absl::StrAppend(&out, line, "\n", std::string(lead.size(), ' '));
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", word);
  }
  return absl::StrCat(out, line, "\n");
}

const char* ValueUnit(CriterionReport::Kind k) { return k == CriterionReport::Kind::kReduction ? "% change" : "rank"; }

const char* MarginUnit(CriterionReport::Kind k) {
  switch (k) {
    case CriterionReport::Kind::kFirst: return "points of the packets over the next size";
    case CriterionReport::Kind::kTopFive: return "packets over the 5th most frequent other size";
    case CriterionReport::Kind::kReduction: return "points inside [-10, -5] %";
  }
  return "";
}

}  // namespace

std::string CriterionStatus(const CriterionReport& c) {
  if (c.held == c.runs) return "held";
  if (c.held == 0) return "not held";
  return absl::StrFormat("held %d/%d", c.held, c.runs);
}

std::vector<CriterionReport> JudgeReportedCriteria(const std::vector<SeedRun>& runs) {
  if (runs.empty()) return {};
  const std::optional<size_t> legacy = IndexOf(runs[0], "v1-legacy");
  const std::optional<size_t> notlast = IndexOf(runs[0], "v1-notlast");
  if (!legacy.has_value() || !notlast.has_value()) return {};
  const std::string runt_mechanism =
      "v1-legacy's page-boundary runts ((4096 k) mod 1448 bytes) leave when an ACK or TSQ completion pushes "
      "the partial skb between two page calls";
  return {
      FullFirst(runs, *legacy, "1448 x777700 first before the patch"),
      FullFirst(runs, *notlast, "1448 x897280 first after the patch"),
      TopFive(runs, *legacy, 1200, "1200 x39238, 3rd before the patch", runt_mechanism),
      TopFive(runs, *legacy, 952, "952 x127915, 2nd before the patch", runt_mechanism),
      TopFive(runs, *notlast, kFooter, "21 x6201, 2nd after the patch: a lone footer after ~63 % of messages",
              "a lone footer needs an ACK or TSQ completion to push the corked data tail in the gap between "
              "the last page call and the footer call (the page's crc and cursor work), and the model's land "
              "there that rarely"),
      Reduction(runs, *legacy, *notlast),
  };
}

std::string FormatCriteria(const std::vector<CriterionReport>& criteria) {
  if (criteria.empty()) return "";
  const size_t runs = criteria.front().runs;
  std::string out = absl::StrFormat(
      "\nThe 2018 measurement's criteria (the patch's 128 KiB writes at MSS 1448; a report, not a gate), over %d "
      "seed%s,\nmean [min, max]; margin > 0: held by that much (pts: points of the packets over the next size, "
      "or inside\n[-10, -5] %%; pkts: packets over the 5th most frequent other size):\n",
      runs, runs == 1 ? "" : "s");
  for (const CriterionReport& c : criteria) {
    absl::StrAppendFormat(&out, "  %-46s %-9s %-24s margin %s\n", c.criterion, CriterionStatus(c), ValueText(c),
                          MarginText(c));
    if (!c.why.empty()) out += Wrapped("    why: ", c.why, 110);
  }
  return out;
}

nlohmann::ordered_json CriteriaJson(const std::vector<CriterionReport>& criteria) {
  nlohmann::ordered_json arr = nlohmann::ordered_json::array();
  for (const CriterionReport& c : criteria) {
    nlohmann::ordered_json j;
    j["criterion"] = c.criterion;
    j["reported"] = c.reported;
    j["status"] = CriterionStatus(c);
    j["held_runs"] = c.held;
    j["runs"] = c.runs;
    j["value"] = SpreadJson(c.value);
    j["value_unit"] = ValueUnit(c.kind);
    j["margin"] = SpreadJson(c.margin);
    j["margin_unit"] = MarginUnit(c.kind);
    j["why"] = c.why;
    arr.push_back(j);
  }
  return arr;
}

}  // namespace sendsim::cli
