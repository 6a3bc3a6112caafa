#include "tools/kernelcmp/workload.h"

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

TEST(WorkloadFromScenarioJson, ReadsKnownKeysAndIgnoresOthers) {
  absl::StatusOr<Workload> w = WorkloadFromScenarioJson(
      R"({"messages": 10, "message_bytes": 4096, "prefix_bytes": 331, "profile": "linux-6.8"})",
      Workload{});
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->messages, 10u);
  EXPECT_EQ(w->message_bytes, 4096u);
  EXPECT_EQ(w->prefix_bytes, 331u);
  EXPECT_EQ(w->footer_bytes, 21u);  // default kept
  // 331 + 4096 + 21 bytes per message on the stream.
  EXPECT_EQ(w->StreamBytes(), 10u * 4448);
}

TEST(WorkloadFromScenarioJson, ReadsSendsimScenarioKeys) {
  // cli scenario: 192-byte front -> P = 1 (tag) + 53 (header) + 192 = 246.
  absl::StatusOr<Workload> w = WorkloadFromScenarioJson(
      R"({"messages": 50, "sizes": [{"bytes": 4096, "weight": 1}], "front_len": 192,
          "layout": "bio", "page_offset": 0})",
      Workload{});
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->messages, 50u);
  EXPECT_EQ(w->message_bytes, 4096u);
  EXPECT_EQ(w->prefix_bytes, 246u);
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"page_offset": 512})", Workload{}).ok());
  EXPECT_FALSE(
      WorkloadFromScenarioJson(R"({"sizes": [{"bytes": 4096}, {"bytes": 8192}]})", Workload{})
          .ok());
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"sizes": 4096})", Workload{}).ok());
}

TEST(WorkloadFromScenarioJson, AcceptsNestedWorkloadObject) {
  absl::StatusOr<Workload> w =
      WorkloadFromScenarioJson(R"({"workload": {"messages": 3}})", Workload{});
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->messages, 3u);
}

TEST(WorkloadFromScenarioJson, RejectsBadInput) {
  EXPECT_FALSE(WorkloadFromScenarioJson("{", Workload{}).ok());
  EXPECT_FALSE(WorkloadFromScenarioJson("[1]", Workload{}).ok());
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"messages": "ten"})", Workload{}).ok());
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"messages": -1})", Workload{}).ok());
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"messages": 0})", Workload{}).ok());
  EXPECT_FALSE(WorkloadFromScenarioJson(R"({"prefix_bytes": 0})", Workload{}).ok());
}

TEST(Names, RoundTripAndRejectUnknown) {
  for (Variant v : AllVariants()) {
    absl::StatusOr<Variant> p = ParseVariant(VariantName(v));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*p, v);
  }
  EXPECT_EQ(AllVariants().size(), 7u);
  EXPECT_EQ(*ParseVariant("per-page-more"), Variant::kV1Splice);
  EXPECT_FALSE(ParseVariant("v3").ok());
  EXPECT_FALSE(ParseIoMode("async").ok());
  EXPECT_FALSE(ParsePlacement("cpu7").ok());
  EXPECT_EQ(*ParsePlacement("receiver"), Placement::kReceiverCpu);
}

TEST(ParseList, AllDuplicatesAndErrors) {
  auto all = ParseList<Variant>("all", ParseVariant, AllVariants());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 7u);
  auto two = ParseList<Variant>("cork,splice,cork", ParseVariant, AllVariants());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(*two, (std::vector<Variant>{Variant::kV1Cork, Variant::kSplice}));
  EXPECT_FALSE(ParseList<Variant>("cork,", ParseVariant, AllVariants()).ok());
}

}  // namespace
}  // namespace sendsim::kernelcmp

namespace sendsim::kernelcmp {
namespace {

TEST(FramingFor, V2SwapsTheV1HeadAndFooterForMsgr2Framing) {
  Workload w;
  w.messages = 2;
  w.message_bytes = 4096;
  w.prefix_bytes = 246;  // 54 + 192-byte front
  // v1: 246 + 4096 + 21 = 4363 per message.
  EXPECT_EQ(StreamBytesFor(w, Variant::kV1Splice), 2u * 4363);
  // v2: head 77 + front 192 = 269, epilogue 13: 269 + 4096 + 13 = 4378.
  const Framing f = FramingFor(w, Variant::kV2);
  EXPECT_EQ(f.prefix_bytes, 269u);
  EXPECT_EQ(f.footer_bytes, 13u);
  EXPECT_EQ(StreamBytesFor(w, Variant::kV2), 2u * 4378);
}

}  // namespace
}  // namespace sendsim::kernelcmp
