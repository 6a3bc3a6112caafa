#include "packetdrill/asserts.h"

#include <cctype>
#include <cstring>
#include <set>
#include <vector>

#include "absl/strings/str_format.h"
#include "packetdrill/python_lines.h"

// The Python 3 semantics evaluated here (the language reference, "6.
// Expressions"), loosest binding first; every value is an int (True is 1,
// False 0, as bool is an int subclass):
//   or          x or y: x if x is true, else y (y not evaluated when x is true)
//   and         x and y: x if x is false, else y (y not evaluated when x is false)
//   not         not x: True when x == 0; binds looser than comparisons, so
//               "not 1 == 2" is not (1 == 2)
//   < > == >= <= !=   chained: "a < b < c" is "a < b and b < c" with b
//               evaluated once and c not at all when a < b is false; each
//               yields True/False. (in, not in, is, is not: unsupported.)
//   |  then ^  then &   bitwise, on two's complement of unbounded width;
//               unlike C they bind tighter than comparisons: "4 & 6 == 4"
//               is "(4 & 6) == 4", True
//   << >>       shifts; a negative count raises ValueError; >> floors
//   + -         binary
//   * // %      // floors toward minus infinity, % takes the divisor's sign;
//               / is true division (a float: unsupported); a zero divisor
//               raises ZeroDivisionError
//   +x -x ~x    unary; ~x is -x - 1
//   **          binds tighter than a unary operator on its left ("-2 ** 2"
//               is -(2 ** 2)) and looser than one on its right ("2 ** -1");
//               right-associative ("2 ** 3 ** 2" is 2 ** 9); a negative
//               exponent yields a float (unsupported), 0 ** -1 raises
//               ZeroDivisionError
//   f(args)     calls: abs(x), min(a, b, ...), max(a, b, ...) with two or
//               more arguments (one is iterated: a TypeError for an int),
//               int() and int(x); a trailing comma is allowed
//   atoms       integer literals (decimal, 0x, 0o, 0b, '_' between digits;
//               "010" is a SyntaxError), names, True, False, ( expression )
// Python evaluates only what it reaches: a name, division or call in an
// operand that "and"/"or"/a chain skips raises nothing. So each statement is
// parsed in full first (syntax errors and unsupported forms anywhere in the
// block end it before any assert runs, as Python compiles the block whole),
// then evaluated with the skipped operands parsed but not computed.
namespace sendsim::packetdrill {
namespace {

// Python's integers are unbounded; the subset computes in 128 bits, enough
// for tcp_info's u64 fields (an unlimited pacing rate is 2**64 - 1).
using Num = __int128;
constexpr Num kU64Max = (Num{1} << 64) - 1;
constexpr Num kNumMin = static_cast<Num>(static_cast<unsigned __int128>(1) << 127);

struct Tok {
  // kOther: valid Python outside the subset (a string, a float, '.', '[',
  // '=') - unsupported. kBad: a literal Python rejects ("010").
  enum Kind { kInt, kName, kOp, kOther, kBad, kEnd } kind;
  std::string text;
  Num num = 0;
};

// struct tcp_info's __u64 fields. The value maps hold int64_t: -1 there
// stands for ~0ULL (an unlimited pacing rate).
bool IsU64Field(std::string_view n) {
  for (std::string_view f : {"tcpi_pacing_rate", "tcpi_max_pacing_rate", "tcpi_bytes_acked", "tcpi_bytes_received",
                             "tcpi_delivery_rate", "tcpi_busy_time", "tcpi_rwnd_limited", "tcpi_sndbuf_limited",
                             "tcpi_bytes_sent", "tcpi_bytes_retrans"}) {
    if (n == f) return true;
  }
  return false;
}

absl::Status Unsupported(std::string_view what) {
  return absl::UnimplementedError(absl::StrFormat("python in %%{ }%%: %s", what));
}

// Python itself would reject it (a SyntaxError, ZeroDivisionError,
// NameError, TypeError or ValueError ends upstream's script): a FAIL, never
// a SKIP, so a typo cannot turn a check into a pass.
absl::Status Broken(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrFormat("assert in %%{ }%% cannot be evaluated: %s", what));
}

// The fields of Linux's struct tcp_info as packetdrill's %{ }% names them:
// a name among them that the model lacks is a SKIP, any other tcpi_ name is
// a typo (FAIL).
bool IsTcpInfoField(std::string_view n) {
  static constexpr std::string_view kFields[] = {
      "state", "ca_state", "retransmits", "probes", "backoff", "options", "snd_wscale", "rcv_wscale",
      "delivery_rate_app_limited", "fastopen_client_fail", "rto", "ato", "snd_mss", "rcv_mss", "unacked",
      "sacked", "lost", "retrans", "fackets", "last_data_sent", "last_ack_sent", "last_data_recv",
      "last_ack_recv", "pmtu", "rcv_ssthresh", "rtt", "rttvar", "snd_ssthresh", "snd_cwnd", "advmss",
      "reordering", "rcv_rtt", "rcv_space", "total_retrans", "pacing_rate", "max_pacing_rate", "bytes_acked",
      "bytes_received", "segs_out", "segs_in", "notsent_bytes", "min_rtt", "data_segs_in", "data_segs_out",
      "delivery_rate", "busy_time", "rwnd_limited", "sndbuf_limited", "delivered", "delivered_ce", "bytes_sent",
      "bytes_retrans", "dsack_dups", "reord_seen", "rcv_ooopack", "snd_wnd", "rcv_wnd", "rehash", "total_rto",
      "total_rto_recoveries", "total_rto_time"};
  if (n.substr(0, 5) != "tcpi_") return false;
  n.remove_prefix(5);
  for (std::string_view f : kFields) {
    if (f == n) return true;
  }
  return false;
}

// Python 3's builtin functions: calling one other than abs/min/max/int, or
// using one as a value, is valid Python outside the subset.
bool IsPythonBuiltin(std::string_view n) {
  static constexpr std::string_view kBuiltins[] = {
      "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable",
      "chr", "classmethod", "compile", "complex", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec",
      "exit", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
      "input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min",
      "next", "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed",
      "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars",
      "zip"};
  for (std::string_view b : kBuiltins) {
    if (b == n) return true;
  }
  return false;
}

bool IsPythonKeyword(std::string_view n) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",   "True",    "and",      "as",     "assert", "async", "await", "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",  "yield"};
  for (std::string_view k : kKeywords) {
    if (k == n) return true;
  }
  return false;
}

