#include "packetdrill/python_lines.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> Statements(std::string_view code) {
  absl::StatusOr<std::vector<std::string>> s = PythonStatements(code);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : std::vector<std::string>{"error"};
}

// Python 3's line structure: comments end at the line's end, a trailing
// backslash or an open bracket continues the line, ';' separates statements.
TEST(PythonLinesTest, LogicalLines) {
  EXPECT_THAT(Statements("\n  assert a  # why\n\n# only a comment\n   pass\n"), ElementsAre("assert a", "pass"));
  EXPECT_THAT(Statements("assert a == \\\n  1"), ElementsAre("assert a ==    1"));
  EXPECT_THAT(Statements("assert (a ==\n  1 or\n b)"), ElementsAre("assert (a ==   1 or  b)"));
  EXPECT_THAT(Statements("assert a; assert b;"), ElementsAre("assert a", "assert b"));
  // '#', ';', brackets and a backslash inside strings are text; a ''' string
  // spans lines.
  EXPECT_THAT(Statements("assert a, '# ; ( \\' \\\\'"), ElementsAre("assert a, '# ; ( \\' \\\\'"));
  EXPECT_THAT(Statements("assert a, '''x\n(y'''\nassert b"), ElementsAre("assert a, '''x\n(y'''", "assert b"));
  // A comment ending in a backslash does not continue the line.
  EXPECT_THAT(Statements("assert a # \\\nassert b"), ElementsAre("assert a", "assert b"));
  EXPECT_THAT(Statements("  \n # x\n"), ElementsAre());
}

TEST(PythonLinesTest, SyntaxErrors) {
  for (const char* code : {"assert (a", "assert a)", "assert (a]", "assert a, 'x", "assert a, 'x\n'", "assert a \\ ",
                           "assert a \\", "assert a;; assert b", "; assert a"}) {
    absl::StatusOr<std::vector<std::string>> s = PythonStatements(code);
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << code;
  }
  EXPECT_THAT(std::string(PythonStatements("assert (a").status().message()), HasSubstr("'(' was never closed"));
  EXPECT_THAT(std::string(PythonStatements("assert a)").status().message()), HasSubstr("unmatched ')'"));
}

TEST(PythonLinesTest, TopLevelCommas) {
  EXPECT_THAT(SplitTopLevelCommas(" x == 1 , 'a, b' % (c, d)"), ElementsAre("x == 1", "'a, b' % (c, d)"));
  EXPECT_THAT(SplitTopLevelCommas("min(a, b) == 1, f\"{a}, {b}\""), ElementsAre("min(a, b) == 1", "f\"{a}, {b}\""));
  EXPECT_THAT(SplitTopLevelCommas("x"), ElementsAre("x"));
  EXPECT_THAT(SplitTopLevelCommas("x,"), ElementsAre("x", ""));
}

TEST(PythonLinesTest, OneParenGroup) {
  EXPECT_TRUE(IsOneParenGroup("(a, (b), ')')"));
  EXPECT_TRUE(IsOneParenGroup("()"));
  EXPECT_FALSE(IsOneParenGroup("(a) + (b)"));
  EXPECT_FALSE(IsOneParenGroup("a(b)"));
  EXPECT_FALSE(IsOneParenGroup(""));
}

}  // namespace
}  // namespace sendsim::packetdrill
