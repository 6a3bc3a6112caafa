#include "model/host/cpu_steal.h"

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

TEST(CpuSteal, CountsOnlyChargesWhoseTimeHasCome) {
  CpuSteal s;
  s.Charge(100, 7);
  s.Charge(300, 5);
  EXPECT_EQ(s.StolenUpTo(99), 0);
  EXPECT_EQ(s.StolenUpTo(100), 7);
  EXPECT_EQ(s.StolenUpTo(299), 7);
  EXPECT_EQ(s.StolenUpTo(1000), 12);
}

TEST(CpuSteal, OutOfOrderChargesKeepTimeOrder) {
  CpuSteal s;
  s.Charge(500, 1);
  s.Charge(200, 10);  // posted later, happens earlier
  s.Charge(200, 100);
  EXPECT_EQ(s.StolenUpTo(200), 110);
  EXPECT_EQ(s.StolenUpTo(500), 111);
}

TEST(CpuSteal, IgnoresEmptyCharges) {
  CpuSteal s;
  s.Charge(10, 0);
  s.Charge(10, -5);
  EXPECT_EQ(s.StolenUpTo(100), 0);
}

}  // namespace
}  // namespace sendsim::model
