#ifndef SENDSIM_MODEL_TCP_SOCK_H_
#define SENDSIM_MODEL_TCP_SOCK_H_

// The sending TCP socket: struct tcp_sock state plus the send path. One
// class; each of its .cc files holds functions of one kernel file:
//   tcp.c
//     tcp_sock.cc  tcp_init_sock, setsockopt, tcp_info, live sysctls,
//                  invariants; lock_sock/release_sock and the backlog
//                  (net/core/sock.c, which tcp.c's entry points call)
//     send.cc      do_tcp_sendpages, tcp_sendmsg_locked, skb_entail, size goal, waits
//     push.cc      tcp_push, autocorking, forced_push
//     fin.cc       tcp_shutdown/tcp_close (with tcp_send_fin), tcp_poll
//   tcp_output.c
//     write_xmit.cc  tcp_write_xmit and its tests, tso_fragment, TSQ, tcp_wfree/tasklet,
//                    tcp_release_cb, __tcp_push_pending_frames, tcp_push_one,
//                    tcp_xmit_retransmit_queue, cwnd restart/validation
//     probes.cc      the loss probe (TLP) and window probes (tcp_write_wakeup,
//                    tcp_xmit_probe_skb)
//     mtu_probe.cc   tcp_mtup_init, tcp_mtu_probe
//     route_mss.cc   tcp_current_mss, tcp_sync_mss, tcp_mtu_to_mss; the cached
//                    route (sk_dst_cache, __sk_dst_check) and route changes
//   tcp_input.c
//     ack.cc       tcp_rcv_established/tcp_ack, rtx-queue cleaning, RTT, RTO
//                  rearming, cwnd, write space, tcp_mtup_probe_success
//     sack.cc      the SACK scoreboard (tcp_sacktag_write_queue) and Reno's
//                  emulated SACKs (duplicate ACKs)
//     recovery.cc  tcp_fastretrans_alert: Disorder/Recovery/Loss, PRR, RACK
//                  (tcp_recovery.c), tcp_process_tlp_ack
//     undo.cc      undo of a spurious cwnd reduction (tcp_try_undo_*,
//                  D-SACK accounting, Eifel), F-RTO (tcp_process_loss)
//     chrono.cc    tcp_chrono_start/stop (tcp_info's busy/limited times)
//   tcp_timer.c
//     timers.cc    the ICSK xmit timer: tcp_write_timer, RTO, probe0
//     user_timeout.cc  TCP_USER_TIMEOUT and the write timeouts that abort
//                      (tcp_write_timeout, tcp_write_err, the clamps)
//
// Sequence numbers are 64-bit internally (no wrap in long runs) and
// truncated to 32 bits at the wire seam.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "model/config.h"
#include "model/cubic.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/host/host_cpu.h"
#include "model/profile.h"
#include "model/skb.h"
#include "model/socket.h"
#include "model/tx_timestamp.h"
#include "model/types.h"
#include "model/user_timeout.h"
#include "model/zerocopy.h"
#include "model/wire.h"

namespace sendsim::model {

// Sink for skb clones handed to the IP layer (the Nic, or a test).
using XmitFn = std::function<void(XmitSkb&& skb)>;

// Kind of the one ICSK transmit timer (icsk_pending).
enum class XmitTimer : uint8_t { kNone, kRetrans, kProbe0, kLossProbe, kReoTimeout };

// icsk_ca_state (TCP_CA_*), in the kernel's order: the tests "state <
// Recovery" and the like compare these values.
enum class CaState : uint8_t { kOpen = 0, kDisorder = 1, kCwr = 2, kRecovery = 3, kLoss = 4 };

class TcpSock final : public Socket {
 public:
  struct Options {
    // Window the peer advertised in the handshake (bytes, unscaled).
    uint32_t initial_window = 65535;
    // RTT sample taken from the handshake (0: none; RTO starts at 1 s).
    TimeNs handshake_rtt_ns = 0;
    // Accepted from a listener (the MSS then ignores MTU probing until the
    // next tcp_sync_mss; see MtupInit).
    bool passive_open = false;
    // Active open only: our SYN offered timestamps but the SYN-ACK had none.
    // tcp_connect_init sized search_low with the option counted, and the
    // SYN-ACK's tcp_sync_mss uses that search_low (see MtupInit).
    bool peer_dropped_timestamps = false;
    // Handshake retransmissions before the connection was established: our
    // SYN's RTOs (active open) or our SYN-ACK's (passive). tp->total_retrans
    // starts at this count; see InitAfterSynRetransmit.
    uint32_t syn_retransmits = 0;
    // icsk_backoff the SYN's RTOs left (v6.5+: none while they were linear).
    uint32_t syn_backoff = 0;
    // Passive only: how many of syn_retransmits answered the peer's repeated
    // SYN (tcp_check_req) instead of the request's timer. Only a timeout
    // sets the child's undo_marker (tcp_create_openreq_child).
    uint32_t synack_answers = 0;
    uint32_t snd_wl1 = 0;  // tcp_init_wl: the handshake-completing Segment::seq
  };

