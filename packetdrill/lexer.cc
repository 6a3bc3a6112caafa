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
      // Skip whitespace and comments.
      while (pos_ < src_.size()) {
        char c = src_[pos_];
        if (c == '\n') {
          ++line_;
          ++pos_;
          space = true;
          at_line_start = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
          ++pos_;
          space = true;
        } else if (c == '/' && Peek(1) == '/') {
          while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
          space = true;
        } else if (c == '/' && Peek(1) == '*') {
          int start_line = line_;
          pos_ += 2;
          while (pos_ < src_.size() && !(src_[pos_] == '*' && Peek(1) == '/')) {
            if (src_[pos_] == '\n') ++line_;
            ++pos_;
          }
          if (pos_ >= src_.size()) return Error(start_line, "unterminated /* comment");
          pos_ += 2;
          space = true;
        } else {
          break;
        }
      }
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
      bool line_start = at_line_start;
      at_line_start = false;
      char c = src_[pos_];
      if (line_start && c == '-' && Peek(1) == '-' && (IsWordStart(Peek(2)))) {
        pos_ += 2;
        size_t b = pos_;
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
        t.kind = Tok::kOption;
        t.text = std::string(src_.substr(b, pos_ - b));
        while (!t.text.empty() && std::isspace(static_cast<unsigned char>(t.text.back()))) t.text.pop_back();
      } else if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
        LexNumber(&t);
      } else if (IsWordStart(c)) {
        size_t b = pos_;
        while (pos_ < src_.size() && IsWordChar(src_[pos_])) ++pos_;
        t.kind = Tok::kWord;
        t.text = std::string(src_.substr(b, pos_ - b));
      } else if (c == '"') {
        int start_line = line_;
        ++pos_;
        size_t b = pos_;
        while (pos_ < src_.size() && src_[pos_] != '"' && src_[pos_] != '\n') {
          if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n') ++pos_;
          ++pos_;
        }
        if (pos_ >= src_.size() || src_[pos_] != '"') return Error(start_line, "unterminated string");
        t.kind = Tok::kString;
        t.text = std::string(src_.substr(b, pos_ - b));
        ++pos_;
      } else if (c == '`') {
        int start_line = line_;
        ++pos_;
        size_t b = pos_;
        while (pos_ < src_.size() && src_[pos_] != '`') {
          if (src_[pos_] == '\n') ++line_;
          ++pos_;
        }
        if (pos_ >= src_.size()) return Error(start_line, "unterminated backtick command");
        t.kind = Tok::kBacktick;
        t.text = std::string(src_.substr(b, pos_ - b));
        ++pos_;
      } else if (c == '%' && Peek(1) == '{') {
        int start_line = line_;
        pos_ += 2;
        size_t b = pos_;
        while (pos_ < src_.size() && !(src_[pos_] == '}' && Peek(1) == '%')) {
          if (src_[pos_] == '\n') ++line_;
          ++pos_;
        }
        if (pos_ >= src_.size()) return Error(start_line, "unterminated %{ code block");
        t.kind = Tok::kCode;
        t.text = std::string(src_.substr(b, pos_ - b));
        pos_ += 2;
      } else if (c == '.' && Peek(1) == '.' && Peek(2) == '.') {
        t.kind = Tok::kEllipsis;
        pos_ += 3;
      } else {
        ++pos_;
        switch (c) {
          case '.': t.kind = Tok::kDot; break;
          case '+': t.kind = Tok::kPlus; break;
          case '-': t.kind = Tok::kMinus; break;
          case '*': t.kind = Tok::kStar; break;
          case '~': t.kind = Tok::kTilde; break;
          case ':': t.kind = Tok::kColon; break;
          case ',': t.kind = Tok::kComma; break;
          case '=': t.kind = Tok::kEquals; break;
          case '|': t.kind = Tok::kPipe; break;
          case '(': t.kind = Tok::kLParen; break;
          case ')': t.kind = Tok::kRParen; break;
          case '[': t.kind = Tok::kLBracket; break;
          case ']': t.kind = Tok::kRBracket; break;
          case '{': t.kind = Tok::kLBrace; break;
          case '}': t.kind = Tok::kRBrace; break;
          case '<': t.kind = Tok::kLess; break;
          case '>': t.kind = Tok::kGreater; break;
          default: t.kind = Tok::kOther; break;
        }
        t.text = std::string(1, c);
      }
      t.end = pos_;
      out.push_back(std::move(t));
    }
  }

 private:
  char Peek(size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

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
