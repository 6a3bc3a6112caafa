#include "props/case.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "props/setup.h"

namespace sendsim::props {
namespace {

Case TwoMessageCase() {
  Case c;
  c.net.kernel = "linux-5.0";
  c.writer = HookWriter::kAssigned;
  c.seed = 42;
  SetMss(&c.net, 536);
  c.net.call_cost_ns = 1000;
  MessageLayout m1;
  m1.front_len = 196;
  m1.items.push_back(DataItem{DataLayout::kPages, 100, 8192, {}});  // 100..8292: 3 pages
  m1.items.push_back(DataItem{DataLayout::kBio, 0, 0, {{0, 10}, {4000, 96}}});
  MessageLayout m2;
  m2.front_len = 0;
  m2.middle_len = 7;
  m2.items.push_back(DataItem{DataLayout::kPagelist, 0, 4097, {}});  // 2 pages
  c.layout.messages = {m1, m2};
  c.layout.more_to_follow = false;
  c.layout.revoke = Revoke{1, 30};
  c.assignment = {PieceFlags::kMoreNotlast, PieceFlags::kMore, PieceFlags::kNone, PieceFlags::kMoreNotlast,
                  PieceFlags::kMore, PieceFlags::kMoreNotlast, PieceFlags::kMore};
  c.mutation.decoder_drop_byte = 5;
  return c;
}

TEST(CaseTest, PieceCountsFollowPageBoundaries) {
  // offset 100 + 8192 bytes spans pages [0,4096) [4096,8192) [8192,8292): 3 pieces.
  EXPECT_EQ(PieceCount(DataItem{DataLayout::kPages, 100, 8192, {}}), 3u);
  // page-aligned 8192 bytes: exactly 2 pieces.
  EXPECT_EQ(PieceCount(DataItem{DataLayout::kPages, 0, 8192, {}}), 2u);
  // offset 4095 + 2 bytes crosses one boundary: 2 pieces.
  EXPECT_EQ(PieceCount(DataItem{DataLayout::kPages, 4095, 2, {}}), 2u);
  EXPECT_EQ(PieceCount(DataItem{DataLayout::kPagelist, 0, 4097, {}}), 2u);
  EXPECT_EQ(PieceCount(DataItem{DataLayout::kBvecs, 0, 0, {{1, 1}, {2, 2}, {3, 3}}}), 3u);
  EXPECT_EQ(PieceCount(TwoMessageCase().layout), 7u);
}

TEST(CaseTest, WireBytesAreTagHeaderKvecsDataFooter) {
  // 1 + 53 + 196 + 0 + (8192 + 106) + 21 = 8569
  EXPECT_EQ(V1WireBytes(TwoMessageCase().layout.messages[0]), 8569u);
  // 1 + 53 + 0 + 7 + 4097 + 21 = 4179
  EXPECT_EQ(V1WireBytes(TwoMessageCase().layout.messages[1]), 4179u);
}

TEST(CaseTest, NotlastAndLegacyAssignmentsFollowTheFlagMatrix) {
  Layout l = TwoMessageCase().layout;
  // Message 1: 5 pieces (3 + 2), message 2: 2 pieces. v1-notlast: NOTLAST on
  // all but the last piece of each payload (§8.2).
  EXPECT_EQ(FormatAssignment(NotlastAssignment(l)), "NNNNMNM");
  // v1-legacy: MORE except the last piece of each item (§8.1): items 3,2,2 pieces.
  EXPECT_EQ(FormatAssignment(LegacyAssignment(l)), "MM-M-M-");
}

TEST(CaseTest, FormatParseRoundTrip) {
  Case c = TwoMessageCase();
  absl::StatusOr<Case> back = ParseCase(FormatCase(c));
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << FormatCase(c);
  EXPECT_EQ(*back, c) << FormatCase(*back);
}

// tun=1 (kernelreplay's device) is written only when set: every case text
// without it reads and prints as before.
TEST(CaseTest, TunWrittenOnlyWhenSet) {
  Case c = TwoMessageCase();
  EXPECT_FALSE(absl::StrContains(FormatCase(c), "tun="));
  c.net.host.tx_orphan_at_xmit = true;
  EXPECT_TRUE(absl::StrContains(FormatCase(c), " hz=250 tun=1"));
  absl::StatusOr<Case> back = ParseCase(FormatCase(c));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, c);
  EXPECT_TRUE(back->net.host.tx_orphan_at_xmit);
  EXPECT_FALSE(TwoMessageCase().net.host.tx_orphan_at_xmit);
}

TEST(CaseTest, ParseRejectsBadInputWithOneLineErrors) {
  EXPECT_FALSE(ParseCase("writer v1-notlast\nmessage front=1 items=pages:0+1\n").ok());  // no profile
  EXPECT_FALSE(ParseCase("profile linux-4.19\nwriter v9\nmessage front=1 items=\n").ok());
  EXPECT_FALSE(ParseCase("profile linux-4.19\nwriter v2\nmessage front=x items=\n").ok());
  EXPECT_FALSE(ParseCase("profile linux-4.19\nwriter v2\nmessage items=bio:4000+200\n").ok());  // crosses page
  EXPECT_FALSE(ParseCase("profile linux-4.19\nwriter v2\nnet mss=100\nmessage items=\n").ok());
  EXPECT_FALSE(ParseCase("profile linux-4.19\nwriter assigned\nassignment NM\nmessage items=pages:0+1\n").ok());
  absl::StatusOr<Case> ok = ParseCase("profile linux-4.19\nwriter v2\nmessage front=3 items=pages:0+1\n");
  EXPECT_TRUE(ok.ok()) << ok.status();
}

// A case's network becomes a scenario::Scenario, whose link rate is whole
// Mbit/s and whose delays are not negative: anything else is refused, not
// rounded.
TEST(CaseTest, NetValuesTheScenarioCannotHoldAreRefused) {
  const std::string head = "profile linux-4.19\nwriter v1-notlast\n";
  const std::string tail = "message front=3 items=pages:0+1\n";
  absl::StatusOr<Case> odd = ParseCase(head + "net link_bps=1500000\n" + tail);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(std::string(odd.status().message()).find("link_bps"), std::string::npos) << odd.status();
  EXPECT_FALSE(ParseCase(head + "net owd_ns=-1\n" + tail).ok());
  EXPECT_FALSE(ParseCase(head + "net call_ns=-5\n" + tail).ok());
  absl::StatusOr<Case> whole = ParseCase(head + "net link_bps=25000000000 owd_ns=7\n" + tail);
  EXPECT_TRUE(whole.ok()) << whole.status();
}

TEST(CaseTest, WriterProfileCompatibility) {
  EXPECT_TRUE(WriterRunsOn(WriterKind::kV1Notlast, "linux-4.19"));
  EXPECT_FALSE(WriterRunsOn(WriterKind::kV1Notlast, "linux-6.8"));
  EXPECT_TRUE(WriterRunsOn(WriterKind::kV1Splice, "linux-6.8"));
  EXPECT_FALSE(WriterRunsOn(WriterKind::kV1Splice, "linux-5.0"));
  EXPECT_TRUE(WriterRunsOn(WriterKind::kV2, "linux-6.8"));
}

}  // namespace
}  // namespace sendsim::props