  TcpSock(EventLoop* loop, const ConnectionConfig& config, const Profile& profile, Options opts, XmitFn xmit);
  ~TcpSock() override = default;
  TcpSock(const TcpSock&) = delete;
  TcpSock& operator=(const TcpSock&) = delete;

  // Socket API.
  int64_t sendpage(Page page, uint32_t offset, uint32_t size, int flags, DoneFn done = nullptr) override;
  int64_t sendmsg(absl::Span<const Iovec> iov, int flags, DoneFn done = nullptr) override;
  int64_t sendmsg_bvec(absl::Span<const BioVec> bvec, int flags, DoneFn done = nullptr) override;
  int setsockopt(SockOpt opt, int64_t value) override;
  void set_write_space_callback(WriteSpaceFn fn) override { write_space_ = std::move(fn); }
  void set_call_tag(uint64_t tag) override { call_tag_ = tag; }
  bool owned() const override { return IsOwned(); }
  TimeNs cpu_stolen_ns() override { return cpu_->StolenUpTo(loop_->now()); }
  TimeNs last_call_xmit_ns() const override { return last_call_xmit_ns_; }
  // The application's CPU, shared with the host's softirq work; by default
  // the socket's own (transmit costs only). `cpu` must outlive the socket.
  void set_host_cpu(HostCpu* cpu) { cpu_ = cpu; }
  TcpInfo info() const override;
  const Counters& counters() const override { return counters_; }
  Counters& mutable_counters() { return counters_; }

  // Network side.
  // An ACK segment from the peer (softirq: backlog if owned).
  void OnAckSegment(const Segment& seg);
  // tcp_wfree: a clone of `truesize` bytes was freed by TX completion.
  void OnTxCompletion(uint32_t truesize);

  // tcp_shutdown(SEND_SHUTDOWN) and tcp_close: the FIN is queued once
  // (tcp_send_fin) and later sends fail with -EPIPE. Returns 0.
  int Shutdown();
  bool send_shutdown() const { return send_shutdown_; }
  // The socket goes to CLOSE at once (tcp_done after tcp_reset, or
  // tcp_close's tcp_send_active_reset / tcp_disconnect): queues purged,
  // timers stopped, both directions shut; `err` (e.g. ECONNRESET, 0 for
  // none) becomes sk_err. Later segments and timers are ignored.
  void Abort(int err);
  bool aborted() const { return aborted_; }
  // Called when a timer gave up on the connection (tcp_write_err: Abort
  // with ETIMEDOUT has run; no RST is sent), with the error.
  using TimeoutFn = std::function<void(int err)>;
  void set_timeout_callback(TimeoutFn fn) { timeout_fn_ = std::move(fn); }
  uint32_t user_timeout_ms() const { return uto_.user_timeout_ms; }
  // sock_error: the pending sk_err (positive errno), cleared by reading it.
  int TakeSockError();
  std::optional<SockExterr> RecvErrqueue() override;
  bool errqueue_pending() override;
  uint64_t errqueue_reports() override;
  bool has_sock_error() const { return sk_err_ != 0; }
  // Sysctls Linux reads on every use, changed on a live socket
  // (tcp_wmem[1] only matters at socket creation and is ignored here).
  void UpdateSysctls(const TcpSysctls& sysctl, bool autocorking, bool slow_start_after_idle);
  // `ip route change|replace` of the route the socket's cached dst came
  // from, to one of MTU `mtu` (`mtu_metric`: the route's mtu metric, not
  // its device's). The old route's cached dst dies at once (route_mss.cc);
  // the next transmission looks the route up again (__sk_dst_check).
  void RouteChange(uint32_t mtu, bool mtu_metric);
  // ICMP "fragmentation needed" naming next-hop MTU `mtu` about our segment
  // at `seq` (the 32-bit wire number less the ISN + 1: 0 is the first data
  // byte), as tcp_v4_err hands it to tcp_v4_mtu_reduced (pmtu.cc).
  enum class IcmpEffect : uint8_t { kIgnored, kOutOfWindow, kRouteUnchanged, kMssUnchanged, kMssReduced };
  IcmpEffect IcmpFragNeeded(uint32_t seq, uint32_t mtu);
  // tcp_poll's POLLOUT: __sk_stream_is_writeable(sk, 1), or shut down.
  bool PollWriteable() const;
  // tcp_poll as a poller runs it: PollWriteable, and SOCK_NOSPACE set when
  // not writeable.
  bool PollOut();
  // tcp_notsent_lowat: the socket option, else the sysctl.
  uint32_t NotsentLowat() const { return notsent_lowat_ != 0 ? notsent_lowat_ : config_.sysctl.notsent_lowat; }

  // Invariants (sequence space, accounting, cwnd/window at send time).
  absl::Status CheckInvariants() const;

