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

TEST(BudgetTest, HorizonGrowsWithTheLowerBound) {
  scenario::Scenario s;
  // The default: 10000 x 131072 x 8 bits at 10 Gbit/s = 1.048576 s; replies
  // 2500 batches x 0.5 ms = 1.25 s, the larger.
  EXPECT_DOUBLE_EQ(MinSimulatedSeconds(s), 1.25);
  EXPECT_EQ(SimulatedHorizonNs(s), 3600'000'000'000 + 2'500'000'000);
  s.link_mbps = 1;  // 10485.76 s on the wire alone: an hour would fail it
  EXPECT_DOUBLE_EQ(MinSimulatedSeconds(s), 10485.76);
  EXPECT_EQ(SimulatedHorizonNs(s), 3600'000'000'000 + 20'971'520'000'000);
  EXPECT_TRUE(CheckBudget(EstimateBudget(s, 2), kDefaultMaxMemoryMb, kDefaultMaxMinutes).ok());
}

TEST(BudgetTest, EveryExceededLimitInOneLine) {
  scenario::Scenario s;
  s.messages = 100'000'000;
  absl::Status st = CheckBudget(EstimateBudget(s, 2), kDefaultMaxMemoryMb, kDefaultMaxMinutes);
  EXPECT_NE(st.message().find("estimated memory"), std::string::npos) << st;
  EXPECT_NE(st.message().find("; estimated run time"), std::string::npos) << st;
  EXPECT_EQ(st.message().find('\n'), std::string::npos) << st;
}

}  // namespace
}  // namespace sendsim::cli
