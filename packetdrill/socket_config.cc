#include "packetdrill/socket_config.h"

#include <algorithm>

#include "model/constants.h"

namespace sendsim::packetdrill {

LocalSockOpts HandshakeOpts(const SockOpts& o) {
  LocalSockOpts l;
  l.user_mss = o.user_mss;
  l.rcvbuf = o.rcvbuf;
  return l;
}

model::ConnectionConfig SocketConfigFor(const Settings& s, const Negotiated& neg, const SockOpts& opts) {
  model::ConnectionConfig c;
  c.mss = neg.mss_cache;
  c.mtu = neg.pmtu;
  c.mss_clamp = neg.mss_clamp;
  c.timestamps = neg.timestamps;
  c.sack = neg.sack;
  c.tso = s.tso;
  c.nodelay = opts.nodelay;
  c.sndbuf = opts.sndbuf > 0 ? static_cast<uint32_t>(opts.sndbuf) : 0;
  c.initcwnd = s.route_initcwnd.value_or(model::kTcpInitCwnd);
  const std::string& cc = opts.cc.empty() ? s.tcp_congestion_control : opts.cc;
  c.cc = cc == "reno" ? model::CongestionControl::kReno : model::CongestionControl::kCubic;
  // Sysctls the sender reads at the point of use, so a mid-script command
  // reaches the live socket with them.
  c.autocorking = s.tcp_autocorking != 0;
  c.slow_start_after_idle = s.tcp_slow_start_after_idle != 0;
  std::copy(s.tcp_wmem, s.tcp_wmem + 3, c.sysctl.wmem);
  c.sysctl.min_tso_segs = s.tcp_min_tso_segs;
  c.sysctl.tso_win_divisor = s.tcp_tso_win_divisor;
  c.sysctl.pacing_ss_ratio = s.tcp_pacing_ss_ratio;
  c.sysctl.pacing_ca_ratio = s.tcp_pacing_ca_ratio;
  c.sysctl.notsent_lowat = s.tcp_notsent_lowat;
  c.sysctl.mtu_probing = static_cast<uint32_t>(std::max(s.tcp_mtu_probing, 0));
  c.sysctl.base_mss = s.tcp_base_mss;
  c.sysctl.probe_threshold = s.tcp_probe_threshold;
  c.sysctl.wmem_max = s.wmem_max;
  c.one_way_delay_ns = 0;
  c.tx_completion_ns = 0;
  c.call_cost_ns = 0;
  c.track_payload = false;
  c.full_trace = false;
  return c;
}

absl::Status UnmodelledSysctls(const Settings& s) {
  if (s.tcp_min_tso_segs == 0) return absl::UnimplementedError("tcp_min_tso_segs 0 is outside the sysctl's range");
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