  // Read-only state for tests and the connection.
  uint64_t write_seq() const { return write_seq_; }
  uint64_t snd_nxt() const { return snd_nxt_; }
  uint64_t snd_una() const { return snd_una_; }
  uint32_t snd_cwnd() const { return snd_cwnd_; }
  uint32_t snd_ssthresh() const { return snd_ssthresh_; }
  CaState ca_state() const { return ca_state_; }
  uint32_t sacked_out() const { return sacked_out_; }
  uint32_t lost_out() const { return lost_out_; }
  uint32_t retrans_out() const { return retrans_out_; }
  uint32_t reordering() const { return reordering_; }
  // Undo state (tcp_sock): undo_marker (nullopt: 0, no undo possible),
  // undo_retrans, retrans_stamp (ms, 0: none), prior_ssthresh, F-RTO.
  bool undo_marker_set() const { return undo_marker_set_; }
  uint64_t undo_marker() const { return undo_marker_; }
  int32_t undo_retrans() const { return undo_retrans_; }
  uint32_t retrans_stamp() const { return retrans_stamp_; }
  uint32_t prior_ssthresh() const { return prior_ssthresh_; }
  bool frto() const { return frto_; }
  uint32_t dsack_dups() const { return dsack_dups_; }
  const std::deque<Skb>& rtx_queue() const { return rtx_queue_; }
  uint32_t packets_out() const { return packets_out_; }
  uint32_t sndbuf() const { return sndbuf_; }
  uint32_t wmem_queued() const { return wmem_queued_; }
  uint32_t wmem_alloc() const { return wmem_alloc_; }
  uint32_t snd_wnd() const { return snd_wnd_; }
  uint32_t max_window() const { return max_window_; }
  int nonagle() const { return nonagle_; }
  bool tsq_throttled() const { return tsq_.throttled; }
  XmitTimer pending_timer() const { return xmit_timer_.kind; }
  TimeNs timer_expires_ns() const { return xmit_timer_.expires_ns; }
  uint32_t rto_jiffies() const { return rto_jiffies_; }
  size_t write_queue_len() const { return write_queue_.size(); }
  size_t rtx_queue_len() const { return rtx_queue_.size(); }
  const std::deque<Skb>& write_queue() const { return write_queue_; }
  uint32_t mss_cache() const { return mss_cache_; }
  const Profile& profile() const { return profile_; }
  bool blocked_call_pending() const { return pending_call_ != nullptr; }
  uint32_t size_goal() { return SendMss(0).size_goal; }

 private:
  struct MssGoal {
    uint32_t mss_now;
    uint32_t size_goal;
  };
  // Per-call input of sendpage / sendmsg, kept across a blocking wait.
  struct SendCursor {
    enum class Kind : uint8_t { kPage, kKvec, kBvec };
    Kind kind = Kind::kPage;
    int flags = 0;
    // kPage
    Page page;
    uint32_t offset = 0;
    uint32_t size = 0;
    // kKvec / kBvec: spans into the caller's arrays (owned copies once parked).
    absl::Span<const Iovec> iov;
    absl::Span<const BioVec> bvec;
    size_t idx = 0;
    uint64_t off = 0;  // offset inside element idx
    uint64_t left = 0;
    bool splice = false;        // MSG_SPLICE_PAGES honoured (v6.5+)
    bool zerocopy = false;      // MSG_ZEROCOPY: the user pages become frags
    uint32_t uarg = 0;          // the call's zerocopy uarg (zerocopy.h)
    int process_backlog = 0;    // new skbs since the last backlog flush
    int64_t copied = 0;
  };

  struct PendingCall {
    SendCursor cursor;
    std::vector<Iovec> iov_copy;
    std::vector<BioVec> bvec_copy;
    DoneFn done;
    bool resume_scheduled = false;
  };


  // --- tcp_sock.cc: ownership ---
  void LockSock();
  void ScheduleRelease();
  void EnsureReleaseEvent();
  bool IsOwned() const { return in_call_ || loop_->now() < owned_until_; }
  void ReleaseSock();        // release_sock: backlog, then tcp_release_cb
  void ProcessBacklog(PushReason reason);
  TimeNs JiffyNs() const { return jiffy_ns_; }
  uint32_t Jiffies() const { return static_cast<uint32_t>(loop_->now() / jiffy_ns_); }
  uint32_t UsToJiffies(uint64_t us) const;
  uint32_t NsToJiffiesCeil(TimeNs ns) const;

  // --- send.cc ---
  MssGoal SendMss(int flags);
  uint32_t XmitSizeGoal(uint32_t mss_now);
  Skb& SkbEntail(uint32_t truesize, uint32_t linear_room);
  int64_t DoTcpSendpages(SendCursor& c);
  int64_t SendmsgCall(SendCursor c, DoneFn done);
  void PushFullSkb(Skb& skb, uint32_t mss_now);
  int64_t TcpSendmsgLocked(SendCursor& c);
  uint32_t SpliceFromIter(Skb& skb, SendCursor& c, uint32_t copy);
  uint32_t CopyToPageFrag(Skb& skb, SendCursor& c, uint32_t copy);
  uint32_t ZerocopyFromIter(Skb& skb, SendCursor& c, uint32_t copy);
  // A zerocopy call returns `r` (tcp_zerocopy.cc).
  void ZerocopyCallEnd(const SendCursor& c, int64_t r);
  int64_t WaitForMemory(SendCursor& c);
  void ResumeBlockedCall();
  void RemoveEmptyTailSkb();
  void AppendPayload(Skb& skb, const uint8_t* data, uint32_t len);
  uint8_t* ReserveStore(uint32_t len);
  const uint8_t* CopyFromCursor(SendCursor& c, uint32_t n);
  void ReleaseCopyStore();
  bool StreamMemoryFree(int wake) const;

