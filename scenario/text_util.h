#ifndef SENDSIM_SCENARIO_TEXT_UTIL_H_
#define SENDSIM_SCENARIO_TEXT_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sendsim::scenario {

// User text quoted inside an error message: printable ASCII kept, everything
// else (control characters, bidi overrides, any non-ASCII or invalid UTF-8
// byte) as \xNN, cut to 80 characters, so a message stays one readable line.
std::string EscapeForMessage(absl::string_view s);

// Replaces control characters (newlines included) by spaces.
std::string OneLine(std::string s);

// The last guard before an error line reaches a terminal: control and
// non-ASCII bytes escaped as \xNN, the whole line cut to `max_chars`
// (with "..."), so no input echoed by any layer can print a wall of text or
// drive the terminal.
inline constexpr size_t kMaxErrorLineChars = 300;
std::string ErrorLine(absl::string_view msg, size_t max_chars = kMaxErrorLineChars);

// Reads a whole input file of at most `max_bytes`. Refuses directories and
// stops reading one byte past the cap (so /dev/zero or a huge file cannot
// exhaust memory). Errors name `what` and the (escaped) path:
// "<what> PATH: cannot open file", "... is a directory", "... is larger than N bytes".
absl::StatusOr<std::string> ReadFileCapped(const std::string& path, uint64_t max_bytes, absl::string_view what);

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_TEXT_UTIL_H_
