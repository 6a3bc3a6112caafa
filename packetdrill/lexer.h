#ifndef SENDSIM_PACKETDRILL_LEXER_H_
#define SENDSIM_PACKETDRILL_LEXER_H_

// Splits a packetdrill script into tokens. Whitespace and newlines only
// separate tokens (as in upstream's flex scanner); each token remembers its
// line and whether whitespace preceded it (packet flags such as "S." are two
// adjacent tokens).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sendsim::packetdrill {

enum class Tok : uint8_t {
  kEnd,
  kNumber,     // 12, 0.100, .5, 0x1f (text kept verbatim)
  kWord,       // identifiers, also flag letters
  kString,     // "..." (text: contents without quotes)
  kBacktick,   // `...` (text: contents)
  kCode,       // %{ ... }% (text: contents)
  kOption,     // "--name[=value]" at the start of a line (text: after "--")
  kEllipsis,   // ...
  kDot, kPlus, kMinus, kStar, kTilde, kColon, kComma, kEquals, kPipe,
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace, kLess, kGreater,
  kOther,      // any other character (the parser rejects it where it matters)
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  int line = 0;
  bool space_before = true;
  size_t offset = 0;     // byte offset of the token in the source
  size_t end = 0;        // one past the last byte
};

std::string_view TokName(Tok t);

// Fails (message "file:line: ...") only on unterminated comments, strings,
// backtick commands and code blocks.
absl::StatusOr<std::vector<Token>> Lex(std::string_view path, std::string_view src);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_LEXER_H_
