#include "packetdrill/receive.h"

#include <algorithm>
#include <optional>

#include "model/constants.h"
#include "model/peer.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

constexpr uint32_t kMaxQuickAcks = model::kTcpMaxQuickacks;

// TCP_ATO_MIN and TCP_DELACK_MIN: HZ / 25 jiffies (40 ms).
int64_t AtoMinJiffies(int hz) { return hz / model::kTcpAtoMinHzDivisor; }

// TCP_DELACK_MAX: HZ / 5 jiffies (200 ms).
int64_t DelackMaxJiffies(int hz) { return hz / model::kTcpDelackMaxHzDivisor; }

TimeNs Jiffy(const RunState& run) { return model::kNsPerSec / run.sock.hz; }
int64_t NowJiffies(const RunState& run) { return run.loop.now() / Jiffy(run); }

// tcp_initialize_rcv_mss: min(advmss, mss_cache, rcv_wnd / 2, 536), at
// least TCP_MIN_MSS.
uint32_t InitialRcvMss(const ScriptSocket& sock) {
  uint32_t hint = std::min(sock.neg.advmss, sock.neg.mss_cache);
  hint = std::min<uint32_t>(hint, sock.neg.rcv_wnd / 2);
  hint = std::min<uint32_t>(hint, model::kTcpMssDefault);
  return std::max<uint32_t>(hint, model::kTcpMinMss);
}

// icsk_ack.rcv_mss, which Linux sets when the connection is established
// (the runner: at the first segment that needs it).
uint32_t RcvMss(ScriptSocket& sock) {
  if (sock.rcv.mss == 0) sock.rcv.mss = InitialRcvMss(sock);
  return sock.rcv.mss;
}

// tcp_incr_quickack: enough quick ACKs for half the window in MSS segments.
void IncrQuickAck(ScriptSocket& sock, uint32_t max_quick = kMaxQuickAcks) {
  uint32_t quick = sock.neg.rcv_wnd / (2 * RcvMss(sock));
  if (quick == 0) quick = 2;
  quick = std::min(quick, max_quick);
  sock.rcv.quick = std::max(sock.rcv.quick, quick);
}

// tcp_measure_rcv_mss, without its header-size branch: a segment at least
// rcv_mss long raises rcv_mss, and with PSH (the end of a write) marks the
// ACK as PUSHED (6.1.64 and 6.7 on, "fix delayed ACKs for MSS boundary
// condition"; the receive side is claimed for 6.1 and later only); a
// shorter one marks it PUSHED (and PUSHED2 on the second).
void MeasureRcvMss(ScriptSocket& sock, uint32_t len, bool psh) {
  if (len >= sock.rcv.mss) {
    sock.rcv.mss = std::min(len, sock.neg.advmss);
    if (psh) sock.rcv.pushed = true;
    return;
  }
  if (sock.rcv.pushed) sock.rcv.pushed2 = true;
  sock.rcv.pushed = true;
}

// tcp_enter_quickack_mode.
void EnterQuickAckMode(ScriptSocket& sock, uint32_t max_quick) {
  IncrQuickAck(sock, max_quick);
  sock.rcv.pingpong = false;
  sock.rcv.ato = AtoMinJiffies(sock.hz);
}

// tcp_ecn_check_ce, on an ECN connection: a CE mark not yet answered makes
// our segments echo ECE and ACKs leave at once (the sender's cwnd may be
// small); Not-ECT data after ECT data is taken for a retransmission, also
// ACKed quickly.
void EcnCheckCe(ScriptSocket& sock, uint8_t ecn) {
  if (!sock.neg.ecn) return;
  if (ecn == kEcnNotEct) {
    if (sock.ecn_seen) EnterQuickAckMode(sock, 2);
    return;
  }
  if (ecn == kEcnCe && !sock.ecn_demand_cwr) {
    EnterQuickAckMode(sock, 2);
    sock.ecn_demand_cwr = true;
  }
  sock.ecn_seen = true;
}

