#include "packetdrill/outbound.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

std::string FlagsText(uint8_t f) {
  std::string s;
  if (f & kFlagSyn) s += 'S';
  if (f & kFlagFin) s += 'F';
  if (f & kFlagRst) s += 'R';
  if (f & kFlagPsh) s += 'P';
  if (f & kFlagUrg) s += 'U';
  if (f & kFlagEce) s += 'E';
  if (f & kFlagCwr) s += 'W';
  if (f & kFlagAck) s += '.';
  return s.empty() ? "-" : s;
}

// Options match kind by kind; TS val is not checked (it is the sender's clock).
bool OptionsMatch(const std::vector<TcpOption>& want, const std::vector<TcpOption>& got) {
  if (want.size() != got.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    const TcpOption& w = want[i];
    const TcpOption& g = got[i];
    if (w.kind != g.kind) return false;
    switch (w.kind) {
      case TcpOption::Kind::kMss:
      case TcpOption::Kind::kWscale:
        if (w.value != g.value) return false;
        break;
      case TcpOption::Kind::kTimestamp:
        if (w.ts_ecr != g.ts_ecr) return false;
        break;
      case TcpOption::Kind::kSack:
        if (w.sack != g.sack) return false;
        break;
      default: break;  // md5: an outbound line naming it SKIPs before matching
    }
  }
  return true;
}

// Whether the ECN field matches the line's marking (none: not checked).
bool EcnMatches(const std::string& marking, uint8_t ecn) {
  if (marking.empty()) return true;
  if (marking == "ect01") return ecn == kEcnEct0 || ecn == kEcnEct1;
  return InboundEcn(marking) == ecn;
}

std::string EcnText(uint8_t ecn) {
  static constexpr const char* kNames[] = {"noecn", "ect1", "ect0", "ce"};
  return kNames[ecn & 3];
}

}  // namespace

std::optional<uint8_t> InboundEcn(const std::string& marking) {
  if (marking.empty() || marking == "noecn") return kEcnNotEct;
  if (marking == "ect1") return kEcnEct1;
  if (marking == "ect0") return kEcnEct0;
  if (marking == "ce") return kEcnCe;
  return std::nullopt;
}

int64_t ToleranceNs(const MatchRules& rules, int64_t gap_ns) {
  const int64_t fixed = rules.tolerance_usecs * 1000;
  const double share = static_cast<double>(std::max<int64_t>(gap_ns, 0)) * rules.tolerance_percent / 100.0;
  return std::max<int64_t>(fixed, static_cast<int64_t>(share));
}

absl::Status ApplyMatchOptions(const Script& script, MatchRules* rules) {
  for (const ScriptOption& o : script.options) {
    if (o.name == "tolerance_usecs") {
      int64_t v = -1;
      if (!o.value || !absl::SimpleAtoi(*o.value, &v) || v < 0 || v > 3600LL * 1000000) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s:%d: --tolerance_usecs needs a whole number of microseconds, 0 to 3600000000",
                            script.path, o.line));
      }
      rules->tolerance_usecs = v;
    } else if (o.name == "tolerance_percent") {
      double v = -1;
      if (!o.value || !absl::SimpleAtod(*o.value, &v) || !std::isfinite(v) || v < 0 || v > 100) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s:%d: --tolerance_percent needs a number from 0 to 100", script.path, o.line));
      }
      rules->tolerance_percent = v;
    } else if (o.name == "strict_segments") {
      rules->strict_segments = !o.value || *o.value != "false";
    }
  }
  return absl::OkStatus();
}

bool JoinsGroup(const MatchRules& rules, const std::vector<Capture>& group, const Capture& next, uint32_t want) {
  if (rules.strict_segments || next.flow != group.front().flow) return false;
  uint64_t total = 0;
  for (const Capture& c : group) total += c.len;
  return total < want;
}

Capture JoinCaptures(const std::vector<Capture>& group) {
  Capture j = group.back();
  j.seq = group.front().seq;
  j.flags = static_cast<uint8_t>((group.back().flags & ~kFlagCwr) | (group.front().flags & kFlagCwr));
  j.len = 0;
  for (const Capture& c : group) j.len += c.len;
  return j;
}

