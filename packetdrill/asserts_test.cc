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
  for (const char* code : {"assert tcpi_snd_cwnd / 2 == 5", "assert tcpi_reordering == 3", "x = 1", "", "# only\n",
                           "assert tcpi_snd_cwnd in (10, 11)", "assert tcpi_snd_cwnd is 10",
                           "assert tcpi_snd_cwnd not in (10, 11)", "assert tcpi_snd_cwnd == 'x'",
                           "assert tcpi_snd_cwnd == 1.5", "assert tcpi_snd_cwnd == 1e3", "assert (1, 'msg')",
                           "assert () == 1", "assert tcpi_snd_cwnd == None", "assert 1 if tcpi_snd_cwnd else 0",
                           "assert len(tcpi_snd_cwnd)", "assert pow(2, 3) == 8", "assert sum == 1",
                           "assert min(1, 2, key=abs) == 1", "assert 2 ** -1 == 0", "assert [1][0] == 1",
                           "assert tcpi_snd_cwnd.real == 10", "if tcpi_snd_cwnd == 10:\n  pass",
                           "print(1) + 1", "assert (x := 1)", "assert tcpi_snd_cwnd << 127 > 0"}) {
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

// The verdict of a block under Python's rules: "pass", "fail" (an
// AssertionError), "skip" (outside the subset) or "error" (Python raises).
std::string Verdict(const std::string& code, const std::map<std::string, int64_t>& vars = kVars) {
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, vars);
  if (r.ok()) return r->has_value() ? "fail" : "pass";
  if (r.status().code() == absl::StatusCode::kUnimplemented) return "skip";
  if (r.status().code() == absl::StatusCode::kInvalidArgument) return "error";
  return "other: " + r.status().ToString();
}

// Each expectation follows from the language reference's precedence table
// (loosest first: or, and, not, comparisons, |, ^, &, << >>, + -, * // %,
// unary + - ~, **), worked by hand in the comment.
TEST(AssertsTest, PrecedenceIsPythons) {
  struct Case {
    const char* code;
    const char* verdict;
  } cases[] = {
      {"assert not 1 == 2", "pass"},             // not (1 == 2)
      {"assert not 1 == 1", "fail"},             // not (1 == 1)
      {"assert 1 | 2 == 3", "pass"},             // (1 | 2) == 3: | binds tighter than ==
      {"assert 1 | 2 == 2", "fail"},             // (1 | 2) == 2 is False (C's 1 | (2 == 2) would be 1)
      {"assert 4 & 6 == 4", "pass"},             // (4 & 6) == 4 (C's 4 & (6 == 4) would be 0)
      {"assert 6 & 3 ^ 1 | 8 == 11", "pass"},    // ((6 & 3) ^ 1) | 8 = (2 ^ 1) | 8 = 11
      {"assert 1 ^ 3 & 2 == 3", "pass"},         // 1 ^ (3 & 2) = 1 ^ 2 = 3
      {"assert 1 << 3 + 1 == 16", "pass"},       // 1 << (3 + 1)
      {"assert 1 + 2 << 1 == 6", "pass"},        // (1 + 2) << 1
      {"assert -2 ** 2 == -4", "pass"},          // -(2 ** 2)
      {"assert (-2) ** 2 == 4", "pass"},
      {"assert 2 ** 3 ** 2 == 512", "pass"},     // 2 ** (3 ** 2), not (2 ** 3) ** 2 = 64
      {"assert 2 ** -1 ** 2 == 2", "skip"},      // 2 ** (-(1 ** 2)) = 2 ** -1, a float
      {"assert 2 * 3 ** 2 == 18", "pass"},       // 2 * (3 ** 2)
      {"assert -3 // 2 == -2", "pass"},          // (-3) // 2 floors
      {"assert - 3 ** 2 // 2 == -5", "pass"},    // (-(3 ** 2)) // 2 = -9 // 2 = -5
      {"assert ~5 == -6 and ~-1 == 0", "pass"},  // ~x = -x - 1
      {"assert +-+3 == -3", "pass"},
      {"assert 1 < 2 < 3", "pass"},
      {"assert 1 < 3 < 2", "fail"},              // 1 < 3 and 3 < 2
      {"assert 3 > 2 == 2", "pass"},             // 3 > 2 and 2 == 2, not (3 > 2) == 2
      {"assert (3 > 2) == 2", "fail"},           // True == 2
      {"assert (1 < 2) == True", "pass"},
      {"assert (1 < 2) + (2 < 3) == 2", "pass"},  // True + True
      {"assert True and not False", "pass"},
      {"assert 0 or 0", "fail"},
      {"assert 0 or 2 == 2", "pass"},            // 0 or (2 == 2)
      {"assert (0 or 5) == 5", "pass"},          // or yields the operand
      {"assert (3 and 0) == 0 and (3 and 4) == 4", "pass"},
      {"assert not 0 and 1", "pass"},            // (not 0) and 1
      {"assert not (0 and 1)", "pass"},
      {"assert 1 == 2 or 2 == 2 and 3 == 4", "fail"},  // 1 == 2 or (2 == 2 and 3 == 4)
      {"assert 1 == 1 or 2 == 2 and 3 == 4", "pass"},  // and binds tighter than or
      {"assert not not 5", "pass"},
      {"assert -7 % 3 == 2 and 7 % -3 == -2", "pass"},  // % takes the divisor's sign
      {"assert -1 >> 100 == -1 and 5 >> 1 == 2 and -5 >> 1 == -3", "pass"},  // >> floors
      {"assert 0x10 | 0o7 | 0b1000_0000 == 151", "pass"},
      {"assert 1_000 == 1000", "pass"},
  };
  for (const Case& c : cases) EXPECT_EQ(Verdict(c.code), c.verdict) << c.code;
}

