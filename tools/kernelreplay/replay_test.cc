#include "tools/kernelreplay/replay.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "gtest/gtest.h"

// props/map.cc reads the explorer's --seed (explore.cc defines it there,
// main.cc in kernelreplay); a test binary links map.cc alone.
ABSL_FLAG(uint64_t, seed, 1, "unused here");

namespace sendsim::kernelreplay {
namespace {

TEST(ReplayTest, SizesRoundTripRunLength) {
  const std::vector<uint32_t> v = {1448, 1448, 1448, 200, 1448, 21, 21};
  EXPECT_EQ(EncodeSizes(v), "1448x3 200 1448 21x2");
  EXPECT_EQ(*DecodeSizes("1448x3 200 1448 21x2"), v);
  EXPECT_TRUE(DecodeSizes("")->empty());
  EXPECT_FALSE(DecodeSizes("1448x0").ok());
  EXPECT_FALSE(DecodeSizes("abc").ok());
  EXPECT_EQ(Runts(v, 1448), 3u);
}

TEST(ReplayTest, WritersPerSeries) {
  EXPECT_EQ(KernelWriters("6.1").size(), 7u);
  EXPECT_EQ(KernelWriters("6.12").size(), 3u);
  EXPECT_EQ(*ProfileForSeries("6.12"), "linux-6.12");
  EXPECT_FALSE(ProfileForSeries("5.4").ok());
  EXPECT_FALSE(ParseCells("regime").ok());
  EXPECT_EQ(ParseCells("regime=any;sndbuf=16384")->size(), 2u);
  EXPECT_GE(DefaultCells().size(), 10u);
}

TEST(ReplayTest, SampleIsDeterministicAndExpressible) {
  absl::StatusOr<Recording> a = SampleCells("6.1", {{"regime", "quiescent"}, {"sndbuf", "16384"}}, 3, 1);
  absl::StatusOr<Recording> b = SampleCells("6.1", {{"regime", "quiescent"}, {"sndbuf", "16384"}}, 3, 1);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->cells.size(), 2u);
  ASSERT_EQ(a->cells[1].cases.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const props::Case& c = a->cells[1].cases[i].c;
    EXPECT_EQ(c, b->cells[1].cases[i].c);
    EXPECT_EQ(c.net.kernel, "linux-6.1");
    EXPECT_EQ(c.net.hz, 250u);
    EXPECT_TRUE(c.net.tso);
    EXPECT_EQ(c.net.tcp.cwnd_clamp, 0u);
    EXPECT_EQ(c.net.sndbuf, 16384u);
    EXPECT_EQ(a->cells[1].cases[i].runs.size(), 7u);
  }
  EXPECT_FALSE(SampleCells("6.1", {{"regime", "nope"}}, 3, 1).ok());
}

// A hand-made recording: two cases, the verdict pair and one other writer.
Recording Handmade() {
  absl::StatusOr<Recording> r = SampleCells("6.1", {{"regime", "quiescent"}}, 2, 1);
  Recording rec = *r;
  rec.release = "6.1.0-test";
  ReplayCell& cell = rec.cells[0];
  for (ReplayCase& c : cell.cases) {
    props::SetMss(&c.c.net, 1000);
    c.runs.resize(3);
    c.runs[0].writer = "v1-notlast";
    c.runs[1].writer = "v1-more";
    c.runs[2].writer = "v2";
    for (ReplayRun& run : c.runs) run.kernel_completed = run.model_completed = true;
  }
  // Case 0: all the same; NOTLAST fewer runts on both sides.
  cell.cases[0].runs[0].kernel = cell.cases[0].runs[0].model = {1000, 1000, 5};
  cell.cases[0].runs[1].kernel = cell.cases[0].runs[1].model = {1000, 500, 500, 5};
  cell.cases[0].runs[2].kernel = cell.cases[0].runs[2].model = {1000};
  // Case 1: v1-more differs in sizes, not in runts; v2's runts differ; the
  // verdict flips (kernel: tie, model: NOTLAST fewer).
  cell.cases[1].runs[0].kernel = {500, 500};
  cell.cases[1].runs[0].model = {1000};
  cell.cases[1].runs[1].kernel = {600, 400};
  cell.cases[1].runs[1].model = {400, 600};
  cell.cases[1].runs[2].kernel = {1000};
  cell.cases[1].runs[2].model = {999, 1};
  return rec;
}

TEST(ReplayTest, AgreementCountsByHand) {
  const std::string t = AgreementTable(Handmade());
  // 6 runs: 3 same sizes (case 0); same runts: case 0's 3 + case 1's v1-more = 4 (66.7 %);
  // verdicts: 1 of 2.
  EXPECT_NE(t.find("| regime = quiescent | 6 | 50.0 | 50.0 (6) | 66.7 | 50.0 | 0 |"), std::string::npos) << t;
  // NOTLAST fewer: kernel case 0 only (case 1 ties 2 / 2 runts), model both
  // (case 1: 0 runts against 2); more: never.
  EXPECT_NE(t.find("v1-notlast sends fewer / more runts than v1-more in 50.0 / 0.0 % of cases on the kernel, "
                   "100.0 / 0.0 % on the model (2 cases)"),
            std::string::npos)
      << t;
  EXPECT_EQ(QuiescentDisagreements(Handmade()).size(), 3u);
}

TEST(ReplayTest, JsonRoundTrip) {
  const Recording r = Handmade();
  absl::StatusOr<Recording> back = FromJson(ToJson(r));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(ToJson(*back), ToJson(r));
  EXPECT_FALSE(FromJson("{\"series\": 1}").ok());
  EXPECT_FALSE(FromJson("not json").ok());
}

}  // namespace
}  // namespace sendsim::kernelreplay