// tcp_event_data_recv: the delayed-ACK estimator (ato) and quick ACKs.
void EventDataRecv(RunState& run, uint32_t len, bool psh, uint8_t ecn) {
  ScriptSocket& sock = run.sock;
  RcvMss(sock);
  MeasureRcvMss(sock, len, psh);
  const int64_t now = NowJiffies(run);
  const int64_t ato_min = AtoMinJiffies(sock.hz);
  const int64_t rto = std::max<int64_t>(
      1, static_cast<int64_t>(sock.ep->socket().info().rto_us) * sock.hz / 1000000);
  if (sock.rcv.ato == 0) {
    // The first data: start in quick-ACK mode.
    IncrQuickAck(sock);
    sock.rcv.ato = ato_min;
  } else {
    const int64_t m = now - sock.rcv.lrcv_jiffies;
    if (m <= ato_min / 2) {
      sock.rcv.ato = (sock.rcv.ato >> 1) + ato_min / 2;
    } else if (m < sock.rcv.ato) {
      sock.rcv.ato = std::min((sock.rcv.ato >> 1) + m, rto);
      if (run.profile.ato_capped_delack_max) sock.rcv.ato = std::min(sock.rcv.ato, DelackMaxJiffies(sock.hz));
    } else if (m > rto) {
      IncrQuickAck(sock);  // a long gap: ACK quickly again
    }
  }
  sock.rcv.lrcv_jiffies = now;
  EcnCheckCe(sock, ecn);
  // tcp_rcv_rtt_measure: the first data arms a sample for when rcv_nxt has
  // moved a window further (rcv_nxt is already past this segment here).
  if (sock.rcv.rtt_est_seq == 0) {
    sock.rcv.rtt_est_seq = sock.rcv_nxt + sock.neg.rcv_wnd;
  } else if (!SeqBefore(sock.rcv_nxt, sock.rcv.rtt_est_seq)) {
    sock.rcv.rtt_sampled = true;
  }
}

// tcp_delack_timer_handler: a missed delayed ACK leaves pingpong mode
// (deflating ato) or, outside it, inflates ato; then the ACK goes.
void DelackTimer(RunState& run) {
  ScriptSocket& s = run.sock;
  s.delack_event = 0;
  if (s.rcv.pingpong) {
    s.rcv.pingpong = false;
    s.rcv.ato = AtoMinJiffies(s.hz);
  } else {
    const int64_t rto = static_cast<int64_t>(s.ep->socket().info().rto_us) * s.hz / 1000000;
    s.rcv.ato = std::min(s.rcv.ato << 1, std::max<int64_t>(rto, 1));
    if (run.profile.ato_capped_delack_max) s.rcv.ato = std::min(s.rcv.ato, DelackMaxJiffies(s.hz));
  }
  run.EmitAck();
}

// tcp_send_delayed_ack: the timer is due ato jiffies from now, ato capped by
// the RTT (at least TCP_DELACK_MIN) and by 200 ms (pingpong or PUSHED) or
// HZ/2. A timer already pending that is due within ato/4 makes the ACK
// leave at once; otherwise the earlier of the two timeouts stands.
void ScheduleDelayedAck(RunState& run) {
  ScriptSocket& sock = run.sock;
  int64_t ato = sock.rcv.ato;
  const int64_t delack_min = AtoMinJiffies(sock.hz);
  if (ato > delack_min) {
    int64_t max_ato = sock.hz / 2;
    if (sock.rcv.pingpong || sock.rcv.pushed) max_ato = DelackMaxJiffies(sock.hz);
    // The RTT bounds it only once there is an estimate (srtt_us != 0).
    const uint32_t srtt_us = sock.ep->socket().info().rtt_us;
    const int64_t rtt = std::max(static_cast<int64_t>(srtt_us) * sock.hz / 1000000, delack_min);
    if (srtt_us != 0 && rtt < max_ato) max_ato = rtt;
    ato = std::min(ato, max_ato);
  }
  const int64_t now = NowJiffies(run);
  // An ato of 0 (no data received: the peer's bare FIN) still waits for
  // the next tick; on a 6.18 kernel, HZ 250, the ACK of a FIN left 3.7 ms
  // after it.
  int64_t timeout = now + std::max<int64_t>(ato, 1);
  if (sock.delack_event != 0) {
    if (sock.rcv.delack_timeout <= now + (ato >> 2)) {
      run.EmitAck();
      return;
    }
    if (timeout >= sock.rcv.delack_timeout) return;  // the earlier timer stands
    run.loop.Cancel(sock.delack_event);
  }
  sock.rcv.delack_timeout = timeout;
  sock.delack_event = run.loop.ScheduleAt(timeout * Jiffy(run), [&run] { DelackTimer(run); });
}

}  // namespace

bool OldSequence(const ScriptSocket& sock, const PacketEvent& p) {
  const uint32_t end_seq = EndSeq(p);
  return SeqBefore(end_seq, sock.rcv.wup);
}

