#include "scenario/text_util.h"

#include "absl/strings/str_format.h"

namespace sendsim::scenario {

std::string EscapeForMessage(absl::string_view s) {
  constexpr size_t kMax = 80;
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= kMax) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
      out.push_back(static_cast<char>(c));
    } else {
      out += absl::StrFormat("\\x%02x", c);
    }
  }
  return out;
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return s;
}

}  // namespace sendsim::scenario
