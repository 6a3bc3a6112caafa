// RunCase at both depths: a wire-only run (no payload copy, no decoder)
// must see exactly the packets and trace of the full run, since properties
// that read only packets use it in place of the full run.

#include "props/run_case.h"

#include "gtest/gtest.h"
#include "props/explore_lib.h"

namespace sendsim::props {
namespace {

TEST(RunCaseTest, WireDepthGivesTheFullRunsPackets) {
  const CaseGenerator g{CaseLimits{}};
  int compared = 0;
  for (uint64_t i = 0; i < 150; ++i) {
    std::optional<Case> c = g.Draw(21, i);
    ASSERT_TRUE(c.has_value());
    absl::StatusOr<Outcome> full = RunCase(*c, RunDepth::kFull);
    absl::StatusOr<Outcome> wire = RunCase(*c, RunDepth::kWire);
    ASSERT_EQ(full.ok(), wire.ok()) << FormatCase(*c);
    if (!full.ok()) continue;
    ++compared;
    EXPECT_EQ(full->trace_hash, wire->trace_hash) << FormatCase(*c);
    EXPECT_EQ(DataPackets(*full), DataPackets(*wire));
    EXPECT_EQ(SubMss(*full), SubMss(*wire));
    EXPECT_EQ(full->completed, wire->completed);
    EXPECT_EQ(full->bytes_delivered, wire->bytes_delivered);
    EXPECT_TRUE(full->stream_checked);
    EXPECT_FALSE(wire->stream_checked);
  }
  EXPECT_GE(compared, 130);
}

}  // namespace
}  // namespace sendsim::props
