#include "scenario/text_util.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "absl/status/status.h"
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

std::string ErrorLine(absl::string_view msg, size_t max_chars) {
  std::string out;
  for (size_t i = 0; i < msg.size(); ++i) {
    if (out.size() >= max_chars) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(msg[i]);
    if (c == '\n' || c == '\t' || c == '\r') {
      out.push_back(' ');
    } else if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += absl::StrFormat("\\x%02x", c);
    }
  }
  return out;
}

absl::StatusOr<std::string> ReadFileCapped(const std::string& path, uint64_t max_bytes, absl::string_view what) {
  const std::string name = EscapeForMessage(path);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return absl::NotFoundError(absl::StrFormat("%s %s: cannot open file (%s)", what, name, std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) return absl::InvalidArgumentError(absl::StrFormat("%s %s: is a directory", what, name));
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrFormat("%s %s: cannot open file", what, name));
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s %s: is larger than %d bytes (the limit for this input)", what, name, max_bytes));
    }
  }
  if (in.bad()) return absl::DataLossError(absl::StrFormat("%s %s: read error", what, name));
  return text;
}

}  // namespace sendsim::scenario
