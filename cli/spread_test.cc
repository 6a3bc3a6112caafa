#include "cli/spread.h"

#include <string>

#include "cli/testing/run_results.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::cli {
namespace {

using ::testing::HasSubstr;

RunResult Writer(const std::string& name, std::map<uint32_t, uint64_t> histogram) {
  return testing::WriterRun(name, std::move(histogram));
}

// Seed 1: v1-legacy 100 packets (10 sub-MSS), v1-notlast 95 (5): -5 %.
// Seed 2: v1-legacy 100 (10), v1-notlast 94 (4): -6 %.
std::vector<SeedRun> TwoSeeds() {
  return {SeedRun{1, {Writer("v1-legacy", {{1448, 90}, {1200, 6}, {21, 4}}),
                      Writer("v1-notlast", {{1448, 90}, {21, 5}})}},
          SeedRun{2, {Writer("v1-legacy", {{1448, 90}, {1200, 2}, {21, 8}}),
                      Writer("v1-notlast", {{1448, 90}, {21, 3}, {9, 1}})}}};
}

TEST(SpreadTest, SpreadOf) {
  const Spread s = SpreadOf({3, 1, 2, 6});
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 6);
  const Spread none = SpreadOf({});
  EXPECT_DOUBLE_EQ(none.mean, 0);
  EXPECT_DOUBLE_EQ(none.max, 0);
}

TEST(SpreadTest, PacketsSubMssAndChange) {
  const std::vector<WriterSpread> s = ComputeSpread(TwoSeeds());
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].writer, "v1-legacy");
  EXPECT_DOUBLE_EQ(s[0].packets.mean, 100);
  EXPECT_DOUBLE_EQ(s[0].change_pct.max, 0);
  EXPECT_EQ(s[1].writer, "v1-notlast");
  EXPECT_DOUBLE_EQ(s[1].packets.mean, 94.5);
  EXPECT_DOUBLE_EQ(s[1].packets.min, 94);
  EXPECT_DOUBLE_EQ(s[1].packets.max, 95);
  EXPECT_DOUBLE_EQ(s[1].sub_mss_packets.mean, 4.5);
  EXPECT_DOUBLE_EQ(s[1].change_pct.min, -6);
  EXPECT_DOUBLE_EQ(s[1].change_pct.max, -5);
  EXPECT_DOUBLE_EQ(s[1].change_pct.mean, -5.5);
}

TEST(SpreadTest, TopSizesOfThePooledRunsWithEachRunsShare) {
  const std::vector<WriterSpread> s = ComputeSpread(TwoSeeds());
  // v1-legacy pooled: 1448 x180, 21 x12, 1200 x8.
  ASSERT_EQ(s[0].top.size(), 3u);
  EXPECT_EQ(s[0].top[0].size, 1448u);
  EXPECT_DOUBLE_EQ(s[0].top[0].share_pct.mean, 90);
  EXPECT_EQ(s[0].top[1].size, 21u);
  EXPECT_DOUBLE_EQ(s[0].top[1].share_pct.min, 4);
  EXPECT_DOUBLE_EQ(s[0].top[1].share_pct.max, 8);
  EXPECT_EQ(s[0].top[2].size, 1200u);
  EXPECT_DOUBLE_EQ(s[0].top[2].share_pct.mean, 4);
  // v1-notlast: 9 only in seed 2, 1 of 94 packets; seed 1 counts 0.
  ASSERT_EQ(s[1].top.size(), 3u);
  EXPECT_EQ(s[1].top[2].size, 9u);
  EXPECT_DOUBLE_EQ(s[1].top[2].share_pct.min, 0);
  EXPECT_NEAR(s[1].top[2].share_pct.max, 100.0 / 94, 1e-9);
  // 90 of 95 and 90 of 94.
  EXPECT_NEAR(s[1].top[0].share_pct.mean, (9000.0 / 95 + 9000.0 / 94) / 2, 1e-9);
}

TEST(SpreadTest, Table) {
  const auto runs = TwoSeeds();
  const std::string t = FormatSpreadTable(runs, ComputeSpread(runs));
  EXPECT_THAT(t, HasSubstr("Over 2 seeds, 1-2, mean [min, max]:\n"));
  EXPECT_THAT(t, HasSubstr("CHANGE vs v1-legacy\n"));
  EXPECT_THAT(t, HasSubstr("v1-notlast   linux-4.19"));
  EXPECT_THAT(t, HasSubstr(" [94, 95] "));
  EXPECT_THAT(t, HasSubstr("-5.50% [-6.00, -5.00]\n"));
  EXPECT_THAT(t, HasSubstr("v1-legacy    1448 90.00 [90.00-90.00], 21 6.00 [4.00-8.00], 1200 4.00 [2.00-6.00]\n"));
}

TEST(SpreadTest, Json) {
  const auto runs = TwoSeeds();
  const nlohmann::ordered_json j = SpreadsJson(runs, ComputeSpread(runs));
  EXPECT_EQ(j["seeds"], nlohmann::ordered_json::parse("[1, 2]"));
  ASSERT_EQ(j["writers"].size(), 2u);
  EXPECT_EQ(j["writers"][1]["change_pct"]["mean"], -5.5);
  // (94.7368... + 95.7446...) / 2 = 95.24076..., rounded to 4 decimals.
  EXPECT_EQ(j["writers"][1]["top_sizes"][0]["share_pct"]["mean"], 95.2408);
  EXPECT_EQ(j["writers"][1]["top_sizes"][2]["size"], 9);
}

}  // namespace
}  // namespace sendsim::cli
