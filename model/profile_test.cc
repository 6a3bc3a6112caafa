// The linux-6.1 and linux-6.12 profiles, field by field, as read from
// Debian's 6.1.192 and 6.12.118 sources (net/ipv4/tcp.c, tcp_output.c,
// tcp_input.c): expectations written from that reading, not from profile.cc.

#include "model/profile.h"

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

Profile Get(const char *name) {
  absl::StatusOr<Profile> p = ProfileByName(name);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Profile{};
}

TEST(ProfileTest, Linux61HasSendpageWithTheNewerSendPath) {
  const Profile p = Get("linux-6.1");
  EXPECT_EQ(p.name, "linux-6.1");
  // do_tcp_sendpages / tcp_build_frag: sendpage exists, NOTLAST skips the push.
  EXPECT_TRUE(p.has_sendpage);
  EXPECT_FALSE(p.has_splice_pages);
  // tcp_xmit_size_goal: tcp_bound_to_half_wnd(tp, sk_gso_max_size), no header
  // term.
  EXPECT_FALSE(p.size_goal_subtracts_header);
  // tcp_should_autocork ends with tcp_skb_can_collapse_to(skb).
  EXPECT_TRUE(p.autocork_requires_non_eor);
  EXPECT_EQ(p.tsq_limit_output_bytes, 16u * 65536);  // tcp_sk_init
  EXPECT_TRUE(p.tsq_exempt_single_skb);              // tcp_rtx_queue_empty_or_single_skb
  EXPECT_TRUE(p.autosize_rtt_term);                  // tcp_tso_autosize, tcp_tso_rtt_log 9
  EXPECT_EQ(p.tso_rtt_log, 9);
  EXPECT_FALSE(p.sendmsg_first_skb_linear);      // tcp_stream_alloc_skb(sk, 0, ...)
  EXPECT_EQ(p.sendmsg_flush_backlog_every, 16);  // process_backlog >= 16
  EXPECT_TRUE(p.check_space_on_new_data);        // tcp_event_new_data_sent
  EXPECT_EQ(p.tcp_rmem_default, 131072u);
  EXPECT_FALSE(p.initial_rwnd_capped);
  EXPECT_TRUE(p.rcv_backlog_coalesce);
  EXPECT_FALSE(p.rcv_backlog_ack_defer);  // no tcp_backlog_ack_defer sysctl in 6.1
  EXPECT_FALSE(p.rcv_drs_skips_queued);   // tcp_rcv_space_adjust counts inq as copied
  EXPECT_FALSE(p.rcv_drs_no_cushion);
  // tcp_retransmit_timer: the zero-window branch jumps past icsk_backoff++.
  EXPECT_FALSE(p.rto_zero_window_counts_backoff);
  EXPECT_TRUE(p.fin_cwnd_exempt);  // tcp_cwnd_test's "final FIN" test
  // tcp_init_transfer: total_retrans > 1 && undo_marker.
  EXPECT_TRUE(p.syn_cwnd_cut_needs_undo_marker);
  EXPECT_TRUE(p.dead_dst_on_blackhole);  // dst_dev_put -> blackhole_netdev
}

TEST(ProfileTest, Linux612HasNoSendpageAndTheDeferredBacklogAck) {
  const Profile p = Get("linux-6.12");
  EXPECT_EQ(p.name, "linux-6.12");
  EXPECT_FALSE(p.has_sendpage);
  EXPECT_TRUE(p.has_splice_pages);
  EXPECT_FALSE(p.size_goal_subtracts_header);
  EXPECT_TRUE(p.autocork_requires_non_eor);
  EXPECT_TRUE(p.tsq_exempt_single_skb);
  EXPECT_TRUE(p.autosize_rtt_term);
  EXPECT_FALSE(p.sendmsg_first_skb_linear);
  EXPECT_EQ(p.sendmsg_flush_backlog_every, 16);
  EXPECT_TRUE(p.check_space_on_new_data);
  EXPECT_TRUE(p.rcv_backlog_ack_defer);  // net.ipv4.tcp_backlog_ack_defer = 1
  // tcp_rcv_space_adjust subtracts inq but keeps rcvwin's 16 * advmss.
  EXPECT_TRUE(p.rcv_drs_skips_queued);
  EXPECT_FALSE(p.rcv_drs_no_cushion);
  // tcp_retransmit_timer: icsk_backoff++ follows out_reset_timer.
  EXPECT_TRUE(p.rto_zero_window_counts_backoff);
  EXPECT_FALSE(p.fin_cwnd_exempt);  // tcp_cwnd_test(tp) no longer sees the skb
  EXPECT_TRUE(p.syn_cwnd_cut_needs_undo_marker);  // tcp_init_transfer, as 6.1
}

