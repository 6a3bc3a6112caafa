#include "scenario/scenario_json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::scenario {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(absl::string_view text) {
  absl::StatusOr<Scenario> s = ScenarioFromJson(text);
  EXPECT_FALSE(s.ok()) << text;
  if (s.ok()) return "";
  const std::string msg(s.status().message());
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  return msg;
}

TEST(ScenarioJsonTest, EmptyObjectIsTheDefault) {
  absl::StatusOr<Scenario> s = ScenarioFromJson("{}");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, Scenario());
}

TEST(ScenarioJsonTest, ReadsEveryKindOfValue) {
  absl::StatusOr<Scenario> s = ScenarioFromJson(R"({
    "messages": 7, "sizes": [{"bytes": 4096, "weight": 3}, {"bytes": 65536}],
    "layout": "pages", "page_offset": 512, "tso": false, "gro": "off",
    "writers": ["v1-legacy", "v2@linux-6.8"], "seed": 18446744073709551615
  })");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->messages, 7u);
  ASSERT_EQ(s->sizes.size(), 2u);
  EXPECT_EQ(s->sizes[0], (SizeMixEntry{4096, 3}));
  EXPECT_EQ(s->sizes[1], (SizeMixEntry{65536, 1}));  // weight defaults to 1
  EXPECT_EQ(s->layout, DataLayout::kPages);
  EXPECT_EQ(s->page_offset, 512u);
  EXPECT_FALSE(s->tso);
  EXPECT_EQ(s->gro, GroMode::kOff);
  ASSERT_EQ(s->writers.size(), 2u);
  EXPECT_EQ(s->writers[1], (WriterSpec{"v2", "linux-6.8"}));
  EXPECT_EQ(s->seed, UINT64_MAX);
  EXPECT_EQ(s->mss, Scenario().mss);  // absent keys keep the base value
}

TEST(ScenarioJsonTest, DumpParseRoundTrip) {
  Scenario s;
  s.description = "round trip";
  s.messages = 3;
  s.sizes = {{4096, 2}, {131072, 5}};
  s.layout = DataLayout::kBvecs;
  s.page_offset = 100;
  s.gro = GroMode::kOff;
  s.writers = {{"v2", "linux-5.0"}, {"v1-cork", ""}};
  s.trace = "t.csv";
  s.seed = 123456789012345ull;
  absl::StatusOr<Scenario> back = ScenarioFromJson(ScenarioToJson(s));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, s);
  absl::StatusOr<Scenario> def = ScenarioFromJson(ScenarioToJson(Scenario()));
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(*def, Scenario());
}

