#include "packetdrill/inject.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/wire.h"
#include "packetdrill/handshake.h"
#include "packetdrill/keepalive.h"
#include "packetdrill/match.h"
#include "packetdrill/receive.h"
#include "packetdrill/reset.h"
#include "packetdrill/seq.h"
#include "packetdrill/socket_config.h"
#include "packetdrill/syn_retransmit.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/teardown.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

// The peer's FIN again, as it came (with the data it carried, if any),
// after we took it: rcv_nxt is one past it (teardown.cc answers it).
bool IsRetransmittedFin(const ScriptSocket& sock, const PacketEvent& p) {
  return sock.peer_fin && (p.flags & kFlagFin) && p.seq_start + p.len + 1 == sock.rcv_nxt;
}

// Inbound packets the model cannot receive: a skip reason.
// tcp_segs_in: tcp_v4_rcv counts every segment the connection's socket
// takes, before any check. A passive open's child starts at 1 for its SYN
// (tcp_create_openreq_child) and counts the ACK that creates it
// (tcp_child_process); the listener's and the request's segments count
// nowhere.
void CountSegIn(ScriptSocket& sock, const PacketEvent& p) {
  bool conn = false;
  switch (sock.phase) {
    case SocketPhase::kSynSent:
    case SocketPhase::kEstablished:
      conn = true;
      break;
    case SocketPhase::kClosed:
      conn = sock.ep != nullptr;
      break;
    case SocketPhase::kSynRcvd:
      if ((p.flags & kFlagAck) && !(p.flags & (kFlagSyn | kFlagRst))) {
        sock.tcpi = {.segs_in = 1};
        conn = true;
      }
      break;
    default:
      break;
  }
  if (!conn) return;
  ++sock.tcpi.segs_in;
  if (p.len != 0) ++sock.tcpi.data_segs_in;
}

absl::Status UnmodelledInbound(const RunState& run, const PacketEvent& p) {
  const bool syn = p.flags & kFlagSyn, ack = p.flags & kFlagAck;
  if (p.flags & kFlagRst) return absl::UnimplementedError("inbound RST: connection reset is not modelled");
  if ((p.flags & kFlagFin) && (syn || !ack)) return absl::UnimplementedError("inbound FIN without ACK or with SYN");
  if ((p.flags & kFlagFin) && run.sock.peer_fin && !IsRetransmittedFin(run.sock, p)) {
    return absl::UnimplementedError("a second inbound FIN other than the first's retransmission is not modelled");
  }
  return UrgentOrEcn(p);
}

// The peer's SYN or SYN-ACK fixes the handshake's choices. packetdrill: its
// sequence number is the remote ISN, and every later inbound seq and
// outbound ack is relative to it (script value 1 = ISN + 1), whatever the
// ISN was.
void NegotiateWithPeer(RunState& run, const PacketEvent& p) {
  const PeerSyn peer = PeerSynFromOptions(p.options, *p.win);
  run.sock.neg = Negotiate(run.settings, HandshakeOpts(run.sock.listen_opts), &peer, run.profile.initial_rwnd_capped,
                          run.profile.initial_rcv_wnd_u16_max);
  run.sock.rcv_nxt = 1;
  run.sock.rcv.wup = 1;
  run.sock.rcv.wnd = InitialRcvWnd(run.sock, run.profile);
}

// The model socket refuses none of the options a listener passes on, except
// in a broken endpoint: a FAIL.
absl::Status InheritOptions(RunState& run, int line) {
  const SockOpts& o = run.sock.listen_opts;
  model::Socket& sock = run.sock.ep->socket();
  if (o.cork && sock.setsockopt(model::SockOpt::kTcpCork, 1) != 0) {
    return run.Fail(line, "model refused the inherited TCP_CORK");
  }
  // tcp_notsent_lowat: the inherited socket option, else the sysctl (live).
  if (o.notsent_lowat != 0 && sock.setsockopt(model::SockOpt::kTcpNotsentLowat, o.notsent_lowat) != 0) {
    return run.Fail(line, "model refused TCP_NOTSENT_LOWAT");
  }
  if (o.user_mss != 0) sock.setsockopt(model::SockOpt::kTcpMaxseg, o.user_mss);
  if (o.user_timeout_ms != 0) sock.setsockopt(model::SockOpt::kTcpUserTimeout, o.user_timeout_ms);
  if (o.tsflags != 0) sock.setsockopt(model::SockOpt::kSoTimestamping, o.tsflags);  // sk_clone_lock copies sk_tsflags
  StartConnectionTimers(run);
  return absl::OkStatus();
}