TEST(ProfileTest, Linux618DropsTheCushionToo) {
  const Profile p = Get("linux-6.18");
  EXPECT_TRUE(p.rcv_drs_skips_queued);
  EXPECT_TRUE(p.rcv_drs_no_cushion);
  EXPECT_FALSE(p.fin_cwnd_exempt);  // shutdown_fin_v6_12.pkt on this host's 6.18
}

// blackhole_netdev came with v5.3: the older profiles leave a route change
// to the runner's skip.
TEST(ProfileTest, OnlyV53AndLaterMoveDeadDstsToTheBlackholeDevice) {
  EXPECT_FALSE(Get("linux-4.19").dead_dst_on_blackhole);
  EXPECT_FALSE(Get("linux-5.0").dead_dst_on_blackhole);
  for (const char *n : {"linux-6.1", "linux-6.8", "linux-6.12", "linux-6.18"}) {
    EXPECT_TRUE(Get(n).dead_dst_on_blackhole) << n;
  }
}

// tcp_data_queue_ofo calls tcp_measure_rcv_mss in Debian's 6.12 source
// (6.12.43 on) and in 6.18, not in 6.1.192's; 6.8 ended before the change.
TEST(ProfileTest, OnlyV612AndLaterMeasureRcvMssOnOutOfOrderData) {
  for (const char *n : {"linux-4.19", "linux-5.0", "linux-6.1", "linux-6.8"}) {
    EXPECT_FALSE(Get(n).ofo_measures_rcv_mss) << n;
  }
  EXPECT_TRUE(Get("linux-6.12").ofo_measures_rcv_mss);
  EXPECT_TRUE(Get("linux-6.18").ofo_measures_rcv_mss);
}

// tcp_event_data_recv and tcp_delack_timer_handler cap ato at
// TCP_DELACK_MAX in Debian's 6.12 source (6.12.105 on); 6.1.192 caps it by
// the RTO alone, and this host's 6.18 behaves the same.
TEST(ProfileTest, OnlyV612CapsAtoAtDelackMax) {
  for (const char *n : {"linux-4.19", "linux-5.0", "linux-6.1", "linux-6.8", "linux-6.18"}) {
    EXPECT_FALSE(Get(n).ato_capped_delack_max) << n;
  }
  EXPECT_TRUE(Get("linux-6.12").ato_capped_delack_max);
}

// tcp_tsval_replay (icsk_rto * 1200 / HZ) is in Debian's 6.12 source and
// came with v6.7's usec-timestamp series; 6.1.192 multiplies by 1024.
TEST(ProfileTest, DisorderedAckReplayWindowIs1200PerSecondFromV67) {
  for (const char *n : {"linux-4.19", "linux-5.0", "linux-6.1"}) {
    EXPECT_FALSE(Get(n).tsval_replay_1200) << n;
  }
  for (const char *n : {"linux-6.8", "linux-6.12", "linux-6.18"}) {
    EXPECT_TRUE(Get(n).tsval_replay_1200) << n;
  }
}

TEST(ProfileTest, NamesAreKnownAndOrderedByVersion) {
  EXPECT_EQ(ProfileNames(), (std::vector<std::string>{"linux-4.19", "linux-5.0", "linux-6.1", "linux-6.8", "linux-6.12",
                                                      "linux-6.18"}));
  for (const std::string &n : ProfileNames()) EXPECT_EQ(Get(n.c_str()).name, n);
  EXPECT_FALSE(ProfileByName("linux-6.2").ok());
}

}  // namespace
}  // namespace sendsim::model
