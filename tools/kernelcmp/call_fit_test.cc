#include "tools/kernelcmp/call_fit.h"

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

// Calls costing exactly 2 us + 3 us per segment give back 2 and 3.
TEST(CallCostFit, RecoversAnExactLine) {
  CallCostFit f;
  for (int i = 0; i < 30; ++i) {
    const uint32_t segs = static_cast<uint32_t>(i % 4);  // 0, 1, 2, 3
    f.Add(segs, 2000 + 3000 * int64_t{segs});
  }
  double base = -1, per = -1;
  ASSERT_TRUE(f.Fit(&base, &per));
  EXPECT_NEAR(base, 2000, 1e-6);
  EXPECT_NEAR(per, 3000, 1e-6);
}

// Least squares by hand: points (0, 1), (0, 3), (2, 7), (2, 9), ten times
// each. Means x = 1, y = 5; deviations dx = -1, -1, 1, 1 and dy = -4, -2,
// 2, 4; slope = sum(dx dy) / sum(dx^2) = (4 + 2 + 2 + 4) / 4 = 3, intercept
// = 5 - 3 x 1 = 2. Merging two halves gives the same.
TEST(CallCostFit, LeastSquaresAndMerge) {
  CallCostFit a, b;
  for (int i = 0; i < 10; ++i) {
    a.Add(0, 1);
    a.Add(0, 3);
    b.Add(2, 7);
    b.Add(2, 9);
  }
  a.Merge(b);
  EXPECT_EQ(a.samples(), 40u);
  double base = 0, per = 0;
  ASSERT_TRUE(a.Fit(&base, &per));
  EXPECT_NEAR(base, 2, 1e-9);
  EXPECT_NEAR(per, 3, 1e-9);
}

TEST(CallCostFit, RefusesWhatItCannotFit) {
  double base = 7, per = 7;
  CallCostFit few;
  for (int i = 0; i < 5; ++i) few.Add(static_cast<uint32_t>(i), 1000 * i);
  EXPECT_FALSE(few.Fit(&base, &per));
  CallCostFit one_x;  // every call sent 2 segments: no slope
  for (int i = 0; i < 40; ++i) one_x.Add(2, 5000 + i);
  EXPECT_FALSE(one_x.Fit(&base, &per));
  CallCostFit falling;  // more segments, less CPU: negative slope
  for (int i = 0; i < 40; ++i) falling.Add(static_cast<uint32_t>(i % 3), 9000 - 2000 * (i % 3));
  EXPECT_FALSE(falling.Fit(&base, &per));
  EXPECT_EQ(base, 7);
  EXPECT_EQ(per, 7);
}

}  // namespace
}  // namespace sendsim::kernelcmp
