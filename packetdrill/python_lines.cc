#include "packetdrill/python_lines.h"

#include <cctype>

#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

constexpr size_t kNone = std::string_view::npos;

// `s[i]` opens a string literal: the index just past its closing quote, or
// kNone if it does not close (a one-quote string also ends, unclosed, at a
// newline that no backslash escapes).
size_t StringEnd(std::string_view s, size_t i) {
  const char q = s[i];
  const bool triple = s.substr(i, 3) == std::string(3, q);
  for (size_t k = i + (triple ? 3 : 1); k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;
    } else if (triple ? s.substr(k, 3) == std::string(3, q) : s[k] == q) {
      return k + (triple ? 3 : 1);
    } else if (!triple && s[k] == '\n') {
      return kNone;
    }
  }
  return kNone;
}

char Closer(char open) { return open == '(' ? ')' : open == '[' ? ']' : '}'; }

// Splits `s` at `sep` outside strings and brackets (a well-formed line).
std::vector<std::string_view> SplitTopLevel(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"') {
      size_t e = StringEnd(s, i);
      if (e == kNone) break;
      i = e - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == sep && depth == 0) {
      out.push_back(TrimSpace(s.substr(from, i - from)));
      from = i + 1;
    }
  }
  out.push_back(TrimSpace(s.substr(from)));
  return out;
}

absl::Status Syntax(const std::string& what) { return absl::InvalidArgumentError(what); }

}  // namespace

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

absl::StatusOr<std::vector<std::string>> PythonStatements(std::string_view code) {
  std::vector<std::string> lines;
  std::string cur;
  std::string open;  // the brackets open, innermost last
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '\'' || c == '"') {
      size_t e = StringEnd(code, i);
      if (e == kNone) return Syntax("unterminated string literal");
      cur.append(code.substr(i, e - i));
      i = e - 1;
    } else if (c == '#') {
      while (i + 1 < code.size() && code[i + 1] != '\n') ++i;
    } else if (c == '\\') {
      // Only a backslash ending the line joins it to the next (2.1.5).
      if (i + 1 < code.size() && code[i + 1] == '\n') {
        cur += ' ';
        ++i;
      } else if (i + 1 == code.size()) {
        return Syntax("unexpected end of the block after a line continuation");
      } else {
        return Syntax("unexpected character after line continuation character");
      }
    } else if (c == '(' || c == '[' || c == '{') {
      open += c;
      cur += c;
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.empty()) return Syntax(absl::StrFormat("unmatched '%c'", c));
      if (Closer(open.back()) != c) {
        return Syntax(absl::StrFormat("closing parenthesis '%c' does not match opening parenthesis '%c'", c, open.back()));
      }
      open.pop_back();
      cur += c;
    } else if (c == '\n') {
      // Inside brackets a newline is only whitespace (2.1.6).
      if (!open.empty()) {
        cur += ' ';
      } else {
        lines.push_back(cur);
        cur.clear();
      }
    } else {
      cur += c;
    }
  }
  if (!open.empty()) return Syntax(absl::StrFormat("'%c' was never closed", open.back()));
  lines.push_back(cur);

  std::vector<std::string> out;
  for (const std::string& line : lines) {
    if (TrimSpace(line).empty()) continue;
    std::vector<std::string_view> parts = SplitTopLevel(line, ';');
    // "a; b;" is two statements; "a;; b" and "; a" are SyntaxErrors.
    if (parts.size() > 1 && parts.back().empty()) parts.pop_back();
    for (std::string_view p : parts) {
      if (p.empty()) return Syntax("invalid syntax: an empty statement between ';'");
      out.emplace_back(p);
    }
  }
  return out;
}

std::vector<std::string_view> SplitTopLevelCommas(std::string_view s) { return SplitTopLevel(s, ','); }

bool IsOneParenGroup(std::string_view s) {
  if (s.empty() || s.front() != '(') return false;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"') {
      size_t e = StringEnd(s, i);
      if (e == kNone) return false;
      i = e - 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i + 1 == s.size();
    }
  }
  return false;
}

}  // namespace sendsim::packetdrill
