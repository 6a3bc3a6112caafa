#ifndef SENDSIM_SCENARIO_TEXT_UTIL_H_
#define SENDSIM_SCENARIO_TEXT_UTIL_H_

#include <string>
#include "absl/strings/string_view.h"

namespace sendsim::scenario {

// User text quoted inside an error message: printable ASCII kept, everything
// else as \xNN, cut to 80 characters, so a message stays one readable line.
std::string EscapeForMessage(absl::string_view s);

// Replaces control characters (newlines included) by spaces.
std::string OneLine(std::string s);

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_TEXT_UTIL_H_
