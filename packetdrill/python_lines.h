#ifndef SENDSIM_PACKETDRILL_PYTHON_LINES_H_
#define SENDSIM_PACKETDRILL_PYTHON_LINES_H_

// The layout layer of the Python in "%{ ... }%" blocks (asserts.cc
// evaluates what it yields): physical lines joined into logical lines,
// comments dropped, statements split at ';', a statement split at its
// top-level commas. String literals are skipped over, never interpreted.
// Python 3's rules (reference, "Lexical analysis", 2.1):
// - a line ending in a backslash outside a string continues on the next one;
//   a backslash followed by anything else outside a string is an error;
// - inside ( [ { the line continues until the bracket closes; brackets must
//   close in order and every one must close;
// - '#' outside a string starts a comment running to the end of the line;
// - '...' and "..." end at the same quote on the same line, '''...''' and
//   """...""" may span lines; a backslash in either escapes the next
//   character (raw strings too, as far as where they end is concerned).
// Indentation is not checked: upstream's blocks sit on the script's lines
// ("+0 %{ assert ... }%"), and no block statement (if, for) is supported.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sendsim::packetdrill {

// The statements of `code`, trimmed, comments removed, continuations joined
// with a space, split at top-level ';' (a trailing ';' is allowed). Blank
// lines yield nothing. InvalidArgumentError(what Python would say) for a
// SyntaxError of the layout: an unterminated string, an unclosed or
// mismatched bracket, a stray backslash, an empty statement between ';'.
absl::StatusOr<std::vector<std::string>> PythonStatements(std::string_view code);

// `s` cut at its top-level commas (outside strings and brackets), each piece
// trimmed: "x == 1, 'a, b' % (c, d)" gives "x == 1" and "'a, b' % (c, d)".
std::vector<std::string_view> SplitTopLevelCommas(std::string_view s);

// Whether `s` is one bracketed group: it opens with '(' and the bracket
// that matches it is its last character ("(a, (b))", not "(a) + (b)").
bool IsOneParenGroup(std::string_view s);

std::string_view TrimSpace(std::string_view s);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_PYTHON_LINES_H_