  // --- tcp_tstamp.cc (tx_timestamp.h) ---
  void SetTimestamping(uint32_t val);                   // sock_set_timestamping
  void TxTimestamp();                                   // tcp_tx_timestamp
  void TstampTx(const Skb& skb, uint32_t type);         // __skb_tstamp_tx
  void TstampXmit(const Skb& skb);                      // SCHED and SND of a transmission
  void AckTstamp(const Skb& skb, uint64_t prior_snd_una);  // tcp_ack_tstamp

  // --- push.cc ---
  void TcpPush(int flags, uint32_t mss_now, int nonagle, uint32_t size_goal, PushReason reason);
  bool ShouldAutocork(const Skb& skb, uint32_t size_goal) const;
  void MarkPush(Skb& skb);
  bool ForcedPush() const;

  // --- write_xmit.cc ---
  bool TcpWriteXmit(uint32_t mss_now, int nonagle, int push_one, PushReason reason);
  uint32_t InitTsoSegs(Skb& skb, uint32_t mss_now);
  uint32_t CwndTest(const Skb& skb) const;
  bool SndWndTest(const Skb& skb, uint32_t mss_now) const;
  bool NagleTest(const Skb& skb, uint32_t mss_now, int nonagle) const;
  bool NagleCheck(bool partial, int nonagle) const;
  bool MinshallCheck() const;
  bool TsoShouldDefer(const Skb& skb, uint32_t max_segs, bool* is_cwnd_limited, bool* is_rwnd_limited);
  uint32_t MssSplitPoint(const Skb& skb, uint32_t mss_now, uint32_t max_segs, int nonagle) const;
  void SplitSkb(std::deque<Skb>& q, size_t idx, uint32_t len, uint32_t mss_now);  // tso_fragment / tcp_fragment
  void GrowSkb(uint32_t amount);  // tcp_grow_skb (v6.10+)
  bool SmallQueueCheck(const Skb& skb);
  uint32_t TsoSegs(uint32_t mss_now) const;  // tcp_tso_segs / tcp_tso_autosize
  void TransmitSkb(Skb& skb, PushReason reason, bool retransmit);
  void EventNewDataSent();  // moves the write-queue head to the rtx queue
  void TsqHandler();
  void TsqWrite(PushReason reason);
  void CwndValidate(bool is_cwnd_limited);
  // tcp_packets_in_flight: packets_out - (sacked_out + lost_out) + retrans_out.
  uint32_t PacketsInFlight() const { return packets_out_ - sacked_out_ - lost_out_ + retrans_out_; }
  bool IsCwndLimited() const;
  void TcpReleaseCb();
  void ChargeXmit(uint32_t segs);
  void PushPendingFrames(uint32_t mss_now, int nonagle, PushReason reason);  // __tcp_push_pending_frames
  void TcpPushPendingFrames(PushReason reason);                              // tcp_push_pending_frames
  void TcpPushOne(uint32_t mss_now);
  void SlowStartAfterIdleCheck();
  void CwndApplicationLimited();
  void XmitRetransmitQueue();
  void RecountSegs(Skb& skb, uint32_t mss);  // tcp_set_skb_tso_segs + tcp_adjust_pcount

  // --- rate.cc (tcp_rate.c) ---
  struct RateSample {
    TimeNs prior_ns = -1;          // prior_mstamp (-1: no timing)
    uint32_t prior_delivered = 0;
    bool have_prior = false;
    int64_t interval_us = -1;
    bool is_app_limited = false;
    bool is_retrans = false;
    uint64_t last_end_seq = 0;
  };
  void RateSkbSent(Skb& skb);
  void RateSkbDelivered(Skb& skb, RateSample* rs);
  void RateGen(uint32_t delivered, RateSample* rs);
  void RateCheckAppLimited();
  uint64_t DeliveryRate() const;  // tcp_compute_delivery_rate

  // --- probes.cc ---
  bool ScheduleLossProbe(bool advancing_rto);
  int WriteWakeup();
  void XmitProbeSkb();  // tcp_xmit_probe_skb: bare ACK with seq snd_una - 1
  void SendLossProbe();

