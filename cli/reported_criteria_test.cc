#include "cli/reported_criteria.h"

#include <string>

#include "cli/testing/run_results.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::cli {
namespace {

using ::testing::HasSubstr;

RunResult Writer(const std::string& name, std::map<uint32_t, uint64_t> histogram) {
  return testing::WriterRun(name, std::move(histogram), /*messages=*/10);
}

// Two hand-made seeds. v1-legacy sends 1000 packets in both (140 sub-MSS);
// 1200 and 952 swap between 2nd place (60) and 6th (10, behind 208 x15).
// v1-notlast sends 940 (-6 %) and then 960 (-4 %) packets.
std::vector<SeedRun> TwoSeeds() {
  SeedRun a{1, {Writer("v1-legacy", {{1448, 860}, {1200, 60}, {704, 30}, {456, 20}, {208, 15}, {952, 10}, {21, 5}}),
                Writer("v1-notlast", {{1448, 900}, {21, 30}, {1019, 10}})}};
  SeedRun b{2, {Writer("v1-legacy", {{1448, 860}, {952, 60}, {704, 30}, {456, 20}, {208, 15}, {1200, 10}, {21, 5}}),
                Writer("v1-notlast", {{1448, 900}, {1019, 40}, {21, 20}})}};
  return {a, b};
}

const CriterionReport& Find(const std::vector<CriterionReport>& cs, const std::string& name) {
  for (const CriterionReport& c : cs) {
    if (c.criterion == name) return c;
  }
  ADD_FAILURE() << name << " missing";
  static const CriterionReport kNone;
  return kNone;
}

TEST(ReportedCriteriaTest, FullSegmentsFirst) {
  const auto cs = JudgeReportedCriteria(TwoSeeds());
  ASSERT_EQ(cs.size(), 6u);
  const CriterionReport& legacy = Find(cs, "1448 first, v1-legacy");
  EXPECT_EQ(legacy.held, 2u);
  EXPECT_EQ(legacy.runs, 2u);
  EXPECT_EQ(CriterionStatus(legacy), "held");
  // (860 - 60) / 1000 packets in both seeds.
  EXPECT_DOUBLE_EQ(legacy.margin.min, 80.0);
  EXPECT_DOUBLE_EQ(legacy.margin.max, 80.0);
  EXPECT_EQ(legacy.why, "");
  // v1-notlast: (900 - 30) / 940 = 92.553 % and (900 - 40) / 960 = 89.583 %.
  const CriterionReport& notlast = Find(cs, "1448 first, v1-notlast");
  EXPECT_NEAR(notlast.margin.max, 92.553, 0.001);
  EXPECT_NEAR(notlast.margin.min, 89.583, 0.001);
  EXPECT_NEAR(notlast.margin.mean, 91.068, 0.001);
}

TEST(ReportedCriteriaTest, TopFiveByRankWithMarginOverTheFifthOtherSize) {
  const auto cs = JudgeReportedCriteria(TwoSeeds());
  // 1200: 2nd in seed 1 (60 against the 5th other size, 952 x10: +50),
  // 6th in seed 2 (10 against 208 x15: -5).
  const CriterionReport& c1200 = Find(cs, "1200 in v1-legacy's top 5");
  EXPECT_EQ(c1200.held, 1u);
  EXPECT_EQ(CriterionStatus(c1200), "held 1/2");
  EXPECT_DOUBLE_EQ(c1200.value.min, 2);
  EXPECT_DOUBLE_EQ(c1200.value.max, 6);
  EXPECT_DOUBLE_EQ(c1200.margin.min, -5);
  EXPECT_DOUBLE_EQ(c1200.margin.max, 50);
  // 6 and 1 per message (mean 3.5); the 5th other size 1.0 and 1.5 (1.25).
  EXPECT_THAT(c1200.why, HasSubstr("v1-legacy sent 3.500 1200-byte packets per message, the 5th size 1.250"));
  const CriterionReport& c952 = Find(cs, "952 in v1-legacy's top 5");
  EXPECT_EQ(c952.held, 1u);
  EXPECT_DOUBLE_EQ(c952.margin.min, -5);
  // 21 under v1-notlast: 2nd and 3rd of three sizes, no 5th other size.
  const CriterionReport& footer = Find(cs, "21 in v1-notlast's top 5");
  EXPECT_EQ(CriterionStatus(footer), "held");
  EXPECT_DOUBLE_EQ(footer.value.mean, 2.5);
  EXPECT_DOUBLE_EQ(footer.margin.min, 20);
  EXPECT_DOUBLE_EQ(footer.margin.max, 30);
}

TEST(ReportedCriteriaTest, ReductionBetweenFiveAndTenPercent) {
  const auto cs = JudgeReportedCriteria(TwoSeeds());
  const CriterionReport& c = Find(cs, "5-10 % fewer packets, v1-notlast vs v1-legacy");
  EXPECT_EQ(c.held, 1u);
  EXPECT_DOUBLE_EQ(c.value.min, -6);
  EXPECT_DOUBLE_EQ(c.value.max, -4);
  // -6 %: 1 point inside -5; -4 %: 1 point outside.
  EXPECT_DOUBLE_EQ(c.margin.min, -1);
  EXPECT_DOUBLE_EQ(c.margin.max, 1);
  // 100 packets per message, 14 sub-MSS; v1-notlast sends 94 and 96.
  EXPECT_EQ(c.why,
            "v1-legacy sends 100.00 packets per message, 14.00 of them sub-MSS; v1-notlast leaves out 5.00 per "
            "message, and 5 % would take 5.00");
}

TEST(ReportedCriteriaTest, NotHeldInAnySeed) {
  std::vector<SeedRun> runs = TwoSeeds();
  runs[1].results[1] = Writer("v1-notlast", {{1448, 900}, {21, 30}, {1019, 30}});  // 960 again: -4 %
  runs[0].results[1] = runs[1].results[1];
  const CriterionReport c = JudgeReportedCriteria(runs).back();
  EXPECT_EQ(CriterionStatus(c), "not held");
  EXPECT_DOUBLE_EQ(c.margin.max, -1);
}

TEST(ReportedCriteriaTest, NeedsBothWriters) {
  std::vector<SeedRun> runs = TwoSeeds();
  for (SeedRun& r : runs) r.results.pop_back();
  EXPECT_TRUE(JudgeReportedCriteria(runs).empty());
  EXPECT_EQ(FormatCriteria({}), "");
}

TEST(ReportedCriteriaTest, TableAndJson) {
  const auto cs = JudgeReportedCriteria(TwoSeeds());
  const std::string t = FormatCriteria(cs);
  EXPECT_THAT(t, HasSubstr("over 2 seeds"));
  EXPECT_THAT(t, HasSubstr("21 in v1-notlast's top 5"));
  EXPECT_THAT(t, HasSubstr("  21 in v1-notlast's top 5                       held      rank 2.5 [2, 3]          "
                           "margin +25 [+20, +30] pkts\n"));
  EXPECT_THAT(t, HasSubstr("  1448 first, v1-legacy                          held      rank 1                   "
                           "margin +80.00 [+80.00, +80.00] pts\n"));
  EXPECT_THAT(t, HasSubstr("  5-10 % fewer packets, v1-notlast vs v1-legacy  held 1/2  -5.00 % [-6.00, -4.00]   "
                           "margin +0.00 [-1.00, +1.00] pts\n"
                           "    why: v1-legacy sends 100.00 packets per message, 14.00 of them sub-MSS; v1-notlast "
                           "leaves out 5.00 per\n         message, and 5 % would take 5.00\n"));
  const nlohmann::ordered_json j = CriteriaJson(cs);
  ASSERT_EQ(j.size(), 6u);
  EXPECT_EQ(j[5]["status"], "held 1/2");
  EXPECT_EQ(j[5]["held_runs"], 1);
  EXPECT_EQ(j[5]["value"]["min"], -6.0);
  EXPECT_EQ(j[5]["value_unit"], "% change");
  EXPECT_EQ(j[2]["margin_unit"], "packets over the 5th most frequent other size");
  EXPECT_EQ(j[0]["why"], "");
}

}  // namespace
}  // namespace sendsim::cli
