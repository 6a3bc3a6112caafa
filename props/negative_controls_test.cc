// Every property must be able to fail: each runs here on a deliberately
// wrong writer, mutation or configuration, on the real model, and the test
// asserts that the property body FAILS. Cases are small and hand-built.

#include "gtest/gtest.h"
#include "props/case.h"
#include "props/properties.h"
#include "props/run_case.h"

namespace sendsim::props {
namespace {

// One message: 196-byte front, 4 page-aligned pages, MSS 1448, linux-4.19.
Case FourPages() {
  Case c;
  c.profile = "linux-4.19";
  c.writer = Writer::kV1Notlast;
  c.layout.messages.push_back(MessageLayout{196, 0, {DataItem{ItemKind::kPages, 0, 4 * kPage, {}}}});
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
  PropertyResult r = DominatesBody(FourPages(), {Writer::kMutantPushEveryPage, ""}, {Writer::kV1Notlast, ""}, RunCase);
  EXPECT_EQ(r.verdict, Verdict::kFails) << r.detail;
}

}  // namespace
}  // namespace sendsim::props