// The handshake is over: build the established model socket.
absl::Status Establish(RunState& run, int line, uint32_t peer_window, TimeNs rtt) {
  const Settings& s = run.settings;
  // tcp_mtup_init: icsk_mtup.enabled = tcp_mtu_probing > 1 (the model's
  // tcp_mtu_probe); at 1 nothing changes until black-hole detection (runner.cc).
  if (s.tcp_mtu_probing > 1 && s.ipv6) return run.Skip(line, "MTU probing over IPv6 is not modelled");
  if (absl::Status st = UnmodelledSysctls(s); !st.ok()) return run.At(line, st);
  EndpointParams ep;
  ep.config = SocketConfigFor(s, run.sock.neg, run.sock.listen_opts);
  if (run.sock.neg.mss_cache < model::kTcpMinMss) {
    return run.Skip(line, absl::StrFormat("the peer's MSS makes Linux send %d-byte segments (tcp_mtu_to_mss floors at "
                                          "48 before options); the model needs at least %d (TCP_MIN_MSS)",
                                          run.sock.neg.mss_cache, model::kTcpMinMss));
  }
  run.sock.hz = ep.config.hz;
  ep.profile = run.profile;
  ep.initial_window = peer_window;
  ep.snd_wl1 = run.sock.snd_wl1 - 1;  // tcp_init_wl, in the model's numbering
  ep.handshake_rtt_ns = rtt;
  ep.passive_open = !run.sock.active_open;
  ep.peer_dropped_timestamps = run.sock.active_open && s.tcp_timestamps != 0 && !run.sock.neg.timestamps;
  // Our SYN's or SYN-ACK's retransmissions; a passive open's child starts
  // with no icsk_backoff (tcp_create_openreq_child: total_retrans only).
  ep.syn_retransmits = run.sock.syn_retransmits;
  if (run.sock.active_open) {
    ep.syn_backoff = run.sock.syn_backoff;
  } else {
    ep.synack_answers = run.sock.syn_retransmits - run.sock.req.num_timeout;
  }
  absl::StatusOr<std::unique_ptr<Endpoint>> made =
      run.factory(&run.loop, ep, [&run](const model::XmitSkb& skb) { OnXmit(run, skb); });
  if (!made.ok()) {
    if (made.status().code() == absl::StatusCode::kUnimplemented) {
      return run.Skip(line, std::string(made.status().message()));
    }
    return run.Fail(line, absl::StrFormat("cannot build the model socket: %s", made.status().message()));
  }
  run.sock.ep = *std::move(made);
  run.sock.phase = SocketPhase::kEstablished;
  // sk_stream_write_space wakes pollers with POLLOUT; it runs inside ACK
  // processing, and Wakeup only marks epoll items ready.
  run.sock.ep->socket().set_write_space_callback(
      [&run] { run.sock.Wakeup(true, kPollOut | kPollWrnorm | kPollWrband); });
  // An active open completes in tcp_finish_connect (sk_state_change); a
  // passive one makes the listener readable (its sk_data_ready).
  if (run.sock.active_open) {
    run.sock.Wakeup(true, 0);
  } else {
    run.sock.Wakeup(false, kPollIn | kPollPri | kPollRdnorm | kPollRdband);
  }
  run.sock.conn_opts = run.sock.listen_opts;
  return InheritOptions(run, line);
}

// Passive open: the listener answers the peer's SYN with its SYN-ACK.
absl::Status OnSyn(RunState& run, const Event& e, const PacketEvent& p) {
  if (OnRepeatedSyn(run, p.seq_start)) return absl::OkStatus();
  if (run.sock.phase != SocketPhase::kListen) return run.Skip(e.line, "SYN to a socket that is not listening");
  if (p.len != 0) return run.Skip(e.line, "data on SYN (Fast Open) is not modelled");
  NegotiateWithPeer(run, p);
  // tcp_ecn_create_request: a SYN with ECE and CWR, itself Not-ECT, gets
  // ECN unless tcp_ecn is 0 (per-route ECN features are not modelled); the
  // SYN-ACK says yes with ECE alone (tcp_ecn_make_synack).
  run.sock.neg.ecn = (p.flags & (kFlagEce | kFlagCwr)) == (kFlagEce | kFlagCwr) &&
                     InboundEcn(p.ecn) == kEcnNotEct && run.settings.tcp_ecn != 0;
  run.EmitSyn(kFlagSyn | kFlagAck | (run.sock.neg.ecn ? kFlagEce : 0), run.sock.rcv_nxt, run.sock.last_peer_tsval);
  run.sock.synack_at = run.loop.now();
  run.sock.phase = SocketPhase::kSynRcvd;
  ArmSynAckRetransmit(run, p.seq_start, run.sock.last_peer_tsval);
  return absl::OkStatus();
}

