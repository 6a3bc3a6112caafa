#include "packetdrill/run_state.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "packetdrill/receive.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

// Reasons are one line: command texts and code may hold newlines.
std::string OneLine(std::string msg) {
  for (char& c : msg) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return msg;
}

// A wait the runner resolves itself (accept, connect, poll) ends when its
// condition holds or its timeout passes.
void CheckPending(RunState& run) {
  std::optional<Pending>& p = run.pending;
  if (!p || p->done || !p->ready) return;
  const bool timed_out = p->timeout_at >= 0 && run.loop.now() >= p->timeout_at;
  if (p->ready() || timed_out) {
    int64_t r = p->finish();
    run.Complete(r);
  }
}

uint32_t TsVal(const RunState& run) { return static_cast<uint32_t>(run.loop.now() / model::kNsPerMs); }

// `socket_window`: the window came from RunState::SelectWindow (not a
// SYN's, nor the 0 of a RST that finds no socket).
void EmitControl(RunState& run, uint32_t seq, uint8_t flags, uint32_t ack, uint32_t win,
                 std::vector<TcpOption> options, bool socket_window = false) {
  // tcp_ecn_send: every non-SYN segment echoes ECE while the peer owes a
  // CWR; control segments go out Not-ECT.
  if (run.sock.ecn_demand_cwr && !(flags & kFlagSyn)) flags |= kFlagEce;
  Capture c;
  c.t = run.loop.now();
  c.seq = seq;
  c.flags = flags;
  c.ack = ack;
  c.win = win;
  c.options = std::move(options);
  c.win_unknown = socket_window && run.sock.rcv.wnd_unknown;
  run.out.push_back(std::move(c));
}

}  // namespace

// tcp_init_buffer_space at the end of the handshake: the window clamp is
// the whole space (tcp_full_space: half the receive buffer, as
// tcp_win_from_space gives it with the default scaling on every profile)
// less one advmss reserved (tcp_app_win 31), at least 2 * advmss;
// rcv_ssthresh, which began as the initial window, is held to it.
uint32_t InitRcvSsthresh(const Negotiated& neg, uint32_t init_wnd) {
  const uint64_t maxwin = neg.full_space;
  uint64_t clamp = maxwin;
  if (clamp > 2 * uint64_t{neg.advmss}) clamp = std::max<uint64_t>(2 * uint64_t{neg.advmss}, maxwin - neg.advmss);
  return static_cast<uint32_t>(std::min<uint64_t>(init_wnd, clamp));
}

uint32_t AcceptableSeq(const ScriptSocket& sock) {
  const uint32_t wnd_end = sock.SndUna() + sock.snd_wnd;  // tcp_wnd_end
  if (!SeqBefore(wnd_end, sock.snd_nxt)) return sock.snd_nxt;
  if (sock.neg.wscale_ok && sock.snd_nxt - wnd_end < (uint32_t{1} << sock.neg.rcv_wscale)) return sock.snd_nxt;
  return wnd_end;
}

uint32_t InitialRcvWnd(const ScriptSocket& s, const model::Profile& profile) {
  const Negotiated& neg = s.neg;
  uint32_t init_wnd = neg.rcv_wnd;
  if (s.active_open && !profile.initial_rwnd_capped && neg.full_space > neg.syn_mss) {
    init_wnd = neg.full_space / neg.syn_mss * neg.syn_mss;
  }
  if (!neg.wscale_ok || profile.initial_rcv_wnd_u16_max) init_wnd = std::min<uint32_t>(init_wnd, 65535);
  return init_wnd;
}

uint32_t RunState::SelectWindow() {
  const Negotiated& neg = sock.neg;
  ScriptSocket::Receive& rcv = sock.rcv;
  const uint64_t unit = uint64_t{1} << neg.rcv_wscale;
  auto align = [unit](uint64_t bytes) { return (bytes + unit - 1) / unit * unit; };  // ALIGN
  // __tcp_select_window: min(free space, rcv_ssthresh), rounded to the
  // scale unit (down from v6.5, up before); without scaling rcv_wnd stays.
  uint64_t new_win = rcv.wnd;
  if (neg.rcv_wscale != 0) {
    const uint64_t ssthresh = InitRcvSsthresh(neg, InitialRcvWnd(sock, profile));
    new_win = profile.rcv_window_round_down ? ssthresh / unit * unit : align(ssthresh);
  }
  // tcp_select_window never offers less than what is left of the last
  // offer (tcp_receive_window; tcp_shrink_window is 0), rounded up.
  const int64_t cur_win = std::max<int64_t>(int64_t{rcv.wup} + rcv.wnd - sock.rcv_nxt, 0);
  const uint64_t kept = align(static_cast<uint64_t>(cur_win));
  // Unread data's truesize lowers the free space the offer is cut to; it
  // matters only when the offer, not what is left, sets the window.
  if (rcv.grow_window_ran || rcv.full_segment_seen || (rcv.queued > 0 && new_win > kept)) rcv.wnd_unknown = true;
  if (new_win < kept) new_win = kept;
  new_win = std::min<uint64_t>(new_win, uint64_t{65535} << neg.rcv_wscale);
  rcv.wnd = static_cast<uint32_t>(new_win);
  rcv.wup = sock.rcv_nxt;
  return static_cast<uint32_t>(new_win >> neg.rcv_wscale);
}

std::string TimeText(model::TimeNs t) {
  return absl::StrFormat("%.6f", static_cast<double>(t) / model::kNsPerSec);
}

