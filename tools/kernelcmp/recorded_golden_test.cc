// Golden regression fixture, the one kind of test whose expectations are
// the code's own earlier output: the model side of the committed 4 KiB
// kernel comparison (testdata/kernelcmp/results-4k.json) must be what the
// model computes today from the recorded kernel side, calibrated as
// kernelcmp does without flags. A model change that moves it fails here;
// then rerun (one command line)
//   bazel build -c opt //tools/kernelcmp && bazel-bin/tools/kernelcmp/kernelcmp
//     --scenario=$PWD/testdata/kernelcmp/4k.json
//     --kernel_json=$PWD/testdata/kernelcmp/results-4k.json
//     --json_out=$PWD/testdata/kernelcmp/results-4k.json
// (the kernel side stays, the model side is rewritten) and say in the
// commit and in a dated docs/notes/ entry why the figures moved.

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "gtest/gtest.h"
#include "tools/kernelcmp/model_figures.h"
#include "tools/kernelcmp/recorded.h"
#include "tools/kernelcmp/report.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(RecordedGolden, FourKiBModelSideIsReproduced) {
  const std::string scenario = ReadFile("testdata/kernelcmp/4k.json");
  const std::string results = ReadFile("testdata/kernelcmp/results-4k.json");
  ASSERT_FALSE(scenario.empty() || results.empty()) << "testdata/kernelcmp missing from runfiles";
  absl::StatusOr<Workload> w = WorkloadFromScenarioJson(scenario, Workload());
  ASSERT_TRUE(w.ok()) << w.status();
  absl::StatusOr<std::vector<RecordedCell>> cells = ParseRecordedJson(results, *w, /*tso=*/false);
  ASSERT_TRUE(cells.ok()) << cells.status();
  const nlohmann::json recorded = nlohmann::json::parse(results);
  ASSERT_EQ(cells->size(), recorded.size());  // every recorded cell has valid runs
  ASSERT_EQ(cells->size(), 28u);
  for (size_t i = 0; i < cells->size(); ++i) {
    const RecordedCell& c = (*cells)[i];
    SCOPED_TRACE(absl::StrFormat("%s %s %s", VariantName(c.variant), IoModeName(c.io), PlacementName(c.placement)));
    ModelSettings s = DefaultModelSettings(c.placement);
    CalibrateFromKernel(c.kernel, Calibration{}, &s);
    absl::StatusOr<ModelFigures> m = RunModelFor(*w, c.variant, c.io, s);
    ASSERT_TRUE(m.ok()) << m.status();
    SizeHistogram want;
    for (const auto& [size, n] : recorded[i]["model_sizes"].items()) want[std::stoul(size)] = n.get<uint64_t>();
    EXPECT_EQ(m->sizes, want);
    EXPECT_EQ(m->acks, static_cast<uint64_t>(recorded[i]["model_acks_per_msg"].get<double>() * w->messages + 0.5));
  }
}

}  // namespace
}  // namespace sendsim::kernelcmp
