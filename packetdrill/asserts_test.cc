#include "packetdrill/asserts.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

const std::map<std::string, int64_t> kVars = {{"tcpi_snd_cwnd", 10}, {"tcpi_snd_mss", 1448}};

std::optional<std::string> Eval(const std::string& code) {
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, kVars);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::optional<std::string>("error");
}

TEST(AssertsTest, ComparisonsHold) {
  EXPECT_EQ(Eval("assert tcpi_snd_cwnd == 10"), std::nullopt);
  EXPECT_EQ(Eval("assert tcpi_snd_cwnd == 10, tcpi_snd_cwnd"), std::nullopt);
  EXPECT_EQ(Eval("\n  assert 8 <= tcpi_snd_cwnd < 11\n  # comment\n  assert tcpi_snd_mss == 1448\n"), std::nullopt);
  EXPECT_EQ(Eval("assert tcpi_snd_cwnd * 1448 == 14480 and tcpi_snd_mss // 2 == 724"), std::nullopt);
  EXPECT_EQ(Eval("assert tcpi_snd_mss % 1000 == 448, ('x', 1)"), std::nullopt);
  EXPECT_EQ(Eval("assert (tcpi_snd_cwnd - 2) * 2 == 16 != -1"), std::nullopt);
}

TEST(AssertsTest, FailureNamesTheConditionAndValues) {
  std::optional<std::string> f = Eval("assert tcpi_snd_cwnd == 10\nassert tcpi_snd_cwnd > 10, 'too small'");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(*f, "assertion failed: tcpi_snd_cwnd > 10 (tcpi_snd_cwnd=10)");
  EXPECT_TRUE(Eval("assert 1 < 2 < 2").has_value());  // chained: 2 < 2 is false
}

TEST(AssertsTest, UnsupportedPythonIsUnimplemented) {
  for (const char* code : {"print(1)", "assert tcpi_snd_cwnd / 2 == 5", "assert tcpi_reordering == 3",
                           "assert tcpi_snd_cwnd", "x = 1", "", "assert 1 == 1 or 2 == 2"}) {
    absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, kVars);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented) << code;
  }
  EXPECT_THAT(std::string(EvalAssertBlock("assert tcpi_reordering == 3", kVars).status().message()),
              HasSubstr("tcpi_reordering is not modelled"));
}

// A field the kernel in question lacks (v6.7's tcpi_total_rto on 6.1) is a
// SKIP that says so, not "not modelled"; a field it has evaluates as usual.
TEST(AssertsTest, FieldAbsentFromTheKernelSkips) {
  const std::map<std::string, std::string> absent = {{"tcpi_total_rto", "tcpi_total_rto is not in linux-6.1's struct tcp_info"}};
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock("assert tcpi_total_rto == 0", kVars, absent);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("tcpi_total_rto is not in linux-6.1's struct tcp_info"));
  r = EvalAssertBlock("assert tcpi_snd_cwnd == 10", kVars, absent);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
}

// tcp_info's __u64 fields compare as Python sees them: an unlimited
// pacing rate (-1 in the value map) is 2**64 - 1, and 0xffffffffffffffff
// is a valid literal; arithmetic past 128 bits is a SKIP.
TEST(AssertsTest, UnsignedSixtyFourBitFields) {
  const std::map<std::string, int64_t> vars = {{"tcpi_max_pacing_rate", -1}, {"tcpi_snd_cwnd", -1}};
  for (const char* code : {"assert tcpi_max_pacing_rate == 18446744073709551615",
                           "assert tcpi_max_pacing_rate == 0xffffffffffffffff", "assert tcpi_max_pacing_rate > 0",
                           "assert tcpi_snd_cwnd == -1", "assert tcpi_max_pacing_rate + 1 == 18446744073709551615 + 1"}) {
    absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, vars);
    ASSERT_TRUE(r.ok()) << code << ": " << r.status();
    EXPECT_FALSE(r->has_value()) << code << ": " << **r;
  }
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock("assert tcpi_max_pacing_rate == 0", vars);
  ASSERT_TRUE(r.ok() && r->has_value());
  EXPECT_THAT(**r, HasSubstr("tcpi_max_pacing_rate=18446744073709551615"));
  r = EvalAssertBlock("assert 18446744073709551615 * 18446744073709551615 * 18446744073709551615 > 0", vars);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnimplemented);
}

// What Python itself rejects ends upstream's script: a FAIL (InvalidArgument
// here), so a typo in an assert cannot pass as a SKIP.
TEST(AssertsTest, BrokenAssertsAreErrors) {
  for (const char* code : {"assert tcpi_snd_cwnd >= ", "assert 1 == 1 // 0", "assert 1 == 1 % 0", "assert foo == 1",
                           "assert tcpi_snd_cwdn == 10", "assert (tcpi_snd_cwnd == 10", "assert tcpi_snd_cwnd == 10 )",
                           "assert 1 == 99999999999999999999999"}) {
    absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, kVars);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << code << ": " << r.status();
  }
  EXPECT_THAT(std::string(EvalAssertBlock("assert tcpi_snd_cwnd >= ", kVars).status().message()),
              HasSubstr("an operand is missing"));
  EXPECT_THAT(std::string(EvalAssertBlock("assert 1 == 1 // 0", kVars).status().message()),
              HasSubstr("division by zero"));
}

}  // namespace
}  // namespace sendsim::packetdrill
