#include "packetdrill/code.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/peer.h"
#include "packetdrill/asserts.h"

namespace sendsim::packetdrill {
namespace {

// tcp_initialize_rcv_mss: min(advmss, mss_cache, rcv_wnd / 2, 536), at
// least TCP_MIN_MSS; the model receives no data that would raise it.
int64_t RcvMss(const Negotiated& neg, uint32_t mss_cache) {
  uint32_t hint = std::min<uint32_t>(neg.advmss, mss_cache);
  hint = std::min<uint32_t>(hint, neg.rcv_wnd / 2);
  hint = std::min<uint32_t>(hint, model::kTcpMssDefault);
  return std::max<uint32_t>(hint, model::kTcpMinMss);
}

// tcpi_state: FIN_WAIT1 once the FIN is queued (tcp_close_state), FIN_WAIT2
// once it is acknowledged; CLOSING after the peer's FIN crossed ours;
// CLOSE after a reset (tcp_done).
int64_t TcpiState(const ScriptSocket& s) {
  if (s.reset) return 7;  // CLOSE
  if (!s.fin_seq) return s.peer_fin ? 8 /* CLOSE_WAIT */ : 1;
  const bool fin_acked = s.have_last_ack && static_cast<int32_t>(s.last_ack - (*s.fin_seq + 1)) >= 0;
  if (s.peer_fin && s.peer_fin_first) return fin_acked ? 7 /* CLOSE */ : 9 /* LAST_ACK */;
  if (s.peer_fin) return fin_acked ? 6 /* TIME_WAIT */ : 11;
  return fin_acked ? 5 : 4;
}

// tcp_get_info: TCPI_OPT_ECN with ECN agreed, TCPI_OPT_ECN_SEEN once ECT
// or CE data arrived.
int64_t TcpiOptions(const ScriptSocket& s) {
  const Negotiated& neg = s.neg;
  return (neg.timestamps ? 1 : 0) | (neg.sack ? 2 : 0) | (neg.wscale_ok ? 4 : 0) | (neg.ecn ? 8 : 0) |
         (s.ecn_seen ? 16 : 0);
}

constexpr const char* kTotalRtoFields[] = {"tcpi_total_rto", "tcpi_total_rto_recoveries", "tcpi_total_rto_time"};
constexpr const char* kRcvWndRehashFields[] = {"tcpi_rcv_wnd", "tcpi_rehash"};


// The receive-side fields and why they are unknown, if they are.
void RcvFields(const ScriptSocket& s, const model::Profile& profile, std::map<std::string, int64_t>* v,
               std::map<std::string, std::string>* unknown) {
  const Negotiated& neg = s.neg;
  const uint32_t init_wnd = InitialRcvWnd(s, profile);
  const uint32_t ssthresh = InitRcvSsthresh(neg, init_wnd);
  // tcp_rcv_space_adjust moves rcvq_space.space only once there is a
  // receive RTT sample, and from v6.6 tcp_measure_rcv_mss rescales the
  // window clamp (and so space and rcv_ssthresh) by a full segment's
  // len / truesize, a host's allocation the model does not know.
  if (s.rcv.rtt_sampled || s.rcv.full_segment_seen) {
    (*unknown)["tcpi_rcv_space"] = "tcpi_rcv_space after a receive RTT sample or a full-sized data segment "
                                   "(tcp_rcv_space_adjust, the v6.6+ truesize scaling) is not modelled";
  } else {
    const uint32_t init_cwnd_bytes = static_cast<uint32_t>(model::kTcpInitCwnd) * neg.advmss;
    (*v)["tcpi_rcv_space"] = std::min<uint32_t>({ssthresh, init_wnd, init_cwnd_bytes});
  }
  // tcp_grow_window (data of 128 bytes and more, or out of order) raises it
  // by rules that weigh the skb's truesize.
  if (s.rcv.grow_window_ran || s.rcv.full_segment_seen) {
    (*unknown)["tcpi_rcv_ssthresh"] =
        "tcpi_rcv_ssthresh after 128 bytes of data in a segment (tcp_grow_window's truesize rules) is not modelled";
  } else {
    (*v)["tcpi_rcv_ssthresh"] = ssthresh;
  }
  // tp->rcv_wnd: the initial window until the socket sends a segment, then
  // what tcp_select_window offered (RunState::SelectWindow). Once data
  // arrived the free space depends on the truesize of what is queued.
  if (s.rcv_nxt != 1 || s.rcv.ooopack != 0) {
    (*unknown)["tcpi_rcv_wnd"] = "tcpi_rcv_wnd after inbound data (the receive buffer's truesize) is not modelled";
  } else if (profile.tcp_info_rcv_wnd_rehash) {
    (*v)["tcpi_rcv_wnd"] = s.rcv.wnd;
  }
  // tcp_rcv_rtt_measure*: 0 until the first sample.
  if (s.rcv.rtt_sampled) {
    (*unknown)["tcpi_rcv_rtt"] = "tcpi_rcv_rtt after a receive RTT sample is not modelled";
  } else {
    (*v)["tcpi_rcv_rtt"] = 0;
  }
  // jiffies_to_usecs(icsk_ack.ato); v6.x reports at most tcp_delack_max
  // (TCP_RTO_MIN - 1 jiffy: 196 ms at HZ 250), 6.1 the whole value.
  const int64_t delack_cap = s.hz / model::kTcpDelackMaxHzDivisor - 1;
  if (s.rcv.ato > delack_cap) {
    (*unknown)["tcpi_ato"] = "tcpi_ato above tcp_delack_max (capped differently by each kernel) is not modelled";
  } else {
    (*v)["tcpi_ato"] = s.rcv.ato * (1000000 / s.hz);
  }
}

// The names a code block may use, with their values now.
std::map<std::string, int64_t> TcpiValues(const ScriptSocket& s, const model::Profile& profile, model::TimeNs now) {
  const model::TcpInfo i = s.ep->socket().info();
  const Negotiated& neg = s.neg;
  std::map<std::string, int64_t> v = {
      {"tcpi_snd_cwnd", i.snd_cwnd},         {"tcpi_snd_ssthresh", i.snd_ssthresh},
      {"tcpi_snd_mss", i.snd_mss},           {"tcpi_advmss", neg.advmss},
      {"tcpi_rtt", i.rtt_us},                {"tcpi_unacked", i.unacked},
      {"tcpi_notsent_bytes", i.notsent_bytes}, {"tcpi_bytes_sent", static_cast<int64_t>(i.bytes_sent)},
      // An active open counts its SYN's sequence number (tcp_ack on the
      // SYN-ACK runs tcp_snd_una_update); a passive child starts at ISN + 1.
      // Checked on a 6.18 kernel: 0 vs 1 right after the handshake.
      {"tcpi_bytes_acked", static_cast<int64_t>(i.bytes_acked) + (s.active_open ? 1 : 0)}, {"tcpi_snd_wnd", i.snd_wnd},
      {"tcpi_snd_wscale", neg.snd_wscale},   {"tcpi_rcv_wscale", neg.rcv_wscale},
      {"tcpi_data_segs_out", static_cast<int64_t>(i.data_segs_out)},
      {"tcpi_rcv_mss", RcvMss(neg, i.snd_mss)}, {"tcpi_rto", i.rto_us},
      {"tcpi_ca_state", i.ca_state},         {"tcpi_retransmits", i.retransmits},
      {"tcpi_probes", i.probes},             {"tcpi_backoff", i.backoff},
      {"tcpi_lost", i.lost},                 {"tcpi_retrans", i.retrans},
      {"tcpi_sacked", i.sacked},             {"tcpi_reordering", i.reordering},
      {"tcpi_total_retrans", i.total_retrans}, {"tcpi_delivered", i.delivered},
      {"tcpi_delivered_ce", i.delivered_ce},              {"tcpi_dsack_dups", i.dsack_dups},
      {"tcpi_pacing_rate", i.pacing_rate > static_cast<uint64_t>(INT64_MAX) ? int64_t{-1}
                                                                          : static_cast<int64_t>(i.pacing_rate)},
      {"tcpi_busy_time", static_cast<int64_t>(i.busy_time_us)},
      {"tcpi_rwnd_limited", static_cast<int64_t>(i.rwnd_limited_us)},
      {"tcpi_sndbuf_limited", static_cast<int64_t>(i.sndbuf_limited_us)},
      {"tcpi_state", TcpiState(s)},          {"tcpi_options", TcpiOptions(s)},
      {"TCP_CA_Open", 0}, {"TCP_CA_Disorder", 1}, {"TCP_CA_CWR", 2}, {"TCP_CA_Recovery", 3}, {"TCP_CA_Loss", 4},
      {"TCP_ESTABLISHED", 1}, {"TCP_FIN_WAIT1", 4}, {"TCP_FIN_WAIT2", 5}, {"TCP_TIME_WAIT", 6},
      {"TCP_CLOSE", 7}, {"TCP_CLOSE_WAIT", 8}, {"TCP_LAST_ACK", 9}, {"TCP_CLOSING", 11},
      {"TCPI_OPT_TIMESTAMPS", 1}, {"TCPI_OPT_SACK", 2}, {"TCPI_OPT_WSCALE", 4}, {"TCPI_OPT_ECN", 8},
      {"TCPI_OPT_ECN_SEEN", 16},
  };
  // tcp_get_info: tcpi_rttvar is mdev_us / 4; tcpi_min_rtt the windowed
  // minimum RTT (~0U before a sample); the last_* times are
  // jiffies_to_msecs of the time since lsndtime and rcv_tstamp.
  v["tcpi_rttvar"] = i.rttvar_us;
  v["tcpi_min_rtt"] = i.min_rtt_us;
  v["tcpi_bytes_retrans"] = static_cast<int64_t>(i.bytes_retrans);
  v["tcpi_last_data_sent"] = i.last_data_sent_ms;
  v["tcpi_last_ack_recv"] = i.last_ack_recv_ms;
  // icsk_ack.lrcvtime: the last data the receive side took, else the
  // connection's creation (the model's own clock).
  if (s.rcv.ato != 0) {
    const int64_t now_jiffies = now / (model::kNsPerSec / s.hz);
    v["tcpi_last_data_recv"] = (now_jiffies - s.rcv.lrcv_jiffies) * 1000 / s.hz;
  } else {
    v["tcpi_last_data_recv"] = i.last_data_recv_ms;
  }
  // tcp_rcv_nxt_update: every in-order byte, the FIN's sequence number
  // included (rcv_nxt starts at the peer's ISN + 1, script sequence 1).
  v["tcpi_bytes_received"] = static_cast<uint32_t>(s.rcv_nxt - 1);
  v["tcpi_pmtu"] = i.pmtu;
  // __tcp_transmit_skb counts every segment (the runner's SYN and ACKs,
  // the model's data), tcp_segs_in every segment the socket took.
  v["tcpi_segs_out"] = static_cast<int64_t>(i.segs_out + s.tcpi.segs_out);
  v["tcpi_segs_in"] = static_cast<int64_t>(s.tcpi.segs_in);
  v["tcpi_data_segs_in"] = static_cast<int64_t>(s.tcpi.data_segs_in);
  v["tcpi_reord_seen"] = i.reord_seen;
  // tcp_rate.c's last recorded sample (model/rate.cc).
  v["tcpi_delivery_rate"] = static_cast<int64_t>(i.delivery_rate);
  v["tcpi_delivery_rate_app_limited"] = i.delivery_rate_app_limited ? 1 : 0;
  v["tcpi_rcv_ooopack"] = s.rcv.ooopack;
  // tcp_get_info leaves these 0: no FACK counter, no last-ACK-sent time,
  // and no Fast Open (the runner skips it).
  v["tcpi_fackets"] = 0;
  v["tcpi_last_ack_sent"] = 0;
  v["tcpi_fastopen_client_fail"] = 0;
  // sk_max_pacing_rate: ~0 (unlimited) without SO_MAX_PACING_RATE, which
  // the runner does not model; -1 stands for ~0 as in tcpi_pacing_rate.
  v["tcpi_max_pacing_rate"] = -1;
  // tcp_write_timeout: every retransmission timeout that does not end the
  // connection picks a new flow hash (timeout_rehash; sk_txhash is set and
  // net.core.txrehash on by default): the established RTOs and our SYN's.
  // A passive open's SYN-ACK timeouts ran on the request socket.
  if (profile.tcp_info_rcv_wnd_rehash) {
    v["tcpi_rehash"] = static_cast<int64_t>(i.total_rto) + (s.active_open ? s.syn_retransmits : 0);
  }
  if (profile.tcp_info_total_rto && i.total_rto_known) {
    v["tcpi_total_rto"] = i.total_rto;
    v["tcpi_total_rto_recoveries"] = i.total_rto_recoveries;
    v["tcpi_total_rto_time"] = i.total_rto_time_ms;
  }
  return v;
}

// The fields the profile's kernel lacks, and those whose value now the
// runner does not know (named, they SKIP saying why).
std::map<std::string, std::string> TcpiAbsent(const model::Profile& profile) {
  std::map<std::string, std::string> absent;
  auto lacks = [&](const char* f) { absent[f] = absl::StrFormat("%s is not in %s's struct tcp_info", f, profile.name); };
  if (!profile.tcp_info_total_rto) {
    for (const char* f : kTotalRtoFields) lacks(f);
  }
  if (!profile.tcp_info_rcv_wnd_rehash) {
    for (const char* f : kRcvWndRehashFields) lacks(f);
  }
  return absent;
}

}  // namespace

absl::Status RunCode(const RunState& run, int line, const std::string& code) {
  if (!run.sock.ep) return run.Skip(line, "%{ }% before the connection is established");
  std::map<std::string, int64_t> values = TcpiValues(run.sock, run.profile, run.loop.now());
  std::map<std::string, std::string> absent = TcpiAbsent(run.profile);
  RcvFields(run.sock, run.profile, &values, &absent);
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, values, absent);
  if (!r.ok()) return run.At(line, r.status());
  if (*r) return run.Fail(line, **r);
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
