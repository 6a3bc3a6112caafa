#ifndef SENDSIM_MODEL_PROFILE_H_
#define SENDSIM_MODEL_PROFILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "model/constants.h"

namespace sendsim::model {

// Every difference between kernel versions that the model knows, as data.
// Code asks the profile; it never compares version strings.
// The table in model/README.md lists the values per profile.
struct Profile {
  std::string name;
  // do_tcp_sendpages exists and honours MSG_SENDPAGE_NOTLAST (<= v6.4).
  bool has_sendpage = true;
  // MSG_SPLICE_PAGES attaches bvec pages in tcp_sendmsg_locked (v6.5+).
  bool has_splice_pages = false;
  // tcp_xmit_size_goal subtracts MAX_TCP_HEADER from sk_gso_max_size (<= v6.x).
  bool size_goal_subtracts_header = true;
  // tcp_should_autocork also requires a non-eor tail skb (v6.x).
  bool autocork_requires_non_eor = false;
  // tcp_limit_output_bytes: 262144 (v4.19/4.20), 1 MiB (v5.0+).
  uint32_t tsq_limit_output_bytes = 262144;
  // TSQ exempts a retransmit queue holding a single skb (v6.x), not just an empty one.
  bool tsq_exempt_single_skb = false;
  // tcp_tso_should_defer "recent departure" test: same jiffy (v4.19) or within 1 ms (v5.0+ EDT).
  bool tso_defer_recent_is_1ms = false;
  // v4.20+ ending of tcp_tso_should_defer (cwnd/rwnd-limited defer; FIN sends).
  bool tso_defer_v420_ending = false;
  // v5.0+: an eor skb is never deferred.
  bool tso_defer_eor_sends = false;
  // tcp_tso_should_defer sends when the head's ACK is due in more than
  // min(srtt / 2, 1 ms) (v6.x, read from 6.1 and 6.12); before, when the
  // head is younger than srtt / 2.
  bool tso_defer_ack_due_capped_1ms = false;
  // tcp_tso_autosize adds sk_gso_max_size >> (min_rtt_us >> tcp_tso_rtt_log) (v6.x).
  bool autosize_rtt_term = false;
  // Truesize of a header-only skb (tcp_stream_alloc_skb): 1280 on UML 6.1;
  // 960 on UML 6.12, whose small heads come from skb_small_head_cache
  // (v6.3), both measured as SO_MEMINFO's wmem_queued over the tun.
  uint32_t skb_head_truesize = kSkbTruesizeHeadOnly;
  // tcp_write_xmit grows the send head up to the cwnd quota from the next
  // unsent skb before sending it (tcp_grow_skb, v6.10+).
  bool grow_skb_at_xmit = false;
  int tso_rtt_log = 9;
  // new skbs in sendmsg get a linear head when both queues are empty (v4.19..v5.x); never in v6.x.
  bool sendmsg_first_skb_linear = true;
  // sk_flush_backlog inside tcp_sendmsg_locked: on every 2nd+ new skb (0 = never), v6.x every 16.
  int sendmsg_flush_backlog_every = 1;
  // v5.16 ("tcp: remove SOCK_QUEUE_SHRUNK"): tcp_event_new_data_sent calls
  // tcp_check_space, which no longer waits for an ACK that freed skbs.
  bool check_space_on_new_data = false;
  // tcp_stream_memory_free(sk, wake) shifts unsent bytes by `wake` (v5.4+).
  bool notsent_lowat_wake_shift = false;
  // tcp_retransmit_timer's zero-window branch (the RTO resends the head as a
  // window probe) counts icsk_backoff: since v6.5 the increment sits after the
  // out_reset_timer label it jumps to (read in 6.12.118, seen on 6.18); in
  // 6.1.192 and before it is skipped (tcpi_backoff stays 0).
  bool rto_zero_window_counts_backoff = false;
  // tcp_rtx_probe0_timed_out compares the time the zero-window RTOs have
  // lasted with TCP_USER_TIMEOUT in milliseconds (v6.7's rework, read in
  // 6.12.118); 6.1.192 converts that time to jiffies first and compares
  // jiffies with milliseconds (at HZ 250 the abort comes 4x later).
  bool probe0_timeout_in_ms = false;
  // struct tcp_info ends with tcpi_total_rto, tcpi_total_rto_recoveries and
  // tcpi_total_rto_time (v6.7; 6.1.192's struct has none of them).
  bool tcp_info_total_rto = false;
  // ... and before them tcpi_rcv_wnd and tcpi_rehash (v6.2; not in 6.1.192's).
  bool tcp_info_rcv_wnd_rehash = false;
  // tcp_select_initial_window holds tp->rcv_wnd (and so rcv_ssthresh) to
  // 65535 whatever the buffer (v4.20 "up initial rmem to 128KB and SYN rwin
  // to around 64KB", read in 6.1.192; seen on UML 6.1: tcpi_rcv_ssthresh
  // 65535); v6.6 removed the limit (absent from 6.12.118's source). Only the
  // window the SYN carries was ever capped at 65535 besides.
  bool initial_rcv_wnd_u16_max = false;
  // tcp_retransmit_timer in SYN-SENT keeps the initial RTO for the first
  // tcp_syn_linear_timeouts retransmissions of the SYN, and tcp_write_timeout
  // allows that many more (v6.5; read in 6.12.118, absent from 6.1.192).
  bool syn_linear_timeouts = false;
  // __tcp_select_window with window scaling rounds the free space, and
  // rcv_ssthresh when it is smaller, down to the scale unit before offering
  // it (v6.5 "enforce receive buffer memory limits by allowing the tcp
  // window to shrink"); before, the offer was rounded up. Seen here: after
  // 100 bytes received, 6.12 and 6.18 offer 1049 units where the initial
  // window of 268640 bytes rounds up to 1050 (tcp_info_recv.pkt --record).
  bool rcv_window_round_down = false;
  // tcp_ack answers an ACK of data never sent (after snd_nxt) with a
  // challenge ACK before dropping the segment (RFC 5961 5.2). Seen on 6.18;
  // 6.1.192 and 6.12.118 (UML) drop it silently (ack_unsent.pkt). The
  // version that added it is UNVERIFIED (after 6.12).
  bool ack_unsent_challenge = false;
  // tcp_send_loss_probe sends at most one probe per flight: a probe of new
  // data also sets tlp_high_seq, and no probe goes while one is
  // outstanding (v5.9 "allow at most one TLP probe per flight"; read in
  // 6.1.192). Before, only a retransmitted probe set tlp_high_seq and only
  // the retransmission waited for it (UNVERIFIED: no pre-5.9 source or
  // kernel here; from the change's description).
  bool tlp_one_per_flight = false;
  // tcp_init_transfer cuts the initial cwnd to 1 after more than one SYN or
  // SYN-ACK retransmission only while undo_marker is set (v5.2, read in
  // 6.1.192 and 6.12.118, measured on 6.1, 6.12, 6.18): a passive open whose
  // extra SYN-ACKs only answered the peer's repeated SYN, with no timeout,
  // keeps the initial cwnd. Before, tcp_init_metrics cut on total_retrans
  // alone (UNVERIFIED: no 4.19 or 5.0 source was read).
  bool syn_cwnd_cut_needs_undo_marker = false;
  // tcp_cwnd_test lets a one-segment FIN skb past a full cwnd ("the final
  // FIN"; read in 6.1.192). 6.12.118's tcp_cwnd_test no longer looks at the
  // skb, and 6.12 and 6.18 hold a FIN behind a full cwnd (shutdown_fin*.pkt).
  // linux-6.8 keeps the exemption: UNVERIFIED, no 6.8 source was read.
  bool fin_cwnd_exempt = true;
  // dst_dev_put moves a dead route's dsts to blackhole_netdev (MTU 68), so a
  // socket's next tcp_current_mss after `ip route change` shrinks to the
  // minimum (v5.3, "blackhole_netdev"; read in 6.1.192, seen on 6.1, 6.12,
  // 6.18: route_mtu_change.pkt). Before, they moved to the loopback device;
  // that case is not modelled, and the runner skips such a route change.
  bool dead_dst_on_blackhole = false;
  // tcp_rmem[1] default (87380 before v4.20, 131072 after).
  uint32_t tcp_rmem_default = 87380;
  // tcp_select_initial_window caps the initial receive window at
  // tcp_default_init_rwnd(mss) segments (20, fewer above MSS 1460) when no
  // route initrwnd is set (<= v4.19; v4.20 dropped the cap, so the SYN-ACK
  // offers the whole rounded-down buffer space).
  bool initial_rwnd_capped = true;
  // CUBIC's clock (v5.6-v5.10 rework of tcp_cubic.c; v6.x): delay_min and
  // the HyStart samples in microseconds (bictcp_update adds delay_min in
  // usec; before, in ms << 3 added as msecs_to_jiffies(delay_min >> 3)).
  // HyStart follows the same split: the rework's rules (us clock, ack
  // delay, round restart in hystart_update) or the older ones (ack.cc).
  bool cubic_usec_clock = false;

