#ifndef SENDSIM_MODEL_PEER_H_
#define SENDSIM_MODEL_PEER_H_

// The receiving Linux TCP (v4.19 tcp_input.c receive side): in-order
// reassembly with an out-of-order queue and SACK blocks, cumulative ACKs with
// the delayed-ACK rules (__tcp_ack_snd_check, tcp_send_delayed_ack,
// tcp_delack_timer, tcp_event_data_recv's ato, quick-ack mode), the receive
// window (tcp_select_initial_window, tcp_grow_window, __tcp_select_window,
// tcp_select_window), optional GRO batching and an application reading at a
// given rate (tcp_cleanup_rbuf after each read). Opt-in newer rules
// (PeerConfig): backlog coalescing while the reader holds the socket
// (tcp_add_backlog, v5.0+), the deferred backlog ACK (v6.7+), and a reader
// that sleeps once drained and wakes app_read_wakeup_ns after new data.
//
// Time: the peer keeps its own clock (peer_now(), the time of the last input
// it processed). Inputs are segments (OnSegment / OnSegmentAt) and its own
// deadlines (delayed-ACK timer, GRO flush, application read). Before an input
// at time t, every deadline <= t is processed first, so the peer's state
// evolves in time order whether segments come from events at their arrival
// time or early from a Link in lookahead mode. Deadlines nobody overtakes are
// run by a wakeup event on the loop. ACKs leave on `reverse` at
// (decision time + cfg.peer.ack_proc_ns).
//
// Sequence numbers on the wire are 32-bit and wrap; internally the peer keeps
// 64-bit unwrapped sequence numbers.
//
// Wiring a connection (what the sender side does):
//
//   Link data(loop, cfg.link_bps, cfg.one_way_delay_ns, Direction::kData,
//             nullptr, obs, LinkOptionsFor(cfg, Direction::kData));
//   Link acks(loop, cfg.link_bps, cfg.one_way_delay_ns, Direction::kAck,
//             [&](const Segment& a) { /* tcp_ack at loop->now() */ }, obs,
//             LinkOptionsFor(cfg, Direction::kAck));
//   Peer peer(loop, cfg, profile, &acks, obs, /*initial_rcv_nxt=*/first data seq);
//   peer.AttachLookahead(&data);      // or pass a deliver fn to `data` instead
//   Nic nic(loop, cfg, &data, [&](uint32_t truesize) { /* tcp_wfree */ });
//   snd_wnd = max_window = peer.initial_window();   // SYN-ACK window, bytes
//
// That is a plain host. Connection puts a host stage (model/host/
// host_stage.h) between each link and its receiver instead, which hands the
// segments on at the time the receiving host takes them.
//
// ACK segments: flags ACK, seq 0 (the peer sends no data), ack = rcv_nxt,
// win = advertised window in bytes (already shifted by the peer's wscale,
// use it as snd_wnd directly), sack = up to 3 blocks (4 without timestamps),
// most recent first, only while out-of-order data is queued.
//
// The sender never sees a synchronous callback: ACKs reach it from events at
// their arrival time, TX completions from events at their completion time.
// In lookahead mode the peer (and the observer's OnWirePacket for ACKs and
// OnDeliver) runs inside Nic::Transmit with timestamps later than
// loop->now(); the observer sees each direction in time order, not the two
// directions merged.
//
// Event order: per-segment delivery events and lookahead give the same peer
// state evolution and the same ACK times (tested). The one difference: an ACK
// arrival event is inserted into the loop when the peer decides to send it,
// which in lookahead mode is when the acknowledged data left the sender; if
// another sender event falls on exactly the same nanosecond, insertion order
// decides (deterministic in both modes, but not identical between them).

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/link.h"
#include "model/observer.h"
#include "model/profile.h"
#include "model/wire.h"

