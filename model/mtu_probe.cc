// Packetization-layer path MTU discovery (RFC 4821) as Linux does it with
// tcp_mtu_probing=2: tcp_mtup_init, tcp_mtu_probe (binary search between
// tcp_base_mss and the peer's MSS), the tcp_output.c part;
// tcp_mtup_probe_success (tcp_input.c) is in ack.cc, tcp_sync_mss's clamp to
// search_low in route_mss.cc.
//
// Simplifications: probe loss (tcp_mtup_probe_failed), the 10-minute reprobe
// timer (tcp_mtu_check_reprobe) and black-hole detection after RTOs are not
// modelled; a retransmitted probe keeps its size (Linux re-fragments it); the
// skb split off behind the probe gets a fresh head truesize (Linux trims the
// old skb in place). IPv4 header sizes.

#include <algorithm>

#include "model/constants.h"
#include "model/tcp_sock.h"
#include "model/write_xmit.h"

namespace sendsim::model {

// tcp_mtup_init: enabled only at tcp_mtu_probing > 1; search between
// tcp_base_mss's MTU and the peer's MSS clamp + headers, bounded by the route
// MTU (tcp_sync_mss).
// An active open syncs the MSS to search_low's when the SYN-ACK arrives
// (tcp_rcv_synsent_state_process), but that search_low is tcp_connect_init's,
// sized while tcp_header_len still counted the timestamp option the SYN
// offered; tcp_finish_connect -> tcp_init_transfer then recomputes search_low
// with the negotiated header and does not sync again. A SYN-ACK without
// timestamps thus leaves the MSS at 1024 + 12 = 1036 until the next
// tcp_sync_mss (seen on Linux 6.1 and 6.12 as user-mode Linux).
// A passive open does not sync at all: tcp_v4_syn_recv_sock synced the
// child's MSS before probing was enabled, and tcp_init_transfer only enables
// it, so the MSS stays the peer's until the next tcp_sync_mss (a probe's
// success, or a window above max_window in tcp_ack_update_window). Seen on
// Linux 6.1, 6.12 and 6.18: tcpi_snd_mss 1460 after accept.
void TcpSock::MtupInit(bool passive_open, bool peer_dropped_timestamps) {
  mtup_.enabled = config_.sysctl.mtu_probing > 1;
  if (!mtup_.enabled) return;
  mtup_.search_high = std::min(MssClamp() + kIpTcpHeaderBytes, config_.mtu);
  mtup_.search_low = MssToMtu(config_.sysctl.base_mss);
  if (passive_open) return;
  if (peer_dropped_timestamps) {
    const uint32_t negotiated = mtup_.search_low;
    mtup_.search_low = negotiated + kTcpTimestampOptionBytes;
    SyncMss();
    mtup_.search_low = negotiated;
  } else {
    SyncMss();
  }
}

// rx_opt.mss_clamp: the peer's MSS option, or ours plus the options it
// leaves room for.
uint32_t TcpSock::MssClamp() const {
  return config_.mss_clamp != 0 ? config_.mss_clamp : full_mss_ + (config_.timestamps ? kTcpTimestampOptionBytes : 0);
}

uint32_t TcpSock::MssToMtu(uint32_t mss) const {
  return mss + kIpTcpHeaderBytes + (config_.timestamps ? kTcpTimestampOptionBytes : 0);
}

// tcp_mtu_probe (v4.19 = v6.8 for what is modelled). The probe takes the head
// of the write queue: whole skbs plus the front of the one that straddles the
// probe size (tcp_can_coalesce_send_queue_head refuses an eor or
// timestamped skb inside).
int TcpSock::MtuProbe(PushReason reason) {
  if (!mtup_.enabled || mtup_.probe_size != 0 || ca_state_ != CaState::kOpen || snd_cwnd_ < 11) return -1;
  const uint32_t mss_now = CurrentMss();
  const uint32_t probe = MtuToMss((mtup_.search_high + mtup_.search_low) >> 1);
  const uint64_t size_needed = probe + static_cast<uint64_t>(kTcpReorderingDefault + 1) * mss_cache_;
  if (probe > MtuToMss(mtup_.search_high) || mtup_.search_high < mtup_.search_low + config_.sysctl.probe_threshold) {
    return -1;  // search done (tcp_mtu_check_reprobe's 10-minute restart not modelled)
  }
  if (write_seq_ - snd_nxt_ < size_needed) return -1;
  if (snd_wnd_ < size_needed) return -1;
  if (snd_nxt_ + size_needed > snd_una_ + snd_wnd_) return 0;
  if (PacketsInFlight() + 2 > snd_cwnd_) return PacketsInFlight() == 0 ? -1 : 0;
  {
    uint64_t left = probe;
    for (const Skb& s : write_queue_) {
      if (left <= s.len()) break;
      if (s.eor || HasTxTstamp(s) || (s.tcp_flags & kTcpFin)) return -1;
      left -= s.len();
    }
  }
  // Make the probe's bytes whole skbs at the head, then merge them.
  uint64_t acc = 0;
  size_t n = 0;
  while (acc < probe) {
    if (acc + write_queue_[n].len() > probe) SplitSkb(write_queue_, n, static_cast<uint32_t>(probe - acc), mss_now);
    acc += write_queue_[n].len();
    ++n;
  }
  Skb nskb;
  nskb.seq = write_queue_[0].seq;
  nskb.end_seq = nskb.seq + probe;
  nskb.tcp_flags = kTcpAck;
  nskb.truesize = profile_.skb_head_truesize + probe;  // sk_stream_alloc_skb(probe_size), data copied linear
  nskb.linear_len = probe;
  nskb.pcount = 1;  // tcp_init_tso_segs(nskb, nskb->len)
  nskb.mtu_probe = true;
  uint32_t freed = 0;
  for (size_t i = 0; i < n; ++i) {
    Skb& s = write_queue_[i];
    nskb.tcp_flags |= s.tcp_flags;  // the straddling skb's part lost PSH/FIN in SplitSkb
    nskb.eor = s.eor;
    nskb.tag = s.tag;
    CollapseTstamp(nskb, s);  // tcp_eat_one_skb; only the last whole skb can be marked
    for (const PayloadPiece& p : s.payload) nskb.payload.push_back(p);
    freed += s.truesize;
  }
  write_queue_.erase(write_queue_.begin(), write_queue_.begin() + static_cast<std::ptrdiff_t>(n));
  wmem_queued_ = wmem_queued_ - freed + nskb.truesize;
  write_queue_.push_front(std::move(nskb));
  TransmitSkb(write_queue_.front(), reason, false);
  // "Decrement cwnd here because we are sending effectively two packets."
  --snd_cwnd_;
  mtup_.probe_size = MssToMtu(probe);
  mtup_.probe_seq_end = write_queue_.front().end_seq;
  EventNewDataSent();
  return 1;
}

}  // namespace sendsim::model
