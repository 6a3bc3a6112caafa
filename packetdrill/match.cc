#include "packetdrill/match.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "packetdrill/receive.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

// A PSH or FIN on a capture ends an aggregate: it marks a push boundary.
constexpr uint8_t kEndFlags = kFlagPsh | kFlagFin;

// ------------------------------------------------------------ text (tcpdump's notation)

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

std::string ExpectedText(const PacketEvent& p) {
  std::string s = absl::StrFormat("%s %u:%u(%u)", FlagsText(p.flags), p.seq_start, p.seq_end, p.len);
  if (p.ack) s += absl::StrFormat(" ack %u", *p.ack);
  if (p.win) s += absl::StrFormat(" win %u", *p.win);
  if (p.options_any) s += " <...>";
  else if (p.options_given) s += absl::StrFormat(" <%s>", OptionsText(p.options));
  return s;
}

// ------------------------------------------------------------ matching

// Outbound packets the model cannot send: a skip reason.
absl::Status UnmodelledOutbound(const RunState& run, const PacketEvent& p) {
  if (p.flags & kFlagRst) return absl::UnimplementedError("outbound RST: connection reset is not modelled");
  if ((p.flags & kFlagFin) && !run.sock.fin_seq) {
    return absl::UnimplementedError("outbound FIN without close(): connection teardown is not modelled");
  }
  return UrgentOrEcn(p);
}

// Without --strict_segments: appends to `frags` the captures that continue
// it (contiguous, same flags but PSH/FIN, not empty) until the line's length
// or a push boundary, waiting for each until `hi`.
void TakeContinuation(RunState& run, uint32_t want, TimeNs hi, std::vector<Capture>* frags) {
  uint32_t total = frags->front().len;
  while (total < want && !(frags->back().flags & kEndFlags)) {
    run.Advance(hi, [&run] { return !run.out.empty(); });
    if (run.failure || run.out.empty()) return;
    // A copy: the front is popped below while its length is still needed.
    const Capture c = run.out.front();
    const Capture& prev = frags->back();
    if (c.seq != prev.seq + prev.len || (c.flags & ~kEndFlags) != (frags->front().flags & ~kEndFlags) || c.len == 0) {
      return;
    }
    run.out.pop_front();
    total += c.len;
    frags->push_back(c);
  }
}

// The captures as one packet: the first one's start and flags, the last
// one's PSH/FIN, ack and window.
Capture Aggregate(const std::vector<Capture>& frags) {
  Capture agg = frags[0];
  agg.len = 0;
  for (const Capture& c : frags) agg.len += c.len;
  agg.flags = (frags[0].flags & ~kEndFlags) | (frags.back().flags & kEndFlags);
  agg.ack = frags.back().ack;
  agg.win = frags.back().win;
  return agg;
}

// Options match kind by kind; TS val is not checked.
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
      default: break;
    }
  }
  return true;
}

// The first way the captures differ from `p` other than in time; empty when
// they match.
std::string Difference(const PacketEvent& p, const std::vector<Capture>& frags, const Capture& agg) {
  for (size_t i = 1; i + 1 < frags.size(); ++i) {
    if (frags[i].len != frags[0].len) return "segments of unequal size";
  }
  if (agg.flags != p.flags) return "TCP flags differ";
  if (agg.seq != p.seq_start) return "sequence number differs";
  if (agg.len > p.len) return "more bytes than expected";
  if (agg.len < p.len) return "fewer bytes than expected";
  if (p.ack && *p.ack != agg.ack) return "ack number differs";
  if (p.win && *p.win != agg.win) return "window differs";
  if (!p.options_any && !OptionsMatch(p.options, agg.options)) {
    return absl::StrFormat("TCP options differ (<%s> vs <%s>)", OptionsText(p.options), OptionsText(agg.options));
  }
  return "";
}

}  // namespace

void OnXmit(RunState& run, const model::XmitSkb& skb) {
  ScriptSocket& sock = run.sock;
  OnAckSent(run);  // the segment carries any pending ACK
  if (skb.len > 0) OnDataSent(run);
  const uint32_t seg = run.settings.tso || skb.gso_size == 0 ? skb.len : skb.gso_size;
  uint32_t off = 0;
  do {
    uint32_t n = std::min(seg, skb.len - off);
    Capture c;
    c.t = run.loop.now();
    c.seq = skb.seq + 1 + off;  // the model's first data byte is script sequence 1
    c.len = n;
    const bool last = off + n >= skb.len;
    c.flags = last ? skb.tcp_flags : (skb.tcp_flags & ~(model::kTcpPsh | model::kTcpFin));
    c.ack = sock.rcv_nxt;
    c.win = sock.DataWindow();
    c.options = run.DataOptionsNow();
    run.out.push_back(std::move(c));
    off += n;
  } while (off < skb.len);
  const uint32_t fin = (skb.tcp_flags & model::kTcpFin) ? 1 : 0;
  if (static_cast<int32_t>(skb.seq + 1 + skb.len + fin - sock.snd_nxt) > 0) sock.snd_nxt = skb.seq + 1 + skb.len + fin;
  if (sock.ep) sock.ep->OnTxCompletion(skb.truesize);
}

absl::Status MatchOutbound(RunState& run, const Event& e, const PacketEvent& p, TimeNs t, TimeNs lo, TimeNs hi,
                           TimeNs* last) {
  if (absl::Status st = UnmodelledOutbound(run, p); !st.ok()) return run.At(e.line, st);
  run.Advance(hi, [&run] { return !run.out.empty(); });
  if (run.failure) return *run.failure;
  if (run.out.empty()) {
    return run.Fail(e.line, absl::StrFormat("expected outbound %s at %s, but nothing was sent by %s", ExpectedText(p),
                                            TimeText(t), TimeText(hi)));
  }
  std::vector<Capture> frags = {run.out.front()};
  run.out.pop_front();
  if (!run.strict_segments) {
    TakeContinuation(run, p.len, hi, &frags);
    if (run.failure) return *run.failure;
  }
  const Capture agg = Aggregate(frags);
  *last = frags.back().t;
  if (std::string what = Difference(p, frags, agg); !what.empty()) {
    std::string got = CaptureText(agg);
    if (frags.size() > 1) got += absl::StrFormat(" (%d segments)", frags.size());
    return run.Fail(e.line, absl::StrFormat("%s: expected %s, got %s", what, ExpectedText(p), got));
  }
  for (const Capture& c : frags) {
    if (c.t < lo || c.t > hi) {
      return run.Fail(e.line, absl::StrFormat("timing: expected %s at %s (window %s..%s), sent at %s", ExpectedText(p),
                                              TimeText(t), TimeText(lo), TimeText(hi), TimeText(c.t)));
    }
  }
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
