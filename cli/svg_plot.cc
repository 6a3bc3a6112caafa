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

namespace {

// The sizes to show: each writer's most frequent ones, at most
// kPlotMaxSizes (those with the largest total counts), in size order.
std::vector<uint32_t> ChooseSizes(const std::vector<RunResult>& results) {
  std::set<uint32_t> chosen;
  for (const RunResult& r : results) {
    const std::vector<SizeCount> top = SortedHistogram(r);
    for (size_t i = 0; i < top.size() && i < static_cast<size_t>(kPlotTopPerWriter); ++i) chosen.insert(top[i].size);
  }
  std::vector<uint32_t> sizes(chosen.begin(), chosen.end());
  if (sizes.size() <= static_cast<size_t>(kPlotMaxSizes)) return sizes;
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
  return sizes;
}

const char* ColorOf(int writer) { return kColors[writer % (sizeof(kColors) / sizeof(kColors[0]))]; }

std::string LegendLabel(const RunResult& r) {
  return absl::StrFormat("%s (%s), %d pkts", r.writer, r.kernel, r.packets);
}

// Where everything goes: bar groups per size, a log-scale y axis.
struct Layout {
  int n_writers = 0;
  int bar_w = 0;
  int group_gap = 14;
  int group_w = 0;
  int left = 80, top = 50, bottom = 80, right = 0;
  int plot_h = 360, plot_w = 0;
  int width = 0, height = 0;
  int decades = 1;

  Layout(const std::vector<RunResult>& results, size_t n_sizes) {
    uint64_t max_count = 1;
    size_t longest = 0;  // legend labels need ~7 px per character at font-size 12
    for (const RunResult& r : results) {
      for (const auto& [size, count] : r.histogram) max_count = std::max(max_count, count);
      longest = std::max(longest, LegendLabel(r).size());
    }
    n_writers = static_cast<int>(results.size());
    bar_w = n_writers <= 3 ? 12 : n_writers <= 6 ? 9 : 6;
    group_w = std::max(1, n_writers) * bar_w + group_gap;
    right = std::max(220, 20 + 18 + static_cast<int>(longest) * 7 + 10);
    plot_w = std::max(300, static_cast<int>(n_sizes) * group_w);
    width = left + plot_w + right;
    height = top + plot_h + bottom;
    decades = std::max(1, static_cast<int>(std::ceil(std::log10(static_cast<double>(max_count)))));
  }
  double YOf(double count) const { return top + plot_h - plot_h * std::log10(count) / decades; }  // count >= 1
  double GroupX(size_t i) const { return left + static_cast<double>(i) * group_w + group_gap / 2.0; }
};

void AppendAxes(const Layout& l, const std::vector<uint32_t>& sizes, std::string* svg) {
  *svg += "<g class=\"axes\" stroke=\"#333\" fill=\"none\">\n";
  absl::StrAppendFormat(svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", l.left, l.top, l.left,
                        l.top + l.plot_h);
  absl::StrAppendFormat(svg, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", l.left, l.top + l.plot_h,
                        l.left + l.plot_w, l.top + l.plot_h);
  *svg += "</g>\n<g class=\"y-ticks\">\n";
  for (int d = 0; d <= l.decades; ++d) {
    const double y = l.YOf(std::pow(10.0, d));
    absl::StrAppendFormat(svg,
                          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                          "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                          l.left, y, l.left + l.plot_w, y, l.left - 6, y + 4, CountLabel(std::pow(10.0, d)));
  }
  *svg += "</g>\n<g class=\"x-ticks\">\n";
  for (size_t i = 0; i < sizes.size(); ++i) {
    const double cx = l.GroupX(i) + l.n_writers * l.bar_w / 2.0;
    absl::StrAppendFormat(svg,
                          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-45 %.1f %d)\">%d</text>\n",
                          cx, l.top + l.plot_h + 14, cx, l.top + l.plot_h + 14, sizes[i]);
  }
  *svg += "</g>\n";
  absl::StrAppendFormat(svg,
                        "<text class=\"x-label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">TCP payload size of a "
                        "packet (bytes)</text>\n",
                        l.left + l.plot_w / 2, l.height - 12);
  absl::StrAppendFormat(svg,
                        "<text class=\"y-label\" x=\"18\" y=\"%d\" text-anchor=\"middle\" "
                        "transform=\"rotate(-90 18 %d)\">packets (log scale)</text>\n",
                        l.top + l.plot_h / 2, l.top + l.plot_h / 2);
}

// One bar series per writer.
void AppendSeries(const Layout& l, const std::vector<RunResult>& results, const std::vector<uint32_t>& sizes,
                  std::string* svg) {
  for (int w = 0; w < l.n_writers; ++w) {
    const RunResult& r = results[w];
    const std::string name = XmlEscape(absl::StrFormat("%s (%s)", r.writer, r.kernel));
    absl::StrAppendFormat(svg, "<g class=\"series\" data-writer=\"%s\" fill=\"%s\">\n", XmlEscape(r.writer),
                          ColorOf(w));
    for (size_t i = 0; i < sizes.size(); ++i) {
      auto it = r.histogram.find(sizes[i]);
      if (it == r.histogram.end() || it->second == 0) continue;
      const double x = l.GroupX(i) + w * l.bar_w;
      const double y = std::min(l.YOf(static_cast<double>(it->second)),
                                static_cast<double>(l.top + l.plot_h - 2));  // a count of 1 still shows
      absl::StrAppendFormat(svg,
                            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>%s: %d packets of %d "
                            "bytes</title></rect>\n",
                            x, y, l.bar_w - 1, l.top + l.plot_h - y, name, it->second, sizes[i]);
    }
    *svg += "</g>\n";
  }
}

void AppendLegend(const Layout& l, const std::vector<RunResult>& results, std::string* svg) {
  *svg += "<g class=\"legend\">\n";
  for (int w = 0; w < l.n_writers; ++w) {
    const int lx = l.left + l.plot_w + 20, ly = l.top + 10 + w * 20;
    absl::StrAppendFormat(svg,
                          "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                          "<text x=\"%d\" y=\"%d\">%s</text>\n",
                          lx, ly, ColorOf(w), lx + 18, ly + 10, XmlEscape(LegendLabel(results[w])));
  }
  *svg += "</g>\n";
}

}  // namespace

std::string RenderSizeHistogramSvg(const std::vector<RunResult>& results, const std::string& title) {
  const std::vector<uint32_t> sizes = ChooseSizes(results);
  const Layout l(results, sizes.size());
  std::string svg = absl::StrFormat(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
      l.width, l.height, l.width, l.height, l.width, l.height, l.left + l.plot_w / 2, XmlEscape(title));
  AppendAxes(l, sizes, &svg);
  AppendSeries(l, results, sizes, &svg);
  AppendLegend(l, results, &svg);
  svg += "</svg>\n";
  return svg;
}

}  // namespace sendsim::cli