// The RTT sample that ends the handshake, from our first SYN (or SYN-ACK)
// sent at `first` (active: tcp_clean_rtx_queue, tcp_ack_update_rtt;
// passive: tcp_synack_rtt_meas). Karn: none once the SYN or SYN-ACK was
// retransmitted, except through the timestamp echo, counted in ms
// (tcp_rtt_tsopt_us, at least 1 ms); the runner's peer echoes our latest
// TS val, i.e. the last SYN's or SYN-ACK's (the kernel target rewrites an
// inbound echo to it too).
TimeNs HandshakeRtt(const RunState& run, TimeNs first) {
  const TimeNs now = run.loop.now();
  if (run.sock.syn_retransmits == 0) return now - first;
  if (!run.sock.neg.timestamps) return 0;
  const TimeNs ms = now / model::kNsPerMs - run.sock.last_syn_at / model::kNsPerMs;
  return std::max<TimeNs>(ms, 1) * model::kNsPerMs;
}

// Active open: the peer's SYN-ACK completes our connect().
absl::Status OnSynAck(RunState& run, const Event& e, const PacketEvent& p) {
  if (run.sock.phase != SocketPhase::kSynSent) return run.Skip(e.line, "SYN-ACK without a pending connect");
  if (*p.ack != 1) return run.Fail(e.line, absl::StrFormat("SYN-ACK acknowledges %u, our SYN was 0:0", *p.ack));
  StopSynRetransmit(run);
  NegotiateWithPeer(run, p);
  // tcp_rcv_synsent_state_process: tcp_init_wl at the SYN-ACK's seq, the
  // window unscaled.
  run.sock.snd_wl1 = p.seq_start;
  run.sock.snd_wnd = *p.win;
  // tcp_ecn_rcv_synack: our ECN SYN is answered yes by ECE without CWR.
  run.sock.neg.ecn = run.sock.ecn_syn && (p.flags & (kFlagEce | kFlagCwr)) == kFlagEce;
  // tcp_rcv_synsent_state_process: the handshake ACK leaves at once.
  run.EmitAck();
  return Establish(run, e.line, *p.win, HandshakeRtt(run, run.sock.syn_at));
}

// Passive open: the peer's ACK of our SYN-ACK.
absl::Status OnHandshakeAck(RunState& run, const Event& e, const PacketEvent& p) {
  if (*p.ack != 1) return run.Skip(e.line, absl::StrFormat("handshake ACK acknowledges %u instead of 1", *p.ack));
  const uint32_t win = run.sock.PeerWindow(*p.win);
  // tcp_rcv_state_process in SYN_RECV: tcp_init_wl at this ACK's seq.
  run.sock.snd_wl1 = p.seq_start;
  run.sock.snd_wnd = win;
  run.sock.RecordAck(*p.ack, win);
  StopSynRetransmit(run);
  return Establish(run, e.line, win, HandshakeRtt(run, run.sock.synack_at));
}

// tcp_fin: the peer's FIN was reached (rcv_nxt is past it), before the
// model socket takes the segment's ACK, as tcp_data_queue runs before
// tcp_data_snd_check.
void OnPeerFin(RunState& run) {
  ScriptSocket& sock = run.sock;
  sock.peer_fin = true;
  sock.rcv.ack_sched = true;  // inet_csk_schedule_ack
  sock.Wakeup(true, 0);  // tcp_fin -> sk_state_change
  if (sock.fin_seq) {
    // tcp_fin in FIN_WAIT1 (-> CLOSING) or FIN_WAIT2 (-> TIME_WAIT): the
    // FIN is acknowledged at once (tcp_send_ack, seq = snd_nxt).
    run.EmitAck();
    return;
  }
  // ESTABLISHED -> CLOSE_WAIT: pingpong mode, so __tcp_ack_snd_check
  // (AckSndCheck) delays the ACK by ato, unless a gap it filled makes it
  // immediate. Any segment sent before then carries the ACK instead
  // (tcp_event_ack_sent).
  sock.peer_fin_first = true;
  sock.rcv.pingpong = true;
}

