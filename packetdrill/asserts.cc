#include "packetdrill/asserts.h"

#include <cctype>
#include <vector>

#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

// Python's integers are unbounded; the subset computes in 128 bits, enough
// for tcp_info's u64 fields (an unlimited pacing rate is 2**64 - 1).
using Num = __int128;
constexpr Num kU64Max = (Num{1} << 64) - 1;

struct Tok {
  enum Kind { kInt, kName, kOp, kEnd } kind;
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

// Python itself would reject it (a SyntaxError, ZeroDivisionError or
// NameError ends upstream's script): a FAIL, never a SKIP, so a typo cannot
// turn a check into a pass.
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

absl::StatusOr<std::vector<Tok>> Tokenize(std::string_view s) {
  std::vector<Tok> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t b = i;
      while (i < s.size() && std::isalnum(static_cast<unsigned char>(s[i]))) ++i;
      std::string t(s.substr(b, i - b));
      Num v = 0;
      bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
      for (size_t k = hex ? 2 : 0; k < t.size(); ++k) {
        int d = std::isdigit(static_cast<unsigned char>(t[k])) ? t[k] - '0'
                : hex && std::isxdigit(static_cast<unsigned char>(t[k])) ? std::tolower(t[k]) - 'a' + 10
                                                                          : -1;
        if (d < 0 || v > (kU64Max - d) / (hex ? 16 : 10)) return Broken(absl::StrFormat("number '%s'", t.substr(0, 40)));
        v = v * (hex ? 16 : 10) + d;
      }
      out.push_back({Tok::kInt, t, v});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t b = i;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      out.push_back({Tok::kName, std::string(s.substr(b, i - b))});
    } else {
      static const char* kOps[] = {"==", "!=", "<=", ">=", "//", "<", ">", "+", "-", "*", "/", "%", "(", ")"};
      bool found = false;
      for (const char* op : kOps) {
        std::string_view o(op);
        if (s.substr(i, o.size()) == o) {
          out.push_back({Tok::kOp, std::string(o)});
          i += o.size();
          found = true;
          break;
        }
      }
      if (!found) return Unsupported(absl::StrFormat("character '%c'", c));
    }
  }
  out.push_back({Tok::kEnd, ""});
  return out;
}

// Valid Python this subset does not evaluate (a SKIP, not a typo).
bool IsPythonKeyword(std::string_view n) {
  for (std::string_view k : {"or", "not", "in", "is", "if", "else", "lambda"}) {
    if (n == k) return true;
  }
  return false;
}

class Eval {
 public:
  Eval(std::vector<Tok> toks, const std::map<std::string, int64_t>& vars, const std::map<std::string, std::string>& absent)
      : t_(std::move(toks)), vars_(vars), absent_(absent) {}

  // Returns the truth value of the whole condition.
  absl::StatusOr<bool> Condition() {
    bool all = true;
    while (true) {
      absl::StatusOr<bool> c = Comparison();
      if (!c.ok()) return c;
      all = all && *c;
      if (t_[p_].kind == Tok::kName && t_[p_].text == "and") {
        ++p_;
        continue;
      }
      break;
    }
    if (t_[p_].kind == Tok::kName && IsPythonKeyword(t_[p_].text)) {
      return Unsupported(absl::StrFormat("'%s'", t_[p_].text));
    }
    if (t_[p_].kind != Tok::kEnd) return Broken(absl::StrFormat("unexpected '%s'", t_[p_].text.substr(0, 40)));
    return all;
  }

 private:
  static bool IsRel(const Tok& t) {
    return t.kind == Tok::kOp && (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" ||
                                  t.text == ">" || t.text == ">=");
  }

  absl::StatusOr<bool> Comparison() {
    absl::StatusOr<Num> left = Arith();
    if (!left.ok()) return left.status();
    if (!IsRel(t_[p_])) return Unsupported("a condition that is not a comparison");
    bool ok = true;
    while (IsRel(t_[p_])) {
      std::string op = t_[p_++].text;
      absl::StatusOr<Num> right = Arith();
      if (!right.ok()) return right.status();
      bool r = op == "==" ? *left == *right
               : op == "!=" ? *left != *right
               : op == "<"  ? *left < *right
               : op == "<=" ? *left <= *right
               : op == ">"  ? *left > *right
                            : *left >= *right;
      ok = ok && r;
      left = right;
    }
    return ok;
  }

  absl::StatusOr<Num> Arith() {
    absl::StatusOr<Num> v = Term();
    while (v.ok() && t_[p_].kind == Tok::kOp && (t_[p_].text == "+" || t_[p_].text == "-")) {
      bool add = t_[p_++].text == "+";
      absl::StatusOr<Num> r = Term();
      if (!r.ok()) return r;
      Num out;
      if (add ? __builtin_add_overflow(*v, *r, &out) : __builtin_sub_overflow(*v, *r, &out)) {
        return Unsupported("integers beyond 128 bits");
      }
      v = out;
    }
    return v;
  }