  // --- ack.cc ---
  void TcpRcvEstablished(const Segment& seg, PushReason reason);
  void TcpAck(const Segment& seg);
  void CleanRtxQueue(int* flag, TimeNs* first_ackt, uint32_t* acked_pcount, TimeNs* last_ackt, uint64_t prior_fack,
                     bool ece, uint64_t prior_snd_una);
  void CountDelivered(uint32_t n, bool ece);  // tcp_count_delivered
  void RttEstimator(uint64_t mrtt_us);
  void CubicAcked(uint64_t rtt_us);  // bictcp_acked: delay_min, then HyStart
  void CubicReset();                 // bictcp_reset on entering Loss
  // HyStart (tcp_cubic.c): bictcp_hystart_reset starts a round at snd_nxt;
  // hystart_update judges one RTT sample (delay in the profile's unit).
  uint32_t HystartClock() const;     // bictcp_clock_us / bictcp_clock
  void HystartReset();
  void HystartUpdate(uint32_t delay);
  uint32_t HystartAckDelayUs() const;  // hystart_ack_delay
  void SetRto();
  void CongAvoid(uint32_t acked);
  void RenoCongAvoid(uint32_t acked);
  void CubicCongAvoid(uint32_t acked);
  uint32_t SlowStart(uint32_t acked);
  void CongAvoidAi(uint32_t w, uint32_t acked);
  uint32_t RecalcSsthresh() const;
  uint32_t CaSsthresh();  // ca_ops->ssthresh with CUBIC's side effects
  // --- ecn.cc ---
  void EnterCwr();
  void InitCwndReduction();  // tcp_init_cwnd_reduction
  void CwndReduction(uint32_t newly_acked_sacked, uint32_t newly_lost, int flag);
  void EndCwndReduction();   // tcp_end_cwnd_reduction
  bool InCwndReduction() const { return ca_state_ == CaState::kCwr || ca_state_ == CaState::kRecovery; }

  // --- sack.cc ---
  // What one ACK's SACK blocks did (struct tcp_sacktag_state).
  struct SacktagState {
    int flag = 0;
    uint64_t reord = 0;  // lowest newly SACKed never-retransmitted seq below the highest SACK
    TimeNs first_sackt = -1;
    TimeNs last_sackt = -1;
    uint32_t sack_delivered = 0;
  };
  int SacktagWriteQueue(const Segment& seg, uint64_t prior_snd_una, SacktagState* state);
  int MatchSkbToSack(size_t idx, uint64_t start_seq, uint64_t end_seq);
  void SacktagOne(Skb& skb, bool dup_sack, SacktagState* state);
  bool SackblockValid(bool is_dsack, uint64_t start_seq, uint64_t end_seq) const;  // tcp_is_sackblock_valid
  uint64_t HighestSackSeq() const { return sacked_out_ == 0 ? snd_una_ : highest_sack_end_; }
  void CheckSackReordering(uint64_t low_seq);
  void MarkSkbLost(Skb& skb);  // tcp_mark_skb_lost
  bool IsSack() const { return config_.sack; }
  bool LimitRenoSacked();
  void CheckRenoReordering(uint32_t addend);
  void AddRenoSack(uint32_t num_dupack, bool ece);
  void RemoveRenoSacks(uint32_t acked, bool ece);
  void NewrenoMarkLost(bool snd_una_advanced);

  // --- recovery.cc ---
  void SetCaState(CaState state) { ca_state_ = state; }
  // What tcp_xmit_recovery does after an ACK (REXMIT_*).
  enum Rexmit : int { kRexmitNone = 0, kRexmitLost = 1, kRexmitNew = 2 };
  void FastretransAlert(uint64_t prior_snd_una, uint32_t num_dupack, int* flag, int* rexmit);
  bool TimeToRecover() const { return lost_out_ != 0; }  // RACK: only a proven loss
  void EnterRecovery(bool ece_ack);
  bool TryUndoRecovery();
  void TryKeepOpen();
  void TryToOpen(int flag);
  bool AnyRetransDone() const;
  void ProcessLoss(int flag, uint32_t num_dupack, int* rexmit);
  void XmitRecovery(int rexmit);  // tcp_xmit_recovery
  // --- undo.cc ---
  uint32_t TcpTimeStamp() const;  // tcp_time_stamp: ms, the TS val clock
  void InitUndo();                // tcp_init_undo
  void NoteRetransmit(const Skb& skb);  // __tcp_retransmit_skb's undo bookkeeping
  bool PacketDelayed() const;     // tcp_packet_delayed (Eifel)
  bool MayUndo() const;           // tcp_may_undo
  void UndoCwndReduction(bool unmark_loss);
  bool NonSackPreventingReopen();  // tcp_is_non_sack_preventing_reopen
  void RetransStampCleanup();      // tcp_retrans_stamp_cleanup
  bool TryUndoDsack();
  bool TryUndoLoss(bool frto_undo);
  bool TryUndoPartial(uint64_t prior_snd_una);
  uint32_t DsackSeen(uint64_t start_seq, uint64_t end_seq, SacktagState* state);  // tcp_dsack_seen
  bool CheckDsack(const std::vector<std::pair<uint64_t, uint64_t>>& blocks, uint64_t ack, uint64_t prior_snd_una,
                  SacktagState* state);  // tcp_check_dsack
  void IdentifyPacketLoss(int* flag);
  void ProcessTlpAck(uint64_t ack, int flag);
  // RACK (tcp_recovery.c).
  void RackAdvance(bool ever_retransmitted, uint64_t end_seq, TimeNs xmit_ns);
  uint32_t RackReoWndUs() const;
  uint32_t RackDetectLoss();  // the longest wait (us) of a skb not yet lost
  bool RackMarkLost();
  void RackReoTimeout();
  void EcnSend(XmitSkb& x, const Skb& skb, bool retransmit);
  uint32_t CurrentSsthresh() const;
  void UpdatePacingRate();
  void SynAckPacingRate();  // the active opener's first rate, on the SYN-ACK
  void CheckSpace();
  void NewSpace();
  void SndbufExpand();
  void WriteSpace();  // sk_write_space with the generic wakeup test
  // tcp_init_cwnd: the route's initial cwnd, clamped to snd_cwnd_clamp.
  uint32_t InitCwnd() const { return std::min(config_.initcwnd, snd_cwnd_clamp_); }
  void MtupProbeSuccess();
  void RearmRto();
  void SetXmitTimer();