// An integer literal (2.4.5): digits of its base with single '_' between
// them (and after a 0x/0o/0b prefix); a nonzero decimal may not start with 0.
Tok Number(std::string_view t) {
  const std::string shown(t.substr(0, 40));
  const bool prefixed = t.size() > 1 && t[0] == '0' && std::strchr("xXoObB", t[1]) != nullptr;
  if (!prefixed && t.find_first_of("eEjJ") != std::string_view::npos) {
    // 1e3 is a float and 1j complex; anything else with letters is a typo.
    bool floaty = true;
    for (char c : t) floaty = floaty && (std::isdigit(static_cast<unsigned char>(c)) || std::strchr("eEjJ_+-", c));
    if (floaty) return {Tok::kOther, absl::StrFormat("a float or complex literal '%s'", shown)};
  }
  int base = 10;
  size_t k = 0;
  if (t.size() > 1 && t[0] == '0' && std::isalpha(static_cast<unsigned char>(t[1]))) {
    const char p = std::tolower(t[1]);
    base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    k = 2;
    if (k < t.size() && t[k] == '_') ++k;
  }
  if (base == 0 || k == t.size()) return {Tok::kBad, absl::StrFormat("invalid number '%s'", shown)};
  Num v = 0;
  bool all_zero = true, prev_digit = false;
  for (; k < t.size(); ++k) {
    if (t[k] == '_') {
      if (!prev_digit) return {Tok::kBad, absl::StrFormat("invalid number '%s'", shown)};
      prev_digit = false;
      continue;
    }
    const char c = std::tolower(t[k]);
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::isalpha(static_cast<unsigned char>(c)) ? c - 'a' + 10 : 99;
    if (d >= base) return {Tok::kBad, absl::StrFormat("invalid number '%s'", shown)};
    if (v > (kU64Max - d) / base) return {Tok::kBad, absl::StrFormat("number '%s'", shown)};
    v = v * base + d;
    all_zero = all_zero && d == 0;
    prev_digit = true;
  }
  if (!prev_digit) return {Tok::kBad, absl::StrFormat("invalid number '%s'", shown)};
  if (base == 10 && t[0] == '0' && !all_zero) {
    return {Tok::kBad, absl::StrFormat("leading zeros in decimal integer literals are not permitted: '%s'", shown)};
  }
  return {Tok::kInt, std::string(t), v};
}

