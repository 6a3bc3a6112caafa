// The explorer's building blocks without the model: case i is a pure
// function of (seed, i) and replays from its recorded choices, shrinking
// lowers choices, shard counts survive JSON and add up.

#include "props/explore_lib.h"

#include "gtest/gtest.h"
#include "props/draws.h"

namespace sendsim::props {
namespace {

TEST(ExploreLibTest, CaseIDependsOnSeedAndIndexOnly) {
  const CaseGenerator a{CaseLimits{}}, b{CaseLimits{}};
  int differ = 0;
  for (uint64_t i = 0; i < 50; ++i) {
    std::optional<Case> x = a.Draw(3, i), y = b.Draw(3, i), z = a.Draw(4, i);
    ASSERT_TRUE(x.has_value() && y.has_value());
    EXPECT_EQ(*x, *y) << i;
    differ += z.has_value() && !(*z == *x) ? 1 : 0;
  }
  EXPECT_GE(differ, 45);  // another seed draws other cases
}

TEST(ExploreLibTest, RecordedChoicesReplayTheCase) {
  const CaseGenerator g{CaseLimits{}};
  for (uint64_t i = 0; i < 30; ++i) {
    std::vector<uint64_t> choices;
    std::optional<Case> c = g.Draw(9, i, &choices);
    ASSERT_TRUE(c.has_value());
    std::optional<Case> r = g.Replay(choices, CaseSize(i));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, *c) << FormatCase(*c);
  }
}

TEST(ExploreLibTest, AllZeroChoicesAreTheDefaults) {
  // Offset 0 is the first alternative of every choice: one message, the
  // first writer and profile, MSS 1448, zero costs.
  const CaseGenerator g{CaseLimits{}};
  std::optional<Case> c = g.Replay({}, 100);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->layout.messages.size(), 1u);
  EXPECT_EQ(c->writer, WriterKind::kV1Notlast);
  EXPECT_EQ(c->net.kernel, "linux-4.19");
  EXPECT_EQ(c->net.mss, 1448u);
  EXPECT_EQ(c->net.call_cost_ns, 0u);
  EXPECT_FALSE(c->layout.revoke.has_value());
}

TEST(ExploreLibTest, ShrinkChoicesFindsTheSmallestFailingValue) {
  // "Fails" when the first choice is >= 37 and there are at least 2 choices.
  auto fails = [](const std::vector<uint64_t>& x) { return x.size() >= 2 && x[0] >= 37; };
  std::vector<uint64_t> s = ShrinkChoices({900, 5, 77, 3}, fails, 10000);
  EXPECT_EQ(s, (std::vector<uint64_t>{37, 0}));
}

ShardResult OneShard(int shard, uint64_t holds, uint64_t fails) {
  ShardResult r{5, 100, shard, 2, {}};
  Stats st;
  st.property = "integrity";
  st.run = holds + fails;
  st.holds = holds;
  st.fails = fails;
  st.runts = {{21, holds}};
  st.sub.strict = 1;
  st.packet_gain = {{-2, 1}, {3, fails}};
  st.skip_reasons = {{"why", 2}};
  st.decisive = holds / 2;
  r.properties.push_back(st);
  return r;
}

TEST(ExploreLibTest, ShardCountsRoundTripAndAddUp) {
  absl::StatusOr<ShardResult> a = ShardResultFromJson(ShardResultToJson(OneShard(0, 40, 1)));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->properties[0].packet_gain.at(-2), 1u);
  absl::StatusOr<ShardResult> m = MergeShards({*a, OneShard(1, 9, 2)});
  ASSERT_TRUE(m.ok()) << m.status();
  const Stats& st = m->properties[0];
  EXPECT_EQ(st.run, 52u);
  EXPECT_EQ(st.holds, 49u);
  EXPECT_EQ(st.fails, 3u);
  EXPECT_EQ(st.runts.at(21), 49u);
  EXPECT_EQ(st.sub.strict, 2u);
  EXPECT_EQ(st.packet_gain.at(-2), 2u);
  EXPECT_EQ(st.packet_gain.at(3), 3u);
  EXPECT_EQ(st.skip_reasons.at("why"), 4u);
  EXPECT_EQ(st.decisive, 24u);  // 20 + 4
}

TEST(ExploreLibTest, WilsonIntervalMatchesTheFormula) {
  // By hand, z = 1.96: k = 0 of 10 gives [0, z^2 / (n + z^2)] = [0, 0.2775];
  // 5 of 10: centre 0.5, half-width z * sqrt(0.025 + 0.00960) / 1.3842 = 0.2634.
  Interval a = Wilson(0, 10);
  EXPECT_NEAR(a.lo, 0.0, 1e-9);
  EXPECT_NEAR(a.hi, 0.2775, 1e-3);
  Interval b = Wilson(5, 10);
  EXPECT_NEAR(b.lo, 0.2366, 1e-3);
  EXPECT_NEAR(b.hi, 0.7634, 1e-3);
  EXPECT_EQ(ShareWithInterval(5, 10), "50.0 % [23.7, 76.3]");
  EXPECT_EQ(ShareWithInterval(0, 0), "n/a");
}

TEST(ExploreLibTest, FloorsRejectSkipsAndTies) {
  Stats st;
  st.property = "p";
  st.run = 100;
  st.holds = 60;
  st.skipped = 40;
  st.decisive = 30;
  EXPECT_EQ(FloorViolation(st, {0.6, 0.5}), "");
  // Too many skipped (or discarded by the generator).
  EXPECT_NE(FloorViolation(st, {0.7, 0}).find("judged 60 of 100"), std::string::npos);
  st.gen_failures = 20;  // 60 judged of 120 drawn
  EXPECT_NE(FloorViolation(st, {0.6, 0}), "");
  st.gen_failures = 0;
  // Every case a tie.
  st.decisive = 0;
  EXPECT_NE(FloorViolation(st, {0.5, 0.1}).find("0 of 60 judged cases decisive"), std::string::npos);
  // Everything skipped: no judged case cannot meet a decisive floor.
  Stats skipped_all;
  skipped_all.run = skipped_all.skipped = 50;
  EXPECT_NE(FloorViolation(skipped_all, {0, 0.1}), "");
  EXPECT_NE(FloorViolation(skipped_all, {0.5, 0}), "");
  // Nothing drawn (an empty shard): nothing to judge.
  EXPECT_EQ(FloorViolation(Stats{}, {0.9, 0.9}), "");
}

TEST(ExploreLibTest, MergeRejectsMismatchedShards) {
  ShardResult other = OneShard(1, 1, 0);
  other.seed = 6;
  EXPECT_FALSE(MergeShards({OneShard(0, 1, 0), other}).ok());
  EXPECT_FALSE(MergeShards({OneShard(0, 1, 0), OneShard(0, 1, 0)}).ok());  // shard 0 twice
  EXPECT_FALSE(MergeShards({}).ok());
  EXPECT_FALSE(ShardResultFromJson("{\"seed\": 1}").ok());
  EXPECT_FALSE(ShardResultFromJson("not json").ok());
}

}  // namespace
}  // namespace sendsim::props