absl::Status UrgentOrEcn(const PacketEvent& p) {
  if (p.flags & kFlagUrg || p.urg) return absl::UnimplementedError("urgent data is not modelled");
  if (p.inbound && !InboundEcn(p.ecn)) {
    return absl::UnimplementedError(absl::StrFormat("ECN marking [%s] on an inbound packet is not modelled", p.ecn));
  }
  return absl::OkStatus();
}

absl::Status RunState::Fail(int line, const std::string& msg) const {
  return absl::FailedPreconditionError(absl::StrFormat("%s:%d: %s", script.path, line, OneLine(msg)));
}

absl::Status RunState::Skip(int line, const std::string& msg) const {
  return absl::UnimplementedError(absl::StrFormat("%s:%d: %s", script.path, line, OneLine(msg)));
}

absl::Status RunState::At(int line, const absl::Status& st) const {
  if (st.ok()) return st;
  if (st.code() == absl::StatusCode::kUnimplemented) return Skip(line, std::string(st.message()));
  return Fail(line, std::string(st.message()));
}

// As the issue states it: the option can only widen the window.
model::TimeNs RunState::Tolerance(model::TimeNs gap) const { return ToleranceNs(rules, gap); }

// A sentinel event at the deadline makes now() land on it even when the
// model has nothing to do.
void RunState::Advance(model::TimeNs deadline, const std::function<bool()>& stop) {
  bool hit = false;
  model::EventLoop::EventId id = loop.ScheduleAt(deadline, [&hit] { hit = true; });
  CheckPending(*this);
  while (!hit && !failure && !(stop && stop())) {
    if (!loop.RunOne()) break;
    CheckPending(*this);
  }
  loop.Cancel(id);
}

void RunState::Complete(int64_t r) {
  Pending& p = *pending;
  p.done = true;
  p.ret = r;
  p.done_at = loop.now();
  if (!p.annotated) return;  // checked by the caller, which is waiting for it
  if (absl::Status st = CheckReturn(p.line, p.name, *p.sc, r); !st.ok()) {
    if (!failure) failure = st;
    return;
  }
  if (p.done_at < p.end_lo || p.done_at > p.end_hi) {
    if (!failure) {
      failure = Fail(p.line, absl::StrFormat("blocking %s() returned at %s, expected at %s", p.name,
                                             TimeText(p.done_at), p.expected_end));
    }
  }
}

absl::Status RunState::CheckReturn(int line, const std::string& name, const SyscallEvent& sc, int64_t r) const {
  if (sc.ret_any) return absl::OkStatus();
  const int64_t got = r >= 0 ? r : -1;
  const std::string got_errno = r < 0 ? ErrnoName(static_cast<int>(-r)) : "";
  if (got != sc.ret || (sc.ret < 0 && !sc.errno_name.empty() && sc.errno_name != got_errno)) {
    std::string want = sc.ret < 0 && !sc.errno_name.empty() ? absl::StrFormat("-1 %s", sc.errno_name)
                                                            : absl::StrFormat("%d", sc.ret);
    std::string have = r < 0 ? absl::StrFormat("-1 %s", got_errno) : absl::StrFormat("%d", r);
    return Fail(line, absl::StrFormat("%s() returned %s, expected %s", name, have, want));
  }
  return absl::OkStatus();
}

void RunState::EmitSyn(uint8_t flags, uint32_t ack, uint32_t ts_ecr) {
  const Negotiated& n = sock.neg;
  if (!(flags & kFlagAck)) ++sock.tcpi.segs_out;  // our SYN (a SYN-ACK is the request's)
  std::optional<uint8_t> ws;
  if (n.wscale_ok) ws = n.rcv_wscale;
  EmitControl(*this, 0, flags, ack, std::min<uint32_t>(n.rcv_wnd, 65535),
              SynOptions(n.syn_mss, n.sack, n.timestamps, TsVal(*this), ts_ecr, ws));
}

void RunState::EmitAck() {
  ++sock.tcpi.segs_out;
  OnAckSent(*this);
  // tcp_send_ack: the sequence number is tcp_acceptable_seq.
  EmitControl(*this, AcceptableSeq(sock), kFlagAck, sock.rcv_nxt, SelectWindow(), SegmentOptionsNow(), true);
}

void RunState::EmitReset(uint32_t seq, uint8_t flags, uint32_t ack, bool from_socket) {
  if (from_socket) {
    ++sock.tcpi.segs_out;
    EmitControl(*this, seq, flags, ack, SelectWindow(), SegmentOptionsNow(), true);
  } else {
    EmitControl(*this, seq, flags, ack, 0, {});
  }
}

std::vector<TcpOption> RunState::DataOptionsNow() const {
  return DataOptions(sock.neg.timestamps, TsVal(*this), sock.last_peer_tsval);
}

std::vector<TcpOption> RunState::SegmentOptionsNow() {
  std::vector<TcpOption> v = DataOptionsNow();
  // tcp_established_options: the blocks that fit in 40 option bytes beside
  // the 12 of the timestamps, 4 bytes for NOP, NOP, kind and length and 8
  // per block: 4 blocks, 3 with timestamps.
  const int max_blocks = sock.neg.timestamps ? 3 : 4;
  std::vector<SackBlock> blocks = sock.rcv.ofo.OptionBlocks(max_blocks);
  if (blocks.empty()) return v;
  TcpOption sack;
  sack.kind = TcpOption::Kind::kSack;
  for (const SackBlock& b : blocks) sack.sack.emplace_back(b.start, b.end);
  v.push_back(TcpOption{});
  v.push_back(TcpOption{});
  v.push_back(std::move(sack));
  sock.rcv.ofo.ClearDsack();  // tcp_options_write
  return v;
}


}  // namespace sendsim::packetdrill