std::vector<Tok> Tokenize(std::string_view s) {
  std::vector<Tok> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                              ((s[i] == '+' || s[i] == '-') && std::tolower(s[i - 1]) == 'e' &&
                               !(i - b > 1 && std::strchr("xX", s[b + 1]))))) {
        ++i;
      }
      if (i < s.size() && s[i] == '.') {
        out.push_back({Tok::kOther, "a float literal"});
        ++i;
      } else {
        out.push_back(Number(s.substr(b, i - b)));
      }
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
        out.push_back({Tok::kOther, "a string"});  // f"...", r'...', b"..."
      } else {
        out.push_back({Tok::kName, std::string(s.substr(b, i - b))});
      }
    } else if (c == '\'' || c == '"') {
      out.push_back({Tok::kOther, "a string"});
      ++i;
    } else {
      static const char* kOps[] = {"**", "//", "<<", ">>", "==", "!=", "<=", ">=", "<", ">", "+", "-",
                                   "*",  "/",  "%",  "&",  "|",  "^",  "~",  "(",  ")", ","};
      bool found = false;
      for (const char* op : kOps) {
        std::string_view o(op);
        if (s.substr(i, o.size()) == o) {
          // ':=', '+=', '**=' etc. are assignments: unsupported like '='.
          if (o != "==" && o != "!=" && o != "<=" && o != ">=" && s.substr(i + o.size(), 1) == "=") break;
          out.push_back({Tok::kOp, std::string(o)});
          i += o.size();
          found = true;
          break;
        }
      }
      if (!found) {
        out.push_back({Tok::kOther, absl::StrFormat("character '%c'", c)});
        ++i;
      }
    }
  }
  out.push_back({Tok::kEnd, ""});
  return out;
}