// An ACK (maybe with FIN) on the established or closing connection: a
// segment for the model socket.
absl::Status OnAck(RunState& run, const Event& e, const PacketEvent& p) {
  const bool data = p.len != 0;
  ScriptSocket& sock = run.sock;
  if (sock.phase != SocketPhase::kEstablished && sock.phase != SocketPhase::kClosed) {
    return run.Skip(e.line, "inbound segment before the connection exists");
  }
  const uint32_t win = sock.PeerWindow(*p.win);
  // SACK blocks go to the model's scoreboard (script sequence numbers less
  // one, as the ack), a D-SACK block first among them (tcp_check_dsack:
  // below the ACK, or inside the second block), which may undo a
  // reduction.
  std::vector<std::pair<uint32_t, uint32_t>> sack;
  for (const TcpOption& o : p.options) {
    if (o.kind != TcpOption::Kind::kSack) continue;
    for (const auto& [a, b] : o.sack) sack.emplace_back(a - 1, b - 1);
  }
  // tcp_ack: an ACK below snd_una takes the old_ack path.
  const bool old_ack = sock.have_last_ack && SeqBefore(*p.ack, sock.last_ack);
  // That path tags an old ACK's SACK blocks and may run
  // tcp_fastretrans_alert; the model ignores an ACK below snd_una whole.
  if (!sack.empty() && old_ack) {
    return run.Skip(e.line, "SACK blocks on an ACK below snd_una (tcp_ack's old_ack path) are not modelled");
  }
  // The old_ack path skips tcp_ecn_accept_cwr; so does a segment
  // tcp_sequence drops.
  if (!old_ack && !OldSequence(sock, p)) EcnAcceptCwr(run, p);
  // tcp_rcv_established (not tcp_rcv_state_process, after a FIN either way).
  if (!OldSequence(sock, p) && !sock.peer_fin && !sock.fin_seq) RcvRttMeasureTs(run, p);
  if (!old_ack && !OldSequence(sock, p)) sock.UpdateWindow(*p.ack, p.seq_start, win);
  sock.RecordAck(*p.ack, win);
  // tcp_rcv_established: tcp_ack, then tcp_data_queue, then
  // tcp_data_snd_check (in the model's OnSegment below) and tcp_ack_snd_check.
  // The data is queued first so that what the model sends acknowledges it.
  const bool fin_again = IsRetransmittedFin(sock, p);
  DataArrival arrival;
  // In CLOSE_WAIT new data is not looked at (tcp_rcv_state_process's step
  // 7 skips tcp_data_queue): no ACK, nothing to read.
  const bool queued = !fin_again && !sock.peer_fin && (data || (p.flags & kFlagFin));  // tcp_data_queue's
  if (queued) {
    arrival = DataQueue(run, p);
    if (arrival.discard) {
      // tcp_validate_incoming: the duplicate ACK, and nothing else.
      run.EmitAck();
      return absl::OkStatus();
    }
  }
  model::Segment seg;
  seg.sent_at = run.loop.now();
  seg.seq = p.seq_start - 1;
  seg.len = p.len;  // FLAG_DATA: a segment with data is no duplicate ACK
  seg.sack = std::move(sack);
  seg.flags = model::kTcpAck | (p.flags & kFlagEce);  // the model heeds ECE only with ECN agreed
  if (p.flags & kFlagFin) seg.flags |= model::kTcpFin;  // FLAG_DATA: a FIN is no duplicate ACK either
  seg.ack = *p.ack - 1;  // the model's FIN takes a sequence number, as Linux's
  seg.win = win;
  // tcp_data_queue -> tcp_fin runs before tcp_data_snd_check: in FIN_WAIT1
  // its immediate ACK leaves ahead of a FIN that was waiting for cwnd
  // (shutdown_fin_v6_12.pkt), and whatever the model sends acks the FIN.
  // A FIN that stays out of order waits in the queue (DataQueue).
  if (arrival.fin) OnPeerFin(run);
  sock.ep->OnSegment(seg);
  // __msg_zerocopy_callback -> sk_error_report: acked zerocopy skbs queue
  // notifications and wake pollers with EPOLLERR.
  if (const uint64_t r = sock.ep->socket().errqueue_reports(); r != sock.errqueue_reports) {
    sock.errqueue_reports = r;
    sock.Wakeup(true, kPollErr);
  }
  if (queued) {
    if (absl::Status st = AckSndCheck(run); !st.ok()) return run.At(e.line, st);
  }
  // The state switch after tcp_ack (LAST_ACK ends, TIME_WAIT begins); a
  // repeated FIN is then answered by a socket still whole.
  AfterInboundAck(run);
  // The peer's FIN again (seq rcv_nxt - 1) in CLOSE_WAIT, CLOSING or
  // LAST_ACK: tcp_data_queue's old-segment path (tcp_dsack_set, quick-ACK
  // mode) acknowledges it at once.
  if (fin_again && !sock.reset) SendDupAck(run, p);
  return absl::OkStatus();
}

}  // namespace

