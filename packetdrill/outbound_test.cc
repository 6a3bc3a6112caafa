// The joining and tolerance rules of outbound.h, on hand-made captures.

#include "packetdrill/outbound.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

Capture Piece(uint32_t seq, uint32_t len, uint8_t flags, int64_t t, uint32_t win = 100) {
  Capture c;
  c.seq = seq;
  c.len = len;
  c.flags = flags;
  c.t = t;
  c.ack = 1;
  c.win = win;
  return c;
}

PacketEvent Line(uint32_t seq, uint32_t len, uint8_t flags) {
  PacketEvent p;
  p.flags = flags;
  p.seq_start = seq;
  p.seq_end = seq + len;
  p.len = len;
  p.ack = 1;
  return p;
}

TEST(ToleranceTest, LargerOfFixedAndShareOfGap) {
  MatchRules r;  // 4000 us, 12.5 %
  EXPECT_EQ(ToleranceNs(r, 0), 4000000);
  EXPECT_EQ(ToleranceNs(r, 32000000), 4000000);    // 12.5 % of 32 ms = 4 ms
  EXPECT_EQ(ToleranceNs(r, 300000000), 37500000);  // 12.5 % of 300 ms
  r.tolerance_usecs = 1000;
  EXPECT_EQ(ToleranceNs(r, 0), 1000000);  // below upstream's default when asked
  r.tolerance_percent = 0;
  EXPECT_EQ(ToleranceNs(r, 300000000), 1000000);
}

TEST(ToleranceTest, ScriptOptionsOverride) {
  Script s;
  s.path = "t.pkt";
  s.options = {{"tolerance_usecs", "250", 1}, {"tolerance_percent", "50", 2}, {"strict_segments", std::nullopt, 3}};
  MatchRules r;
  ASSERT_TRUE(ApplyMatchOptions(s, &r).ok());
  EXPECT_EQ(r.tolerance_usecs, 250);
  EXPECT_EQ(r.tolerance_percent, 50);
  EXPECT_TRUE(r.strict_segments);
  s.options = {{"tolerance_percent", "150", 4}};
  absl::Status st = ApplyMatchOptions(s, &r);
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(st.message(), ::testing::HasSubstr("t.pkt:4: --tolerance_percent"));
  s.options = {{"tolerance_usecs", "-1", 5}};
  EXPECT_FALSE(ApplyMatchOptions(s, &r).ok());
}

// Five 2000-byte TSO packets, each with PSH, are one "P. 1:10001(10000)".
TEST(JoinTest, PushOnEveryPieceIsOneLine) {
  const MatchRules r;
  std::vector<Capture> g = {Piece(1, 2000, kFlagAck | kFlagPsh, 10)};
  for (uint32_t i = 1; i < 5; ++i) {
    const Capture next = Piece(1 + 2000 * i, 2000, kFlagAck | kFlagPsh, 10 + i, 100 + i);
    ASSERT_TRUE(JoinsGroup(r, g, next, 10000)) << i;
    g.push_back(next);
  }
  EXPECT_FALSE(JoinsGroup(r, g, Piece(10001, 2000, kFlagAck, 20), 10000));  // the length is reached
  const Capture j = JoinCaptures(g);
  EXPECT_EQ(j.seq, 1u);
  EXPECT_EQ(j.len, 10000u);
  EXPECT_EQ(j.t, 14);     // the last piece's time
  EXPECT_EQ(j.win, 104u);  // and window
  EXPECT_EQ(OutboundDifference(Line(1, 10000, kFlagAck | kFlagPsh), g, j), "");
}

// Flags come from the last piece (PSH/FIN of earlier ones are not
// compared), CWR from the first.
TEST(JoinTest, FlagsFromLastCwrFromFirst) {
  const std::vector<Capture> g = {Piece(1, 1000, kFlagAck | kFlagCwr | kFlagPsh, 1), Piece(1001, 500, kFlagAck, 2)};
  const Capture j = JoinCaptures(g);
  EXPECT_EQ(j.flags, kFlagAck | kFlagCwr);
  EXPECT_EQ(OutboundDifference(Line(1, 1500, kFlagAck | kFlagPsh), g, j), "TCP flags differ");
  EXPECT_EQ(OutboundDifference(Line(1, 1500, kFlagAck | kFlagCwr), g, j), "");
}

