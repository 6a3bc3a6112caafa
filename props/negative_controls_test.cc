// Every property must be able to fail: each runs here on a deliberately
// wrong writer, mutation or configuration, on the real model, and the test
// asserts that the property body FAILS. Cases are small and hand-built.

#include "gtest/gtest.h"
#include "props/case.h"
#include "props/generators.h"
#include "props/properties.h"
#include "props/run_case.h"

namespace sendsim::props {
namespace {

// One message: 196-byte front, 4 page-aligned pages, MSS 1448, linux-4.19.
Case FourPages() {
  Case c;
  c.net.kernel = "linux-4.19";
  c.writer = WriterKind::kV1Notlast;
  c.layout.messages.push_back(MessageLayout{196, 0, {DataItem{DataLayout::kPages, 0, 4 * kPageSize, {}}}});
  return c;
}

TEST(NegativeControls, IntegrityCatchesADroppedByte) {
  Case c = FourPages();
  ASSERT_EQ(IntegrityBody(c, RunCase).verdict, Verdict::kHolds) << IntegrityBody(c, RunCase).detail;
  c.mutation.decoder_drop_byte = 1000;  // inside the first data page
  PropertyResult r = IntegrityBody(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails);
  EXPECT_NE(r.detail.find("decoder"), std::string::npos) << r.detail;
}

// A slow writer (20 us per call) on a fast path (1 us one way): ACKs arrive
// between page calls, so the socket is drained and idle when the revoke's
// zero fill starts. Revoked after 8346 accepted bytes (prefix 154 + 2 pages).
Case SlowWriterRevokedMidData() {
  Case c = FourPages();
  c.net.rtt_ns = 2 * 1000;  // 1 us each way
  c.net.call_cost_ns = 20000;
  c.net.crc_ns_per_page = 1000;
  c.layout.messages[0] = MessageLayout{100, 0, {DataItem{DataLayout::kPages, 0, 8 * kPageSize, {}}}};
  c.layout.revoke = Revoke{0, 8346};
  return c;
}

TEST(NegativeControls, LivenessCatchesAWriterThatNeverClearsNotlast) {
  // The real v5.0 writer sends the last zero-fill chunk with MORE: tcp_push
  // runs (corked), whole MSS leave, and the ACK clock or probe0 flushes the
  // rest. The mutant keeps NOTLAST on it: do_tcp_sendpages skips tcp_push,
  // nothing is in flight and no timer is armed, so the tail never leaves
  // (the stall that kernel commits 35f9c09fe9c7 / ae62ca7b0321 fixed).
  Case c = SlowWriterRevokedMidData();
  PropertyResult ok = LivenessBody(c, RunCase);
  ASSERT_EQ(ok.verdict, Verdict::kHolds) << ok.detail;
  c.writer = HookWriter::kMutantNotlastStuck;
  PropertyResult r = LivenessBody(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails);
  EXPECT_NE(r.detail.find("nothing will ever happen"), std::string::npos) << r.detail;
  // Without the revoke the footer's sendmsg (no MORE) pushes everything, so
  // the same mutant completes: libceph's footer masks a NOTLAST last piece.
  c.layout.revoke.reset();
  EXPECT_EQ(LivenessBody(c, RunCase).verdict, Verdict::kHolds);
}

TEST(NegativeControls, LowerBoundCatchesAsynchronousFlushes) {
  // v1-legacy with ACKs arriving between page calls: each ACK pushes the
  // sub-MSS remainder that the corked tcp_push (MSG_MORE) held, without PSH,
  // in the middle of a flush run (reference §13, pre-patch).
  Case c = FourPages();
  c.writer = WriterKind::kV1Legacy;
  c.net.rtt_ns = 2 * 1000;
  c.net.call_cost_ns = 20000;
  PropertyResult r = FlushRunsMinimalBody(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
  // The property's precondition rejects the case: it is not quiescent.
  c.writer = WriterKind::kV1Notlast;
  EXPECT_EQ(LowerBound_NotlastQuiescent(c, RunCase).verdict, Verdict::kSkipped);
}

// FourPages in a quiescent configuration: one flush unit of 1 + 53 + 196 +
// 16384 + 21 = 16655 bytes, so at best ceil(16655 / 1448) = 12 packets with
// one runt (16655 - 11 * 1448 = 727). Autocorking off and an initial cwnd of
// 100 (both inside the precondition) so that every push leaves at once:
// neither a busy TX queue (tcp_should_autocork) nor the cwnd holds a pushed
// tail until later bytes join it, which lets the counts below be derived
// push by push.
Case QuiescentFourPages() {
  Case c = FourPages();
  c.net.nodelay = true;
  c.net.autocorking = false;
  c.net.tcp.initcwnd = 100;
  MakeQuiescent(&c.net, V1WireBytes(c.layout));
  return c;
}

TEST(NegativeControls, LayoutBoundByHand) {
  const Case c = QuiescentFourPages();
  ASSERT_EQ(V1WireBytes(c.layout), 16655u);
  const LayoutBound b = LayoutLowerBound(c.layout, 1448);
  EXPECT_EQ(b.packets, 12u);
  EXPECT_EQ(b.runts, 1u);
  EXPECT_EQ(LayoutBoundPreconditionFailure(c), "");
  EXPECT_EQ(LowerBound_LayoutQuiescent(c, RunCase).verdict, Verdict::kHolds);
}

TEST(NegativeControls, LayoutBoundRejectsLegacyUnderItsPrecondition) {
  // v1-legacy sends the last page with MSG_EOR (no MORE): tcp_push with
  // Nagle off sends 16634 bytes as 11 x 1448 + 706, then the footer goes
  // alone: 13 packets, 2 runts.
  Case c = QuiescentFourPages();
  c.writer = WriterKind::kV1Legacy;
  ASSERT_EQ(LayoutBoundPreconditionFailure(c), "");
  PropertyResult r = LowerBound_LayoutQuiescent(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
  EXPECT_NE(r.detail.find("13 packets, 2 sub-MSS"), std::string::npos) << r.detail;
}

TEST(NegativeControls, LayoutBoundRejectsPushEveryPageUnderItsPrecondition) {
  // No MORE on any page: every page call pushes what it added. Prefix +
  // page 1 = 4346 bytes -> 3 x 1448 + 2; pages 2..4 -> 2 x 1448 + 1200 each;
  // the footer 21 alone: 4 + 3 + 3 + 3 + 1 = 14 packets, 5 runts.
  Case c = QuiescentFourPages();
  c.writer = HookWriter::kMutantPushEveryPage;
  ASSERT_EQ(LayoutBoundPreconditionFailure(c), "");
  PropertyResult r = LowerBound_LayoutQuiescent(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
  EXPECT_NE(r.detail.find("14 packets, 5 sub-MSS"), std::string::npos) << r.detail;
  // The flush-run bound (lower_bound_quiescent's body) cuts a run at every
  // PSH segment, so it cannot tell this writer from v1-notlast: why the
  // layout bound exists.
  EXPECT_EQ(FlushRunsMinimalBody(c, RunCase).verdict, Verdict::kHolds);
}

TEST(NegativeControls, PreconditionsAreChecked) {
  // A replayed case outside a property's precondition is skipped, not judged.
  Case c = FourPages();
  c.net.call_cost_ns = 20000;  // not quiescent
  EXPECT_EQ(LowerBound_LayoutQuiescent(c, RunCase).verdict, Verdict::kSkipped);
  EXPECT_EQ(DominatesQuiescent(c, {WriterKind::kV1Notlast, ""}, {WriterKind::kV1Legacy, ""}, RunCase, false).verdict,
            Verdict::kSkipped);
  EXPECT_EQ(Optimality_NotlastQuiescent(c, RunCase).verdict, Verdict::kSkipped);
  Case q = QuiescentFourPages();
  q.net.nodelay = false;
  EXPECT_EQ(LowerBound_LayoutQuiescent(q, RunCase).verdict, Verdict::kSkipped);
  Case more = QuiescentFourPages();
  more.layout.messages.push_back(more.layout.messages[0]);
  more.layout.more_to_follow = true;
  MakeQuiescent(&more.net, V1WireBytes(more.layout));
  EXPECT_EQ(DominatesQuiescent(more, {WriterKind::kV1Cork, ""}, {WriterKind::kV1Notlast, ""}, RunCase, true).verdict,
            Verdict::kSkipped);
}

TEST(NegativeControls, OptimalityQuiescentRefusesCasesBeyondTheExhaustiveLimit) {
  // 8 pieces in one message: 7 free pieces, more than the 6 the property
  // runs exhaustively. It skips and says why instead of sampling.
  Case c = QuiescentFourPages();
  c.layout.messages[0].items[0].length = 8 * kPageSize;
  MakeQuiescent(&c.net, V1WireBytes(c.layout));
  ASSERT_EQ(FreePieces(c.layout), 7u);
  PropertyResult r = Optimality_NotlastQuiescent(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kSkipped);
  EXPECT_NE(r.detail.find("beyond the exhaustive limit"), std::string::npos) << r.detail;
}

TEST(NegativeControls, LayoutBoundRestsOnEor) {
  // Two messages, no more_to_follow: 1+53+196+4096+21 = 4367 and
  // 1+53+196+1+21 = 272 bytes, so units ending in MSG_EOR allow
  // ceil(4367/1448) + 1 = 5 packets and 2 runts (23 and 272). Without EOR the
  // autocorked 23-byte tail of the first unit takes the second message: one
  // 295-byte segment, 4 packets, 1 runt (fixture lower_bound_layout_no_eor-*).
  Case c;
  c.layout.messages = {MessageLayout{196, 0, {DataItem{DataLayout::kPagelist, 0, kPageSize, {}}}},
                       MessageLayout{196, 0, {DataItem{DataLayout::kPages, 0, 1, {}}}}};
  c.layout.more_to_follow = false;
  MakeQuiescent(&c.net, V1WireBytes(c.layout));
  const LayoutBound b = LayoutLowerBound(c.layout, 1448);
  EXPECT_EQ(b.packets, 5u);
  EXPECT_EQ(b.runts, 2u);
  EXPECT_EQ(LowerBound_LayoutQuiescent(c, RunCase).verdict, Verdict::kHolds);
  c.writer = HookWriter::kControlNoEor;
  PropertyResult r = LowerBound_LayoutQuiescent(c, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails);
  EXPECT_NE(r.detail.find("below the layout bound"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("packets=4 sub_mss=1"), std::string::npos) << r.detail;
}

TEST(NegativeControls, DeterminismCatchesAPerturbedTrace) {
  Case c = FourPages();
  ASSERT_EQ(Determinism_AndInvariants_Any(c, RunCase).verdict, Verdict::kHolds);
  c.mutation.perturb_trace = true;
  EXPECT_EQ(Determinism_AndInvariants_Any(c, RunCase).verdict, Verdict::kFails);
}

TEST(NegativeControls, OptimalityCatchesPushingEveryPage) {
  // Pushing every page with Nagle off (no MORE) sends a runt per page
  // (4096 mod 1448 = 1200 for page-aligned chains) where v1-notlast sends one.
  Case c = FourPages();
  std::vector<PieceFlags> push_all(4, PieceFlags::kNone);
  push_all.back() = PieceFlags::kMore;
  PropertyResult r = AssignmentOptimalBody(c, push_all, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
}

TEST(NegativeControls, DominanceCatchesPushingEveryPage) {
  PropertyResult r =
      DominatesBody(FourPages(), {HookWriter::kMutantPushEveryPage, ""}, {WriterKind::kV1Notlast, ""}, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
}

}  // namespace
}  // namespace sendsim::props