namespace sendsim::model {

// Timer and window constants of the receive side (include/net/tcp.h).
inline constexpr int kTcpAtoMinHzDivisor = 25;     // TCP_ATO_MIN = TCP_DELACK_MIN = HZ/25
inline constexpr int kTcpDelackMaxHzDivisor = 5;   // TCP_DELACK_MAX = HZ/5
inline constexpr uint32_t kTcpMinRcvMss = 88;      // TCP_MIN_MSS
inline constexpr uint32_t kTcpMssDefaultRcv = 536; // TCP_MSS_DEFAULT
inline constexpr uint32_t kGroMaxBytes = 65536;    // skb_gro_receive: aggregate + next < 64 KB
inline constexpr uint32_t kAppReadChunk = 65536;
inline constexpr uint32_t kTcpCompSackNr = 44;           // sysctl_tcp_comp_sack_nr
inline constexpr TimeNs kTcpCompSackDelayNs = 1'000'000;  // sysctl_tcp_comp_sack_delay_ns
inline constexpr uint32_t kTcpFastretransThresh = 3;     // TCP_FASTRETRANS_THRESH   // bytes one recvmsg of the rate-limited reader copies

class Peer {
 public:
  // `loop`, `reverse` and `obs` (may be null) must outlive the peer.
  // `initial_rcv_nxt` is the sequence number of the first data byte.
  // The receiver follows `profile`'s receive-side rules (rcv_*).
  Peer(EventLoop* loop, const ConnectionConfig& cfg, const Profile& profile, Link* reverse, Observer* obs,
       uint32_t initial_rcv_nxt = 0);

  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  // A segment arriving now (loop->now()).
  void OnSegment(const Segment& seg) { OnSegmentAt(loop_->now(), seg); }
  // A segment arriving at `arrival` >= peer_now(); may be called before the
  // loop reaches `arrival` (Link lookahead mode).
  void OnSegmentAt(TimeNs arrival, const Segment& seg);
  // Makes `data_link` deliver to this peer in lookahead mode.
  void AttachLookahead(Link* data_link);

  // Next expected sequence number (tp->rcv_nxt), wire form.
  uint32_t rcv_nxt() const { return static_cast<uint32_t>(rcv_nxt_); }
  // Window offered in the SYN-ACK (unscaled bytes): tcp_select_initial_window.
  uint32_t initial_window() const { return initial_window_; }
  // sk_rcvbuf (grows only with rcvbuf_autotune_initial set).
  uint64_t sk_rcvbuf() const { return sk_rcvbuf_; }
  // Window scale the peer uses for its advertisements (rcv_wscale).
  uint8_t wscale() const { return wscale_; }
  // Advertised window of the last ACK (bytes), tp->rcv_wnd.
  uint32_t rcv_wnd() const { return rcv_wnd_; }
  uint32_t rcv_ssthresh() const { return rcv_ssthresh_; }
  uint32_t rcv_mss() const { return rcv_mss_; }
  // Delayed-ACK timeout in jiffies (icsk_ack.ato) and quick-ACK credit.
  uint32_t ato_jiffies() const { return ato_; }
  uint32_t quick() const { return quick_; }
  TimeNs peer_now() const { return now_; }
  // Bytes received in order and not yet read by the application.
  uint64_t unread() const { return unread_; }

  struct Stats {
    uint64_t segments = 0;      // data segments received
    uint64_t batches = 0;       // skbs handed to TCP (== segments without GRO)
    uint64_t acks = 0;          // ACKs sent
    uint64_t delayed_acks = 0;  // ACKs sent by the delayed-ACK timer
    uint64_t quick_acks = 0;    // ACKs sent because of quick-ACK mode
    uint64_t read_acks = 0;     // ACKs sent by tcp_cleanup_rbuf after a read
    uint64_t rcvbuf_grows = 0;  // tcp_rcv_space_adjust raised sk_rcvbuf
    uint64_t backlogged = 0;    // skbs queued to the socket backlog while the reader held it
    uint64_t coalesced = 0;     // of those, merged into the backlog's tail (tcp_add_backlog)
    uint64_t ofo_segments = 0;  // segments queued out of order
    uint64_t dup_segments = 0;  // segments entirely below rcv_nxt
  };
  const Stats& stats() const { return stats_; }

 private:
  // tcp_win_from_space with tcp_adv_win_scale = 1.
  static uint32_t WinFromSpace(uint64_t space) { return static_cast<uint32_t>(space - (space >> 1)); }
  // Rounds up to a multiple of `a`, a power of two (1 << wscale): a mask,
  // not a division.
  static uint64_t AlignUpPow2(uint64_t x, uint32_t a) { return (x + a - 1) & ~(uint64_t{a} - 1); }
  // icsk_ack.pending bits (include/net/inet_connection_sock.h).
  static constexpr uint8_t kAckSched = 1;    // ICSK_ACK_SCHED
  static constexpr uint8_t kAckTimer = 2;    // ICSK_ACK_TIMER
  static constexpr uint8_t kAckPushed = 4;   // ICSK_ACK_PUSHED
  static constexpr uint8_t kAckPushed2 = 8;  // ICSK_ACK_PUSHED2
  static constexpr uint8_t kAckNow = 16;     // ICSK_ACK_NOW