TEST(JoinTest, PiecesButTheLastOfEqualSize) {
  const std::vector<Capture> ok = {Piece(1, 4000, kFlagAck, 1), Piece(4001, 4000, kFlagAck, 1),
                                   Piece(8001, 2000, kFlagAck, 1)};
  EXPECT_EQ(OutboundDifference(Line(1, 10000, kFlagAck), ok, JoinCaptures(ok)), "");
  const std::vector<Capture> bad = {Piece(1, 4000, kFlagAck, 1), Piece(4001, 2000, kFlagAck, 1),
                                    Piece(6001, 4000, kFlagAck, 1)};
  EXPECT_EQ(OutboundDifference(Line(1, 10000, kFlagAck), bad, JoinCaptures(bad)), "segments of unequal size");
}

TEST(JoinTest, OtherConnectionOrStrictStartsAnew) {
  MatchRules r;
  const std::vector<Capture> g = {Piece(1, 1000, kFlagAck, 1)};
  Capture other = Piece(1001, 1000, kFlagAck, 2);
  other.flow = 7;
  EXPECT_FALSE(JoinsGroup(r, g, other, 2000));
  EXPECT_TRUE(JoinsGroup(r, g, Piece(1001, 1000, kFlagAck, 2), 2000));
  r.strict_segments = true;
  EXPECT_FALSE(JoinsGroup(r, g, Piece(1001, 1000, kFlagAck, 2), 2000));
}

TEST(JoinTest, LengthAndOptionsCompared) {
  const std::vector<Capture> g = {Piece(1, 1000, kFlagAck, 1)};
  const Capture j = JoinCaptures(g);
  EXPECT_EQ(OutboundDifference(Line(1, 2000, kFlagAck), g, j), "fewer bytes than expected");
  EXPECT_EQ(OutboundDifference(Line(1, 500, kFlagAck), g, j), "more bytes than expected");
  EXPECT_EQ(OutboundDifference(Line(2, 1000, kFlagAck), g, j), "sequence number differs");
  PacketEvent with_ts = Line(1, 1000, kFlagAck);
  with_ts.options.resize(1);
  with_ts.options[0].kind = TcpOption::Kind::kTimestamp;
  EXPECT_THAT(OutboundDifference(with_ts, g, j), ::testing::HasSubstr("TCP options differ"));
}

// RFC 3168's ECN field: a marking on the line is checked, none is not;
// [ect01] takes either ECT codepoint.
TEST(EcnFieldTest, MarkingChecksTheField) {
  Capture c = Piece(1, 1000, kFlagAck, 0);
  c.ecn = kEcnEct0;
  PacketEvent p = Line(1, 1000, kFlagAck);
  EXPECT_EQ(OutboundDifference(p, {c}, c), "");
  p.ecn = "ect0";
  EXPECT_EQ(OutboundDifference(p, {c}, c), "");
  p.ecn = "ect01";
  EXPECT_EQ(OutboundDifference(p, {c}, c), "");
  p.ecn = "noecn";
  EXPECT_EQ(OutboundDifference(p, {c}, c), "ECN field differs ([noecn] vs [ect0])");
  p.ecn = "ce";
  EXPECT_NE(OutboundDifference(p, {c}, c), "");
  c.ecn = kEcnNotEct;
  p.ecn = "ect01";
  EXPECT_NE(OutboundDifference(p, {c}, c), "");
}

TEST(EcnFieldTest, InboundMarkings) {
  EXPECT_EQ(InboundEcn(""), kEcnNotEct);
  EXPECT_EQ(InboundEcn("noecn"), kEcnNotEct);
  EXPECT_EQ(InboundEcn("ect1"), 1);
  EXPECT_EQ(InboundEcn("ect0"), 2);
  EXPECT_EQ(InboundEcn("ce"), 3);
  EXPECT_FALSE(InboundEcn("ect01").has_value());
}

}  // namespace
}  // namespace sendsim::packetdrill
