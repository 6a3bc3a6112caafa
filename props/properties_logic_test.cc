// The property bodies' decision logic on hand-built outcomes (a fake runner),
// independent of the model: each property must be able to fail.

#include "props/properties.h"

#include "gtest/gtest.h"
#include "props/generators.h"

namespace sendsim::props {
namespace {

Case OneMessage(uint32_t pieces) {
  Case c;
  c.net.kernel = "linux-4.19";
  c.writer = WriterKind::kV1Notlast;
  MessageLayout m;
  m.front_len = 100;
  m.items.push_back(DataItem{DataLayout::kPages, 0, uint64_t{pieces} * kPageSize, {}});
  c.layout.messages = {m};
  return c;
}

// A completed, clean outcome of `packets` full segments and a tail.
Outcome Clean(uint32_t mss, std::vector<uint32_t> lens) {
  Outcome o;
  o.mss = mss;
  uint32_t seq = 0;
  for (size_t i = 0; i < lens.size(); ++i) {
    o.packets.push_back(PacketRecord{0, seq, lens[i], static_cast<uint8_t>(i + 1 == lens.size() ? kPsh : 0), 0, false});
    seq += lens[i];
  }
  o.message_ends = {seq};
  o.bytes_written = o.bytes_delivered = seq;
  o.decoder_ok = true;
  o.messages_expected = o.messages_decoded = 1;
  o.completed = true;
  o.completion_ns = 1000;
  return o;
}

Runner Const(Outcome o) {
  return [o](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return o; };
}

TEST(PropertiesLogicTest, IntegrityFailsOnDecoderErrorAndMissingMessages) {
  Case c = OneMessage(1);
  EXPECT_EQ(Integrity_AnyWriterProfileConfig(c, Const(Clean(1448, {1448, 100}))).verdict, Verdict::kHolds);
  Outcome bad = Clean(1448, {1448, 100});
  bad.decoder_ok = false;
  bad.decoder_error = "data crc mismatch";
  EXPECT_EQ(Integrity_AnyWriterProfileConfig(c, Const(bad)).verdict, Verdict::kFails);
  Outcome missing = Clean(1448, {1448, 100});
  missing.messages_decoded = 0;
  EXPECT_EQ(Integrity_AnyWriterProfileConfig(c, Const(missing)).verdict, Verdict::kFails);
  c.net.kernel = "linux-6.8";  // v1-notlast has no sendpage there
  EXPECT_EQ(Integrity_AnyWriterProfileConfig(c, Const(bad)).verdict, Verdict::kSkipped);
}

TEST(PropertiesLogicTest, RunnerErrorsAreFailuresExceptNotApplicable) {
  Case c = OneMessage(1);
  Runner internal = [](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return absl::InternalError("boom"); };
  Runner na = [](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return absl::FailedPreconditionError("n/a"); };
  EXPECT_EQ(IntegrityBody(c, internal).verdict, Verdict::kFails);
  EXPECT_EQ(IntegrityBody(c, na).verdict, Verdict::kSkipped);
}

TEST(PropertiesLogicTest, LivenessFailsWhenNotCompleted) {
  Case c = OneMessage(1);
  Outcome stalled = Clean(1448, {1448});
  stalled.completed = false;
  stalled.stall_info = "write queue holds 100 bytes, nothing in flight, no timer";
  EXPECT_EQ(Liveness_RealWriter_BoundedTime(c, Const(stalled)).verdict, Verdict::kFails);
  EXPECT_EQ(Liveness_RealWriter_BoundedTime(c, Const(Clean(1448, {1448}))).verdict, Verdict::kHolds);
  c.writer = HookWriter::kMutantNotlastStuck;  // not a real writer: the property skips, the body still judges
  EXPECT_EQ(Liveness_RealWriter_BoundedTime(c, Const(stalled)).verdict, Verdict::kSkipped);
  EXPECT_EQ(LivenessBody(c, Const(stalled)).verdict, Verdict::kFails);
}

TEST(PropertiesLogicTest, LowerBoundNeedsQuiescenceAndCeilSegments) {
  Case c = OneMessage(2);
  // 100 + 8192 + 75 bytes of v1 overhead = 8367 = 5 x 1448 + 1127: 6 segments.
  Outcome good = Clean(1448, {1448, 1448, 1448, 1448, 1448, 1127});
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, Const(good)).verdict, Verdict::kSkipped);  // default config not quiescent
  MakeQuiescent(&c.net, V1WireBytes(c.layout));
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, Const(good)).verdict, Verdict::kHolds);
  // Same bytes with a 1200-byte runt in the middle: still ceil(8367/1448) = 6
  // segments (1200 + 1375 < 2 x 1448 + 1127 leaves room), but two sub-MSS.
  Outcome runt = Clean(1448, {1448, 1200, 1448, 1448, 1448, 1375});
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, Const(runt)).verdict, Verdict::kFails);
  // 7 segments for the same bytes: 1000 + 6 x ... fails on the count too.
  Outcome seven = Clean(1448, {1000, 1000, 1000, 1448, 1448, 1448, 1023});
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, Const(seven)).verdict, Verdict::kFails);
  runt.async_during_write = true;
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, Const(runt)).verdict, Verdict::kSkipped);
  EXPECT_EQ(FlushRunsMinimalBody(c, Const(runt)).verdict, Verdict::kFails);
}