bool DisorderedAck(const RunState& run, const PacketEvent& p, uint32_t ts_val) {
  const ScriptSocket& sock = run.sock;
  // A pure ACK at rcv_nxt that acknowledges nothing new and may not update
  // the window ...
  if (EndSeq(p) != p.seq_start || p.seq_start != sock.rcv_nxt || *p.ack != sock.SndUna()) return false;
  if (sock.MayUpdateWindow(*p.ack, p.seq_start, sock.PeerWindow(*p.win))) return false;
  // ... whose TS val is behind ts_recent by no more than the replay window:
  // icsk_rto in jiffies times 1024 (tcp_tsval_replay from v6.7: 1200) / HZ.
  const int64_t rto_jiffies = static_cast<int64_t>(sock.ep->socket().info().rto_us) * sock.hz / 1000000;
  const int64_t replay = rto_jiffies * (run.profile.tsval_replay_1200 ? 1200 : 1024) / sock.hz;
  return static_cast<int32_t>(sock.last_peer_tsval - ts_val) <= replay;
}

bool PawsDiscard(const RunState& run, const PacketEvent& p) {
  const ScriptSocket& sock = run.sock;
  if (!sock.neg.timestamps || !sock.ep || sock.phase != SocketPhase::kEstablished) return false;
  const uint32_t ts_recent = sock.last_peer_tsval;
  const TcpOption* ts = FindTimestamp(p);
  if (ts == nullptr) return false;
  // tcp_paws_check with TCP_PAWS_WINDOW 1; a ts_recent of 0 accepts all.
  if (ts_recent == 0 || static_cast<int32_t>(ts_recent - ts->ts_val) <= 1) return false;
  // tcp_paws_discard: a disordered ACK passes.
  return !DisorderedAck(run, p, ts->ts_val);
}

void SendDupAck(RunState& run, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  const uint32_t end_seq = EndSeq(p);
  if (end_seq != p.seq_start && SeqBefore(p.seq_start, sock.rcv_nxt)) {
    // A retransmission of what we have: quick-ACK mode and a D-SACK block
    // for the part below rcv_nxt.
    EnterQuickAckMode(sock, kMaxQuickAcks);
    if (sock.neg.sack && run.settings.tcp_dsack != 0) {
      sock.rcv.ofo.DsackSet(p.seq_start, SeqAfter(end_seq, sock.rcv_nxt) ? sock.rcv_nxt : end_seq);
    }
  }
  run.EmitAck();
}

void EcnAcceptCwr(RunState& run, const PacketEvent& p) {
  if (!(p.flags & kFlagCwr)) return;
  // tcp_ecn_accept_cwr (in tcp_ack, on pure ACKs too, and whether or not
  // ECN was agreed): the peer reduced its window, so stop echoing ECE; its
  // cwnd may be tiny, so a segment that takes sequence space (data or a
  // FIN: seq != end_seq) is ACKed at once.
  run.sock.ecn_demand_cwr = false;
  if (p.len != 0 || (p.flags & kFlagFin)) run.sock.rcv.ack_now = true;
}

void RcvRttMeasureTs(RunState& run, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  if (!sock.neg.timestamps) return;
  const TcpOption* ts = FindTimestamp(p);
  // Only a TS ecr other than the last one seen (0 at first) measures.
  if (ts == nullptr || ts->ts_ecr == sock.rcv.rtt_last_tsecr) return;
  sock.rcv.rtt_last_tsecr = ts->ts_ecr;
  // A segment of at least rcv_mss (end_seq - seq: a FIN counts) gives a
  // sample. Linux also wants the echoed value not ahead of its own clock
  // (and, from 6.12, behind it); the runner counts any such segment as a
  // sample, erring towards the compressed-ACK skip.
  const uint32_t len = p.len + ((p.flags & kFlagFin) ? 1 : 0);
  if (len >= RcvMss(sock)) sock.rcv.rtt_sampled = true;
}