// Runs `expr` (a StatusOr<Num>) and binds its value to `name`, or returns
// its error.
#define NUM_OR_RETURN(name, expr)                   \
  Num name;                                         \
  {                                                 \
    absl::StatusOr<Num> name##_or = (expr);         \
    if (!name##_or.ok()) return name##_or.status(); \
    name = *name##_or;                              \
  }

constexpr std::string_view kBig = "integers beyond 128 bits";

// One condition's parser and evaluator. Each level takes `live`: false
// parses without computing (an operand Python skips, or the syntax pass).
class Eval {
 public:
  Eval(const std::vector<Tok>& toks, const std::map<std::string, int64_t>& vars,
       const std::map<std::string, std::string>& absent)
      : t_(toks), vars_(vars), absent_(absent) {}

  // The truth of the whole condition (live), or only its syntax checked.
  absl::StatusOr<bool> Condition(bool live) {
    p_ = 0;
    for (const Tok& t : t_) {
      if (t.kind == Tok::kBad) return Broken(t.text);
      if (t.kind == Tok::kOther) return Unsupported(t.text);
    }
    NUM_OR_RETURN(v, Or(live));
    if (t_[p_].kind != Tok::kEnd) return Unexpected();
    return v != 0;
  }

 private:
  bool IsOp(std::string_view op) const { return t_[p_].kind == Tok::kOp && t_[p_].text == op; }
  bool IsWord(std::string_view w, size_t at) const { return t_[at].kind == Tok::kName && t_[at].text == w; }
  bool IsWord(std::string_view w) const { return IsWord(w, p_); }
  bool IsRel() const {
    return IsOp("==") || IsOp("!=") || IsOp("<") || IsOp("<=") || IsOp(">") || IsOp(">=");
  }
  // in, not in, is, is not: valid comparisons on objects, outside the subset.
  bool IsIdentityOrMembership() const {
    return IsWord("in") || IsWord("is") || (IsWord("not") && IsWord("in", p_ + 1));
  }

  // A token where the grammar allows none: a keyword that starts a valid
  // construct outside the subset is unsupported, anything else invalid.
  absl::Status Unexpected() const {
    const Tok& t = t_[p_];
    if (t.kind == Tok::kName) {
      for (std::string_view k : {"if", "else", "for", "in", "is", "lambda", "None", "async", "await", "yield"}) {
        if (t.text == k) return Unsupported(absl::StrFormat("'%s'", k));
      }
    }
    if (t.kind == Tok::kEnd) return Broken("an operand is missing");
    return Broken(absl::StrFormat("unexpected '%s'", t.text.substr(0, 40)));
  }

  // Each parenthesis or call argument list nests one Or(); Python's
  // tokenizer refuses more than 200 open brackets (a SyntaxError), and the
  // limit keeps this recursion off the end of the stack.
  absl::StatusOr<Num> Or(bool live) {
    if (nesting_ > kMaxNesting) return Broken("too many nested parentheses");
    ++nesting_;
    absl::StatusOr<Num> v = OrNested(live);
    --nesting_;
    return v;
  }

  absl::StatusOr<Num> OrNested(bool live) {
    NUM_OR_RETURN(v, And(live));
    bool settled = v != 0;  // a true operand is the result
    while (IsWord("or")) {
      ++p_;
      const bool reach = live && !settled;
      NUM_OR_RETURN(r, And(reach));
      if (reach) {
        v = r;
        settled = r != 0;
      }
    }
    return v;
  }

  absl::StatusOr<Num> And(bool live) {
    NUM_OR_RETURN(v, Not(live));
    bool settled = v == 0;  // a false operand is the result
    while (IsWord("and")) {
      ++p_;
      const bool reach = live && !settled;
      NUM_OR_RETURN(r, Not(reach));
      if (reach) {
        v = r;
        settled = r == 0;
      }
    }
    return v;
  }

  absl::StatusOr<Num> Not(bool live) {
    if (!IsWord("not")) return Comparison(live);
    ++p_;
    if (++chain_ > kMaxChain) return Unsupported("over 1000 unary operators in a row");
    NUM_OR_RETURN(v, Not(live));
    return Num{v == 0};
  }

  absl::StatusOr<Num> Comparison(bool live) {
    NUM_OR_RETURN(left, BitOr(live));
    if (!IsRel() && !IsIdentityOrMembership()) return left;
    Num result = 1;
    bool reach = live;  // a false link ends the chain unevaluated
    while (true) {
      if (IsIdentityOrMembership()) return Unsupported(absl::StrFormat("'%s'", t_[p_].text));
      if (!IsRel()) break;
      const std::string op = t_[p_++].text;
      NUM_OR_RETURN(right, BitOr(reach));
      if (reach) {
        const bool r = op == "==" ? left == right
                       : op == "!=" ? left != right
                       : op == "<"  ? left < right
                       : op == "<=" ? left <= right
                       : op == ">"  ? left > right
                                    : left >= right;
        if (!r) {
          result = 0;
          reach = false;
        }
      }
      left = right;
    }
    return result;
  }

  absl::StatusOr<Num> BitOr(bool live) {
    NUM_OR_RETURN(v, BitXor(live));
    while (IsOp("|")) {
      ++p_;
      NUM_OR_RETURN(r, BitXor(live));
      v |= r;
    }
    return v;
  }

  absl::StatusOr<Num> BitXor(bool live) {
    NUM_OR_RETURN(v, BitAnd(live));
    while (IsOp("^")) {
      ++p_;
      NUM_OR_RETURN(r, BitAnd(live));
      v ^= r;
    }
    return v;
  }

  // Two's complement in 128 bits gives Python's results for every value
  // that fits.
  absl::StatusOr<Num> BitAnd(bool live) {
    NUM_OR_RETURN(v, Shift(live));
    while (IsOp("&")) {
      ++p_;
      NUM_OR_RETURN(r, Shift(live));
      v &= r;
    }
    return v;
  }

  absl::StatusOr<Num> Shift(bool live) {
    NUM_OR_RETURN(v, Sum(live));
    while (IsOp("<<") || IsOp(">>")) {
      const bool left = t_[p_++].text == "<<";
      NUM_OR_RETURN(n, Sum(live));
      if (!live) continue;
      if (n < 0) return Broken("negative shift count");  // ValueError
      if (left) {
        if (v == 0) continue;
        if (n > 126 || __builtin_mul_overflow(v, Num{1} << n, &v)) return Unsupported(kBig);
      } else {
        v = n > 126 ? (v < 0 ? -1 : 0) : v >> n;  // arithmetic: floors as Python does
      }
    }
    return v;
  }

  absl::StatusOr<Num> Sum(bool live) {
    NUM_OR_RETURN(v, Term(live));
    while (IsOp("+") || IsOp("-")) {
      const bool add = t_[p_++].text == "+";
      NUM_OR_RETURN(r, Term(live));
      if (!live) continue;
      if (add ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v)) return Unsupported(kBig);
    }
    return v;
  }

  absl::StatusOr<Num> Term(bool live) {
    NUM_OR_RETURN(v, Unary(live));
    while (IsOp("*") || IsOp("/") || IsOp("//") || IsOp("%")) {
      const std::string op = t_[p_++].text;
      NUM_OR_RETURN(r, Unary(live));
      if (!live) continue;
      if (op == "*") {
        if (__builtin_mul_overflow(v, r, &v)) return Unsupported(kBig);
        continue;
      }
      if (r == 0) return Broken("division by zero");
      if (op == "/") return Unsupported("true division '/'");
      if (r == -1) {  // the one quotient that can overflow (the minimum / -1)
        if (op == "%") {
          v = 0;
        } else if (__builtin_sub_overflow(Num{0}, v, &v)) {
          return Unsupported(kBig);
        }
        continue;
      }
      // C++ truncates; Python floors, the remainder taking the divisor's sign.
      Num q = v / r, m = v % r;
      if (m != 0 && ((m < 0) != (r < 0))) {
        --q;
        m += r;
      }
      v = op == "//" ? q : m;
    }
    return v;
  }

  absl::StatusOr<Num> Unary(bool live) {
    if (!IsOp("-") && !IsOp("+") && !IsOp("~")) return Power(live);
    const char op = t_[p_++].text[0];
    if (++chain_ > kMaxChain) return Unsupported("over 1000 unary operators in a row");
    NUM_OR_RETURN(v, Unary(live));
    if (op == '~') return ~v;
    if (op == '-' && __builtin_sub_overflow(Num{0}, v, &v)) return Unsupported(kBig);
    return v;
  }

  absl::StatusOr<Num> Power(bool live) {
    NUM_OR_RETURN(base, Primary(live));
    if (!IsOp("**")) return base;
    ++p_;
    NUM_OR_RETURN(e, Unary(live));  // right-associative, takes "-x" on its right
    if (!live) return 0;
    if (e < 0) {
      if (base == 0) return Broken("0.0 cannot be raised to a negative power");  // ZeroDivisionError
      return Unsupported("a negative exponent (a float)");
    }
    if (base == 0 || base == 1) return e == 0 ? 1 : base;
    if (base == -1) return e % 2 == 0 ? 1 : -1;
    Num v = 1;
    for (Num k = 0; k < e; ++k) {  // |base| >= 2 overflows within 127 steps
      if (__builtin_mul_overflow(v, base, &v)) return Unsupported(kBig);
    }
    return v;
  }

  // A name's value as Python would find it (only when evaluated).
  absl::StatusOr<Num> Lookup(const std::string& name) const {
    if (auto it = vars_.find(name); it != vars_.end()) {
      return it->second < 0 && IsU64Field(name) ? Num{it->second} + kU64Max + 1 : Num{it->second};
    }
    if (auto a = absent_.find(name); a != absent_.end()) return Unsupported(a->second);
    if (IsTcpInfoField(name)) return Unsupported(absl::StrFormat("%s is not modelled", name));
    if (IsPythonBuiltin(name)) return Unsupported(absl::StrFormat("the builtin '%s' as a value", name));
    return Broken(absl::StrFormat("name '%s' is not defined", name.substr(0, 40)));
  }

  absl::StatusOr<Num> Primary(bool live) {
    const Tok& t = t_[p_];
    if (t.kind == Tok::kName && !IsPythonKeyword(t.text) && t_[p_ + 1].kind == Tok::kOp && t_[p_ + 1].text == "(") {
      return Call(live);
    }
    return Atom(live);
  }

  // name(arg, ...): the function is looked up before the arguments run.
  absl::StatusOr<Num> Call(bool live) {
    const std::string name = t_[p_].text;
    p_ += 2;
    const bool ours = name == "abs" || name == "min" || name == "max" || name == "int";
    if (live && !ours) {
      if (IsPythonBuiltin(name)) return Unsupported(absl::StrFormat("the builtin %s()", name));
      absl::StatusOr<Num> v = Lookup(name);
      if (!v.ok()) return v.status();
      return Broken(absl::StrFormat("'int' object is not callable: %s(...)", name.substr(0, 40)));  // TypeError
    }
    std::vector<Num> args;
    while (!IsOp(")")) {
      NUM_OR_RETURN(a, Or(live));
      args.push_back(a);
      if (IsOp(",")) {
        ++p_;
      } else if (!IsOp(")")) {
        return Unexpected();
      }
    }
    ++p_;
    if (!live) return 0;
    // Python's TypeErrors for the wrong number of arguments.
    if (name == "abs") {
      if (args.size() != 1) return Broken(absl::StrFormat("abs() takes exactly one argument (%d given)", args.size()));
      if (args[0] < 0 && __builtin_sub_overflow(Num{0}, args[0], &args[0])) return Unsupported(kBig);
      return args[0];
    }
    if (name == "int") {
      if (args.size() > 1) return Broken("int() can't convert non-string with explicit base");
      return args.empty() ? 0 : args[0];
    }
    if (args.empty()) return Broken(absl::StrFormat("%s expected at least 1 argument, got 0", name));
    if (args.size() == 1) return Broken(absl::StrFormat("%s() of one integer: 'int' object is not iterable", name));
    Num v = args[0];
    for (Num a : args) v = name == "min" ? std::min(v, a) : std::max(v, a);
    return v;
  }

  absl::StatusOr<Num> Atom(bool live) {
    const Tok& t = t_[p_];
    if (t.kind == Tok::kInt) {
      ++p_;
      return t.num;
    }
    if (t.kind == Tok::kName) {
      if (t.text == "True" || t.text == "False") {
        ++p_;
        return Num{t.text == "True"};
      }
      if (IsPythonKeyword(t.text)) return Unexpected();
      ++p_;
      if (!live) return 0;
      return Lookup(t.text);
    }
    if (IsOp("(")) {
      ++p_;
      if (IsOp(")")) return Unsupported("a tuple");
      NUM_OR_RETURN(v, Or(live));
      if (IsOp(",")) return Unsupported("a tuple");
      if (!IsOp(")")) return Unexpected();
      ++p_;
      return v;
    }
    return Unexpected();
  }

  const std::vector<Tok>& t_;
  const std::map<std::string, int64_t>& vars_;
  const std::map<std::string, std::string>& absent_;
  size_t p_ = 0;
  static constexpr int kMaxNesting = 200;
  static constexpr int kMaxChain = 1000;
  int nesting_ = 0;  // Or() calls open now
  int chain_ = 0;    // unary operators met (never decreases: a bound, not a depth)
};