  // One skb as TCP sees it (a single segment or a GRO aggregate).
  struct RxSkb {
    uint64_t seq = 0;
    uint32_t len = 0;
    uint32_t gso_size = 0;  // 0: not aggregated
    uint8_t flags = 0;
    std::vector<PayloadPiece> payload;  // only for stored skbs (GRO aggregate, ofo queue)
  };

  uint64_t Unwrap(uint32_t seq) const;
  void RunDeadlines(TimeNs t);  // processes deadlines <= t, in time order
  // Earliest pending deadline, -1 when none (inline: runs twice per segment).
  TimeNs NextDeadline() const {
    TimeNs d = INT64_MAX;
    if (gro_open_) d = std::min(d, gro_last_ + pcfg_.gro_flush_ns);
    if (pending_ & kAckTimer) d = std::min(d, JiffyTime(delack_timeout_));
    if (sack_timer_armed_) d = std::min(d, sack_timer_at_);
    if (reading_) d = std::min(d, read_done_);
    if (waking_) d = std::min(d, wake_at_);
    return d == INT64_MAX ? -1 : d;
  }
  void ArmWakeup();
  void Wakeup();

  void GroFlush();
  // tcp_v4_rcv's ownership test: to the backlog while the reader holds the
  // socket (backlog_coalesce), else straight to ProcessSkb.
  void TcpV4Rcv(RxSkb skb, uint32_t frags);
  void AddBacklog(RxSkb skb, uint32_t frags);  // tcp_add_backlog
  void ReleaseSock();                          // __release_sock: the backlog, in order
  // tcp_rcv_established + tcp_data_queue; `payload` belongs to `skb`.
  void ProcessSkb(const RxSkb& skb, const std::vector<PayloadPiece>& payload);
  void EventDataRecv(const RxSkb& skb);        // tcp_event_data_recv
  void MeasureRcvMss(const RxSkb& skb);        // tcp_measure_rcv_mss
  void IncrQuickack(uint32_t max_quickacks);   // tcp_incr_quickack
  void GrowWindow(const RxSkb& skb);
  void RcvRttMeasure();           // tcp_grow_window
  void Deliver(uint64_t seq, uint32_t len, const std::vector<PayloadPiece>& payload, uint64_t payload_seq);
  void OfoQueue();                             // tcp_ofo_queue
  void AckSndCheck();                          // tcp_ack_snd_check / __tcp_ack_snd_check
  void SendDelayedAck();                       // tcp_send_delayed_ack
  void DelackTimer();                          // tcp_delack_timer_handler
  void CompressedAckTimer();                   // tcp_compressed_ack_kick
  void SendAck();                              // tcp_send_ack + tcp_event_ack_sent
  uint32_t SelectWindowRaw();                  // __tcp_select_window (may clear quick, as the kernel does)
  uint32_t SelectWindow();                     // tcp_select_window (updates rcv_wnd, rcv_wup)
  uint32_t ReceiveWindow() const;              // tcp_receive_window
  uint32_t FreeSpace() const;                  // tcp_space
  void AppRead(uint64_t copied);               // recvmsg copied bytes -> tcp_cleanup_rbuf
  void RcvSpaceAdjust();                       // tcp_rcv_space_adjust
  void SetRcvbuf(uint64_t rcvbuf);
  // The next recvmsg; `awake`: the reader is running (it just finished a
  // read or woke up), else it sleeps for app_read_wakeup_ns first.
  void StartReadChunk(bool awake);
  bool AckThresholdReached() const;
  // t / jiffy_ns_, remembering the last jiffy: the peer's clock moves by
  // microseconds between calls, so nearly every call skips the division.
  uint64_t Jiffies(TimeNs t) const {
    if (t < jiffy_start_ || t - jiffy_start_ >= jiffy_ns_) {
      jiffy_ = static_cast<uint64_t>(t) / static_cast<uint64_t>(jiffy_ns_);
      jiffy_start_ = JiffyTime(jiffy_);
    }
    return jiffy_;
  }
  TimeNs JiffyTime(uint64_t j) const { return static_cast<TimeNs>(j) * jiffy_ns_; }

