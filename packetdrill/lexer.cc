#include "packetdrill/lexer.h"

#include <cctype>

#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(std::string_view path, std::string_view src) : path_(path), src_(src) {}

  absl::StatusOr<std::vector<Token>> Run() {
    std::vector<Token> out;
    bool at_line_start = true;
    while (true) {
      bool space = false;
      if (absl::Status st = SkipSpaceAndComments(&space, &at_line_start); !st.ok()) return st;
      Token t;
      t.line = line_;
      t.space_before = space || out.empty();
      t.offset = pos_;
      if (pos_ >= src_.size()) {
        t.kind = Tok::kEnd;
        t.end = pos_;
        out.push_back(std::move(t));
        return out;
      }
      const bool line_start = at_line_start;
      at_line_start = false;
      if (absl::Status st = LexToken(line_start, &t); !st.ok()) return st;
      t.end = pos_;
      out.push_back(std::move(t));
    }
  }

 private:
  char Peek(size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

  // Skips whitespace and comments; `*space` when there were any.
  absl::Status SkipSpaceAndComments(bool* space, bool* at_line_start) {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
        *space = true;
        *at_line_start = true;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
        *space = true;
      } else if (c == '/' && Peek(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
        *space = true;
      } else if (c == '/' && Peek(1) == '*') {
        if (absl::Status st = LexEnclosed(2, "*/", "/* comment", nullptr); !st.ok()) return st;
        *space = true;
      } else {
        break;
      }
    }
    return absl::OkStatus();
  }

  // The token at pos_ (not at the end of the source).
  absl::Status LexToken(bool line_start, Token* t) {
    const char c = src_[pos_];
    if (line_start && c == '-' && Peek(1) == '-' && (IsWordStart(Peek(2)))) {
      pos_ += 2;
      size_t b = pos_;
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      t->kind = Tok::kOption;
      t->text = std::string(src_.substr(b, pos_ - b));
      while (!t->text.empty() && std::isspace(static_cast<unsigned char>(t->text.back()))) t->text.pop_back();
    } else if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
      LexNumber(t);
    } else if (IsWordStart(c)) {
      size_t b = pos_;
      while (pos_ < src_.size() && IsWordChar(src_[pos_])) ++pos_;
      t->kind = Tok::kWord;
      t->text = std::string(src_.substr(b, pos_ - b));
    } else if (c == '"') {
      return LexString(t);
    } else if (c == '`') {
      t->kind = Tok::kBacktick;
      return LexEnclosed(1, "`", "backtick command", t);
    } else if (c == '%' && Peek(1) == '{') {
      t->kind = Tok::kCode;
      return LexEnclosed(2, "}%", "%{ code block", t);
    } else if (c == '.' && Peek(1) == '.' && Peek(2) == '.') {
      t->kind = Tok::kEllipsis;
      pos_ += 3;
    } else {
      ++pos_;
      t->kind = PunctuationKind(c);
      t->text = std::string(1, c);
    }
    return absl::OkStatus();
  }

  // A block from an opening delimiter of `open_len` characters at pos_ to
  // `close`, over lines: its contents become t->text (no token for a comment).
  absl::Status LexEnclosed(size_t open_len, std::string_view close, std::string_view what, Token* t) {
    const int start_line = line_;
    pos_ += open_len;
    size_t b = pos_;
    while (pos_ < src_.size() && src_.substr(pos_, close.size()) != close) {
      if (src_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= src_.size()) return Error(start_line, absl::StrFormat("unterminated %s", what));
    if (t != nullptr) t->text = std::string(src_.substr(b, pos_ - b));
    pos_ += close.size();
    return absl::OkStatus();
  }

  // A string ends on its line; a backslash escapes the next character.
  absl::Status LexString(Token* t) {
    int start_line = line_;
    ++pos_;
    size_t b = pos_;
    while (pos_ < src_.size() && src_[pos_] != '"' && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n') ++pos_;
      ++pos_;
    }
    if (pos_ >= src_.size() || src_[pos_] != '"') return Error(start_line, "unterminated string");
    t->kind = Tok::kString;
    t->text = std::string(src_.substr(b, pos_ - b));
    ++pos_;
    return absl::OkStatus();
  }

  static Tok PunctuationKind(char c) {
    switch (c) {
      case '.': return Tok::kDot;
      case '+': return Tok::kPlus;
      case '-': return Tok::kMinus;
      case '*': return Tok::kStar;
      case '~': return Tok::kTilde;
      case ':': return Tok::kColon;
      case ',': return Tok::kComma;
      case '=': return Tok::kEquals;
      case '|': return Tok::kPipe;
      case '(': return Tok::kLParen;
      case ')': return Tok::kRParen;
      case '[': return Tok::kLBracket;
      case ']': return Tok::kRBracket;
      case '{': return Tok::kLBrace;
      case '}': return Tok::kRBrace;
      case '<': return Tok::kLess;
      case '>': return Tok::kGreater;
      default: return Tok::kOther;
    }
  }

  void LexNumber(Token* t) {
    size_t b = pos_;
    t->kind = Tok::kNumber;
    if (src_[pos_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X') && std::isxdigit(static_cast<unsigned char>(Peek(2)))) {
      pos_ += 2;
      while (pos_ < src_.size() && std::isxdigit(static_cast<unsigned char>(src_[pos_]))) ++pos_;
    } else {
      while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
      // A '.' belongs to the number unless it starts "..." (as in "+0...0.3").
      if (pos_ < src_.size() && src_[pos_] == '.' && Peek(1) != '.') {
        ++pos_;
        while (pos_ < src_.size() && IsDigit(src_[pos_])) ++pos_;
      }
    }
    t->text = std::string(src_.substr(b, pos_ - b));
  }

  absl::Status Error(int line, std::string_view msg) const {
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path_, line, msg));
  }

  std::string_view path_;
  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

std::string_view TokName(Tok t) {
  switch (t) {
    case Tok::kEnd: return "end of file";
    case Tok::kNumber: return "number";
    case Tok::kWord: return "word";
    case Tok::kString: return "string";
    case Tok::kBacktick: return "`command`";
    case Tok::kCode: return "%{ code }%";
    case Tok::kOption: return "--option";
    case Tok::kEllipsis: return "'...'";
    case Tok::kDot: return "'.'";
    case Tok::kPlus: return "'+'";
    case Tok::kMinus: return "'-'";
    case Tok::kStar: return "'*'";
    case Tok::kTilde: return "'~'";
    case Tok::kColon: return "':'";
    case Tok::kComma: return "','";
    case Tok::kEquals: return "'='";
    case Tok::kPipe: return "'|'";
    case Tok::kLParen: return "'('";
    case Tok::kRParen: return "')'";
    case Tok::kLBracket: return "'['";
    case Tok::kRBracket: return "']'";
    case Tok::kLBrace: return "'{'";
    case Tok::kRBrace: return "'}'";
    case Tok::kLess: return "'<'";
    case Tok::kGreater: return "'>'";
    case Tok::kOther: return "character";
  }
  return "token";
}

absl::StatusOr<std::vector<Token>> Lex(std::string_view path, std::string_view src) {
  return Lexer(path, src).Run();
}

}  // namespace sendsim::packetdrill