absl::Status UnmodelledData(const RunState& run, const PacketEvent& p) {
  const ScriptSocket& sock = run.sock;
  const uint32_t end_seq = EndSeq(p);
  if (!SeqAfter(end_seq, sock.rcv_nxt)) return absl::OkStatus();  // a duplicate
  // tcp_receive_window: what is left of the window last advertised.
  const int64_t wnd = static_cast<int64_t>(sock.rcv.wup) + sock.rcv.wnd - sock.rcv_nxt;
  if (!SeqBefore(p.seq_start, sock.rcv_nxt + static_cast<uint32_t>(std::max<int64_t>(wnd, 0)))) {
    return absl::UnimplementedError("inbound data beyond the receive window is not modelled");
  }
  // tcp_data_queue_ofo would queue data past a queued FIN, and tcp_ofo_queue
  // would stop at the FIN (tcp_fin purges the rest); the runner's queue does
  // not hold such data.
  if (std::optional<uint32_t> fin = sock.rcv.ofo.FinSeq(); fin && SeqAfter(end_seq, *fin)) {
    return absl::UnimplementedError("inbound data beyond a queued out-of-order FIN is not modelled");
  }
  return absl::OkStatus();
}

DataArrival DataQueue(RunState& run, const PacketEvent& p) {
  ScriptSocket& sock = run.sock;
  OfoQueue& ofo = sock.rcv.ofo;
  const bool fin = p.flags & kFlagFin;
  const uint32_t seq = p.seq_start, end_seq = seq + p.len + (fin ? 1 : 0);
  const bool dsack = sock.neg.sack && run.settings.tcp_dsack != 0;  // tcp_dsack_set
  const uint8_t ecn = InboundEcn(p.ecn).value_or(kEcnNotEct);
  if (OldSequence(sock, p)) {
    // tcp_sequence: wholly before the window last advertised. tcp_send_dupack
    // enters quick-ACK mode and reports the duplicate.
    EnterQuickAckMode(sock, kMaxQuickAcks);
    if (dsack) ofo.DsackSet(seq, end_seq);
    return DataArrival{.discard = true};
  }
  ofo.ClearDsack();  // tcp_data_queue: tp->rx_opt.dsack = 0
  if (!SeqAfter(end_seq, sock.rcv_nxt)) {
    // All of it received already: a retransmission, ACKed at once.
    if (dsack) ofo.DsackSet(seq, end_seq);
    EnterQuickAckMode(sock, kMaxQuickAcks);
    sock.rcv.ack_sched = true;
    return {};
  }
  if (SeqAfter(seq, sock.rcv_nxt)) {
    // tcp_data_queue_ofo (inside the window: UnmodelledData).
    ++sock.rcv.ooopack;
    sock.rcv.grow_window_ran = true;
    if (p.len >= RcvMss(sock)) sock.rcv.full_segment_seen = true;
    EcnCheckCe(sock, ecn);
    RcvMss(sock);
    if (run.profile.ofo_measures_rcv_mss) MeasureRcvMss(sock, p.len, p.flags & kFlagPsh);
    sock.rcv.ack_sched = true;
    ofo.Queue(seq, end_seq, fin, sock.neg.sack, dsack);
    return {};
  }
  // In order, or starting below rcv_nxt (its head is a duplicate).
  if (SeqBefore(seq, sock.rcv_nxt) && dsack) ofo.DsackSet(seq, sock.rcv_nxt);
  const uint32_t new_bytes = end_seq - sock.rcv_nxt - (fin ? 1 : 0);
  sock.rcv_nxt += new_bytes;
  sock.rcv.queued += new_bytes;
  if (p.len != 0) {
    if (p.len >= 128) sock.rcv.grow_window_ran = true;  // tcp_event_data_recv -> tcp_grow_window
    if (p.len >= RcvMss(sock)) sock.rcv.full_segment_seen = true;
    sock.rcv.ack_sched = true;  // inet_csk_schedule_ack (tcp_event_data_recv)
    EventDataRecv(run, p.len, p.flags & kFlagPsh, ecn);
  }
  DataArrival r;
  if (fin) {
    // tcp_fin (the caller's) purges the out-of-order queue and the SACK
    // blocks: nothing after the FIN counts.
    sock.rcv_nxt += 1;
    ofo.Reset();
    r.fin = true;
  } else if (!ofo.empty()) {
    const uint32_t before = sock.rcv_nxt;
    r.fin = ofo.Drain(&sock.rcv_nxt, dsack);
    sock.rcv.queued += sock.rcv_nxt - before - (r.fin ? 1 : 0);
    if (r.fin) ofo.Reset();
    // RFC 5681 4.2: a filled gap is ACKed at once. (6.1 and 6.12 set
    // ICSK_ACK_NOW; older kernels, as we recall 4.19's, left pingpong mode
    // instead, which differs when no quick ACKs are left: UNVERIFIED, and
    // the recv_*.pkt scripts name 6.1 and later only.)
    if (ofo.empty()) sock.rcv.ack_now = true;
  }
  ofo.SackRemove(sock.rcv_nxt);
  // tcp_data_ready -> sk_data_ready (sock_def_readable).
  if (sock.rcv.queued > 0) sock.Wakeup(true, kPollIn | kPollPri | kPollRdnorm | kPollRdband);
  return r;
}

