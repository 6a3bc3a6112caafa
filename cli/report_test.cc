#include "cli/report.h"

#include <string>

#include "cli/svg_plot.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace sendsim::cli {

using scenario::Scenario;
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two hand-made runs. Baseline: 90 + 5 + 5 + 3 + 1 + 1 = 105 packets, of
// which 15 are below the MSS; the second: 99 packets.
std::vector<RunResult> TwoRuns() {
  RunResult a;
  a.writer = "v1-legacy";
  a.kernel = "linux-4.19";
  a.mss = 1448;
  a.histogram = {{1448, 90}, {1200, 5}, {952, 5}, {21, 3}, {643, 1}, {376, 1}};
  a.packets = 105;
  a.sub_mss_packets = 15;
  a.payload_bytes = 90 * 1448 + 5 * 1200 + 5 * 952 + 3 * 21 + 643 + 376;
  a.messages = 10;
  a.sub_mss_by_reason[static_cast<int>(model::PushReason::kEndOfCall)] = 10;
  a.sub_mss_by_reason[static_cast<int>(model::PushReason::kTsq)] = 5;
  a.completion_ns = {4000, 1000, 3000, 2000};
  RunResult b = a;
  b.writer = "v1-notlast";
  b.histogram = {{1448, 93}, {21, 6}};
  b.packets = 99;
  b.sub_mss_packets = 6;
  b.sub_mss_by_reason = {};
  b.sub_mss_by_reason[static_cast<int>(model::PushReason::kAck)] = 6;
  return {a, b};
}

TEST(ReportTest, SortedHistogramCountDescThenSizeAsc) {
  const std::vector<SizeCount> h = SortedHistogram(TwoRuns()[0]);
  ASSERT_EQ(h.size(), 6u);
  EXPECT_EQ(h[0], (SizeCount{1448, 90}));
  EXPECT_EQ(h[1], (SizeCount{952, 5}));  // ties: smaller size first
  EXPECT_EQ(h[2], (SizeCount{1200, 5}));
  EXPECT_EQ(h[3], (SizeCount{21, 3}));
  EXPECT_EQ(h[4], (SizeCount{376, 1}));
  EXPECT_EQ(h[5], (SizeCount{643, 1}));
}

TEST(ReportTest, ChangeAndCompletion) {
  const auto runs = TwoRuns();
  // (99 - 105) / 105 = -5.714...%
  EXPECT_NEAR(ChangePercent(runs[1], runs[0]), -5.714, 0.001);
  // nearest rank over {1000, 2000, 3000, 4000}: p50 = 2nd, p99 = 4th.
  const CompletionStats c = Completion(runs[0]);
  EXPECT_EQ(c.p50, 2000);
  EXPECT_EQ(c.p99, 4000);
  EXPECT_EQ(c.max, 4000);
}

TEST(ReportTest, TableShowsTopFiveTotalsChangeAndReasons) {
  const std::string t = FormatTable(Scenario(), TwoRuns());
  EXPECT_THAT(t, HasSubstr("v1-legacy (linux-4.19)\n      SIZE      COUNT\n      1448         90\n       952          5\n"
                           "      1200          5\n        21          3\n       376          1\n  packets 105"));
  EXPECT_THAT(t, Not(HasSubstr("       643          1\n")));  // sixth size not shown
  EXPECT_THAT(t, HasSubstr("packets 99, sub-MSS 6 (6.1%), -5.71% packets vs v1-legacy"));
  EXPECT_THAT(t, HasSubstr("sub-MSS by reason: end-of-call 10, tsq 5"));
  EXPECT_THAT(t, HasSubstr("sub-MSS by reason: ack 6"));
  EXPECT_THAT(t, HasSubstr("WRITER"));
}

