#include "packetdrill/code.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "absl/status/statusor.h"
#include "model/constants.h"
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
      {"tcpi_data_segs_out", static_cast<int64_t>(i.segs_out)},
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
  if (profile.tcp_info_total_rto && i.total_rto_known) {
    v["tcpi_total_rto"] = i.total_rto;
    v["tcpi_total_rto_recoveries"] = i.total_rto_recoveries;
    v["tcpi_total_rto_time"] = i.total_rto_time_ms;
  }
  return v;
}

// The fields the profile's kernel lacks (named, they SKIP saying so).
std::map<std::string, std::string> TcpiAbsent(const model::Profile& profile) {
  std::map<std::string, std::string> absent;
  if (!profile.tcp_info_total_rto) {
    for (const char* f : kTotalRtoFields) absent[f] = profile.name;
  }
  return absent;
}

}  // namespace

absl::Status RunCode(const RunState& run, int line, const std::string& code) {
  if (!run.sock.ep) return run.Skip(line, "%{ }% before the connection is established");
  absl::StatusOr<std::optional<std::string>> r =
      EvalAssertBlock(code, TcpiValues(run.sock, run.profile, run.loop.now()), TcpiAbsent(run.profile));
  if (!r.ok()) return run.At(line, r.status());
  if (*r) return run.Fail(line, **r);
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
