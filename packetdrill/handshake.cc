#include "packetdrill/handshake.h"

#include <algorithm>

namespace sendsim::packetdrill {
namespace {

constexpr uint32_t kTcpMssDefault = 536;      // TCP_MSS_DEFAULT: peer sent no MSS option
constexpr uint32_t kTcpMinSndMss = 48;        // TCP_MIN_SND_MSS, the tcp_min_snd_mss default
constexpr uint32_t kTsOptionLen = 12;         // TCPOLEN_TSTAMP_ALIGNED
constexpr uint32_t kIpv4TcpHeaders = 40;      // IPv4 + TCP base headers
constexpr uint32_t kIpv6TcpHeaders = 60;      // IPv6 + TCP base headers
constexpr uint32_t kDefaultInitRwnd = 20;     // tcp_default_init_rwnd (TCP_INIT_CWND * 2)
constexpr uint32_t kInitRwndMssCutoff = 1460;  // tcp_default_init_rwnd scales down above this MSS
constexpr uint8_t kMaxWscale = 14;            // TCP_MAX_WSCALE

// tcp_default_init_rwnd (v4.19): segments of the initial window.
uint32_t DefaultInitRwnd(uint32_t mss) {
  if (mss <= kInitRwndMssCutoff) return kDefaultInitRwnd;
  return std::max<uint32_t>(kInitRwndMssCutoff * kDefaultInitRwnd / mss, 2);
}

int Ilog2(uint64_t v) {
  int r = -1;
  while (v != 0) {
    v >>= 1;
    ++r;
  }
  return r;
}

TcpOption Opt(TcpOption::Kind k, uint32_t v = 0) {
  TcpOption o;
  o.kind = k;
  o.value = v;
  return o;
}

// The TS option after its two bytes of padding: sackOK (SYN options with
// SACK) or nop,nop.
void AppendTimestamp(std::vector<TcpOption>* v, bool sack_ok_first, uint32_t ts_val, uint32_t ts_ecr) {
  if (sack_ok_first) {
    v->push_back(Opt(TcpOption::Kind::kSackOk));
  } else {
    v->push_back(Opt(TcpOption::Kind::kNop));
    v->push_back(Opt(TcpOption::Kind::kNop));
  }
  TcpOption t = Opt(TcpOption::Kind::kTimestamp);
  t.ts_val = ts_val;
  t.ts_ecr = ts_ecr;
  v->push_back(t);
}

}  // namespace

PeerSyn PeerSynFromOptions(const std::vector<TcpOption>& options, uint32_t window) {
  PeerSyn p;
  p.window = window;
  for (const TcpOption& o : options) {
    switch (o.kind) {
      // tcp_parse_options: an MSS option of 0 is ignored (mss_clamp stays
      // TCP_MSS_DEFAULT, as without the option).
      case TcpOption::Kind::kMss:
        if (o.value != 0) p.mss = o.value;
        break;
      case TcpOption::Kind::kSackOk: p.sack_ok = true; break;
      case TcpOption::Kind::kWscale: p.wscale = static_cast<uint8_t>(std::min<uint32_t>(o.value, kMaxWscale)); break;
      case TcpOption::Kind::kTimestamp: p.ts_val = o.ts_val; break;
      default: break;
    }
  }
  return p;
}

Negotiated Negotiate(const Settings& s, const LocalSockOpts& o, const PeerSyn* peer, bool initial_rwnd_capped,
                     bool rcv_wnd_u16_max) {
  Negotiated n;
  n.pmtu = s.route_mtu.value_or(1500);
  const uint32_t headers = s.ipv6 ? kIpv6TcpHeaders : kIpv4TcpHeaders;
  n.timestamps = s.tcp_timestamps != 0 && (peer == nullptr || peer->ts_val.has_value());
  n.sack = s.tcp_sack != 0 && (peer == nullptr || peer->sack_ok);
  n.wscale_ok = s.tcp_window_scaling != 0 && (peer == nullptr || peer->wscale.has_value());
  n.snd_wscale = n.wscale_ok && peer != nullptr ? *peer->wscale : 0;

  // ipv4_default_advmss / route advmss, clamped by TCP_MAXSEG (tcp_mss_clamp).
  uint32_t route_advmss = s.route_advmss.value_or(std::max<uint32_t>(n.pmtu - headers, 256));
  n.syn_mss = o.user_mss != 0 ? std::min(route_advmss, o.user_mss) : route_advmss;
  n.advmss = n.syn_mss - (n.timestamps ? kTsOptionLen : 0);

  // tcp_mtu_to_mss: pmtu - headers, clamped by the peer's MSS (mss_clamp, itself
  // clamped by TCP_MAXSEG), then minus the timestamp option.
  uint32_t mss_clamp = peer != nullptr ? peer->mss.value_or(kTcpMssDefault) : kTcpMssDefault;
  if (o.user_mss != 0) mss_clamp = std::min(mss_clamp, o.user_mss);
  n.mss_clamp = mss_clamp;
  // __tcp_mtu_to_mss floors at 48 (TCP_MIN_SND_MSS, tcp_min_snd_mss) before
  // tcp_mtu_to_mss takes the timestamp option off.
  const uint32_t mss = std::max<uint32_t>(std::min(n.pmtu - headers, mss_clamp), kTcpMinSndMss);
  n.mss_cache = mss - (n.timestamps ? kTsOptionLen : 0);

  // tcp_select_initial_window.
  uint64_t rcvbuf = o.rcvbuf >= 0 ? static_cast<uint64_t>(o.rcvbuf) * 2 : s.tcp_rmem[1];
  uint64_t space = rcvbuf / 2;  // tcp_win_from_space with the default scaling (half of the buffer)
  n.full_space = static_cast<uint32_t>(std::min<uint64_t>(space, UINT32_MAX));
  if (n.wscale_ok) {
    uint64_t ws_space = std::max<uint64_t>({space, s.tcp_rmem[2], s.rmem_max});
    n.rcv_wscale = static_cast<uint8_t>(std::clamp(Ilog2(ws_space) - 15, 0, static_cast<int>(kMaxWscale)));
  }
  uint32_t win_mss = n.syn_mss - (n.timestamps ? kTsOptionLen : 0);
  space = space / win_mss * win_mss;
  // Without window scaling, and on v4.20..v6.5 whatever the scale, at most
  // U16_MAX.
  if (!n.wscale_ok || rcv_wnd_u16_max) space = std::min<uint64_t>(space, 65535);
  n.rcv_wnd = static_cast<uint32_t>(space);
  // v4.19 only: when the MSS exceeds one unit of the window scale, the
  // initial window is capped at tcp_default_init_rwnd(mss) segments (no
  // route initrwnd is modelled). v4.20+ keep the whole rounded space, which
  // a 6.18 kernel shows: TCP_MAXSEG 600 with tcp_rmem[1] 87380 gives a
  // SYN-ACK window of 43200 (= 43690 rounded down to 600s), not 12000.
  if (initial_rwnd_capped && win_mss > (1u << n.rcv_wscale)) {
    n.rcv_wnd = std::min<uint32_t>(n.rcv_wnd, DefaultInitRwnd(win_mss) * win_mss);
  }
  return n;
}

std::vector<TcpOption> SynOptions(uint32_t mss, bool sack, bool ts, uint32_t ts_val, uint32_t ts_ecr,
                                  std::optional<uint8_t> wscale) {
  std::vector<TcpOption> v;
  v.push_back(Opt(TcpOption::Kind::kMss, mss));
  if (ts) {
    AppendTimestamp(&v, sack, ts_val, ts_ecr);
  } else if (sack) {
    v.push_back(Opt(TcpOption::Kind::kNop));
    v.push_back(Opt(TcpOption::Kind::kNop));
    v.push_back(Opt(TcpOption::Kind::kSackOk));
  }
  if (wscale) {
    v.push_back(Opt(TcpOption::Kind::kNop));
    v.push_back(Opt(TcpOption::Kind::kWscale, *wscale));
  }
  return v;
}

std::vector<TcpOption> DataOptions(bool ts, uint32_t ts_val, uint32_t ts_ecr) {
  std::vector<TcpOption> v;
  if (ts) AppendTimestamp(&v, false, ts_val, ts_ecr);
  return v;
}

}  // namespace sendsim::packetdrill
