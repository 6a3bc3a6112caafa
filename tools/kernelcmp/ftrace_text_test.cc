#include "tools/kernelcmp/ftrace_text.h"

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

// 22200 s and 10 us; anything but six digits after the dot is refused.
TEST(ParseTraceTimestamp, SecondsAndSixDigitsOfMicroseconds) {
  int64_t ns = -1;
  ASSERT_TRUE(ParseTraceTimestamp("22200.000010", &ns));
  EXPECT_EQ(ns, 22'200'000'010'000);
  for (const char* bad : {"22200.01", "22200.0000100", "22200", "x.000001", "1.00000x", ""}) {
    EXPECT_FALSE(ParseTraceTimestamp(bad, &ns)) << bad;
  }
}

}  // namespace
}  // namespace sendsim::kernelcmp
