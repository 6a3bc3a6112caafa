#include "model/nic.h"

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {
TEST(NicTest, Placeholder) { EXPECT_TRUE(true); }
}  // namespace
}  // namespace sendsim::model
