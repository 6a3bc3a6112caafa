#include "scenario/scenario.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::scenario {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(const Scenario& s) {
  absl::Status st = ValidateScenario(s);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(std::string(st.message()).find('\n'), std::string::npos) << st.message();
  return std::string(st.message());
}

TEST(ScenarioTest, DefaultIsValidAndTheDocumentedWorkload) {
  Scenario s;
  EXPECT_TRUE(ValidateScenario(s).ok()) << ValidateScenario(s);
  // ~10,000 krbd 128 KiB writes, 192-byte front, MSS 1448, linux-4.19.
  EXPECT_EQ(s.messages, 10000u);
  ASSERT_EQ(s.sizes.size(), 1u);
  EXPECT_EQ(s.sizes[0].bytes, 128u * 1024);
  EXPECT_EQ(s.front_len, 192u);
  EXPECT_EQ(s.mss, 1448u);
  EXPECT_TRUE(s.nodelay);
  EXPECT_EQ(s.kernel, "linux-4.19");
  ASSERT_EQ(s.writers.size(), 5u);
  EXPECT_EQ(s.writers[0].writer, "v1-legacy");
  EXPECT_EQ(s.writers[1].writer, "v1-notlast");
  EXPECT_EQ(EffectiveKernel(s.writers[3], s.kernel), "linux-6.8");
  EXPECT_EQ(EffectiveKernel(s.writers[0], s.kernel), "linux-4.19");
  // No lockstep by default, and several seeds.
  EXPECT_GT(s.osd_reply_jitter_ns, 0u);
  EXPECT_GT(s.seeds, 1u);
}

TEST(ScenarioTest, SeedsInRangeAndLastSeedFits) {
  Scenario s;
  s.seeds = 0;
  EXPECT_THAT(ErrorOf(s), HasSubstr("seeds: 0 runs is out of range [1, 1000]"));
  s.seeds = 1001;
  EXPECT_THAT(ErrorOf(s), HasSubstr("seeds"));
  s.seeds = 1000;
  EXPECT_TRUE(ValidateScenario(s).ok());
  // seed + seeds - 1 must be a 64-bit seed: UINT64_MAX with one run fits, with two it does not.
  s.seed = UINT64_MAX;
  s.seeds = 1;
  EXPECT_TRUE(ValidateScenario(s).ok());
  s.seeds = 2;
  EXPECT_THAT(ErrorOf(s), HasSubstr("passes the largest 64-bit seed"));
}

TEST(ScenarioTest, MssMustFitMtu) {
  Scenario s;
  // 1500 - 20 (IPv4) - 20 (TCP) - 12 (timestamps option) = 1448 is the largest.
  s.mss = 1449;
  EXPECT_THAT(ErrorOf(s), HasSubstr("mss"));
  s.timestamps = false;  // without the option 1460 fits
  s.mss = 1460;
  EXPECT_TRUE(ValidateScenario(s).ok());
  s.mss = 1461;
  EXPECT_THAT(ErrorOf(s), HasSubstr("1500-byte MTU"));
  s = Scenario();
  s.mtu = 9000;
  s.mss = 8948;  // 9000 - 52
  EXPECT_TRUE(ValidateScenario(s).ok());
}

TEST(ScenarioTest, RejectsZeroAndOversizedSizes) {
  Scenario s;
  s.messages = 0;
  EXPECT_THAT(ErrorOf(s), HasSubstr("messages"));
  s = Scenario();
  s.sizes = {{4096, 1}, {0, 1}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("sizes[1].bytes"));
  s.sizes = {};
  EXPECT_THAT(ErrorOf(s), HasSubstr("sizes"));
  s.sizes = {{(uint64_t{1} << 30) + 1, 1}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("sizes[0].bytes"));
  s.sizes = {{4096, 0}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("weight"));
  s = Scenario();
  s.front_len = 0;
  EXPECT_THAT(ErrorOf(s), HasSubstr("front_len"));
  // 10^8 messages of 1 GiB = ~10^17 bytes > 2^50.
  s = Scenario();
  s.messages = kMaxMessages;
  s.sizes = {{kMaxMessageBytes, 1}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("stream limit"));
}

TEST(ScenarioTest, PageOffsetBelowPageSize) {
  Scenario s;
  s.page_offset = 4095;
  EXPECT_TRUE(ValidateScenario(s).ok());
  s.page_offset = 4096;
  EXPECT_THAT(ErrorOf(s), HasSubstr("page_offset"));
  s.page_offset = 512;
  s.layout = DataLayout::kPagelist;
  EXPECT_THAT(ErrorOf(s), HasSubstr("pagelist"));
}

TEST(ScenarioTest, UnknownNames) {
  Scenario s;
  s.kernel = "linux-3.10";
  EXPECT_THAT(ErrorOf(s), HasSubstr("linux-3.10"));
  s = Scenario();
  s.writers = {{"v1-nope", ""}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("unknown writer \"v1-nope\""));
  s.writers = {{"v2", "linux-9"}};
  EXPECT_THAT(ErrorOf(s), HasSubstr("linux-9"));
  s.writers = {};
  EXPECT_THAT(ErrorOf(s), HasSubstr("writers"));
  s.writers = {{"v2", ""}, {"v2", "linux-4.19"}};  // same run twice
  EXPECT_THAT(ErrorOf(s), HasSubstr("twice"));
}

TEST(ScenarioTest, OtherRanges) {
  Scenario s;
  s.hz = 200;
  EXPECT_THAT(ErrorOf(s), HasSubstr("hz"));
  s = Scenario();
  s.sndbuf = 100;
  EXPECT_THAT(ErrorOf(s), HasSubstr("sndbuf"));
  s = Scenario();
  s.link_mbps = 0;
  EXPECT_THAT(ErrorOf(s), HasSubstr("link_mbps"));
  s = Scenario();
  s.ack_every = 0;
  EXPECT_THAT(ErrorOf(s), HasSubstr("ack_every"));
  s = Scenario();
  s.rtt_ns = kMaxTimeNs + 1;
  EXPECT_THAT(ErrorOf(s), HasSubstr("rtt_ns"));
}

TEST(ScenarioTest, WriterSpecParsing) {
  absl::StatusOr<WriterSpec> w = ParseWriterSpec("v1-splice@linux-6.8");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->writer, "v1-splice");
  EXPECT_EQ(w->kernel, "linux-6.8");
  EXPECT_EQ(WriterSpecString(*w), "v1-splice@linux-6.8");
  w = ParseWriterSpec("v2");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->kernel, "");
  EXPECT_FALSE(ParseWriterSpec("").ok());
  EXPECT_FALSE(ParseWriterSpec("@linux-6.8").ok());
  EXPECT_FALSE(ParseWriterSpec("v2@").ok());
  EXPECT_FALSE(ParseWriterSpec("v2@a@b").ok());
}

TEST(ScenarioTest, LayoutAndGroNames) {
  for (DataLayout l : {DataLayout::kPages, DataLayout::kPagelist, DataLayout::kBio, DataLayout::kBvecs}) {
    absl::StatusOr<DataLayout> back = DataLayoutByName(DataLayoutName(l));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, l);
  }
  EXPECT_FALSE(DataLayoutByName("bios").ok());
  EXPECT_EQ(*GroModeByName("off"), GroMode::kOff);
  EXPECT_FALSE(GroModeByName("on").ok());
}

}  // namespace
}  // namespace sendsim::scenario
