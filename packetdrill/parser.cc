#include "packetdrill/parser.h"

#include "scenario/text_util.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "packetdrill/icmp_names.h"
#include "packetdrill/lexer.h"

namespace sendsim::packetdrill {
namespace {

// System calls of upstream packetdrill's syscall table (names only).
constexpr std::string_view kKnownSyscalls[] = {
    "accept",     "bind",       "close",      "connect",     "epoll_create", "epoll_ctl", "epoll_wait",
    "fcntl",      "getsockopt", "ioctl",      "listen",      "open",         "pipe",      "poll",
    "read",       "readv",      "recv",       "recvfrom",    "recvmsg",      "send",      "sendfile",
    "sendmsg",    "sendto",     "setsockopt", "shutdown",    "socket",       "splice",    "write",
    "writev",     "getsockname", "getpeername", "socketpair", "accept4",     "usleep",    "mmap",
    "munmap",     "io_uring_setup", "io_uring_enter", "io_uring_register",
};

// Printable, single-line rendering of a token for error messages.
std::string Show(const Token& t) {
  if (t.kind == Tok::kEnd) return "end of file";
  std::string s;
  for (char c : t.text) {
    if (s.size() >= 24) {
      s += "...";
      break;
    }
    s += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  if (t.kind == Tok::kBacktick || t.kind == Tok::kCode) return std::string(TokName(t.kind));
  return absl::StrFormat("'%s'", s);
}

class Parser {
 public:
  Parser(std::string_view path, std::string_view src, std::vector<Token> toks)
      : path_(path), src_(src), toks_(std::move(toks)) {}

  absl::StatusOr<Script> Run() {
    Script s;
    s.path = std::string(path_);
    while (Cur().kind == Tok::kOption) {
      ScriptOption o;
      o.line = Cur().line;
      const std::string& text = Cur().text;
      size_t eq = text.find('=');
      o.name = text.substr(0, eq);
      if (eq != std::string::npos) o.value = text.substr(eq + 1);
      s.options.push_back(std::move(o));
      Next();
    }
    if (Cur().kind == Tok::kBacktick) {
      s.init_command = Cur().text;
      s.init_line = Cur().line;
      Next();
    }
    while (StartsTime()) {
      Event e;
      if (absl::Status st = ParseEvent(&e); !st.ok()) return st;
      s.events.push_back(std::move(e));
    }
    if (Cur().kind == Tok::kBacktick) {
      s.cleanup_command = Cur().text;
      s.cleanup_line = Cur().line;
      Next();
    }
    if (Cur().kind == Tok::kOption) return Err(Cur(), "--options must come before everything else");
    if (Cur().kind != Tok::kEnd) return Err(Cur(), absl::StrFormat("expected an event time, got %s", Show(Cur())));
    return s;
  }

 private:
  const Token& Cur() const { return toks_[pos_]; }
  const Token& Ahead(size_t n) const { return toks_[std::min(pos_ + n, toks_.size() - 1)]; }
  void Next() {
    if (pos_ + 1 < toks_.size()) ++pos_;
  }
  bool Is(Tok k) const { return Cur().kind == k; }
  bool IsWord(std::string_view w) const { return Cur().kind == Tok::kWord && Cur().text == w; }

  absl::Status Err(const Token& t, std::string_view msg) const {
    // At end of file, blame the line of the last real token.
    int line = t.kind == Tok::kEnd && toks_.size() > 1 ? toks_[toks_.size() - 2].line : t.line;
    return absl::InvalidArgumentError(absl::StrFormat("%s:%d: %s", path_, line, msg));
  }
  absl::Status Expect(Tok k, std::string_view what) {
    if (!Is(k)) return Err(Cur(), absl::StrFormat("expected %s, got %s", what, Show(Cur())));
    Next();
    return absl::OkStatus();
  }

  bool StartsTime() const { return Is(Tok::kStar) || Is(Tok::kPlus) || Is(Tok::kNumber); }

  // Seconds with up to 6 decimals -> microseconds; extra decimals truncate.
  absl::StatusOr<int64_t> TimeUsecs(const Token& t) const {
    const std::string& s = t.text;
    if (s.size() > 1 && (s[1] == 'x' || s[1] == 'X')) return Err(t, "time must be decimal seconds");
    size_t dot = s.find('.');
    std::string ip = s.substr(0, dot);
    std::string fp = dot == std::string::npos ? "" : s.substr(dot + 1);
    // Scripts last seconds; a bound keeps sums of relative times far from overflow.
    constexpr int64_t kMaxSeconds = 1000000;
    if (ip.size() > 9 || (!ip.empty() && std::stoll(ip) > kMaxSeconds)) {
      return Err(t, absl::StrFormat("time %s is out of range (at most %d s)", s, kMaxSeconds));
    }
    int64_t sec = ip.empty() ? 0 : std::stoll(ip);
    fp.resize(6, '0');
    return sec * 1000000 + std::stoll(fp);
  }

  absl::StatusOr<TimeSpec> ParseTime() {
    TimeSpec ts;
    if (Is(Tok::kStar)) {
      ts.kind = TimeKind::kAny;
      Next();
      return ts;
    }
    if (Is(Tok::kPlus)) {
      ts.kind = TimeKind::kRelative;
      Next();
    }
    if (!Is(Tok::kNumber)) return Err(Cur(), absl::StrFormat("expected a time, got %s", Show(Cur())));
    absl::StatusOr<int64_t> us = TimeUsecs(Cur());
    if (!us.ok()) return us.status();
    ts.usecs = *us;
    Next();
    return ts;
  }

  absl::StatusOr<uint64_t> Unsigned(const Token& t, uint64_t max, std::string_view what) const {
    if (t.kind != Tok::kNumber) return Err(t, absl::StrFormat("expected %s, got %s", what, Show(t)));
    const std::string& s = t.text;
    bool hex = s.size() > 2 && (s[1] == 'x' || s[1] == 'X');
    if (!hex && s.find('.') != std::string::npos) return Err(t, absl::StrFormat("%s must be an integer, got '%s'", what, scenario::EscapeForMessage(s)));
    uint64_t v = 0;
    for (size_t i = hex ? 2 : 0; i < s.size(); ++i) {
      unsigned d = std::isdigit(static_cast<unsigned char>(s[i])) ? s[i] - '0' : (std::tolower(s[i]) - 'a' + 10);
      unsigned base = hex ? 16 : 10;
      if (v > (max - d) / base) {
        return Err(t, absl::StrFormat("%s %s is out of range", what, scenario::EscapeForMessage(s)));
      }
      v = v * base + d;
    }
    return v;
  }

  absl::StatusOr<uint32_t> U32(std::string_view what) {
    absl::StatusOr<uint64_t> v = Unsigned(Cur(), std::numeric_limits<uint32_t>::max(), what);
    if (!v.ok()) return v.status();
    Next();
    return static_cast<uint32_t>(*v);
  }

  absl::Status ParseEvent(Event* e) {
    e->line = Cur().line;
    absl::StatusOr<TimeSpec> start = ParseTime();
    if (!start.ok()) return start.status();
    e->timing.start = *start;
    if (Is(Tok::kTilde) || Is(Tok::kEllipsis)) {
      bool range = Is(Tok::kTilde);
      if (start->kind == TimeKind::kAny) return Err(Cur(), "'*' cannot start a time range");
      Next();
      absl::StatusOr<TimeSpec> end = ParseTime();
      if (!end.ok()) return end.status();
      if (end->kind == TimeKind::kAny) return Err(Cur(), "'*' cannot end a time range");
      // Comparable when both count from the same origin: two absolute times;
      // "+a~+b" (both from the previous event, as upstream's
      // adjust_relative_event_times offsets them); "+a...b" (the end gets
      // the start's offset). A "+b" after "..." counts from the start.
      const bool same_origin = range ? end->kind == start->kind : end->kind == TimeKind::kAbsolute;
      if (same_origin && end->usecs < start->usecs) return Err(Cur(), "time range ends before it starts");
      (range ? e->timing.range_end : e->timing.block_end) = *end;
    }
    if (Is(Tok::kLess) || Is(Tok::kGreater)) {
      PacketEvent p;
      if (absl::Status st = ParsePacket(&p); !st.ok()) return st;
      e->body = std::move(p);
    } else if (Is(Tok::kBacktick)) {
      e->body = CommandEvent{Cur().text};
      Next();
    } else if (Is(Tok::kCode)) {
      e->body = CodeEvent{Cur().text};
      Next();
    } else if (Is(Tok::kWord) && Ahead(1).kind == Tok::kLParen) {
      SyscallEvent sc;
      if (absl::Status st = ParseSyscall(&sc); !st.ok()) return st;
      e->body = std::move(sc);
    } else {
      return Err(Cur(), absl::StrFormat("expected a packet, system call, `command` or %%{ code }%%, got %s", Show(Cur())));
    }
    if (e->timing.block_end && !std::holds_alternative<SyscallEvent>(e->body)) {
      return Err(toks_[pos_ > 0 ? pos_ - 1 : 0], "only system calls can block ('...')");
    }
    return absl::OkStatus();
  }

  // Skips the rest of the current source line (for recognised but
  // unsupported packet kinds).
  std::string RestOfLine() {
    int line = Cur().line;
    size_t b = Cur().offset;
    size_t e = b;
    while (!Is(Tok::kEnd) && Cur().line == line) {
      e = Cur().end;
      Next();
    }
    return std::string(src_.substr(b, e - b));
  }

  absl::Status ParsePacket(PacketEvent* p) {
    p->inbound = Is(Tok::kLess);
    Next();
    if (Is(Tok::kLBracket)) {
      if (absl::Status st = ParseEcnMarking(p); !st.ok()) return st;
    }
    if (IsWord("icmp")) return ParseIcmp(p);
    if (IsWord("udp") || IsWord("udplite") || IsWord("gre") || IsWord("mpls") || Is(Tok::kLParen)) {
      std::string what = Is(Tok::kLParen) ? "IP header fields" : Cur().text + " packets";
      std::string rest = RestOfLine();
      p->unsupported = absl::StrFormat("%s are not modelled", what);
      return absl::OkStatus();
    }
    if (absl::Status st = ParseTcpFlags(p); !st.ok()) return st;
    const Token& seq_tok = Cur();
    if (absl::Status st = ParseSequenceRange(p); !st.ok()) return st;
    if (absl::Status st = ParseAckWinUrgOptions(p); !st.ok()) return st;
    if (p->ack && !(p->flags & kFlagAck)) return Err(seq_tok, "'ack' given but the ACK flag '.' is not set");
    if (p->inbound && !p->win) return Err(seq_tok, "inbound packet needs a window ('win N')");
    return absl::OkStatus();
  }

  // "icmp TYPE [CODE] [mtu N] [[start:end(len)] | [udp (len)]]", upstream's
  // icmp_packet_spec. Names are checked here (icmp_names.h); which forms
  // run is the runner's choice.
  absl::Status ParseIcmp(PacketEvent* p) {
    const Token& icmp_tok = Cur();
    Next();
    IcmpMessage m;
    if (!Is(Tok::kWord)) return Err(Cur(), absl::StrFormat("expected an ICMP type after 'icmp', got %s", Show(Cur())));
    m.type = Cur().text;
    if (!IsIcmpTypeName(m.type)) return Err(Cur(), absl::StrFormat("unknown ICMP type %s", Show(Cur())));
    Next();
    if (Is(Tok::kWord) && !IsWord("mtu")) {
      m.code = Cur().text;
      if (m.type == "unreachable" && !IcmpV4UnreachCode(m.code)) {
        return Err(Cur(), absl::StrFormat("unknown ICMP unreachable code %s", Show(Cur())));
      }
      Next();
    }
    if (IsWord("mtu")) {
      Next();
      const Token& mtu_tok = Cur();
      absl::StatusOr<uint32_t> mtu = U32("ICMP mtu");
      if (!mtu.ok()) return mtu.status();
      const uint32_t max = m.type == "packet_too_big" ? std::numeric_limits<uint32_t>::max() : 65535;
      if (*mtu > max) return Err(mtu_tok, absl::StrFormat("ICMP mtu %u does not fit the 16-bit field", *mtu));
      m.mtu = *mtu;
    }
    const bool takes_mtu = m.code == "frag_needed" || m.type == "packet_too_big";
    if (m.mtu && !takes_mtu) return Err(icmp_tok, "'mtu N' belongs to frag_needed or packet_too_big only");
    if (takes_mtu && !m.mtu) return Err(icmp_tok, absl::StrFormat("icmp %s needs 'mtu N'", m.code.empty() ? m.type : m.code));
    if (Is(Tok::kLBracket)) {
      Next();
      if (IsWord("udp") || IsWord("udplite") || IsWord("sctp")) {
        m.quoted_other = Cur().text;
        Next();
        if (absl::Status st = Expect(Tok::kLParen, "'(' in the quoted datagram"); !st.ok()) return st;
        if (absl::StatusOr<uint32_t> len = U32("quoted payload length"); !len.ok()) return len.status();
        if (absl::Status st = Expect(Tok::kRParen, "')' in the quoted datagram"); !st.ok()) return st;
      } else {
        PacketEvent quoted;
        if (absl::Status st = ParseSequenceRange(&quoted); !st.ok()) return st;
        m.quotes_tcp = true;
        m.seq_start = quoted.seq_start;
        m.seq_end = quoted.seq_end;
        m.len = quoted.len;
      }
      if (absl::Status st = Expect(Tok::kRBracket, "']' after the quoted segment"); !st.ok()) return st;
    }
    p->icmp = std::move(m);
    return absl::OkStatus();
  }

  // "[ect0]" before the flags.
  absl::Status ParseEcnMarking(PacketEvent* p) {
    Next();
    if (!Is(Tok::kWord)) return Err(Cur(), absl::StrFormat("expected an ECN marking, got %s", Show(Cur())));
    p->ecn = Cur().text;
    Next();
    if (absl::Status st = Expect(Tok::kRBracket, "']'"); !st.ok()) return st;
    if (p->ecn != "noecn" && p->ecn != "ect0" && p->ecn != "ect1" && p->ecn != "ce" && p->ecn != "ect01") {
      return Err(Cur(), absl::StrFormat("unknown ECN marking [%s]", p->ecn));
    }
    return absl::OkStatus();
  }

  // Flags: adjacent word/dot/minus tokens, e.g. "S", "S.", "P.", ".", "FP.", "-".
  absl::Status ParseTcpFlags(PacketEvent* p) {
    const Token& first = Cur();
    while ((Is(Tok::kWord) || Is(Tok::kDot) || Is(Tok::kMinus)) && (p->flags_text.empty() || !Cur().space_before)) {
      p->flags_text += Cur().text;
      Next();
    }
    if (p->flags_text.empty()) return Err(first, absl::StrFormat("expected TCP flags, got %s", Show(first)));
    for (char c : p->flags_text) {
      switch (c) {
        case 'S': p->flags |= kFlagSyn; break;
        case 'F': p->flags |= kFlagFin; break;
        case 'R': p->flags |= kFlagRst; break;
        case 'P': p->flags |= kFlagPsh; break;
        case 'U': p->flags |= kFlagUrg; break;
        case 'E': p->flags |= kFlagEce; break;
        case 'W': p->flags |= kFlagCwr; break;
        case '.': p->flags |= kFlagAck; break;
        case '-': break;
        default:
          return Err(first, absl::StrFormat("bad TCP flags '%s' (allowed: SFRPUEW. and -)", p->flags_text));
      }
    }
    return absl::OkStatus();
  }

  // "start:end(len)".
  absl::Status ParseSequenceRange(PacketEvent* p) {
    const Token& seq_tok = Cur();
    absl::StatusOr<uint32_t> a = U32("start sequence number");
    if (!a.ok()) return a.status();
    if (absl::Status st = Expect(Tok::kColon, "':' in seq:end(len)"); !st.ok()) return st;
    absl::StatusOr<uint32_t> b = U32("end sequence number");
    if (!b.ok()) return b.status();
    if (absl::Status st = Expect(Tok::kLParen, "'(' in seq:end(len)"); !st.ok()) return st;
    absl::StatusOr<uint32_t> len = U32("payload length");
    if (!len.ok()) return len.status();
    if (absl::Status st = Expect(Tok::kRParen, "')' in seq:end(len)"); !st.ok()) return st;
    if (static_cast<uint32_t>(*b - *a) != *len) {
      return Err(seq_tok, absl::StrFormat("impossible sequence range %u:%u(%u): end - start != length", *a, *b, *len));
    }
    if (*len > 65535 * 16) return Err(seq_tok, absl::StrFormat("payload length %u is too large", *len));
    p->seq_start = *a;
    p->seq_end = *b;
    p->len = *len;
    return absl::OkStatus();
  }

  // "ack N", "win N", "urg N" and "<options>", in any order, each once.
  absl::Status ParseAckWinUrgOptions(PacketEvent* p) {
    while (true) {
      if (IsWord("ack") || IsWord("win") || IsWord("urg")) {
        std::string kw = Cur().text;
        if ((kw == "ack" && p->ack) || (kw == "win" && p->win) || (kw == "urg" && p->urg)) {
          return Err(Cur(), absl::StrFormat("duplicate '%s'", kw));
        }
        Next();
        const Token& vt = Cur();
        absl::StatusOr<uint32_t> v = U32(kw == "ack" ? "ack number" : kw == "win" ? "window" : "urgent pointer");
        if (!v.ok()) return v.status();
        if (kw != "ack" && *v > 65535) return Err(vt, absl::StrFormat("%s %u does not fit the 16-bit field", kw, *v));
        (kw == "ack" ? p->ack : kw == "win" ? p->win : p->urg) = *v;
      } else if (Is(Tok::kLess)) {
        if (p->options_given) return Err(Cur(), "duplicate TCP option list");
        if (absl::Status st = ParseOptions(p); !st.ok()) return st;
      } else {
        return absl::OkStatus();
      }
    }
  }

  // "md5 <32 hex digits>": the digest lexes as adjacent number and word
  // tokens (000102...0a0b...), taken whole when they spell exactly 16 bytes;
  // any other form is left to the caller's not-modelled path.
  bool TakeMd5Digest(std::array<uint8_t, 16>* out) {
    std::string hex;
    size_t n = 0;
    while (true) {
      const Token& t = Ahead(n);
      if (t.kind != Tok::kNumber && t.kind != Tok::kWord) break;
      if (n > 0 && t.space_before) break;
      hex += t.text;
      ++n;
    }
    if (hex.size() != 32 || !std::all_of(hex.begin(), hex.end(), absl::ascii_isxdigit)) return false;
    const std::string bytes = absl::HexStringToBytes(hex);
    std::copy(bytes.begin(), bytes.end(), out->begin());
    for (size_t i = 0; i < n; ++i) Next();
    return true;
  }

  absl::Status ParseOptions(PacketEvent* p) {
    p->options_given = true;
    Next();  // '<'
    if (Is(Tok::kEllipsis)) {
      p->options_any = true;
      Next();
      return Expect(Tok::kGreater, "'>' after '<...'");
    }
    while (true) {
      TcpOption o;
      const Token& t = Cur();
      if (!Is(Tok::kWord)) return Err(t, absl::StrFormat("expected a TCP option, got %s", Show(t)));
      std::string name = t.text;
      Next();
      if (name == "nop") {
        o.kind = TcpOption::Kind::kNop;
      } else if (name == "eol") {
        o.kind = TcpOption::Kind::kEol;
      } else if (name == "sackOK") {
        o.kind = TcpOption::Kind::kSackOk;
      } else if (name == "mss" || name == "wscale") {
        o.kind = name == "mss" ? TcpOption::Kind::kMss : TcpOption::Kind::kWscale;
        absl::StatusOr<uint64_t> v = Unsigned(Cur(), name == "mss" ? 65535 : 255, name);
        if (!v.ok()) return v.status();
        Next();
        o.value = static_cast<uint32_t>(*v);
      } else if (name == "TS") {
        o.kind = TcpOption::Kind::kTimestamp;
        if (!IsWord("val")) return Err(Cur(), absl::StrFormat("expected 'val' in TS option, got %s", Show(Cur())));
        Next();
        absl::StatusOr<uint32_t> v = U32("TS val");
        if (!v.ok()) return v.status();
        if (!IsWord("ecr")) return Err(Cur(), absl::StrFormat("expected 'ecr' in TS option, got %s", Show(Cur())));
        Next();
        absl::StatusOr<uint32_t> e = U32("TS ecr");
        if (!e.ok()) return e.status();
        o.ts_val = *v;
        o.ts_ecr = *e;
      } else if (name == "sack") {
        o.kind = TcpOption::Kind::kSack;
        while (Is(Tok::kNumber)) {
          absl::StatusOr<uint32_t> a = U32("SACK block start");
          if (!a.ok()) return a.status();
          if (absl::Status st = Expect(Tok::kColon, "':' in SACK block"); !st.ok()) return st;
          absl::StatusOr<uint32_t> b = U32("SACK block end");
          if (!b.ok()) return b.status();
          o.sack.emplace_back(*a, *b);
        }
        if (o.sack.empty()) return Err(Cur(), "SACK option needs at least one block a:b");
      } else if (name == "md5" && TakeMd5Digest(&o.md5)) {
        o.kind = TcpOption::Kind::kMd5;
        // Our side holds no TCP_MD5SIG key, so it never signs a segment.
        if (!p->inbound && p->unsupported.empty()) {
          p->unsupported = "an MD5 option on an outbound packet (TCP_MD5SIG keys) is not modelled";
        }
      } else {
        // Fast Open cookies, other MD5 forms, experimental options...: recognised as
        // options but not modelled. Consume up to the next ',' or '>'.
        o.kind = TcpOption::Kind::kUnsupported;
        o.text = name;
        int depth = 0;
        while (!Is(Tok::kEnd) && (depth > 0 || (!Is(Tok::kComma) && !Is(Tok::kGreater)))) {
          if (Is(Tok::kLess)) ++depth;
          if (Is(Tok::kGreater)) --depth;
          Next();
        }
        if (p->unsupported.empty()) p->unsupported = absl::StrFormat("TCP option '%s' is not modelled", name);
      }
      p->options.push_back(std::move(o));
      if (Is(Tok::kComma)) {
        Next();
        continue;
      }
      return Expect(Tok::kGreater, "',' or '>' in TCP option list");
    }
  }

  absl::Status ParseSyscall(SyscallEvent* sc) {
    const Token& name = Cur();
    sc->name = name.text;
    if (!IsKnownSyscall(sc->name)) return Err(name, absl::StrFormat("unknown system call '%s'", sc->name));
    Next();
    Next();  // '('
    if (!Is(Tok::kRParen)) {
      while (true) {
        Expr e;
        if (absl::Status st = ParseExpr(&e, 0); !st.ok()) return st;
        sc->args.push_back(std::move(e));
        if (Is(Tok::kComma)) {
          Next();
          continue;
        }
        break;
      }
    }
    if (absl::Status st = Expect(Tok::kRParen, "',' or ')' after system call argument"); !st.ok()) return st;
    if (absl::Status st = Expect(Tok::kEquals, "'= result' after system call"); !st.ok()) return st;
    if (Is(Tok::kEllipsis)) {
      sc->ret_any = true;
      Next();
      return absl::OkStatus();
    }
    bool neg = false;
    if (Is(Tok::kMinus)) {
      neg = true;
      Next();
    }
    absl::StatusOr<uint64_t> v = Unsigned(Cur(), std::numeric_limits<int64_t>::max(), "system call result");
    if (!v.ok()) return v.status();
    Next();
    sc->ret = neg ? -static_cast<int64_t>(*v) : static_cast<int64_t>(*v);
    // The errno name, also with its text glued on: "-1 ECONNRESET(Connection
    // reset by peer)", as upstream's scripts write it.
    if (Is(Tok::kWord)) {
      sc->errno_name = Cur().text;
      Next();
    }
    if (Is(Tok::kLParen)) {
      const Token& open = Cur();
      int depth = 0;
      size_t b = Cur().end;
      size_t e = b;
      do {
        if (Is(Tok::kLParen)) ++depth;
        if (Is(Tok::kRParen)) --depth;
        e = Cur().offset;
        if (Is(Tok::kEnd)) return Err(open, "unterminated '(' after system call result");
        Next();
      } while (depth > 0);
      sc->note = std::string(src_.substr(b, e - b));
    }
    if (!sc->errno_name.empty() && sc->ret >= 0) {
      return Err(name, absl::StrFormat("errno %s given for a non-negative result", sc->errno_name));
    }
    return absl::OkStatus();
  }

  absl::Status ParseExpr(Expr* out, int depth) {
    if (depth > 64) return Err(Cur(), "expression nested too deeply");
    Expr first;
    if (absl::Status st = ParsePrimary(&first, depth); !st.ok()) return st;
    if (!Is(Tok::kPipe)) {
      *out = std::move(first);
      return absl::OkStatus();
    }
    out->kind = Expr::Kind::kOr;
    out->children.push_back(std::move(first));
    while (Is(Tok::kPipe)) {
      Next();
      Expr e;
      if (absl::Status st = ParsePrimary(&e, depth); !st.ok()) return st;
      out->children.push_back(std::move(e));
    }
    return absl::OkStatus();
  }

  absl::Status ParseList(Tok close, std::string_view what, std::vector<Expr>* out, int depth) {
    Next();  // opener
    if (Is(close)) {
      Next();
      return absl::OkStatus();
    }
    while (true) {
      Expr e;
      if (absl::Status st = ParseExpr(&e, depth + 1); !st.ok()) return st;
      out->push_back(std::move(e));
      if (Is(Tok::kComma)) {
        Next();
        continue;
      }
      return Expect(close, what);
    }
  }

  absl::Status ParsePrimary(Expr* e, int depth) {
    const Token& t = Cur();
    switch (t.kind) {
      case Tok::kMinus:
      case Tok::kNumber: {
        bool neg = Is(Tok::kMinus);
        if (neg) Next();
        absl::StatusOr<uint64_t> v = Unsigned(Cur(), std::numeric_limits<int64_t>::max(), "integer");
        if (!v.ok()) return v.status();
        Next();
        e->kind = Expr::Kind::kInt;
        e->num = neg ? -static_cast<int64_t>(*v) : static_cast<int64_t>(*v);
        return absl::OkStatus();
      }
      case Tok::kString:
        e->kind = Expr::Kind::kString;
        e->text = t.text;
        Next();
        return absl::OkStatus();
      case Tok::kEllipsis:
        e->kind = Expr::Kind::kEllipsis;
        Next();
        return absl::OkStatus();
      case Tok::kLBracket:
        e->kind = Expr::Kind::kArray;
        return ParseList(Tok::kRBracket, "',' or ']'", &e->children, depth);
      case Tok::kLBrace:
        e->kind = Expr::Kind::kStruct;
        return ParseList(Tok::kRBrace, "',' or '}'", &e->children, depth);
      case Tok::kWord: {
        e->text = t.text;
        Next();
        std::vector<Expr> args;
        bool call = false;
        if (Is(Tok::kLParen)) {
          call = true;
          if (absl::Status st = ParseList(Tok::kRParen, "',' or ')'", &args, depth); !st.ok()) return st;
        }
        if (Is(Tok::kEquals)) {
          Next();
          e->kind = Expr::Kind::kField;
          if (call) {
            if (args.size() != 1) return Err(t, absl::StrFormat("field %s(...) takes one index", e->text));
            e->children.push_back(std::move(args[0]));
          }
          Expr v;
          if (absl::Status st = ParseExpr(&v, depth + 1); !st.ok()) return st;
          e->children.push_back(std::move(v));
          return absl::OkStatus();
        }
        if (call) {
          e->kind = Expr::Kind::kCall;
          e->children = std::move(args);
        } else {
          e->kind = Expr::Kind::kWord;
        }
        return absl::OkStatus();
      }
      default:
        return Err(t, absl::StrFormat("expected a system call argument, got %s", Show(t)));
    }
  }

  std::string_view path_;
  std::string_view src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
};

}  // namespace

bool IsKnownSyscall(std::string_view name) {
  for (std::string_view k : kKnownSyscalls) {
    if (k == name) return true;
  }
  return false;
}

absl::StatusOr<Script> ParseScript(std::string_view path, std::string_view src) {
  absl::StatusOr<std::vector<Token>> toks = Lex(path, src);
  if (!toks.ok()) return toks.status();
  return Parser(path, src, *std::move(toks)).Run();
}

absl::StatusOr<Script> ParseScriptFile(const std::string& path) {
  // Capped: a script is a few KiB; /dev/zero or a huge file must not
  // exhaust memory.
  constexpr uint64_t kMaxScriptBytes = 1 << 20;
  absl::StatusOr<std::string> text = scenario::ReadFileCapped(path, kMaxScriptBytes, "script");
  if (!text.ok()) return text.status();  // "script PATH: cannot open file (...)"
  return ParseScript(path, *text);
}

}  // namespace sendsim::packetdrill