  // --- mtu_probe.cc ---
  void MtupInit(bool passive_open, bool peer_dropped_timestamps);
  uint32_t MssClamp() const;               // rx_opt.mss_clamp
  uint32_t MssToMtu(uint32_t mss) const;   // tcp_mss_to_mtu
  int MtuProbe(PushReason reason);         // -1 not now, 0 wait, 1 sent

  // --- route_mss.cc ---
  uint32_t MtuToMss(uint32_t pmtu) const;       // tcp_mtu_to_mss
  uint32_t BoundToHalfWnd(uint32_t mss) const;  // tcp_bound_to_half_wnd
  uint32_t SyncMss(uint32_t pmtu);              // tcp_sync_mss
  uint32_t SyncMss() { return SyncMss(pmtu_cookie_); }  // with icsk_pmtu_cookie
  uint32_t CurrentMss();                        // tcp_current_mss
  void DstCheck();                              // __sk_dst_check in ip_queue_xmit
  void SimpleRetransmit();                      // tcp_simple_retransmit (pmtu.cc)

  // --- timers.cc ---
  void ResetXmitTimer(XmitTimer kind, uint32_t when_jiffies);
  void ClearXmitTimer();
  void OnXmitTimer();
  void WriteTimerHandler();
  int64_t RtoDeltaUs() const;
  void RetransmitTimer();
  void ProbeTimer();
  void CheckProbeTimer();
  void EnterLoss();  // tcp_enter_loss
  // The state a handshake with retransmissions leaves (tcp_sock.cc).
  void InitAfterSynRetransmit(const Options& opts);

  // --- user_timeout.cc ---
  uint32_t MsecsToJiffies(uint32_t ms) const;     // msecs_to_jiffies (rounds up)
  uint32_t ClampRtoToUserTimeout() const;         // tcp_clamp_rto_to_user_timeout
  uint32_t ClampProbe0ToUserTimeout(uint32_t when) const;  // tcp_clamp_probe0_to_user_timeout
  bool RetransmitsTimedOut() const;               // retransmits_timed_out(tcp_retries2, user timeout)
  bool RtxProbe0TimedOut() const;                 // tcp_rtx_probe0_timed_out
  bool ProbeTimerTimedOut();                      // tcp_probe_timer's abort tests
  void WriteErr();                                // tcp_write_err

  void NoteViolation(const char* what);

  // --- chrono.cc: tcp_chrono_* (tcpi_busy_time and its limited parts) ---
  // enum tcp_chrono, in its priority order.
  enum class Chrono : uint8_t { kUnspec = 0, kBusy = 1, kRwndLimited = 2, kSndbufLimited = 3 };
  void ChronoSet(Chrono type);    // tcp_chrono_set
  void ChronoStart(Chrono type);  // tcp_chrono_start
  void ChronoStop(Chrono type);   // tcp_chrono_stop
  void ChronoStats(TcpInfo* info) const;  // tcp_get_info_chrono_stats
  Chrono chrono_type_ = Chrono::kUnspec;
  uint32_t chrono_start_ = 0;     // jiffies
  uint32_t chrono_stat_[3] = {};  // jiffies spent per type (busy, rwnd, sndbuf)

  // --- tcp_info counters (tcp_get_info) ---
  void UpdateRtoStats();  // tcp_update_rto_stats (timers.cc)
  void UpdateRtoTime();   // tcp_update_rto_time (ack.cc)
  uint64_t bytes_retrans_ = 0;
  uint32_t total_rto_ = 0;
  uint32_t total_rto_recoveries_ = 0;
  uint64_t total_rto_time_ms_ = 0;
  int64_t rto_stamp_ms_ = -1;     // start of the current RTO series (-1: none)
  uint32_t rcv_tstamp_ = 0;       // jiffies of the last acceptable ACK
  uint32_t created_jiffies_ = 0;  // established: lrcvtime's first value
  bool syn_retransmitted_ = false;