  EventLoop* loop_;
  Link* reverse_;
  Observer* obs_;
  PeerConfig pcfg_;
  bool backlog_coalesce_;   // Profile::rcv_backlog_coalesce
  bool backlog_ack_defer_;  // Profile::rcv_backlog_ack_defer
  bool drs_skips_queued_;   // Profile::rcv_drs_skips_queued
  bool drs_no_cushion_;     // Profile::rcv_drs_no_cushion
  TimeNs app_read_wakeup_ns_ = 0;    // HostConfig::app_read_wakeup_ns
  bool sack_;
  bool timestamps_;
  TimeNs jiffy_ns_;
  mutable uint64_t jiffy_ = 0;      // Jiffies() cache: jiffy_ starts at jiffy_start_
  mutable TimeNs jiffy_start_ = 0;
  uint32_t ato_min_;       // jiffies
  uint32_t delack_max_;    // jiffies
  uint32_t rto_jiffies_;   // receiver's icsk_rto (TCP_RTO_MIN: no RTT samples of its own data)
  uint32_t srtt_jiffies_;  // receiver's srtt from the handshake (2 * one-way delay)
  TimeNs srtt_ns_;         // same in ns (SACK compression uses min(rcv_rtt, srtt) = srtt)
  uint32_t advmss_;
  uint32_t tcp_header_len_;

  TimeNs now_ = 0;
  uint64_t rcv_nxt_ = 0;
  uint64_t rcv_wup_ = 0;
  uint64_t copied_seq_ = 0;
  uint32_t rcv_wnd_ = 0;
  uint32_t rcv_ssthresh_ = 0;
  uint32_t window_clamp_ = 0;
  uint32_t full_space_ = 0;
  // Receive-buffer autotuning (tcp_rcv_space_adjust): sk_rcvbuf and the
  // rcvq_space measurement.
  uint64_t sk_rcvbuf_ = 0;
  uint64_t rcvq_space_ = 0;
  uint64_t rcvq_seq_ = 0;
  TimeNs rcvq_time_ = 0;
  // tcp_rcv_rtt_measure (PeerConfig::rcv_rtt_from_window): min time to
  // receive one window; 0 until the first sample.
  TimeNs rcv_rtt_ns_ = 0;
  uint64_t rcv_rtt_seq_ = 0;
  TimeNs rcv_rtt_time_ = -1;  // < 0: no measurement started
  uint32_t initial_window_ = 0;
  uint8_t wscale_ = 0;
  uint64_t unread_ = 0;     // in-order bytes not yet read (sk_rmem_alloc, payload only)
  uint64_t ofo_bytes_ = 0;  // bytes in the out-of-order queue

  // icsk_ack
  uint32_t rcv_mss_ = kTcpMssDefaultRcv;
  uint32_t last_seg_size_ = 0;
  uint32_t ato_ = 0;
  uint32_t quick_ = 0;
  uint64_t lrcvtime_ = 0;  // jiffies
  uint8_t pending_ = 0;    // ICSK_ACK_* bits
  uint64_t delack_timeout_ = 0;  // jiffies

  // Out-of-order queue: unwrapped start seq -> segment (payload kept for later delivery).
  std::map<uint64_t, RxSkb> ofo_;
  std::vector<std::pair<uint64_t, uint64_t>> sack_blocks_;  // most recent first
  // SACK compression (tp->compressed_ack, compressed_ack_rcv_nxt, hrtimer).
  uint32_t compressed_ack_ = 0;
  uint64_t compressed_ack_rcv_nxt_ = 0;
  bool sack_timer_armed_ = false;
  TimeNs sack_timer_at_ = 0;

  // GRO aggregate being built.
  bool gro_open_ = false;
  RxSkb gro_;
  uint32_t gro_segs_ = 0;
  TimeNs gro_last_ = 0;

  // Socket backlog filled while the reader owns the socket (backlog_coalesce),
  // with each skb's frag count (one per segment: a received segment's
  // payload sits in one page frag).
  std::vector<std::pair<RxSkb, uint32_t>> backlog_;
  bool in_release_ = false;    // ReleaseSock is running the backlog
  bool in_read_ = false;       // the reader's tcp_cleanup_rbuf or tcp_release_cb is sending an ACK
  bool ack_deferred_ = false;  // TCP_ACK_DEFERRED

  // Rate-limited reader: a recvmsg of read_chunk_ bytes completes at read_done_.
  bool reading_ = false;
  uint64_t read_chunk_ = 0;
  TimeNs read_done_ = 0;
  bool waking_ = false;  // data arrived for the sleeping reader; it runs at wake_at_
  TimeNs wake_at_ = 0;

  TimeNs armed_at_ = -1;  // earliest wakeup event outstanding (-1: none known)
  Segment ack_;           // SendAck's segment, refilled for every ACK
  Stats stats_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_PEER_H_
