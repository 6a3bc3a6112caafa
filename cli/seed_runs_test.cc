#include "cli/seed_runs.h"

#include <atomic>
#include <string>

#include "gtest/gtest.h"

namespace sendsim::cli {

using scenario::EffectiveKernel;
using scenario::Scenario;
using scenario::WriterSpec;
namespace {

Scenario ThreeWritersFourSeeds() {
  Scenario s;
  s.messages = 3;
  s.seed = 7;
  s.seeds = 4;
  s.writers = {{"v1-legacy", ""}, {"v1-notlast", ""}, {"v2", "linux-6.8"}};
  return s;
}

// Packets = 100 x seed + writer index; the other fields say what the run saw.
absl::StatusOr<RunResult> Fake(const Scenario& s, const WriterSpec& w, model::Observer* extra,
                               const ProgressFn& progress) {
  RunResult r;
  r.writer = w.writer;
  r.kernel = EffectiveKernel(w, s.kernel);
  size_t k = 0;
  while (s.writers[k].writer != w.writer) ++k;
  r.packets = 100 * s.seed + k;
  r.ack_packets = extra != nullptr ? 1 : 0;
  for (uint64_t m = 1; m <= s.messages; ++m) progress(m, s.messages);
  return r;
}

TEST(SeedRunsTest, ResultsBySeedAndWriterWhateverTheThreads) {
  const Scenario s = ThreeWritersFourSeeds();
  for (uint32_t threads : {1u, 2u, 3u, 16u, 0u}) {
    absl::StatusOr<std::vector<SeedRun>> runs = RunSeeds(s, {}, threads, Fake, nullptr);
    ASSERT_TRUE(runs.ok()) << runs.status();
    ASSERT_EQ(runs->size(), 4u);
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ((*runs)[i].seed, 7 + i);
      ASSERT_EQ((*runs)[i].results.size(), 3u);
      for (size_t w = 0; w < 3; ++w) EXPECT_EQ((*runs)[i].results[w].packets, 100 * (7 + i) + w) << threads;
    }
    EXPECT_EQ((*runs)[0].results[2].kernel, "linux-6.8");
  }
}

TEST(SeedRunsTest, ExtraObserversSeeTheFirstSeedOnly) {
  model::Observer dummy;
  absl::StatusOr<std::vector<SeedRun>> runs =
      RunSeeds(ThreeWritersFourSeeds(), {&dummy, nullptr, &dummy}, 2, Fake, nullptr);
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ((*runs)[0].results[0].ack_packets, 1u);
  EXPECT_EQ((*runs)[0].results[1].ack_packets, 0u);
  EXPECT_EQ((*runs)[0].results[2].ack_packets, 1u);
  for (size_t i = 1; i < 4; ++i) {
    for (const RunResult& r : (*runs)[i].results) EXPECT_EQ(r.ack_packets, 0u);
  }
}

TEST(SeedRunsTest, ProgressCountsEveryRunAndMessage) {
  size_t last_runs = 0, last_jobs = 0;
  uint64_t last_done = 0, last_total = 0;
  absl::StatusOr<std::vector<SeedRun>> runs =
      RunSeeds(ThreeWritersFourSeeds(), {}, 2, Fake, [&](size_t r, size_t jobs, uint64_t done, uint64_t total) {
        EXPECT_GE(done, last_done);  // calls are serialised, sums only grow
        last_runs = r;
        last_jobs = jobs;
        last_done = done;
        last_total = total;
      });
  ASSERT_TRUE(runs.ok());
  EXPECT_EQ(last_runs, 12u);
  EXPECT_EQ(last_jobs, 12u);
  EXPECT_EQ(last_done, 36u);  // 12 runs x 3 messages
  EXPECT_EQ(last_total, 36u);
}

// Seed 8's v1-notlast (job 4) and seed 9's v1-legacy (job 6) fail: job 4 is
// the one reported, however the threads interleave.
TEST(SeedRunsTest, FirstFailureInOrderIsReported) {
  auto failing = [](const Scenario& s, const WriterSpec& w, model::Observer* extra,
                    const ProgressFn& progress) -> absl::StatusOr<RunResult> {
    if (s.seed == 8 && w.writer == "v1-notlast") return absl::InternalError("stalled");
    if (s.seed == 9 && w.writer == "v1-legacy") return absl::InvalidArgumentError("bad");
    return Fake(s, w, extra, progress);
  };
  for (int i = 0; i < 20; ++i) {
    absl::StatusOr<std::vector<SeedRun>> runs = RunSeeds(ThreeWritersFourSeeds(), {}, 2, failing, nullptr);
    ASSERT_FALSE(runs.ok());
    EXPECT_TRUE(absl::IsInternal(runs.status()));
    EXPECT_EQ(runs.status().message(), "v1-notlast on linux-4.19 (seed 8): stalled");
  }
  Scenario one = ThreeWritersFourSeeds();
  one.seeds = 1;
  one.seed = 9;
  absl::StatusOr<std::vector<SeedRun>> runs = RunSeeds(one, {}, 2, failing, nullptr);
  ASSERT_FALSE(runs.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(runs.status()));
  EXPECT_EQ(runs.status().message(), "v1-legacy on linux-4.19: bad");
}

}  // namespace
}  // namespace sendsim::cli