  EventLoop* loop_;
  ConnectionConfig config_;
  Profile profile_;
  TimeNs jiffy_ns_;
  uint64_t jiffy_us_;
  XmitFn xmit_;
  WriteSpaceFn write_space_;
  uint64_t call_tag_ = 0;
  Counters counters_;
  HostCpu own_cpu_;
  HostCpu* cpu_ = &own_cpu_;

  // Sequence space (struct tcp_sock).
  uint64_t write_seq_ = 0;
  uint64_t snd_nxt_ = 0;
  uint64_t snd_una_ = 0;
  uint64_t pushed_seq_ = 0;
  uint64_t snd_sml_ = 0;
  uint64_t rtt_seq_ = 0;
  uint64_t high_seq_ = 0;
  uint64_t tlp_high_seq_ = 0;
  int nonagle_ = 0;
  uint32_t snd_wnd_ = 0;
  uint32_t max_window_ = 0;
  uint32_t snd_cwnd_ = kTcpInitCwnd;
  uint32_t snd_ssthresh_ = kTcpInfiniteSsthresh;
  uint32_t snd_cwnd_cnt_ = 0;
  uint32_t snd_cwnd_clamp_ = UINT32_MAX;
  uint32_t snd_cwnd_used_ = 0;
  uint32_t snd_cwnd_stamp_ = 0;  // jiffies
  uint32_t packets_out_ = 0;
  uint32_t lost_out_ = 0;
  uint32_t retrans_out_ = 0;
  uint32_t sacked_out_ = 0;       // SACKed segments (Reno: duplicate ACKs)
  uint64_t highest_sack_end_ = 0; // tcp_highest_sack_seq while sacked_out > 0
  uint32_t reordering_ = kTcpReorderingDefault;  // tp->reordering
  uint32_t reord_seen_ = 0;
  // tcp_rate.c: the send phase's start, the last delivery's time, the
  // app-limited bubble's end (0: none), the last recorded sample.
  TimeNs first_tx_ns_ = 0;
  TimeNs delivered_ns_ = 0;
  // tcp_init_sock starts app-limited (app_limited ~0U, rate_app_limited 1).
  uint32_t app_limited_ = UINT32_MAX;
  uint32_t rate_delivered_ = 0;
  int64_t rate_interval_us_ = 0;
  bool rate_app_limited_ = true;
  RateSample rate_sample_;  // the one tcp_ack is building (sack_state.rate)
  uint32_t lost_ = 0;             // tp->lost: segments ever marked lost
  bool tlp_retrans_ = false;      // the outstanding TLP was a retransmission
  // Undo (undo.cc). The kernel's undo_marker 0 means "none": a flag here.
  bool undo_marker_set_ = false;
  uint64_t undo_marker_ = 0;      // snd_una when the reduction began
  int32_t undo_retrans_ = -1;     // retransmissions not yet proven spurious (0: undo now)
  uint32_t retrans_stamp_ = 0;    // TS clock (ms) of the first retransmission, 0: none
  uint32_t prior_ssthresh_ = 0;   // ssthresh before the reduction, 0: no undo of cwnd
  uint32_t rcv_tsecr_ = 0;        // the current ACK's TS ecr (0: none seen)
  uint32_t dsack_dups_ = 0;       // tp->dsack_dups: segments reported by D-SACK
  bool frto_ = false;             // tp->frto: F-RTO running after this RTO
  CaState ca_state_ = CaState::kOpen;
  // RACK: the most recently sent (s)acked skb and its RTT.
  struct Rack {
    TimeNs mstamp = 0;
    uint64_t end_seq = 0;
    uint32_t rtt_us = 0;
    bool advanced = false;
  } rack_;
  // PRR counters of a cwnd reduction (CWR, Recovery), TCP_ECN_QUEUE_CWR.
  bool ecn_queue_cwr_ = false;
  uint32_t prior_cwnd_ = 0;
  uint32_t prr_delivered_ = 0;
  uint32_t prr_out_ = 0;
  uint32_t delivered_ce_ = 0;
  uint32_t snd_wl1_ = 0;  // tp->snd_wl1: the peer's seq of the last window update
  uint32_t mss_cache_;
  uint32_t gso_segs_ = 0;
  uint32_t lsndtime_ = 0;  // jiffies
  TimeNs last_xmit_ns_ = 0;  // tcp_wstamp_ns (EDT, v5.0+)
  uint32_t srtt_us_ = 0;     // << 3
  uint32_t mdev_us_ = 0;
  uint32_t mdev_max_us_ = 0;
  uint32_t rttvar_us_ = 0;
  uint32_t min_rtt_us_ = UINT32_MAX;
  uint32_t rto_jiffies_;
  uint32_t backoff_ = 0;
  uint32_t max_packets_out_ = 0;
  uint64_t max_packets_seq_ = 0;
  bool is_cwnd_limited_ = false;
  uint64_t pacing_rate_ = UINT64_MAX;  // sk_pacing_rate, bytes/s
  uint32_t notsent_lowat_ = 0;  // TCP_NOTSENT_LOWAT; 0 = the sysctl
  bool send_shutdown_ = false;   // SEND_SHUTDOWN
  bool aborted_ = false;         // TCP_CLOSE after a reset (Abort)
  int sk_err_ = 0;               // sk->sk_err (positive errno)
  ErrorQueue errq_;              // sk_error_queue (errqueue.h)
  ZerocopyState zc_{&errq_};     // sk_zckey, the uargs (zerocopy.h)
  TxTimestampState tsk_;         // sk_tsflags, sk_tskey (tx_timestamp.h)
  // icsk_mtup (MTU probing).
  struct Mtup {
    bool enabled = false;
    uint32_t search_low = 0;
    uint32_t search_high = 0;
    uint32_t probe_size = 0;  // MTU of the outstanding probe (0: none)
    uint64_t probe_seq_end = 0;
  } mtup_;
  uint32_t full_mss_ = 0;        // tcp_mtu_to_mss(pmtu) as negotiated (config.mss)
  // The route (route_mss.cc): the socket's cached dst (sk_dst_cache), what a
  // lookup would return now, and the MTU tcp_sync_mss last saw.
  struct Dst {
    uint32_t mtu = 0;         // dst_mtu
    bool mtu_metric = false;  // from the route's mtu metric (kept by a dead dst)
    bool obsolete = false;    // __sk_dst_check drops it
    bool locked = false;      // ip_mtu_locked: `mtu lock`, or a PMTU clamped to ip_rt_min_pmtu
  };
  Dst dst_;
  Dst fib_dst_;
  uint32_t pmtu_cookie_ = 0;  // icsk_pmtu_cookie
  UserTimeoutState uto_;        // icsk_user_timeout, icsk_probes_out/_tstamp (user_timeout.h)
  TimeoutFn timeout_fn_;
  uint32_t retransmits_ = 0;     // icsk_retransmits (consecutive RTOs)
  uint32_t total_retrans_ = 0;   // tp->total_retrans (segments)
  uint32_t delivered_ = 1;       // tp->delivered (the handshake counts one)
  uint32_t user_mss_ = 0;
  using Cubic = CubicState;
  Cubic cubic_;  // CUBIC (bictcp) state (cubic.h)

