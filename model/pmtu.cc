// Path MTU discovery: an ICMP "fragmentation needed" about one of our
// segments (tcp_ipv4.c: tcp_v4_err's ICMP_FRAG_NEEDED case and
// tcp_v4_mtu_reduced; route.c: __ip_rt_update_pmtu; tcp_input.c:
// tcp_simple_retransmit and tcp_non_congestion_loss_retransmit).
//
// tcp_v4_err accepts the message only if the quoted sequence number lies in
// [snd_una, snd_nxt] (both ends included); otherwise it counts
// OUTOFWINDOWICMPS and stops. The route then takes the MTU as a next-hop
// exception (fnhe): never above the MTU it has, never for a route whose MTU is
// locked (`mtu lock`), and a value below net.ipv4.route.min_pmtu (552) is
// raised to it (or kept at a lower current MTU) and locks the exception, so
// later messages change nothing. tcp_v4_mtu_reduced looks the route up again
// and, if its MTU is now below icsk_pmtu_cookie, runs tcp_sync_mss with it
// and tcp_simple_retransmit: every outstanding skb whose segments are longer
// than the new MSS is marked lost and the lost ones go out at once, in
// segments of the new MSS (__tcp_retransmit_skb splits or re-counts them),
// entering Loss without touching cwnd (ssthresh from tcp_current_ssthresh, no
// undo). Later sends are sized by the new MSS (tcp_write_xmit splits skbs
// built for the old one).
//
// Checked on Linux 6.18 (testdata/packetdrill/pmtu_*.pkt): after mtu 1200
// with 5840 bytes out in two 2920-byte TSO skbs, 1:2321, 2321:2921,
// 2921:5241, 5241:5841 leave at once; CA state Loss, cwnd 10, ssthresh
// unchanged, 6 lost and retransmitted, tcpi_pmtu 1200, MSS 1160.
//
// Simplifications: a socket owned by the user defers this to release_sock
// (TCP_MTU_REDUCED_DEFERRED); the model applies it at once. The exception
// never expires (net.ipv4.route.mtu_expires, 10 minutes); min_pmtu is
// fixed at its default; the soft error EMSGSIZE that a clamped MTU leaves for
// a later timeout (sk_err_soft) is not kept; IP_MTU_DISCOVER modes that
// ignore PMTU (DONT, INTERFACE, OMIT) are not looked at.

#include <algorithm>

#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kIpRtMinPmtu = 552;  // net.ipv4.route.min_pmtu default (512 + 20 + 20)

}  // namespace

TcpSock::IcmpEffect TcpSock::IcmpFragNeeded(uint32_t seq, uint32_t mtu) {
  // tcp_v4_err: a closed socket ignores it; between(seq, snd_una, snd_nxt)
  // in 32-bit sequence space.
  if (aborted_) return IcmpEffect::kIgnored;
  const uint32_t una = static_cast<uint32_t>(snd_una_);
  const uint32_t nxt = static_cast<uint32_t>(snd_nxt_);
  if (seq - una > nxt - una) return IcmpEffect::kOutOfWindow;
  // inet_csk_update_pmtu: a dead dst is dropped and the route looked up
  // again before the update (__sk_dst_check).
  DstCheck();
  // __ip_rt_update_pmtu.
  if (dst_.locked || dst_.mtu < mtu) return IcmpEffect::kRouteUnchanged;
  bool lock = false;
  if (mtu < kIpRtMinPmtu) {
    lock = true;
    mtu = std::min(dst_.mtu, kIpRtMinPmtu);
  }
  // The exception belongs to the route: the next lookup finds it too.
  dst_.mtu = fib_dst_.mtu = mtu;
  dst_.locked = fib_dst_.locked = lock;
  // tcp_v4_mtu_reduced: only a drop below the MTU the MSS was synced to.
  if (pmtu_cookie_ <= dst_.mtu) return IcmpEffect::kMssUnchanged;
  SyncMss(dst_.mtu);
  SimpleRetransmit();
  return IcmpEffect::kMssReduced;
}

// tcp_simple_retransmit: skbs whose segments (tcp_skb_seglen: the whole
// skb if one segment, else gso_size) exceed the current MSS were dropped
// on the path. cwnd stays: the data in the network did not grow, only its
// unit shrank (tcp_non_congestion_loss_retransmit).
void TcpSock::SimpleRetransmit() {
  const uint32_t mss = CurrentMss();
  for (Skb& skb : rtx_queue_) {
    const uint32_t seglen = skb.pcount <= 1 ? skb.len() : skb.gso_size;
    if (seglen > mss) MarkSkbLost(skb);
  }
  if (lost_out_ == 0) return;
  if (!IsSack()) LimitRenoSacked();
  if (ca_state_ != CaState::kLoss) {
    high_seq_ = snd_nxt_;
    snd_ssthresh_ = CurrentSsthresh();
    prior_ssthresh_ = 0;
    undo_marker_set_ = false;
    SetCaState(CaState::kLoss);
    // tcp_set_ca_state -> CUBIC's cwnd_event on Loss (bictcp_state).
    if (config_.cc == CongestionControl::kCubic) CubicReset();
  }
  XmitRetransmitQueue();
}

}  // namespace sendsim::model
