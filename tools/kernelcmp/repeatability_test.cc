#include "tools/kernelcmp/repeatability.h"

#include <nlohmann/json.hpp>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

using ::testing::HasSubstr;

CellSummary Recording(double mean, double min, double max, SizeHistogram sizes) {
  CellSummary s;
  s.valid_runs = 5;
  s.sub_mss_per_msg = Summary{mean, min, max, 5};
  s.sizes = std::move(sizes);
  s.top_sizes = TopSizes(s.sizes, 3);
  return s;
}

// This recording: runs between 8 and 14 runts per message, sizes 1448, 1200,
// 21, 704 (900, 60, 30, 10 of 1000). The reference: 9-16, 1448, 1200, 704,
// 21 (880, 60, 40, 20). Distance between them: (0.02 + 0 + 0.01 + 0.03) / 2 = 0.03.
CellSummary This() { return Recording(11, 8, 14, {{1448, 900}, {1200, 60}, {21, 30}, {704, 10}}); }
CellSummary Reference() { return Recording(12, 9, 16, {{1448, 880}, {1200, 60}, {704, 40}, {21, 20}}); }

TEST(Repeatability, WithinTheKernelsOwnSpread) {
  // 15 runts per message: outside this recording's runs, inside both's.
  // Top 3 1448, 1200, 704: the reference's. Distance to this recording:
  // (0.01 + 0 + 0.01 + 0.02) / 2 = 0.02 <= 0.03.
  const SizeHistogram model = {{1448, 890}, {1200, 60}, {704, 30}, {21, 20}};
  const std::optional<RepeatabilityVerdict> v = JudgeRepeatability(This(), Reference(), 15, model);
  ASSERT_TRUE(v.has_value());
  EXPECT_DOUBLE_EQ(v->band_min, 8);
  EXPECT_DOUBLE_EQ(v->band_max, 16);
  EXPECT_TRUE(v->inside_band);
  EXPECT_TRUE(v->top3_seen);
  EXPECT_NEAR(v->tvd, 0.02, 1e-12);
  EXPECT_NEAR(v->tvd_tolerance, 0.03, 1e-12);
  EXPECT_TRUE(v->met());
  EXPECT_EQ(RepeatabilityCell(v), "yes");
  // The per-recording goal fails the same figures: range and top 3.
  const std::optional<GoalVerdict> goal = JudgeGoal(This(), 15, model);
  ASSERT_TRUE(goal.has_value());
  EXPECT_FALSE(goal->inside_range);
  EXPECT_FALSE(goal->same_top3);
}

TEST(Repeatability, OutsideOnEveryPart) {
  // 17 > 16; 952 third, which neither recording has there; distance
  // (0.05 + 0 + 0.05 + 0 + 0) / 2 = 0.05 > 0.03.
  const SizeHistogram model = {{1448, 850}, {1200, 60}, {952, 50}, {21, 30}, {704, 10}};
  const std::optional<RepeatabilityVerdict> v = JudgeRepeatability(This(), Reference(), 17, model);
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->inside_band);
  EXPECT_FALSE(v->top3_seen);
  EXPECT_NEAR(v->tvd, 0.05, 1e-12);
  EXPECT_FALSE(v->tvd_within);
  EXPECT_EQ(RepeatabilityCell(v), "band,top3,tvd");
}

TEST(Repeatability, AMissingThirdSizeCountsOnlyWhenARecordingLacksOne) {
  const SizeHistogram model = {{1448, 950}, {1200, 50}};
  EXPECT_FALSE(JudgeRepeatability(This(), Reference(), 10, model)->top3_seen);
  const CellSummary two_sizes = Recording(12, 9, 16, {{1448, 950}, {1200, 50}});
  EXPECT_TRUE(JudgeRepeatability(This(), two_sizes, 10, model)->top3_seen);
}

TEST(Repeatability, NeedsValidRunsInBoth) {
  CellSummary none;
  EXPECT_FALSE(JudgeRepeatability(This(), none, 10, {}).has_value());
  EXPECT_FALSE(JudgeRepeatability(none, Reference(), 10, {}).has_value());
  EXPECT_EQ(RepeatabilityCell(std::nullopt), "n/a");
}

Cell RecordedCell(double model_sub_mss, SizeHistogram model_sizes, bool with_reference) {
  Cell c;
  c.recorded = This();
  if (with_reference) c.reference = Reference();
  ModelFigures m;
  m.sub_mss_per_msg = model_sub_mss;
  m.sizes = std::move(model_sizes);
  m.packets = 1000;
  c.model = m;
  return c;
}

TEST(Repeatability, SummaryAndJson) {
  Workload w;
  w.messages = 100;
  const std::vector<Cell> cells = {
      RecordedCell(15, {{1448, 890}, {1200, 60}, {704, 30}, {21, 20}}, true),
      RecordedCell(17, {{1448, 850}, {1200, 60}, {952, 50}, {21, 30}, {704, 10}}, true),
      RecordedCell(10, {{1448, 900}}, false),
  };
  EXPECT_EQ(FormatRepeatabilitySummary(cells, w),
            "verdict, the model within the kernel's own spread between this recording and --reference_json's: "
            "1 of 2 cells (sub-MSS/msg inside both recordings' runs 1, each of the top 3 sizes one a recording "
            "has at that rank 1, tvd to this recording within the recordings' own 1)\n");
  EXPECT_THAT(FormatRepeatabilitySummary({cells[2]}, w), HasSubstr("needs a second recording"));
  const std::string table = FormatTable(cells, w, false);
  EXPECT_THAT(table, HasSubstr(" yes           range,top3\n"));
  EXPECT_THAT(table, HasSubstr(" band,top3,tvd range,top3,tvd\n"));
  const nlohmann::json j = nlohmann::json::parse(FormatJson(cells, w, false));
  EXPECT_EQ(j[0]["model_repeatability"]["met"], true);
  EXPECT_NEAR(j[0]["model_repeatability"]["tvd_tolerance"].get<double>(), 0.03, 1e-12);
  EXPECT_EQ(j[1]["model_repeatability"]["sub_mss_per_msg_band"]["max"], 16.0);
  EXPECT_FALSE(j[2].contains("model_repeatability"));
}

}  // namespace
}  // namespace sendsim::kernelcmp