TEST(PropertiesLogicTest, AlternativesAreExhaustiveUpToSixFreePieces) {
  // 7 pieces in one message: 6 free pieces, 3^6 = 729 assignments, minus the candidate.
  std::vector<std::vector<PieceFlags>> alts = AlternativeAssignments(OneMessage(7).layout, 48, 1);
  EXPECT_EQ(alts.size(), 728u);
  for (const auto& a : alts) EXPECT_EQ(a.back(), PieceFlags::kMore);  // final piece fixed
  // 8 pieces: sampled, bounded by samples + 2 structured ones.
  EXPECT_LE(AlternativeAssignments(OneMessage(8).layout, 48, 1).size(), 50u);
  EXPECT_GE(AlternativeAssignments(OneMessage(8).layout, 48, 1).size(), 40u);
}

// Fake model: every piece without NOTLAST costs `cost_plain` runts, NOTLAST costs `cost_notlast`.
Runner CountingRunner(int cost_plain, int cost_notlast) {
  return [=](const Case& c, RunDepth) -> absl::StatusOr<Outcome> {
    int runts = 0;
    for (PieceFlags f : c.assignment) runts += f == PieceFlags::kMoreNotlast ? cost_notlast : cost_plain;
    std::vector<uint32_t> lens(10, 1000);
    for (int i = 0; i < runts; ++i) lens.push_back(10);
    return Clean(1000, lens);
  };
}

TEST(PropertiesLogicTest, OptimalityComparesAgainstEveryAssignment) {
  Case c = OneMessage(4);
  PropertyResult r = Optimality_NotlastAmongAssignments(c, CountingRunner(1, 0));
  EXPECT_EQ(r.verdict, Verdict::kHolds) << r.detail;
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_EQ(r.comparisons[0].better_sub_mss, 1);  // only the final piece (MORE) costs
  // If NOTLAST were the expensive flag, the property must fail.
  EXPECT_EQ(Optimality_NotlastAmongAssignments(c, CountingRunner(0, 1)).verdict, Verdict::kFails);
  // ... unless the slack covers the difference (3 NOTLAST pieces cost 3).
  EXPECT_EQ(Optimality_NotlastAmongAssignments(c, CountingRunner(0, 1), {48, 3, 3}).verdict, Verdict::kHolds);
  // A candidate that pushes every page loses against v1-notlast.
  std::vector<PieceFlags> push_all(4, PieceFlags::kNone);
  push_all.back() = PieceFlags::kMore;
  EXPECT_EQ(AssignmentOptimalBody(c, push_all, CountingRunner(1, 0)).verdict, Verdict::kFails);
}

TEST(PropertiesLogicTest, DominanceComparesBothFigures) {
  Case c = OneMessage(2);
  auto by_writer = [](int notlast_runts, int legacy_runts) -> Runner {
    return [=](const Case& x, RunDepth) -> absl::StatusOr<Outcome> {
      std::vector<uint32_t> lens(5, 1000);
      int n = x.writer == WriterKind::kV1Notlast ? notlast_runts : legacy_runts;
      for (int i = 0; i < n; ++i) lens.push_back(7);
      return Clean(1000, lens);
    };
  };
  PropertyResult eq = Dominance_NotlastOverLegacy_SameProfile(c, by_writer(1, 1));
  EXPECT_EQ(eq.verdict, Verdict::kHolds);
  EXPECT_EQ(Dominance_NotlastOverLegacy_SameProfile(c, by_writer(1, 3)).verdict, Verdict::kHolds);
  PropertyResult rev = Dominance_NotlastOverLegacy_SameProfile(c, by_writer(2, 1));
  EXPECT_EQ(rev.verdict, Verdict::kFails);
  ASSERT_EQ(rev.comparisons.size(), 1u);
  EXPECT_EQ(rev.comparisons[0].better_sub_mss, 2);
  EXPECT_EQ(rev.comparisons[0].other_sub_mss, 1);
  // v1-splice needs linux-6.8 and v1-notlast linux-5.0, whatever the case says.
  EXPECT_NE(Dominance_Splice68OverNotlast50(c, by_writer(0, 0)).verdict, Verdict::kSkipped);
}

TEST(PropertiesLogicTest, DeterminismCatchesDifferentRunsAndBrokenWire) {
  Case c = OneMessage(1);
  EXPECT_EQ(Determinism_AndInvariants_Any(c, Const(Clean(1448, {1448, 10}))).verdict, Verdict::kHolds);
  int calls = 0;
  Runner flaky = [&calls](const Case&, RunDepth) -> absl::StatusOr<Outcome> {
    Outcome o = Clean(1448, {1448, 10});
    o.trace_hash = ++calls;
    return o;
  };
  EXPECT_EQ(Determinism_AndInvariants_Any(c, flaky).verdict, Verdict::kFails);
  EXPECT_EQ(Determinism_AndInvariants_Any(c, Const(Clean(1448, {1449}))).verdict, Verdict::kFails);  // > MSS
  Outcome gap = Clean(1448, {1448, 10});
  gap.packets[1].seq += 1;
  EXPECT_EQ(Determinism_AndInvariants_Any(c, Const(gap)).verdict, Verdict::kFails);
  Outcome inv = Clean(1448, {1448, 10});
  inv.invariants = absl::InternalError("packets_out > cwnd");
  EXPECT_EQ(Determinism_AndInvariants_Any(c, Const(inv)).verdict, Verdict::kFails);
}

}  // namespace
}  // namespace sendsim::props
