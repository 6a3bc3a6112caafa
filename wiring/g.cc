#include "gtest/gtest.h"
#include "gmock/gmock.h"
#include "absl/status/statusor.h"
TEST(A, B) { absl::StatusOr<int> s = absl::InvalidArgumentError("x"); EXPECT_FALSE(s.ok()); EXPECT_THAT(3, ::testing::Eq(3)); }