  absl::StatusOr<Num> Term() {
    absl::StatusOr<Num> v = Factor();
    while (v.ok() && t_[p_].kind == Tok::kOp &&
           (t_[p_].text == "*" || t_[p_].text == "/" || t_[p_].text == "//" || t_[p_].text == "%")) {
      std::string op = t_[p_++].text;
      absl::StatusOr<Num> r = Factor();
      if (!r.ok()) return r;
      if (op == "*") {
        Num out;
        if (__builtin_mul_overflow(*v, *r, &out)) return Unsupported("integers beyond 128 bits");
        v = out;
      } else {
        if (*r == 0) return Broken("division by zero");
        if (op == "/") return Unsupported("true division '/'");
        // Python floors; operands here are non-negative counters in practice.
        Num q = *v / *r, m = *v % *r;
        if (m != 0 && ((m < 0) != (*r < 0))) {
          --q;
          m += *r;
        }
        v = op == "//" ? q : m;
      }
    }
    return v;
  }

  absl::StatusOr<Num> Factor() {
    const Tok& t = t_[p_];
    if (t.kind == Tok::kInt) {
      ++p_;
      return t.num;
    }
    if (t.kind == Tok::kName) {
      ++p_;
      auto it = vars_.find(t.text);
      if (it != vars_.end()) return it->second < 0 && IsU64Field(t.text) ? Num{it->second} + kU64Max + 1 : Num{it->second};
      if (auto a = absent_.find(t.text); a != absent_.end())
        return Unsupported(a->second);
      if (IsTcpInfoField(t.text)) return Unsupported(absl::StrFormat("%s is not modelled", t.text));
      return Broken(absl::StrFormat("name '%s' is not defined", t.text.substr(0, 40)));
    }
    if (t.kind == Tok::kOp && t.text == "(") {
      ++p_;
      absl::StatusOr<Num> v = Arith();
      if (!v.ok()) return v;
      if (!(t_[p_].kind == Tok::kOp && t_[p_].text == ")")) return Broken("unbalanced parentheses");
      ++p_;
      return v;
    }
    if (t.kind == Tok::kOp && t.text == "-") {
      ++p_;
      absl::StatusOr<Num> v = Factor();
      if (!v.ok()) return v;
      return -*v;
    }
    if (t.kind == Tok::kEnd) return Broken("an operand is missing");
    return Broken(absl::StrFormat("unexpected '%s'", t.text.substr(0, 40)));
  }

  std::vector<Tok> t_;
  const std::map<std::string, int64_t>& vars_;
  const std::map<std::string, std::string>& absent_;
  size_t p_ = 0;
};

// The condition part of "assert cond, message": up to the first top-level comma.
std::string_view ConditionOf(std::string_view s) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      return s.substr(0, i);
    }
  }
  return s;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

absl::StatusOr<std::optional<std::string>> EvalAssertBlock(std::string_view code,
                                                           const std::map<std::string, int64_t>& vars,
                                                           const std::map<std::string, std::string>& absent) {
  size_t start = 0;
  bool any = false;
  while (start <= code.size()) {
    size_t nl = code.find('\n', start);
    std::string_view line = Trim(code.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    start = nl == std::string_view::npos ? code.size() + 1 : nl + 1;
    if (line.empty() || line[0] == '#') continue;
    if (line.substr(0, 7) != "assert " && line.substr(0, 7) != "assert(") {
      return Unsupported(absl::StrFormat("statement '%s'", line.substr(0, 40)));
    }
    std::string_view cond = Trim(ConditionOf(line.substr(6)));
    absl::StatusOr<std::vector<Tok>> toks = Tokenize(cond);
    if (!toks.ok()) return toks.status();
    Eval e(*std::move(toks), vars, absent);
    absl::StatusOr<bool> r = e.Condition();
    if (!r.ok()) return r.status();
    any = true;
    if (!*r) {
      std::string values;
      for (const auto& [name, v] : vars) {
        if (cond.find(name) == std::string_view::npos) continue;
        values += IsU64Field(name) ? absl::StrFormat(" %s=%d", name, static_cast<uint64_t>(v))
                                   : absl::StrFormat(" %s=%d", name, v);
      }
      return std::optional<std::string>(absl::StrFormat("assertion failed: %s (%s)", cond, Trim(values)));
    }
  }
  if (!any) return Unsupported("empty code block");
  return std::optional<std::string>();
}

}  // namespace sendsim::packetdrill