  // Memory (struct sock).
  uint32_t sndbuf_;
  bool sndbuf_locked_ = false;  // SOCK_SNDBUF_LOCK
  uint32_t wmem_queued_ = 0;
  uint32_t wmem_alloc_ = 1;
  bool sock_nospace_ = false;
  bool queue_shrunk_ = false;
  // sk_tsq_flags: TSQ_THROTTLED, TSQ_QUEUED, TCP_TSQ_DEFERRED,
  // TCP_WRITE_TIMER_DEFERRED.
  struct TsqFlags {
    bool throttled = false;
    bool queued = false;
    bool deferred = false;
    bool write_timer_deferred = false;
  } tsq_;

  // Ownership.
  bool in_call_ = false;      // inside a call or release_sock
  TimeNs owned_until_ = 0;    // end of the last call's hold (call_cost_ns + its xmit cost)
  TimeNs call_xmit_ns_ = 0;       // xmit_cost_ns of the segments the current call sent
  TimeNs last_call_xmit_ns_ = 0;  // the same, of the last call that ended
  EventLoop::EventId release_event_ = 0;
  std::vector<Segment> backlog_;
  std::vector<Segment> backlog_batch_;

  // The ICSK xmit timer (icsk_pending, icsk_timeout).
  struct IcskXmitTimer {
    XmitTimer kind = XmitTimer::kNone;
    EventLoop::EventId event = 0;
    TimeNs expires_ns = 0;
    TimeNs event_at = 0;  // when `event` fires (<= expires_ns)
  } xmit_timer_;

  std::deque<Skb> write_queue_;  // unsent
  std::deque<Skb> rtx_queue_;    // sent, unacked

  // Page-frag allocator of sendmsg's copy path (sk_page_frag).
  uint64_t pfrag_page_ = 0;
  uint32_t pfrag_offset_ = kPageFragSize;  // forces a refill on first use
  uint64_t next_pfrag_id_ = 1ULL << 62;    // disjoint from caller page ids

  // Copies of sendmsg payload (when tracked), freed once acknowledged.
  struct CopyChunk {
    std::unique_ptr<uint8_t[]> data;
    uint32_t size = 0;
    uint32_t used = 0;
    uint64_t last_seq = 0;
  };
  std::deque<CopyChunk> copy_store_;

  std::unique_ptr<PendingCall> pending_call_;
  const char* violation_ = nullptr;
  uint64_t segs_out_ = 0;       // tp->segs_out (__tcp_transmit_skb: every segment)
  uint64_t data_segs_out_ = 0;  // tp->data_segs_out (those with payload)
  std::vector<Iovec> iov_scratch_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_TCP_SOCK_H_