TEST(ScenarioJsonTest, StrictErrorsNameTheKeyPath) {
  EXPECT_THAT(ErrorOf(R"({"mesages": 3})"), HasSubstr("mesages: unknown key"));
  EXPECT_THAT(ErrorOf(R"({"messages": "3"})"), HasSubstr("messages: expected an unsigned integer, got string"));
  EXPECT_THAT(ErrorOf(R"({"messages": -3})"), HasSubstr("messages: must not be negative"));
  EXPECT_THAT(ErrorOf(R"({"messages": 2.5})"), HasSubstr("messages: expected an unsigned integer"));
  EXPECT_THAT(ErrorOf(R"({"messages": 1e400})"), HasSubstr("malformed scenario: number overflow"));
  EXPECT_THAT(ErrorOf(R"({"seed": 18446744073709551616})"), HasSubstr("seed: expected an unsigned integer"));
  EXPECT_THAT(ErrorOf(R"({"mss": 4294967296})"), HasSubstr("mss: 4294967296 does not fit in 32 bits"));
  EXPECT_THAT(ErrorOf(R"({"tso": 1})"), HasSubstr("tso: expected true or false"));
  EXPECT_THAT(ErrorOf(R"({"sizes": [{"bytes": 1, "wieght": 2}]})"), HasSubstr("sizes[0].wieght: unknown key"));
  EXPECT_THAT(ErrorOf(R"({"sizes": [{"weight": 2}]})"), HasSubstr("sizes[0]: missing key \"bytes\""));
  EXPECT_THAT(ErrorOf(R"({"sizes": 4096})"), HasSubstr("sizes: expected an array"));
  EXPECT_THAT(ErrorOf(R"({"writers": ["v2", 3]})"), HasSubstr("writers[1]: expected a string"));
  EXPECT_THAT(ErrorOf(R"({"writers": ["v2@"]})"), HasSubstr("writers[0]"));
  EXPECT_THAT(ErrorOf(R"({"layout": "bios"})"), HasSubstr("layout: unknown data layout \"bios\""));
  EXPECT_THAT(ErrorOf(R"({"gro": "on"})"), HasSubstr("gro: unknown GRO mode"));
  EXPECT_THAT(ErrorOf(R"({"mss": 1448, "mss": 9000})"), HasSubstr("mss: duplicate key"));
  EXPECT_THAT(ErrorOf(R"([1, 2])"), HasSubstr("expected one JSON object"));
  EXPECT_THAT(ErrorOf(R"({"messages": 3)"), HasSubstr("malformed scenario"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("malformed scenario"));
  EXPECT_THAT(ErrorOf("{\"a\nb\": 1}"), HasSubstr("malformed scenario"));  // raw newline in a string
  EXPECT_THAT(ErrorOf(std::string(100, '[') + std::string(100, ']')), HasSubstr("nesting"));
}

TEST(ScenarioJsonTest, LoadsFileAndPrefixesPath) {
  absl::StatusOr<Scenario> missing = LoadScenarioFile("/nonexistent/x.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("/nonexistent/x.json"));
}

// Every shipped scenario parses, validates and survives a round trip.
TEST(ScenarioJsonTest, ShippedScenariosAreValid) {
  for (const char* name : {"default", "4k-writes", "4m-writes", "unaligned", "jumbo", "small-sndbuf"}) {
    const std::string path = std::string("testdata/scenarios/") + name + ".json";
    absl::StatusOr<Scenario> s = LoadScenarioFile(path);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_TRUE(ValidateScenario(*s).ok()) << path << ": " << ValidateScenario(*s);
    EXPECT_FALSE(s->description.empty()) << path;
    absl::StatusOr<Scenario> back = ScenarioFromJson(ScenarioToJson(*s));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, *s) << path;
  }
  // default.json is the built-in default (apart from its description).
  absl::StatusOr<Scenario> d = LoadScenarioFile("testdata/scenarios/default.json");
  ASSERT_TRUE(d.ok());
  d->description.clear();
  EXPECT_EQ(*d, Scenario());
}

}  // namespace
}  // namespace sendsim::scenario

namespace sendsim::scenario {
namespace {

// The tcp_*, receiver_* and host_* keys set the sub-structs; a file that
// sets none of them is written back without them.
TEST(ScenarioJsonTest, ReadsAndWritesTheHostGroup) {
  absl::StatusOr<Scenario> s = ScenarioFromJson(R"({
    "tcp_cc": "reno", "tcp_initcwnd": 4, "receiver_wscale": 9, "receiver_rcvbuf": 65536,
    "host_xmit_cost_ns": 700, "host_rps_backlog_on_sender_cpu": true
  })");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->tcp.cc, model::CongestionControl::kReno);
  EXPECT_EQ(s->tcp.initcwnd, 4u);
  EXPECT_EQ(s->receiver.wscale, 9);
  EXPECT_EQ(s->receiver.rcvbuf, 65536u);
  EXPECT_EQ(s->host.xmit_cost_ns, 700);
  EXPECT_TRUE(s->host.rps_backlog_on_sender_cpu);
  const std::string text = ScenarioToJson(*s);
  EXPECT_THAT(text, HasSubstr("\"tcp_cc\": \"reno\""));
  EXPECT_THAT(text, HasSubstr("\"host_xmit_cost_ns\": 700"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("tcp_sack")));  // still the default
  absl::StatusOr<Scenario> back = ScenarioFromJson(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, *s);
  EXPECT_THAT(ScenarioToJson(Scenario()), ::testing::Not(HasSubstr("host_")));
}

TEST(ScenarioJsonTest, HostGroupValuesAreChecked) {
  EXPECT_EQ(ErrorOf(R"({"receiver_wscale": 300})"), "receiver_wscale: 300 does not fit in 8 bits");
  EXPECT_EQ(ErrorOf(R"({"tcp_cc": "bbr"})"), "tcp_cc: unknown congestion control \"bbr\" (known: cubic, reno)");
  EXPECT_EQ(ErrorOf(R"({"host_rx_cpu_wakeup_ns": 9223372036854775808})"),
            "host_rx_cpu_wakeup_ns: 9223372036854775808 does not fit in 63 bits");
  absl::StatusOr<Scenario> s = ScenarioFromJson(R"({"receiver_wscale": 15})");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(ValidateScenario(*s).message(), "receiver_wscale: 15 is out of range [0, 14]");
}

}  // namespace
}  // namespace sendsim::scenario
