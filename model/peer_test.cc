#include "model/peer.h"

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {
TEST(PeerTest, Placeholder) { EXPECT_TRUE(true); }
}  // namespace
}  // namespace sendsim::model