absl::Status InjectPacket(RunState& run, const Event& e, const PacketEvent& p) {
  if (HasMd5(p)) {
    // tcp_v4_rcv checks the MD5 option (tcp_v4_inbound_md5_hash; from v6.7
    // tcp_inbound_hash) before a listener, request or full socket sees the
    // segment, and before tcp_segs_in: we hold no TCP_MD5SIG key, so a
    // signed segment is unexpected and dropped. With no socket at all,
    // tcp_v4_send_reset answers a signed segment only under a listener's
    // key: never here. Either way nothing happens. A timewait socket is not
    // checked (6.18 answers a signed FIN there with its ACK), but its RST
    // (TCP_TW_RST, FIN_WAIT2 substate) would be withheld: not modelled.
    if (!run.sock.tw.alive) return absl::OkStatus();
    if (run.sock.tw.fin_wait2) {
      return run.Skip(e.line, "an MD5-signed segment to a FIN_WAIT2 timewait socket is not modelled");
    }
  }
  if (run.sock.tw.alive) return OnTimeWaitSegment(run, e, p);
  const bool gone = ConnectionGone(run);
  if (!gone) CountSegIn(run.sock, p);
  if (gone || ((p.flags & kFlagRst) && run.sock.ep)) {
    if ((p.flags & kFlagAck) && !p.ack) return run.Fail(e.line, "inbound packet with the ACK flag '.' needs 'ack N'");
    return gone ? OnStraySegment(run, e, p) : OnInboundRst(run, e, p);
  }
  // tcp_rcv_state_process in LISTEN discards a RST.
  if ((p.flags & kFlagRst) && run.sock.phase == SocketPhase::kListen && run.sock.listening) return absl::OkStatus();
  if ((p.flags & kFlagRst) && !(p.flags & kFlagSyn) &&
      (run.sock.phase == SocketPhase::kSynSent || run.sock.phase == SocketPhase::kSynRcvd)) {
    if ((p.flags & kFlagAck) && !p.ack) return run.Fail(e.line, "inbound packet with the ACK flag '.' needs 'ack N'");
    return OnHandshakeRst(run, p);
  }
  if (absl::Status st = UnmodelledInbound(run, p); !st.ok()) return run.At(e.line, st);
  const bool syn = p.flags & kFlagSyn, ack = p.flags & kFlagAck;
  if (ack && !p.ack) return run.Fail(e.line, "inbound packet with the ACK flag '.' needs 'ack N'");
  // tcp_validate_incoming's PAWS test comes first: a segment whose TS val
  // is older than ts_recent (and is no disordered ACK) is dropped after a
  // duplicate ACK, which tcp_oow_rate_limited holds back for a segment
  // without data (or FIN) when one went out within tcp_invalid_ratelimit.
  if (!syn && ack && PawsDiscard(run, p)) {
    if (EndSeq(p) == p.seq_start && OowRateLimited(run, &run.sock.last_oow_ack_jiffies)) return absl::OkStatus();
    SendDupAck(run, p);
    return absl::OkStatus();
  }
  // tcp_ack: an ACK of data never sent (after snd_nxt) drops the whole
  // segment, data and all, before ts_recent or the window moves; v6.18
  // answers it with a challenge ACK. Only the established connection's path
  // (tcp_rcv_established) is modelled.
  if (!syn && ack && !(p.flags & kFlagRst) && SeqAfter(*p.ack, run.sock.snd_nxt) && run.sock.ep &&
      !OldSequence(run.sock, p)) {
    if (run.sock.phase != SocketPhase::kEstablished || run.sock.fin_seq || run.sock.peer_fin) {
      return run.Skip(e.line, "an ACK of data never sent after a FIN (tcp_rcv_state_process) is not modelled");
    }
    if (run.profile.ack_unsent_challenge) ChallengeAck(run);
    return absl::OkStatus();
  }
  // tcp_replace_ts_recent: on the connection only a segment that starts at
  // or before rcv_wup (within what our last ACK covered) updates
  // ts_recent; out-of-order data, or data behind a delayed ACK, does not.
  // Nor does one that ends before rcv_wup: tcp_sequence drops it before
  // tcp_ack. ts_recent moves only forward (tcp_paws_check with window 0),
  // unless it is still 0.
  const bool established = run.sock.ep && run.sock.phase == SocketPhase::kEstablished;
  const bool no_ts_update =
      established && (SeqAfter(p.seq_start, run.sock.rcv.wup) || OldSequence(run.sock, p));
  if (const TcpOption* ts = FindTimestamp(p); ts != nullptr && !no_ts_update) {
    const uint32_t ts_recent = run.sock.last_peer_tsval;
    if (!established || ts_recent == 0 || static_cast<int32_t>(ts_recent - ts->ts_val) <= 0) {
      run.sock.last_peer_tsval = ts->ts_val;
      run.sock.ts_recent_at = run.loop.now();
    }
  }
  if (syn) return ack ? OnSynAck(run, e, p) : OnSyn(run, e, p);
  // tcp_rcv_state_process in LISTEN: an ACK with no handshake pending (its
  // request was dropped by a RST) is answered with a RST (tcp_v4_send_reset).
  if (ack && run.sock.phase == SocketPhase::kListen && run.sock.listening) return OnStraySegment(run, e, p);
  if (!ack) {
    // Linux drops a segment that carries none of ACK, RST and SYN before it
    // looks at its sequence numbers or data (tcp_rcv_established's slow
    // path and tcp_rcv_state_process): nothing is queued or acknowledged.
    // Without any socket to take it the kernel would answer with a RST.
    const SocketPhase ph = run.sock.phase;
    if (ph == SocketPhase::kListen || ph == SocketPhase::kSynRcvd || ph == SocketPhase::kSynSent ||
        ph == SocketPhase::kEstablished || (ph == SocketPhase::kClosed && run.sock.ep)) {
      return absl::OkStatus();
    }
    return run.Skip(e.line, "inbound segment without ACK after the handshake");
  }
  if (p.len != 0 && !IsRetransmittedFin(run.sock, p)) {
    if (run.sock.phase != SocketPhase::kEstablished) return run.Skip(e.line, "inbound data before the connection is established (or after close) is not modelled");
    // tcp_rcv_state_process in CLOSE_WAIT ignores the text of a segment
    // at or past rcv_nxt (OnAck); one reaching back below it would meet
    // RCV_SHUTDOWN's reset or tcp_data_queue.
    if (run.sock.peer_fin && SeqBefore(p.seq_start, run.sock.rcv_nxt)) {
      return run.Skip(e.line, "inbound data after the peer's FIN");
    }
  }
  if ((p.flags & kFlagFin) && p.seq_start != run.sock.rcv_nxt && !IsRetransmittedFin(run.sock, p)) {
    // Out of order, or below data received (a peer that moved its FIN).
    if (!SeqAfter(p.seq_start + p.len + 1, run.sock.rcv_nxt)) return run.Skip(e.line, "an inbound FIN below data already received is not modelled");
    if (run.sock.phase != SocketPhase::kEstablished) return run.Skip(e.line, "an out-of-order inbound FIN after close() is not modelled");
  }
  if (run.sock.phase == SocketPhase::kEstablished && (p.len != 0 || (p.flags & kFlagFin)) &&
      !IsRetransmittedFin(run.sock, p)) {
    if (absl::Status st = UnmodelledData(run, p); !st.ok()) return run.At(e.line, st);
  }
  if (run.sock.phase == SocketPhase::kSynRcvd) return OnHandshakeAck(run, e, p);
  return OnAck(run, e, p);
}

}  // namespace sendsim::packetdrill