TEST(AssertsTest, BareValuesAndTcpInfoForms) {
  const std::map<std::string, int64_t> vars = {{"tcpi_state", 1},       {"TCP_ESTABLISHED", 1}, {"TCP_CLOSE", 7},
                                               {"tcpi_ca_state", 1},    {"TCP_CA_Open", 0},     {"TCP_CA_Disorder", 1},
                                               {"tcpi_options", 6},     {"TCPI_OPT_SACK", 2},   {"TCPI_OPT_TIMESTAMPS", 1},
                                               {"tcpi_snd_cwnd", 10},   {"tcpi_retrans", 0}};
  struct Case {
    const char* code;
    const char* verdict;
  } cases[] = {
      {"assert tcpi_options & TCPI_OPT_SACK", "pass"},  // 6 & 2 = 2: nonzero
      {"assert tcpi_options & TCPI_OPT_TIMESTAMPS", "fail"},
      {"assert not tcpi_options & TCPI_OPT_TIMESTAMPS", "pass"},  // not (6 & 1)
      {"assert (tcpi_ca_state == TCP_CA_Open or tcpi_ca_state == TCP_CA_Disorder)", "pass"},
      {"assert (tcpi_ca_state == TCP_CA_Open or\n        tcpi_state == TCP_CLOSE), tcpi_ca_state", "fail"},
      {"assert tcpi_snd_cwnd", "pass"},
      {"assert tcpi_retrans", "fail"},
      {"assert True", "pass"},
      {"assert False", "fail"},
      {"assert abs(tcpi_snd_cwnd - 12) == 2", "pass"},
      {"assert abs(-5) == 5 and abs(5) == 5", "pass"},
      {"assert min(tcpi_snd_cwnd, 4, 7) == 4 and max(tcpi_snd_cwnd, 4) == 10", "pass"},
      {"assert min(3, 1, 2,) == 1", "pass"},
      {"assert int(tcpi_snd_cwnd) == 10 and int() == 0", "pass"},
      {"assert int(min(-1, 2)) == -1", "pass"},
      {"assert min(1, 2) == 2", "fail"},
  };
  for (const Case& c : cases) EXPECT_EQ(Verdict(c.code, vars), c.verdict) << c.code;
}

// Statements that leave the verdict alone, messages in any form, and
// continued lines.
TEST(AssertsTest, StatementsAndMessages) {
  struct Case {
    const char* code;
    const char* verdict;
  } cases[] = {
      {"print(tcpi_snd_cwnd)\nassert tcpi_snd_cwnd == 10", "pass"},
      {"print('cwnd %d' % tcpi_snd_cwnd, (1, 2))", "pass"},  // nothing checked, nothing fails
      {"print(f\"cwnd {tcpi_snd_cwnd}\")\npass\n# done", "pass"},
      {"pass; assert tcpi_snd_cwnd == 9", "fail"},
      {"assert tcpi_snd_cwnd == 10, 'cwnd %d, mss %d' % (tcpi_snd_cwnd, tcpi_snd_mss)", "pass"},
      {"assert tcpi_snd_cwnd == 10, f'cwnd {tcpi_snd_cwnd}, {tcpi_snd_mss}'", "pass"},
      {"assert tcpi_snd_cwnd == 11, 'cwnd ' + str(tcpi_snd_cwnd)", "fail"},  // the message is never evaluated here
      {"assert tcpi_snd_cwnd == 10, (tcpi_snd_cwnd, 'a, b')", "pass"},
      {"assert tcpi_snd_cwnd == \\\n   10", "pass"},
      {"assert (tcpi_snd_cwnd ==\n  10 and\n  tcpi_snd_mss == 1448), (\n  'two lines')", "pass"},
      {"assert min(tcpi_snd_cwnd,\n  11) == 10  # a comment, (with a bracket", "pass"},
      {"assert(tcpi_snd_cwnd == 10)", "pass"},
      // Python evaluates only what it reaches: no NameError or division here.
      {"assert tcpi_snd_cwnd == 10 or undefined_name == 1", "pass"},
      {"assert tcpi_snd_cwnd == 9 and 1 // 0 == 1", "fail"},
      {"assert 5 < tcpi_snd_cwnd < 1 // 0", "error"},  // 5 < 10 holds: the chain goes on
      {"assert 50 < tcpi_snd_cwnd < 1 // 0", "fail"},
      {"assert 0 and tcpi_reordering == 3", "fail"},  // an unmodelled field not reached
      // A syntax error anywhere stops the block before any assert runs.
      {"assert tcpi_snd_cwnd == 9\nassert tcpi_snd_cwnd ==", "error"},
  };
  for (const Case& c : cases) EXPECT_EQ(Verdict(c.code), c.verdict) << c.code;
  std::optional<std::string> f = Eval("assert (tcpi_snd_cwnd ==\n  11 or tcpi_snd_mss < 0), 'm'");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(*f, "assertion failed: (tcpi_snd_cwnd ==   11 or tcpi_snd_mss < 0) (tcpi_snd_cwnd=10 tcpi_snd_mss=1448)");
}

