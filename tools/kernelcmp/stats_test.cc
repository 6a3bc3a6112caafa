#include "tools/kernelcmp/stats.h"

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

TEST(TotalVariationDistance, HandComputedCases) {
  // a = {100: 1/2, 200: 1/2}, b = {100: 1}: |1/2-1| + |1/2-0| = 1, halved: 0.5.
  EXPECT_DOUBLE_EQ(TotalVariationDistance({{100, 1}, {200, 1}}, {{100, 2}}), 0.5);
  // Same distribution at different scales: 0.
  EXPECT_DOUBLE_EQ(TotalVariationDistance({{1, 1}, {2, 3}}, {{1, 10}, {2, 30}}), 0.0);
  // Disjoint supports: 1.
  EXPECT_DOUBLE_EQ(TotalVariationDistance({{1, 5}}, {{2, 5}}), 1.0);
  EXPECT_DOUBLE_EQ(TotalVariationDistance({}, {{2, 5}}), 1.0);
  EXPECT_DOUBLE_EQ(TotalVariationDistance({}, {}), 0.0);
  // a = {1448: 0.9, 21: 0.1}, b = {1448: 0.8, 21: 0.1, 1200: 0.1}: (0.1 + 0 + 0.1) / 2 = 0.1.
  EXPECT_NEAR(TotalVariationDistance({{1448, 9}, {21, 1}}, {{1448, 8}, {21, 1}, {1200, 1}}), 0.1,
              1e-12);
}

TEST(TopSizes, OrdersByCountThenSize) {
  SizeHistogram h = {{21, 5}, {1448, 90}, {1200, 5}, {300, 1}};
  auto top = TopSizes(h, 3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].first, 1448u);
  EXPECT_EQ(top[1].first, 21u);  // ties: smaller size first
  EXPECT_EQ(top[2].first, 1200u);
  EXPECT_EQ(TopSizes({{7, 1}}, 3).size(), 1u);
}

TEST(Summarize, MeanMinMax) {
  Summary s = Summarize({3, 1, 2});
  EXPECT_EQ(s.n, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 3);
  EXPECT_EQ(Summarize({}).n, 0u);
}

}  // namespace
}  // namespace sendsim::kernelcmp
