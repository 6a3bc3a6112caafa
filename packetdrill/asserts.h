#ifndef SENDSIM_PACKETDRILL_ASSERTS_H_
#define SENDSIM_PACKETDRILL_ASSERTS_H_

// Evaluates the Python in "%{ ... }%" blocks as Python 3 would, restricted
// to what upstream's scripts use there:
// - statements "assert <cond>[, <message>]" (the message is never
//   evaluated: % formatting, f-strings, tuples all do; "assert c, a, b"
//   is Python 3's SyntaxError, a FAIL), "print(...)"
//   (ignored), "pass", comments, ';' between statements, lines continued
//   by a backslash or an open bracket (python_lines.h);
// - <cond> an integer expression at Python's precedence: or, and, not,
//   chained comparisons, | ^ & << >> + - * // % unary - + ~ and **,
//   parentheses, True/False, integer literals, the tcpi_* names and
//   constants in `vars`, abs(), min()/max() of two or more values and
//   int(); a bare value is true when nonzero; and/or/chains stop as
//   Python's do, so what they skip is never looked at.
// Values are computed in 128 bits. Valid Python outside this (strings or
// floats in a condition, true division, in/is, other builtins, assignments,
// block statements, results beyond 128 bits) is reported as unsupported;
// what Python itself rejects (SyntaxError, NameError, ZeroDivisionError,
// TypeError, ValueError) as invalid. The precedence table is in asserts.cc.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace sendsim::packetdrill {

// OK(nullopt): all assertions hold. OK(text): the first failing assertion.
// UnimplementedError: a construct outside the subset (message = reason).
// InvalidArgumentError: Python would raise (message = what it would say).
// `absent`: tcp_info fields without a value here (name -> why, e.g.
// "tcpi_total_rto is not in linux-6.1's struct tcp_info"); naming one is a
// SKIP with that reason.
absl::StatusOr<std::optional<std::string>> EvalAssertBlock(std::string_view code,
                                                           const std::map<std::string, int64_t>& vars,
                                                           const std::map<std::string, std::string>& absent = {});

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_ASSERTS_H_
