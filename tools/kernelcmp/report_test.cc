#include "tools/kernelcmp/report.h"

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

RunOutcome ValidRun(uint64_t packets, uint64_t sub_mss, SizeHistogram sizes) {
  RunOutcome r;
  r.valid = true;
  r.figures.packets = packets;
  r.figures.sub_mss_packets = sub_mss;
  r.figures.sizes = std::move(sizes);
  return r;
}

TEST(FormatJson, OneEntryPerCellWithKernelRangesAndModelDistances) {
  Workload w;
  w.messages = 10;
  Cell c;
  c.variant = Variant::kV1Cork;
  c.io = IoMode::kBlocking;
  c.placement = Placement::kReceiverCpu;
  // Two valid runs: 100 packets (10 sub-MSS) and 110 packets (30 sub-MSS);
  // per message 1.0 and 3.0 -> mean 2.0, range [1, 3]; packets mean 105.
  c.runs.push_back(ValidRun(100, 10, {{1448, 90}, {21, 10}}));
  c.runs.push_back(ValidRun(110, 30, {{1448, 80}, {21, 30}}));
  RunOutcome bad;
  bad.invalid_reason = "tcpdump dropped 3 packets";
  c.runs.push_back(bad);
  // Model: 126 packets, sizes 1448 x 105 + 21 x 21. Kernel pooled: 1448 x 170,
  // 21 x 40 of 210. TVD = |170/210 - 105/126| = |0.809524 - 0.833333| = 0.0238095.
  c.model = ModelFigures{126, 2.1, {{1448, 105}, {21, 21}}};
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  const nlohmann::json& e = j[0];
  EXPECT_EQ(e["variant"], "v1-cork");
  EXPECT_EQ(e["io"], "blocking");
  EXPECT_EQ(e["placement"], "rx-on-receiver-cpu");
  EXPECT_EQ(e["valid_runs"], 2);
  EXPECT_EQ(e["invalid_runs"].size(), 1u);
  EXPECT_DOUBLE_EQ(e["kernel_packets"].get<double>(), 105.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["mean"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(e["kernel_sub_mss_per_msg"]["max"].get<double>(), 3.0);
  EXPECT_EQ(e["model_packets"], 126);
  EXPECT_DOUBLE_EQ(e["model_sub_mss_per_msg"].get<double>(), 2.1);
  EXPECT_NEAR(e["tvd"].get<double>(), 105.0 / 126 - 170.0 / 210, 1e-12);
  EXPECT_NEAR(e["packet_ratio"].get<double>(), 126.0 / 105, 1e-12);
  EXPECT_EQ(e["kernel_top_sizes"][0]["size"], 1448);
}

TEST(FormatJson, ModelFieldsAreNullWhenTheModelIsUnavailable) {
  Workload w;
  Cell c;
  c.runs.push_back(ValidRun(100, 10, {{1448, 100}}));
  c.model_error = "not built";
  nlohmann::json j = nlohmann::json::parse(FormatJson({c}, w, false));
  EXPECT_TRUE(j[0]["model_packets"].is_null());
  EXPECT_TRUE(j[0]["model_sub_mss_per_msg"].is_null());
  EXPECT_TRUE(j[0]["tvd"].is_null());
  const std::string table = FormatTable({c}, w, false);
  EXPECT_NE(table.find("model: not built"), std::string::npos);
}

}  // namespace
}  // namespace sendsim::kernelcmp
