#include "cli/spread.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/report.h"

namespace sendsim::cli {

Spread SpreadOf(const std::vector<double>& xs) {
  Spread s;
  if (xs.empty()) return s;
  s.min = *std::min_element(xs.begin(), xs.end());
  s.max = *std::max_element(xs.begin(), xs.end());
  double sum = 0;
  for (double x : xs) sum += x;
  s.mean = sum / static_cast<double>(xs.size());
  return s;
}

std::vector<WriterSpread> ComputeSpread(const std::vector<SeedRun>& runs) {
  std::vector<WriterSpread> out;
  if (runs.empty()) return out;
  for (size_t w = 0; w < runs[0].results.size(); ++w) {
    WriterSpread ws;
    ws.writer = runs[0].results[w].writer;
    ws.kernel = runs[0].results[w].kernel;
    std::vector<double> packets, sub, change;
    RunResult pooled;  // the sizes of every run summed, to pick the top sizes
    for (const SeedRun& run : runs) {
      const RunResult& r = run.results[w];
      packets.push_back(static_cast<double>(r.packets));
      sub.push_back(static_cast<double>(r.sub_mss_packets));
      change.push_back(ChangePercent(r, run.results.front()));
      for (const auto& [size, count] : r.histogram) pooled.histogram[size] += count;
    }
    ws.packets = SpreadOf(packets);
    ws.sub_mss_packets = SpreadOf(sub);
    ws.change_pct = SpreadOf(change);
    const std::vector<SizeCount> top = SortedHistogram(pooled);
    for (size_t i = 0; i < top.size() && i < static_cast<size_t>(kTableTopSizes); ++i) {
      std::vector<double> shares;
      for (const SeedRun& run : runs) {
        const RunResult& r = run.results[w];
        const auto it = r.histogram.find(top[i].size);
        const double count = it == r.histogram.end() ? 0.0 : static_cast<double>(it->second);
        shares.push_back(r.packets == 0 ? 0.0 : 100.0 * count / static_cast<double>(r.packets));
      }
      ws.top.push_back(SizeShare{top[i].size, SpreadOf(shares)});
    }
    out.push_back(std::move(ws));
  }
  return out;
}

namespace {

std::string SeedRange(const std::vector<SeedRun>& runs) {
  if (runs.size() == 1) return absl::StrFormat("seed %d", runs[0].seed);
  return absl::StrFormat("%d seeds, %d-%d", runs.size(), runs.front().seed, runs.back().seed);
}

}  // namespace

std::string FormatSpreadTable(const std::vector<SeedRun>& runs, const std::vector<WriterSpread>& spread) {
  if (runs.empty() || spread.empty()) return "";
  std::string out = absl::StrFormat("\nOver %s, mean [min, max]:\n", SeedRange(runs));
  absl::StrAppendFormat(&out, "%-12s %-11s %26s %24s %26s\n", "WRITER", "KERNEL", "PACKETS", "SUB-MSS",
                        absl::StrCat("CHANGE vs ", spread.front().writer));
  for (size_t i = 0; i < spread.size(); ++i) {
    const WriterSpread& s = spread[i];
    const std::string change =
        i == 0 ? "-"
               : absl::StrFormat("%+.2f%% [%+.2f, %+.2f]", s.change_pct.mean, s.change_pct.min, s.change_pct.max);
    absl::StrAppendFormat(&out, "%-12s %-11s %26s %24s %26s\n", s.writer, s.kernel,
                          absl::StrFormat("%.0f [%.0f, %.0f]", s.packets.mean, s.packets.min, s.packets.max),
                          absl::StrFormat("%.0f [%.0f, %.0f]", s.sub_mss_packets.mean, s.sub_mss_packets.min,
                                          s.sub_mss_packets.max),
                          change);
  }
  out += "Top sizes, % of the writer's packets, mean [min-max]:\n";
  for (const WriterSpread& s : spread) {
    std::vector<std::string> parts;
    for (const SizeShare& t : s.top) {
      parts.push_back(
          absl::StrFormat("%d %.2f [%.2f-%.2f]", t.size, t.share_pct.mean, t.share_pct.min, t.share_pct.max));
    }
    absl::StrAppendFormat(&out, "%-12s %s\n", s.writer, absl::StrJoin(parts, ", "));
  }
  return out;
}

nlohmann::ordered_json SpreadJson(const Spread& s) {
  auto round4 = [](double x) { return std::round(x * 1e4) / 1e4; };
  return nlohmann::ordered_json{{"mean", round4(s.mean)}, {"min", round4(s.min)}, {"max", round4(s.max)}};
}

nlohmann::ordered_json SpreadsJson(const std::vector<SeedRun>& runs, const std::vector<WriterSpread>& spread) {
  nlohmann::ordered_json seeds = nlohmann::ordered_json::array();
  for (const SeedRun& r : runs) seeds.push_back(r.seed);
  nlohmann::ordered_json writers = nlohmann::ordered_json::array();
  for (const WriterSpread& s : spread) {
    nlohmann::ordered_json top = nlohmann::ordered_json::array();
    for (const SizeShare& t : s.top) top.push_back({{"size", t.size}, {"share_pct", SpreadJson(t.share_pct)}});
    writers.push_back({{"writer", s.writer},
                       {"kernel", s.kernel},
                       {"packets", SpreadJson(s.packets)},
                       {"sub_mss_packets", SpreadJson(s.sub_mss_packets)},
                       {"change_pct", SpreadJson(s.change_pct)},
                       {"top_sizes", top}});
  }
  return nlohmann::ordered_json{{"seeds", seeds}, {"writers", writers}};
}

}  // namespace sendsim::cli
