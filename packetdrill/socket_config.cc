#include "packetdrill/socket_config.h"

#include <algorithm>

#include "model/constants.h"
#include "scenario/build.h"
#include "scenario/scenario.h"

namespace sendsim::packetdrill {

LocalSockOpts HandshakeOpts(const SockOpts& o) {
  LocalSockOpts l;
  l.user_mss = o.user_mss;
  l.rcvbuf = o.rcvbuf;
  return l;
}

model::ConnectionConfig SocketConfigFor(const Settings& s, const Negotiated& neg, const SockOpts& opts) {
  scenario::Scenario sc;
  sc.mss = neg.mss_cache;
  sc.mtu = neg.pmtu;
  sc.tcp.mss_clamp = neg.mss_clamp;
  sc.timestamps = neg.timestamps;
  sc.tcp.sack = neg.sack;
  sc.tso = s.tso;
  sc.nodelay = opts.nodelay;
  sc.sndbuf = opts.sndbuf > 0 ? static_cast<uint32_t>(opts.sndbuf) : 0;
  sc.tcp.initcwnd = s.route_initcwnd.value_or(model::kTcpInitCwnd);
  const std::string& cc = opts.cc.empty() ? s.tcp_congestion_control : opts.cc;
  sc.tcp.cc = cc == "reno" ? model::CongestionControl::kReno : model::CongestionControl::kCubic;
  // Sysctls the sender reads at the point of use, so a mid-script command
  // reaches the live socket with them.
  sc.autocorking = s.tcp_autocorking != 0;
  sc.tcp.slow_start_after_idle = s.tcp_slow_start_after_idle != 0;
  model::TcpSysctls& sys = sc.tcp.sysctl;
  std::copy(s.tcp_wmem, s.tcp_wmem + 3, sys.wmem);
  sys.min_tso_segs = s.tcp_min_tso_segs;
  sys.tso_win_divisor = s.tcp_tso_win_divisor;
  sys.pacing_ss_ratio = s.tcp_pacing_ss_ratio;
  sys.pacing_ca_ratio = s.tcp_pacing_ca_ratio;
  sys.frto = s.tcp_frto;
  sys.notsent_lowat = s.tcp_notsent_lowat;
  sys.mtu_probing = static_cast<uint32_t>(std::max(s.tcp_mtu_probing, 0));
  sys.base_mss = s.tcp_base_mss;
  sys.probe_threshold = s.tcp_probe_threshold;
  sys.wmem_max = s.wmem_max;
  // The script is the wire: no delay, TX completes at once (tun orphans
  // skbs), calls take no time.
  sc.rtt_ns = 0;
  sc.tx_completion_ns = 0;
  sc.call_cost_ns = 0;
  model::ConnectionConfig c = scenario::BuildConnectionConfig(sc, {.track_payload = false, .full_trace = false});
  c.ecn = neg.ecn;
  c.route_mtu_metric = s.route_mtu_metric;
  c.route_mtu_locked = s.route_mtu_lock;
  return c;
}

absl::Status UnmodelledSysctls(const Settings& s) {
  if (s.tcp_min_tso_segs == 0) return absl::UnimplementedError("tcp_min_tso_segs 0 is outside the sysctl's range");
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