TEST(ReportTest, JsonHasScenarioAndResults) {
  const nlohmann::json j = nlohmann::json::parse(FormatJson(Scenario(), TwoRuns()));
  ASSERT_TRUE(j.contains("scenario"));
  EXPECT_EQ(j["scenario"]["mss"], 1448);
  ASSERT_EQ(j["results"].size(), 2u);
  const auto& r = j["results"][0];
  for (const char* key : {"writer", "kernel", "packets", "sub_mss_packets", "payload_bytes", "messages", "histogram"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["packets"], 105);
  EXPECT_EQ(r["histogram"][1]["size"], 952);
  EXPECT_EQ(r["histogram"][1]["count"], 5);
  EXPECT_EQ(r["histogram"].size(), 6u);
  EXPECT_EQ(j["results"][1]["change_pct"], -5.71);
  EXPECT_EQ(r["sub_mss_by_reason"]["tsq"], 5);
}

TEST(ReportTest, CsvLongForm) {
  const std::string c = FormatCsv(Scenario(), TwoRuns());
  EXPECT_THAT(c, HasSubstr("writer,kernel,kind,key,value\n"));
  EXPECT_THAT(c, HasSubstr("v1-legacy,linux-4.19,total,packets,105\n"));
  EXPECT_THAT(c, HasSubstr("v1-legacy,linux-4.19,size,952,5\n"));
  EXPECT_THAT(c, HasSubstr("v1-notlast,linux-4.19,total,change_pct,-5.71\n"));
  EXPECT_THAT(c, HasSubstr("v1-notlast,linux-4.19,reason_sub_mss,ack,6\n"));
}

// A minimal XML well-formedness check: balanced, properly nested tags.
bool WellFormed(const std::string& xml, std::string* why) {
  std::vector<std::string> stack;
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return *why = "unterminated tag", false;
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return *why = "empty tag", false;
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag.back() == '/') continue;
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \t\n") - (tag[0] == '/' ? 1 : 0));
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != name) return *why = "mismatched </" + name + ">", false;
      stack.pop_back();
    } else {
      stack.push_back(name);
    }
  }
  if (!stack.empty()) return *why = "unclosed <" + stack.back() + ">", false;
  return true;
}

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t i = hay.find(needle); i != std::string::npos; i = hay.find(needle, i + 1)) ++n;
  return n;
}

TEST(SvgPlotTest, OneSeriesPerWriterWithAxesAndLegend) {
  const std::string svg = RenderSizeHistogramSvg(TwoRuns(), "t < & >");
  std::string why;
  EXPECT_TRUE(WellFormed(svg, &why)) << why;
  EXPECT_EQ(Count(svg, "<g class=\"series\""), 2u);
  EXPECT_THAT(svg, HasSubstr("data-writer=\"v1-legacy\""));
  EXPECT_THAT(svg, HasSubstr("data-writer=\"v1-notlast\""));
  EXPECT_THAT(svg, HasSubstr("TCP payload size of a packet (bytes)"));
  EXPECT_THAT(svg, HasSubstr("packets (log scale)"));
  EXPECT_THAT(svg, HasSubstr("t &lt; &amp; &gt;"));
  // Bars: v1-legacy has 6 sizes, v1-notlast 2 -> 8 bars, each with a title.
  EXPECT_EQ(Count(svg, "<title>"), 8u);
  // Legend: one entry per writer.
  EXPECT_THAT(svg, HasSubstr("v1-legacy (linux-4.19), 105 pkts"));
  EXPECT_THAT(svg, HasSubstr("v1-notlast (linux-4.19), 99 pkts"));
  // Log axis: max count 93 -> two decades, ticks 1, 10, 100.
  EXPECT_THAT(svg, HasSubstr(">100</text>"));
  EXPECT_THAT(svg, Not(HasSubstr(">1k</text>")));
}

TEST(SvgPlotTest, WellFormedWithNoResults) {
  std::string why;
  EXPECT_TRUE(WellFormed(RenderSizeHistogramSvg({}, "empty"), &why)) << why;
}

}  // namespace
}  // namespace sendsim::cli
