#include "tools/kernelcmp/repeatability.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/kernelcmp/stats.h"

namespace sendsim::kernelcmp {
namespace {

// Recorded ranges and distances come back from JSON text: allow for the last digit.
constexpr double kEps = 1e-9;

// The size at 0-based `rank`, 0 (no size) past the end.
uint32_t SizeAt(const std::vector<std::pair<uint32_t, uint64_t>>& top, size_t rank) {
  return rank < top.size() ? top[rank].first : 0;
}

}  // namespace

std::optional<RepeatabilityVerdict> JudgeRepeatability(const CellSummary& kernel, const CellSummary& reference,
                                                       double sub_mss_per_msg, const SizeHistogram& sizes) {
  if (kernel.valid_runs == 0 || kernel.sub_mss_per_msg.n == 0 || reference.valid_runs == 0 ||
      reference.sub_mss_per_msg.n == 0) {
    return std::nullopt;
  }
  RepeatabilityVerdict v;
  v.band_min = std::min(kernel.sub_mss_per_msg.min, reference.sub_mss_per_msg.min);
  v.band_max = std::max(kernel.sub_mss_per_msg.max, reference.sub_mss_per_msg.max);
  v.inside_band = sub_mss_per_msg >= v.band_min - kEps && sub_mss_per_msg <= v.band_max + kEps;
  const auto have = TopSizes(sizes, 3);
  const auto a = TopSizes(kernel.sizes, 3);
  const auto b = TopSizes(reference.sizes, 3);
  v.top3_seen = true;
  for (size_t k = 0; k < 3; ++k) {
    const uint32_t s = SizeAt(have, k);
    v.top3_seen = v.top3_seen && (s == SizeAt(a, k) || s == SizeAt(b, k));
  }
  v.tvd = TotalVariationDistance(kernel.sizes, sizes);
  v.tvd_tolerance = TotalVariationDistance(kernel.sizes, reference.sizes);
  v.tvd_within = v.tvd <= v.tvd_tolerance + kEps;
  return v;
}

std::optional<RepeatabilityVerdict> ModelRepeatability(const Cell& c, const Workload& w) {
  if (!c.model.has_value() || !c.reference.has_value()) return std::nullopt;
  return JudgeRepeatability(SummarizeCell(c, w), *c.reference, c.model->sub_mss_per_msg, c.model->sizes);
}

std::string RepeatabilityCell(const std::optional<RepeatabilityVerdict>& v) {
  if (!v.has_value()) return "n/a";
  if (v->met()) return "yes";
  std::vector<std::string> fail;
  if (!v->inside_band) fail.push_back("band");
  if (!v->top3_seen) fail.push_back("top3");
  if (!v->tvd_within) fail.push_back("tvd");
  return absl::StrJoin(fail, ",");
}

std::string FormatRepeatabilitySummary(const std::vector<Cell>& cells, const Workload& w) {
  int judged = 0, met = 0, band = 0, top3 = 0, tvd = 0;
  for (const Cell& c : cells) {
    const std::optional<RepeatabilityVerdict> v = ModelRepeatability(c, w);
    if (!v.has_value()) continue;
    ++judged;
    met += v->met() ? 1 : 0;
    band += v->inside_band ? 1 : 0;
    top3 += v->top3_seen ? 1 : 0;
    tvd += v->tvd_within ? 1 : 0;
  }
  if (judged == 0) {
    return "verdict: needs a second recording of the same cells (--reference_json) to measure the kernel's own "
           "spread; the per-recording goal below only\n";
  }
  return absl::StrFormat(
      "verdict, the model within the kernel's own spread between this recording and --reference_json's: "
      "%d of %d cells (sub-MSS/msg inside both recordings' runs %d, each of the top 3 sizes one a recording "
      "has at that rank %d, tvd to this recording within the recordings' own %d)\n",
      met, judged, band, top3, tvd);
}

}  // namespace sendsim::kernelcmp