absl::Status AckSndCheck(RunState& run) {
  ScriptSocket& sock = run.sock;
  if (!sock.rcv.ack_sched) return absl::OkStatus();  // a segment sent meanwhile carried the ACK
  // More than one full segment unacknowledged, quick-ACK mode (quick ACKs
  // left and not pingpong), or ICSK_ACK_NOW: at once.
  const bool two_segments = sock.rcv_nxt - sock.rcv.wup > RcvMss(sock);
  const bool quick = sock.rcv.quick > 0 && !sock.rcv.pingpong;
  if (two_segments || quick || sock.rcv.ack_now) {
    run.EmitAck();
    return absl::OkStatus();
  }
  // Nothing out of order: the delayed ACK.
  if (sock.rcv.ofo.empty()) {
    ScheduleDelayedAck(run);
    return absl::OkStatus();
  }
  // Out-of-order data: without SACK every duplicate ACK leaves at once;
  // with SACK the first three at one rcv_nxt do (TCP_FASTRETRANS_THRESH),
  // later ones are compressed.
  if (!sock.neg.sack) {
    run.EmitAck();
    return absl::OkStatus();
  }
  if (sock.rcv.compressed_ack_rcv_nxt != sock.rcv_nxt) {
    sock.rcv.compressed_ack_rcv_nxt = sock.rcv_nxt;
    sock.rcv.dup_ack_counter = 0;
  }
  if (sock.rcv.dup_ack_counter < model::kTcpFastretransThresh) {
    ++sock.rcv.dup_ack_counter;
    run.EmitAck();
    return absl::OkStatus();
  }
  // The compressed-ACK timer runs 5 % of the receive RTT (capped by
  // tcp_comp_sack_delay_ns): without a receive RTT sample that is 0, and
  // the ACK leaves at once.
  if (sock.rcv.rtt_sampled) {
    return absl::UnimplementedError(
        "a compressed SACK (tcp_comp_sack_delay_ns) after a receive RTT sample is not modelled");
  }
  run.EmitAck();
  return absl::OkStatus();
}

void OnAckSent(RunState& run) {
  ScriptSocket& sock = run.sock;
  if (sock.delack_event != 0) {
    run.loop.Cancel(sock.delack_event);
    sock.delack_event = 0;
  }
  // tcp_dec_quickack_mode: an ACK of new data spends one quick ACK.
  if (sock.rcv.ack_sched && sock.rcv.quick > 0) {
    if (--sock.rcv.quick == 0) sock.rcv.ato = AtoMinJiffies(sock.hz);
  }
  sock.rcv.ack_sched = false;
  sock.rcv.ack_now = false;
  sock.rcv.pushed = sock.rcv.pushed2 = false;
  // rcv_wup moves in RunState::SelectWindow, with the window the segment offers.
}

void OnDataSent(RunState& run) {
  ScriptSocket& sock = run.sock;
  // tcp_event_data_sent: a reply within ato of the last received data
  // enters pingpong mode (threshold 1 in every profile).
  if (sock.rcv.ato != 0 && NowJiffies(run) - sock.rcv.lrcv_jiffies < sock.rcv.ato) sock.rcv.pingpong = true;
}

void OnRead(RunState& run, uint64_t n) {
  ScriptSocket& sock = run.sock;
  sock.rcv.queued -= std::min(n, sock.rcv.queued);
  if (n == 0 || !sock.rcv.ack_sched) return;
  // tcp_cleanup_rbuf: an ACK still owed goes now if more than one MSS is
  // unacknowledged, or if short (PUSHED) segments were all read and the
  // connection is interactive only one way (PUSHED2, or PUSHED outside
  // pingpong).
  const bool two_segments = sock.rcv_nxt - sock.rcv.wup > sock.rcv.mss;
  const bool pushed = sock.rcv.queued == 0 && (sock.rcv.pushed2 || (sock.rcv.pushed && !sock.rcv.pingpong));
  if (two_segments || pushed) run.EmitAck();
}

}  // namespace sendsim::packetdrill