  // The receiver (the peer runs the connection's kernel too).
  // v5.0+: while a reader inside recvmsg owns the socket, arriving segments
  // wait in the socket backlog, where tcp_add_backlog coalesces contiguous
  // ones (up to MAX_SKB_FRAGS frags); the read's release_sock then processes
  // each coalesced skb once, one ACK decision per skb instead of per
  // segment. Before: every segment is processed as it arrives.
  bool rcv_backlog_coalesce = false;
  // v6.7+ (net.ipv4.tcp_backlog_ack_defer = 1): an immediate ACK decided
  // while release_sock runs the backlog is sent once, after it (tcp_release_cb).
  bool rcv_backlog_ack_defer = false;
  // v6.18 tcp_rcv_space_adjust / tcp_rcvbuf_grow, as a tcp_rcvbuf_grow trace
  // on a 6.18 receiver shows it: the bytes still queued (inq) are not counted
  // as copied (also in Debian's 6.12.118 source, a stable backport) ...
  bool rcv_drs_skips_queued = false;
  // ... and the target window is 2 x copied plus twice the growth term,
  // without the 16-MSS cushion of older kernels (6.12.118 keeps it).
  bool rcv_drs_no_cushion = false;

  // The packetdrill runner's receive side (packetdrill/receive.cc).
  // tcp_data_queue_ofo runs tcp_measure_rcv_mss, so out-of-order data
  // raises rcv_mss too (upstream 2025, "tcp: call tcp_measure_rcv_mss() for
  // ooo packets"; in Debian's 6.12 from 6.12.43 and in 6.18, not in 6.1.192
  // nor, as it predates the change, 6.8): recv_ooo_rcv_mss*.pkt.
  bool ofo_measures_rcv_mss = false;
  // ato never exceeds TCP_DELACK_MAX: tcp_event_data_recv's slow case and
  // the delayed-ACK timer's inflation cap it (Debian's 6.12 from 6.12.105,
  // "tcp: fix icsk_ack.ato bitfield overflow"). 6.1.192 caps ato by the RTO
  // only, and so, as observed on this host, does 6.18 (its source was not
  // read): recv_delack_ato_cap_v6_12.pkt, recv_delack_ato_uncapped.pkt.
  bool ato_capped_delack_max = false;
  // tcp_disordered_ack's replay window is icsk_rto * 1200 / HZ
  // (tcp_tsval_replay, v6.7's usec-timestamp series), not * 1024: in
  // Debian's 6.12.118 source, not in 6.1.192 (paws_disordered_ack*.pkt).
  bool tsval_replay_1200 = false;
};

// "linux-4.19", "linux-5.0", "linux-6.1", "linux-6.8", "linux-6.12", "linux-6.18".
absl::StatusOr<Profile> ProfileByName(std::string_view name);
std::vector<std::string> ProfileNames();

// The profile every front end uses when none is named (sendsim, sendsim
// packetdrill, the development runner): the seed measurement's kernel.
inline constexpr std::string_view kDefaultProfile = "linux-4.19";

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_PROFILE_H_
