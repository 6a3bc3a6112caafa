#include "model/profile.h"

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::model {
namespace {

// v4.19.0: docs/kernel-send-path.md's baseline; every Profile default is a v4.19 value.
Profile Linux419() {
  Profile p;
  p.name = "linux-4.19";
  return p;
}

// v5.0.1: send path byte-identical to v4.19 (docs/kernel-send-path.md §11.3); TSQ limit 1 MiB,
// EDT-based "recent departure" (1 ms) and the v4.20 tso_should_defer ending
// with eor skbs sent at once; tcp_rmem[1] 131072 and no 20-MSS cap on the
// initial receive window (v4.20).
Profile Linux50() {
  Profile p;
  p.name = "linux-5.0";
  p.tsq_limit_output_bytes = 1024 * 1024;
  p.tso_defer_recent_is_1ms = true;
  p.tso_defer_v420_ending = true;
  p.tso_defer_eor_sends = true;
  p.tcp_rmem_default = 131072;
  p.initial_rwnd_capped = false;  // v4.20 "tcp: up initial rmem to 128KB and SYN rwin to around 64KB"
  p.rcv_backlog_coalesce = true;
  p.initial_rcv_wnd_u16_max = true;
  return p;
}

// v6.8.0 (docs/kernel-send-path.md §11.4): no sendpage, MSG_SPLICE_PAGES, no linear first skb,
// backlog flush every 16 new skbs, autocork needs a non-eor tail, TSQ exempts
// a single-skb rtx queue, TSO deferral only while the head's ACK is due within
// min(srtt/2, 1 ms), RTT term in tcp_tso_autosize, size goal without the
// header subtraction, tcp_check_space on new data; CUBIC in microseconds;
// one TLP per flight (v5.9).
Profile Linux68() {
  Profile p = Linux50();
  p.name = "linux-6.8";
  p.has_sendpage = false;
  p.has_splice_pages = true;
  p.size_goal_subtracts_header = false;
  p.autocork_requires_non_eor = true;
  p.tsq_exempt_single_skb = true;
  p.tso_defer_ack_due_capped_1ms = true;
  p.autosize_rtt_term = true;
  p.sendmsg_first_skb_linear = false;
  p.sendmsg_flush_backlog_every = 16;
  p.check_space_on_new_data = true;
  p.notsent_lowat_wake_shift = true;
  p.rcv_backlog_ack_defer = true;
  p.cubic_usec_clock = true;
  p.rto_zero_window_counts_backoff = true;
  p.probe0_timeout_in_ms = true;
  p.tcp_info_total_rto = true;
  p.tcp_info_rcv_wnd_rehash = true;
  p.syn_linear_timeouts = true;
  p.rcv_window_round_down = true;
  p.tlp_one_per_flight = true;
  p.syn_cwnd_cut_needs_undo_marker = true;
  p.dead_dst_on_blackhole = true;
  p.tsval_replay_1200 = true;
  p.initial_rcv_wnd_u16_max = false;
  return p;
}

// v6.1 (Debian's 6.1.192 source): the v6.8 send path but with sendpage, so
// do_tcp_sendpages (tcp_build_frag) honours MSG_SENDPAGE_NOTLAST as v4.19
// does; already there, as in v6.8: size goal without the header
// subtraction, autocork on a non-eor tail only, no linear first skb, backlog
// flush every 16 new skbs, single-skb TSQ exemption, the autosize RTT term,
// tcp_check_space in tcp_event_new_data_sent, CUBIC in microseconds
// (bictcp_clock_us). The receiver has no deferred
// backlog ACK (v6.7); a zero-window RTO counts no backoff (v6.5).
Profile Linux61() {
  Profile p = Linux68();
  p.name = "linux-6.1";
  p.has_sendpage = true;
  p.has_splice_pages = false;
  p.rcv_backlog_ack_defer = false;
  p.rto_zero_window_counts_backoff = false;
  p.probe0_timeout_in_ms = false;
  p.tcp_info_total_rto = false;
  p.tcp_info_rcv_wnd_rehash = false;
  p.syn_linear_timeouts = false;
  p.rcv_window_round_down = false;
  p.tsval_replay_1200 = false;
  p.initial_rcv_wnd_u16_max = true;
  return p;
}

// v6.12 (Debian's 6.12.118 source): the v6.8 send path, but tcp_cwnd_test
// holds a FIN behind a full cwnd and tcp_write_xmit grows the send head from
// the next skb up to the cwnd quota (tcp_grow_skb, v6.10); a header-only skb
// is charged 960 bytes (skb_small_head_cache, v6.3; measured on UML 6.12); the receiver leaves queued bytes out of
// tcp_rcv_space_adjust's copied count (backported from v6.18's rework) but
// keeps the 16-MSS cushion. Out-of-order data raises rcv_mss (6.12.43); ato
// stays within TCP_DELACK_MAX (6.12.105).
Profile Linux612() {
  Profile p = Linux68();
  p.name = "linux-6.12";
  p.ofo_measures_rcv_mss = true;
  p.ato_capped_delack_max = true;
  p.rcv_drs_skips_queued = true;
  p.fin_cwnd_exempt = false;
  p.grow_skb_at_xmit = true;
  p.skb_head_truesize = 960;
  return p;
}

// v6.18: the receiver's buffer autotuning leaves queued bytes out and drops
// the 16-MSS cushion (traced on this project's 6.18 testbed). Send path as
// v6.8: no send-side difference between them is modelled (a simplification,
// README "Model limits"), but with v6.10's tcp_grow_skb.
Profile Linux618() {
  Profile p = Linux68();
  p.name = "linux-6.18";
  p.ack_unsent_challenge = true;
  p.ofo_measures_rcv_mss = true;
  p.rcv_drs_skips_queued = true;
  p.rcv_drs_no_cushion = true;
  p.fin_cwnd_exempt = false;
  p.grow_skb_at_xmit = true;
  return p;
}

}  // namespace

absl::StatusOr<Profile> ProfileByName(std::string_view name) {
  if (name == "linux-4.19") return Linux419();
  if (name == "linux-5.0") return Linux50();
  if (name == "linux-6.1") return Linux61();
  if (name == "linux-6.8") return Linux68();
  if (name == "linux-6.12") return Linux612();
  if (name == "linux-6.18") return Linux618();
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown kernel profile '%s' (known: %s)", name, absl::StrJoin(ProfileNames(), ", ")));
}

std::vector<std::string> ProfileNames() {
  return {"linux-4.19", "linux-5.0", "linux-6.1", "linux-6.8", "linux-6.12", "linux-6.18"};
}

}  // namespace sendsim::model
