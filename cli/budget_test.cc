#include "cli/budget.h"

#include "gtest/gtest.h"

namespace sendsim::cli {
namespace {

TEST(BudgetTest, HundredMillionMessagesRefusedWithTheEstimate) {
  scenario::Scenario s;
  s.messages = 100'000'000;
  s.seeds = 1;
  s.writers = {{"v2", "linux-6.8"}};
  const Budget b = EstimateBudget(s, 2);
  EXPECT_EQ(b.runs, 1u);
  EXPECT_EQ(b.concurrent, 1u);
  // 1e8 x (200 + 8) bytes + 16 MiB, by hand: 20,816,777,216 bytes.
  EXPECT_EQ(b.memory_bytes, 20'816'777'216u);
  absl::Status st = CheckBudget(b, kDefaultMaxMemoryMb, kDefaultMaxMinutes);
  EXPECT_TRUE(absl::IsInvalidArgument(st));
  EXPECT_NE(st.message().find("estimated memory 19852 MiB"), std::string::npos) << st;
  EXPECT_NE(st.message().find("--max-memory-mb=19853"), std::string::npos) << st;
  EXPECT_TRUE(CheckBudget(b, 20000, 100000).ok());
}

TEST(BudgetTest, DefaultScenarioFits) {
  const scenario::Scenario s;
  const Budget b = EstimateBudget(s, 2);
  EXPECT_EQ(b.runs, 25u);
  EXPECT_TRUE(CheckBudget(b, kDefaultMaxMemoryMb, kDefaultMaxMinutes).ok());
  // 10000 x (4 us + 131072 x 0.25 ns) = 0.36768 s per run, 25 runs.
  EXPECT_NEAR(b.cpu_seconds, 25 * 0.36768, 1e-6);
}

TEST(BudgetTest, DaysOfWorkRefused) {
  scenario::Scenario s;
  s.messages = 1'000'000;
  s.sizes = {{uint64_t{1} << 30, 1}};
  s.seeds = 1;
  s.writers = {{"v2", "linux-6.8"}};
  absl::Status st = CheckBudget(EstimateBudget(s, 1), 1 << 30, kDefaultMaxMinutes);
  EXPECT_NE(st.message().find("estimated run time 3.1 days"), std::string::npos) << st;
  EXPECT_NE(st.message().find("--max-minutes="), std::string::npos) << st;
}

TEST(BudgetTest, SimulatedTimePastTheHorizonRefused) {
  scenario::Scenario s;
  s.link_mbps = 1;  // 10000 x 131072 bytes x 8 / 1e6 = 10486 s > 3600 s
  absl::Status st = CheckBudget(EstimateBudget(s, 2), kDefaultMaxMemoryMb, kDefaultMaxMinutes);
  EXPECT_NE(st.message().find("at least 2.9 hours of simulated time"), std::string::npos) << st;
  s.link_mbps = 3;  // 3495 s: may finish
  EXPECT_TRUE(CheckBudget(EstimateBudget(s, 2), kDefaultMaxMemoryMb, kDefaultMaxMinutes).ok());
}

}  // namespace
}  // namespace sendsim::cli