#undef NUM_OR_RETURN

// Whether `s` starts with the keyword or name `w` as a whole word.
bool StartsWithWord(std::string_view s, std::string_view w) {
  return s.substr(0, w.size()) == w &&
         (s.size() == w.size() || !(std::isalnum(static_cast<unsigned char>(s[w.size()])) || s[w.size()] == '_'));
}

struct Check {
  std::string cond;
  std::vector<Tok> toks;
};

// One statement: an assert to check (returned), or one without effect on the
// verdict (nullopt), or an error.
absl::StatusOr<std::optional<Check>> Statement(std::string_view stmt, const std::map<std::string, int64_t>& vars,
                                               const std::map<std::string, std::string>& absent) {
  if (stmt == "pass") return std::nullopt;
  if (StartsWithWord(stmt, "print")) {
    // print(...) only writes to stdout; its arguments are not evaluated here
    // (a NameError inside one goes unnoticed).
    std::string_view rest = TrimSpace(stmt.substr(5));
    if (IsOneParenGroup(rest)) return std::nullopt;
    if (!rest.empty() && (std::isalnum(static_cast<unsigned char>(rest[0])) || rest[0] == '_' || rest[0] == '"' ||
                          rest[0] == '\'')) {
      return Broken("Missing parentheses in call to 'print'");  // Python 2's print statement
    }
  }
  if (!StartsWithWord(stmt, "assert")) return Unsupported(absl::StrFormat("statement '%s'", stmt.substr(0, 40)));
  // assert <condition>[, <message>]: the message is evaluated only when the
  // assertion fails, and the runner reports the condition instead.
  // "assert c, a, b" is a SyntaxError: the message is one expression.
  std::vector<std::string_view> parts = SplitTopLevelCommas(stmt.substr(6));
  if (parts[0].empty()) return Broken("an assert without a condition");
  if (parts.size() > 2 || (parts.size() == 2 && parts[1].empty())) {
    return Broken(absl::StrFormat("invalid syntax: the message of '%s'", stmt.substr(0, 40)));
  }
  Check c{std::string(parts[0]), Tokenize(parts[0])};
  absl::StatusOr<bool> syntax = Eval(c.toks, vars, absent).Condition(/*live=*/false);
  if (!syntax.ok()) return syntax.status();
  return c;
}

}  // namespace

