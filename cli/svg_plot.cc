#include "cli/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/str_format.h"

namespace sendsim::cli {
namespace {

// Okabe-Ito palette: distinguishable with common colour-vision deficiencies.
constexpr const char* kColors[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                   "#56B4E9", "#D55E00", "#F0E442", "#000000"};

std::string CountLabel(double v) {
  if (v >= 1e9) return absl::StrFormat("%gG", v / 1e9);
  if (v >= 1e6) return absl::StrFormat("%gM", v / 1e6);
  if (v >= 1e3) return absl::StrFormat("%gk", v / 1e3);
  return absl::StrFormat("%g", v);
}

}  // namespace

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string RenderSizeHistogramSvg(const std::vector<RunResult>& results, const std::string& title) {
  // Sizes to show.
  std::set<uint32_t> chosen;
  uint64_t max_count = 1;
  for (const RunResult& r : results) {
    const std::vector<SizeCount> top = SortedHistogram(r);
    for (size_t i = 0; i < top.size() && i < static_cast<size_t>(kPlotTopPerWriter); ++i) chosen.insert(top[i].size);
    for (const SizeCount& sc : top) max_count = std::max(max_count, sc.count);
  }
  std::vector<uint32_t> sizes(chosen.begin(), chosen.end());
  if (sizes.size() > static_cast<size_t>(kPlotMaxSizes)) {
    // Keep the sizes with the largest total counts, still shown in size order.
    std::vector<std::pair<uint64_t, uint32_t>> by_total;
    for (uint32_t s : sizes) {
      uint64_t total = 0;
      for (const RunResult& r : results) {
        auto it = r.histogram.find(s);
        if (it != r.histogram.end()) total += it->second;
      }
      by_total.push_back({total, s});
    }
    std::stable_sort(by_total.begin(), by_total.end(),
                     [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    by_total.resize(kPlotMaxSizes);
    sizes.clear();
    for (const auto& [t, s] : by_total) sizes.push_back(s);
    std::sort(sizes.begin(), sizes.end());
  }

  const int n_writers = static_cast<int>(results.size());
  const int bar_w = n_writers <= 3 ? 12 : n_writers <= 6 ? 9 : 6;
  const int group_gap = 14;
  const int group_w = std::max(1, n_writers) * bar_w + group_gap;
  // Legend labels need ~7 px per character at font-size 12.
  size_t longest = 0;
  for (const RunResult& r : results) {
    longest = std::max(longest, absl::StrFormat("%s (%s), %d pkts", r.writer, r.kernel, r.packets).size());
  }
  const int left = 80, top = 50, bottom = 80;
  const int right = std::max(220, 20 + 18 + static_cast<int>(longest) * 7 + 10);
  const int plot_h = 360;
  const int plot_w = std::max(300, static_cast<int>(sizes.size()) * group_w);
  const int width = left + plot_w + right;
  const int height = top + plot_h + bottom;
  const int decades = std::max(1, static_cast<int>(std::ceil(std::log10(static_cast<double>(max_count)))));
  auto y_of = [&](double count) {  // count >= 1
    return top + plot_h - plot_h * std::log10(count) / decades;
  };

  std::string svg = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
      width, height, width, height, width, height, left + plot_w / 2, XmlEscape(title));

  // Axes, grid and tick labels.
  svg += "<g class=\"axes\" stroke=\"#333\" fill=\"none\">\n";
  absl::StrAppendFormat(&svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", left, top, left, top + plot_h);
  absl::StrAppendFormat(&svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", left, top + plot_h, left + plot_w,
                        top + plot_h);
  svg += "</g>\n<g class=\"y-ticks\">\n";
  for (int d = 0; d <= decades; ++d) {
    const double y = y_of(std::pow(10.0, d));
    absl::StrAppendFormat(&svg,
                          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                          "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                          left, y, left + plot_w, y, left - 6, y + 4, CountLabel(std::pow(10.0, d)));
  }
  svg += "</g>\n<g class=\"x-ticks\">\n";
  for (size_t i = 0; i < sizes.size(); ++i) {
    const double cx = left + static_cast<double>(i) * group_w + group_gap / 2.0 + n_writers * bar_w / 2.0;
    absl::StrAppendFormat(&svg,
                          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-45 %.1f %d)\">%d</text>\n",
                          cx, top + plot_h + 14, cx, top + plot_h + 14, sizes[i]);
  }
  svg += "</g>\n";
  absl::StrAppendFormat(&svg,
                        "<text class=\"x-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">TCP payload size of a "
                        "packet (bytes)</text>\n",
                        left + plot_w / 2, height - 12);
  absl::StrAppendFormat(&svg,
                        "<text class=\"y-label\" x=\"18\" y=\"%d\" text-anchor=\"middle\" "
                        "transform=\"rotate(-90 18 %d)\">packets (log scale)</text>\n",
                        top + plot_h / 2, top + plot_h / 2);

  // One series per writer.
  for (int w = 0; w < n_writers; ++w) {
    const RunResult& r = results[w];
    const std::string name = XmlEscape(absl::StrFormat("%s (%s)", r.writer, r.kernel));
    const char* color = kColors[w % (sizeof(kColors) / sizeof(kColors[0]))];
    absl::StrAppendFormat(&svg, "<g class=\"series\" data-writer=\"%s\" fill=\"%s\">\n", XmlEscape(r.writer), color);
    for (size_t i = 0; i < sizes.size(); ++i) {
      auto it = r.histogram.find(sizes[i]);
      if (it == r.histogram.end() || it->second == 0) continue;
      const double x = left + static_cast<double>(i) * group_w + group_gap / 2.0 + w * bar_w;
      double y = y_of(static_cast<double>(it->second));
      y = std::min(y, static_cast<double>(top + plot_h - 2));  // a count of 1 still shows
      absl::StrAppendFormat(&svg,
                            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>%s: %d packets of %d "
                            "bytes</title></rect>\n",
                            x, y, bar_w - 1, top + plot_h - y, name, it->second, sizes[i]);
    }
    svg += "</g>\n";
  }

  // Legend.
  svg += "<g class=\"legend\">\n";
  for (int w = 0; w < n_writers; ++w) {
    const int lx = left + plot_w + 20, ly = top + 10 + w * 20;
    absl::StrAppendFormat(&svg,
                          "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                          "<text x=\"%d\" y=\"%d\">%s</text>\n",
                          lx, ly, kColors[w % (sizeof(kColors) / sizeof(kColors[0]))], lx + 18, ly + 10,
                          XmlEscape(absl::StrFormat("%s (%s), %d pkts", results[w].writer, results[w].kernel,
                                                    results[w].packets)));
  }
  svg += "</g>\n</svg>\n";
  return svg;
}

}  // namespace sendsim::cli