std::string OutboundDifference(const PacketEvent& p, const std::vector<Capture>& group, const Capture& joined) {
  for (size_t i = 1; i + 1 < group.size(); ++i) {
    if (group[i].len != group[i - 1].len) return "segments of unequal size";
  }
  if (joined.flags != p.flags) return "TCP flags differ";
  if (joined.seq != p.seq_start) return "sequence number differs";
  if (joined.len > p.len) return "more bytes than expected";
  if (joined.len < p.len) return "fewer bytes than expected";
  if (p.ack && *p.ack != joined.ack) return "ack number differs";
  if (p.win && *p.win != joined.win) return "window differs";
  if (!EcnMatches(p.ecn, joined.ecn)) return absl::StrFormat("ECN field differs ([%s] vs [%s])", p.ecn, EcnText(joined.ecn));
  if (!p.options_any && !OptionsMatch(p.options, joined.options)) {
    return absl::StrFormat("TCP options differ (<%s> vs <%s>)", OptionsText(p.options), OptionsText(joined.options));
  }
  return "";
}

std::string OutboundMismatch(const std::string& what, const PacketEvent& p, const std::vector<Capture>& group,
                             const Capture& joined) {
  std::string got = CaptureText(joined);
  if (group.size() > 1) got += absl::StrFormat(" (%d segments)", group.size());
  return absl::StrFormat("%s: expected %s, got %s", what, ExpectedText(p), got);
}

std::string OptionsText(const std::vector<TcpOption>& opts) {
  std::string s;
  for (const TcpOption& o : opts) {
    if (!s.empty()) s += ',';
    switch (o.kind) {
      case TcpOption::Kind::kMss: s += absl::StrFormat("mss %u", o.value); break;
      case TcpOption::Kind::kNop: s += "nop"; break;
      case TcpOption::Kind::kWscale: s += absl::StrFormat("wscale %u", o.value); break;
      case TcpOption::Kind::kSackOk: s += "sackOK"; break;
      case TcpOption::Kind::kTimestamp: s += absl::StrFormat("TS val %u ecr %u", o.ts_val, o.ts_ecr); break;
      case TcpOption::Kind::kEol: s += "eol"; break;
      case TcpOption::Kind::kSack:
        s += "sack";
        for (const auto& [a, b] : o.sack) s += absl::StrFormat(" %u:%u", a, b);
        break;
      case TcpOption::Kind::kMd5:
        s += "md5 ";
        for (uint8_t b : o.md5) s += absl::StrFormat("%02x", b);
        break;
      case TcpOption::Kind::kUnsupported: s += o.text; break;
    }
  }
  return s;
}

std::string CaptureText(const Capture& c) {
  std::string s = absl::StrFormat("%s %u:%u(%u)", FlagsText(c.flags), c.seq, c.seq + c.len, c.len);
  if (c.flags & kFlagAck) s += absl::StrFormat(" ack %u", c.ack);
  s += absl::StrFormat(" win %u", c.win);
  if (!c.options.empty()) s += absl::StrFormat(" <%s>", OptionsText(c.options));
  return s;
}

std::string CaptureLine(const Capture& c) {
  const std::string ecn = c.ecn == kEcnNotEct ? "" : "[" + EcnText(c.ecn) + "] ";
  return absl::StrFormat("%.6f > %s%s", static_cast<double>(c.t) / 1e9, ecn, CaptureText(c));
}

std::string ExpectedText(const PacketEvent& p) {
  std::string s = absl::StrFormat("%s %u:%u(%u)", FlagsText(p.flags), p.seq_start, p.seq_end, p.len);
  if (p.ack) s += absl::StrFormat(" ack %u", *p.ack);
  if (p.win) s += absl::StrFormat(" win %u", *p.win);
  if (p.options_any) s += " <...>";
  else if (p.options_given) s += absl::StrFormat(" <%s>", OptionsText(p.options));
  return s;
}

}  // namespace sendsim::packetdrill