absl::StatusOr<std::optional<std::string>> EvalAssertBlock(std::string_view code,
                                                           const std::map<std::string, int64_t>& vars,
                                                           const std::map<std::string, std::string>& absent) {
  absl::StatusOr<std::vector<std::string>> stmts = PythonStatements(code);
  if (!stmts.ok()) return Broken(std::string(stmts.status().message()));
  if (stmts->empty()) return Unsupported("empty code block");
  // Python compiles the whole block before running it: a SyntaxError (or a
  // form we cannot judge) anywhere ends it before the first assert runs.
  std::vector<Check> checks;
  for (const std::string& s : *stmts) {
    absl::StatusOr<std::optional<Check>> c = Statement(s, vars, absent);
    if (!c.ok()) return c.status();
    if (*c) checks.push_back(**std::move(c));
  }
  for (const Check& c : checks) {
    absl::StatusOr<bool> r = Eval(c.toks, vars, absent).Condition(/*live=*/true);
    if (!r.ok()) return r.status();
    if (*r) continue;
    std::set<std::string> names;
    for (const Tok& t : c.toks) {
      if (t.kind == Tok::kName && vars.count(t.text)) names.insert(t.text);
    }
    std::string values;
    for (const std::string& name : names) {
      const int64_t v = vars.at(name);
      values += IsU64Field(name) ? absl::StrFormat(" %s=%d", name, static_cast<uint64_t>(v))
                                 : absl::StrFormat(" %s=%d", name, v);
    }
    return std::optional<std::string>(absl::StrFormat("assertion failed: %s (%s)", c.cond, TrimSpace(values)));
  }
  return std::optional<std::string>();
}

}  // namespace sendsim::packetdrill
