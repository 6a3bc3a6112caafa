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

// ------------------------------------------------------------ matching

// Outbound packets the model cannot send: a skip reason.
absl::Status UnmodelledOutbound(const RunState& run, const PacketEvent& p) {
  if ((p.flags & kFlagFin) && !run.sock.fin_seq) {
    return absl::UnimplementedError("outbound FIN without close(): connection teardown is not modelled");
  }
  return UrgentOrEcn(p);
}

// Without --strict_segments: appends to `group` the captures that join it
// (outbound.h), waiting for each until `hi`.
void TakeContinuation(RunState& run, uint32_t want, TimeNs hi, std::vector<Capture>* group) {
  for (;;) {
    uint64_t total = 0;
    for (const Capture& c : *group) total += c.len;
    if (run.rules.strict_segments || total >= want) return;
    run.Advance(hi, [&run] { return !run.out.empty(); });
    if (run.failure || run.out.empty() || !JoinsGroup(run.rules, *group, run.out.front(), want)) return;
    group->push_back(run.out.front());
    run.out.pop_front();
  }
}

}  // namespace

void OnXmit(RunState& run, const model::XmitSkb& skb) {
  ScriptSocket& sock = run.sock;
  OnAckSent(run);  // the segment carries any pending ACK
  if (skb.len > 0) OnDataSent(run);
  const uint32_t seg = run.settings.tso || skb.gso_size == 0 ? skb.len : skb.gso_size;
  // One header for the skb, copied to each GSO segment.
  const std::vector<TcpOption> options = run.SegmentOptionsNow();
  // tcp_transmit_skb picks the window once; GSO copies the header.
  const uint32_t win = run.SelectWindow();
  // Linux's tcp_current_mss takes the SACK option's bytes (4, and 8 a
  // block) off the MSS while blocks are advertised; the model's sender does
  // not: a segment longer than that MSS is a skip (runner.cc reports it).
  if (skb.len > 0 && sock.ep) {
    for (const TcpOption& o : options) {
      if (o.kind != TcpOption::Kind::kSack) continue;
      const uint32_t sack_bytes = 4 + 8 * static_cast<uint32_t>(o.sack.size());
      const uint32_t piece = skb.gso_size != 0 ? skb.gso_size : skb.len;
      if (piece + sack_bytes > sock.ep->socket().info().snd_mss) sock.rcv.sack_shrinks_mss = true;
    }
  }
  uint32_t off = 0;
  do {
    uint32_t n = std::min(seg, skb.len - off);
    Capture c;
    c.t = run.loop.now();
    c.seq = skb.seq + 1 + off;  // the model's first data byte is script sequence 1
    c.len = n;
    const bool last = off + n >= skb.len;
    c.flags = last ? skb.tcp_flags : (skb.tcp_flags & ~(model::kTcpPsh | model::kTcpFin));
    // GSO leaves CWR on the first segment only (tcp_gso_segment); ECE
    // echoes a CE mark the peer has not yet answered (tcp_ecn_send).
    if (off > 0) c.flags &= ~model::kTcpCwr;
    if (sock.ecn_demand_cwr) c.flags |= kFlagEce;
    c.ecn = skb.ect ? kEcnEct0 : kEcnNotEct;
    c.ack = sock.rcv_nxt;
    c.win = win;
    c.win_unknown = sock.rcv.wnd_unknown;
    c.options = options;
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
  std::vector<Capture> group = {run.out.front()};
  run.out.pop_front();
  TakeContinuation(run, p.len, hi, &group);
  if (run.failure) return *run.failure;
  const Capture joined = JoinCaptures(group);
  *last = joined.t;
  if (p.win && joined.win_unknown) {
    return run.Skip(e.line, "our window field after a data segment of 128 bytes or more, or with unread data "
                            "(the truesize rules of tcp_grow_window and the free space), is not modelled");
  }
  if (std::string what = OutboundDifference(p, group, joined); !what.empty()) {
    return run.Fail(e.line, OutboundMismatch(what, p, group, joined));
  }
  // The joined packet's time is its last piece's.
  if (joined.t < lo || joined.t > hi) {
    return run.Fail(e.line, absl::StrFormat("timing: expected %s at %s (window %s..%s), sent at %s", ExpectedText(p),
                                            TimeText(t), TimeText(lo), TimeText(hi), TimeText(joined.t)));
  }
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