// Python's own errors: a FAIL, whether found compiling (SyntaxError) or
// running (NameError, ZeroDivisionError, TypeError, ValueError).
TEST(AssertsTest, PythonErrorsOfTheNewForms) {
  for (const char* code : {"assert 1 >> -1", "assert 1 << -1 == 0", "assert 0 ** -1", "assert 1 + not 2",
                           "assert 1 == not 2", "assert 1 or", "assert not", "assert", "assert 1,",
                           "assert 1, 2,", "assert 1, , 3", "assert 1, 2, 3", "assert abs(1, 2)", "assert abs()", "assert min(1)", "assert max()",
                           "assert int(1, 10)", "assert tcpi_snd_cwnd(1)", "assert undefined(1)",
                           "print 'x'", "print tcpi_snd_cwnd", "assert 010 == 8", "assert 1__0", "assert 1_",
                           "assert 0x", "assert 0b2", "assert 12abc", "assert 1 == 1 \\ 1", "print((1)",
                           "assert 1;; assert 2", "assert 1 not 2", "assert 1 2", "assert (1) (2)",
                           "assert 1 % 0", "assert 1 / 0"}) {
    absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, kVars);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << code << ": " << r.status();
  }
  EXPECT_THAT(std::string(EvalAssertBlock("assert 1 >> -1", kVars).status().message()),
              HasSubstr("negative shift count"));
  EXPECT_THAT(std::string(EvalAssertBlock("assert 010 == 8", kVars).status().message()), HasSubstr("leading zeros"));
}

// 128 bits: what fits is exact, what does not is a SKIP, never wrapped.
TEST(AssertsTest, WideValues) {
  EXPECT_EQ(Verdict("assert 2 ** 126 == 1 << 126 and 2 ** 126 > 0"), "pass");
  EXPECT_EQ(Verdict("assert -2 ** 127 < 0"), "skip");  // 2 ** 127 does not fit before the minus
  EXPECT_EQ(Verdict("assert 2 ** 128 > 0"), "skip");
  EXPECT_EQ(Verdict("assert 3 << 126 > 0"), "skip");
  EXPECT_EQ(Verdict("assert 1 ** 1000000000000 == 1 and (-1) ** 1000000000001 == -1 and 0 ** 0 == 1"), "pass");
  EXPECT_EQ(Verdict("assert -(-2 ** 126 * 2) > 0"), "skip");  // -2**127 fits, its negation does not
  EXPECT_EQ(Verdict("assert abs(-2 ** 126 * 2) > 0"), "skip");
  EXPECT_EQ(Verdict("assert (-2 ** 126 * 2) // -1 > 0"), "skip");
  EXPECT_EQ(Verdict("assert (-2 ** 126 * 2) % -1 == 0"), "pass");
  EXPECT_EQ(Verdict("assert ~(-2 ** 126 * 2) == 2 ** 126 - 1 + 2 ** 126"), "pass");
  EXPECT_EQ(Verdict("assert 0xffffffffffffffff >> 63 == 1 and -1 >> 1000 == -1 and 1 >> 1000 == 0"), "pass");
}

// Deep nesting ends in an error, never off the end of the stack: Python's
// tokenizer refuses more than 200 open parentheses (a SyntaxError: FAIL);
// long chains of unary operators stop being evaluated (SKIP).
TEST(AssertsTest, DeepNestingIsBounded) {
  auto nested = [](int n) { return "assert " + std::string(n, '(') + "1" + std::string(n, ')') + " == 1"; };
  EXPECT_EQ(Eval(nested(150)), std::nullopt);
  absl::StatusOr<std::optional<std::string>> deep = EvalAssertBlock(nested(100000), kVars);
  EXPECT_EQ(deep.status().code(), absl::StatusCode::kInvalidArgument) << deep.status();
  EXPECT_THAT(std::string(deep.status().message()), HasSubstr("nested"));
  std::string minus;
  for (int i = 0; i < 100000; ++i) minus += "- ";
  absl::StatusOr<std::optional<std::string>> chain = EvalAssertBlock("assert " + minus + "1 == 1", kVars);
  EXPECT_EQ(chain.status().code(), absl::StatusCode::kUnimplemented) << chain.status();
}

}  // namespace
}  // namespace sendsim::packetdrill
