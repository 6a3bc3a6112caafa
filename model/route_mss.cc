// The sending MSS and the route it comes from (tcp_output.c: tcp_mtu_to_mss,
// tcp_bound_to_half_wnd, tcp_sync_mss, tcp_current_mss; net/core/sock.c:
// __sk_dst_check as ip_queue_xmit runs it), and what `ip route change` does
// to an established socket.
//
// A route change replaces the route's fib_info; the old one is freed an RCU
// grace period later (free_fib_info_rcu -> rt_fibinfo_free_cpus), and
// dst_dev_put moves the dsts it cached, the socket's among them, to
// blackhole_netdev (MTU 68, ETH_MIN_MTU) and marks them dead. The socket
// still holds its dst: tcp_current_mss reads dst_mtu from it without a check,
// so the next send is sized for MTU 68 (MSS 48 before options:
// __tcp_mtu_to_mss's floor, tcp_min_snd_mss; 36 with timestamps), unless
// the old route had an mtu metric, which the dead dst keeps. The first
// transmission (ip_queue_xmit -> __sk_dst_check) drops the dead dst and
// looks the route up again; the tcp_current_mss after it syncs to the new
// route's MTU. Seen on Linux 6.1, 6.12 (user-mode Linux) and
// 6.18: a 4000-byte write 50 ms after `ip route change ... mtu 800` leaves as
// 48-byte segments up to cwnd, the rest at MSS 760 after the next ACK.
//
// Simplification: the model kills the dst at the change itself. Before the
// grace period ends the old dst is only expired (rt_genid): a send then is
// sized for the old MTU and may leave on the new route's smaller one, which
// Linux refuses with an ICMP "fragmentation needed" to itself; not modelled
// (scripts leave the kernel 50 ms or more after the change).

#include <algorithm>

#include "model/constants.h"
#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kBlackholeMtu = 68;     // blackhole_netdev's MTU (ETH_MIN_MTU)
constexpr uint32_t kMinIpv4Packet = 68;    // tcp_bound_to_half_wnd's floor on MSS + TCP header

}  // namespace

// tcp_mtu_to_mss: the MTU less the IPv4 and TCP headers, clamped to the
// negotiated MSS (rx_opt.mss_clamp), floored at tcp_min_snd_mss (48) by
// __tcp_mtu_to_mss, and only then less the timestamp option: the floor is
// applied once, before the options (MTU 68 with timestamps gives 36).
uint32_t TcpSock::MtuToMss(uint32_t pmtu) const {
  uint32_t mss = pmtu > kIpTcpHeaderBytes ? pmtu - kIpTcpHeaderBytes : 0;
  mss = std::min(mss, MssClamp());
  mss = std::max(mss, kTcpMinSndMss);
  return mss - (config_.timestamps ? kTcpTimestampOptionBytes : 0);
}

// tcp_bound_to_half_wnd: at most half the largest window the peer offered
// (the whole of it when that is at most TCP_MSS_DEFAULT), but never below
// 68 bytes of IP packet less the TCP header.
uint32_t TcpSock::BoundToHalfWnd(uint32_t mss) const {
  const uint32_t cutoff = max_window_ > static_cast<uint32_t>(kTcpMssDefault) ? max_window_ >> 1 : max_window_;
  if (cutoff == 0 || mss <= cutoff) return mss;
  const uint32_t tcp_header_len = 20 + (config_.timestamps ? kTcpTimestampOptionBytes : 0);
  return std::max(cutoff, kMinIpv4Packet - tcp_header_len);
}

// tcp_sync_mss: mss_cache from `pmtu`, remembered as icsk_pmtu_cookie; MTU
// probing's search stays below it and its search_low clamps the MSS.
uint32_t TcpSock::SyncMss(uint32_t pmtu) {
  if (mtup_.search_high > pmtu) mtup_.search_high = pmtu;
  uint32_t mss = BoundToHalfWnd(MtuToMss(pmtu));
  pmtu_cookie_ = pmtu;
  if (mtup_.enabled) mss = std::min(mss, MtuToMss(mtup_.search_low));
  mss_cache_ = mss;
  return mss;
}

// tcp_current_mss: the cached dst's MTU, unchecked (__sk_dst_get), against
// the one tcp_sync_mss last saw. No SACK blocks are sent, so the option
// space is always tcp_header_len's.
uint32_t TcpSock::CurrentMss() {
  if (dst_.mtu != pmtu_cookie_) return SyncMss(dst_.mtu);
  return mss_cache_;
}

// __sk_dst_check(sk, 0) in ip_queue_xmit: an obsolete dst is dropped and the
// route looked up again (sk_setup_caps); the MSS follows at the next
// tcp_current_mss, not for the skb being sent.
void TcpSock::DstCheck() {
  if (dst_.obsolete) dst_ = fib_dst_;
}

void TcpSock::RouteChange(uint32_t mtu, bool mtu_metric) {
  fib_dst_ = Dst{mtu, mtu_metric, false};
  dst_.obsolete = true;
  // dst_dev_put: the device becomes blackhole_netdev; a metric stays.
  if (!dst_.mtu_metric) dst_.mtu = kBlackholeMtu;
}

}  // namespace sendsim::model
