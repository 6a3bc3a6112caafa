// Undo of a cwnd reduction found spurious (tcp_input.c: tcp_init_undo,
// tcp_may_undo, tcp_undo_cwnd_reduction, tcp_try_undo_*), the D-SACK
// accounting that feeds it (tcp_check_dsack, tcp_dsack_seen) and F-RTO's
// undo (tcp_process_loss in recovery.cc calls TryUndoLoss). Read in 6.1
// and 6.12, which agree here; the other profiles apply the same rules
// (UNVERIFIED for linux-4.19 and linux-5.0: tcp_dsack_seen's dsack_dups
// check and its delivered count came later; our undo scripts run on 6.1+).
//
// A reduction is spurious when every retransmission of it was reported
// duplicate by a D-SACK (undo_retrans reaches 0), or when an ACK echoes a
// timestamp older than the first retransmission (Eifel, tcp_packet_delayed).
// Undoing puts cwnd back to max(cwnd, prior_cwnd) (reno and cubic share
// tcp_reno_undo_cwnd) and ssthresh to prior_ssthresh if that is larger.
//
// Simplifications (README "Model limits"): the model's own peer echoes no
// timestamps and sends no D-SACK, so in simulations only the "nothing was
// retransmitted" case of tcp_packet_delayed and F-RTO can undo; RACK's
// reo_wnd does not grow on D-SACK (rack.dsack_seen, reo_wnd_persist).

#include <algorithm>

#include "model/recovery_flags.h"
#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_time_stamp: the TS val clock, in ms (no per-connection offset; only
// differences matter).
uint32_t TcpSock::TcpTimeStamp() const { return static_cast<uint32_t>(loop_->now() / kNsPerMs); }

// tcp_init_undo: the reduction may be undone until proven real;
// retransmissions (and a retransmitted TLP) still in flight may yet be
// D-SACKed. undo_retrans 0 means "undo now", so none in flight is -1.
void TcpSock::InitUndo() {
  undo_marker_set_ = true;
  undo_marker_ = snd_una_;
  undo_retrans_ = static_cast<int32_t>(retrans_out_);
  if (tlp_high_seq_ != 0 && tlp_retrans_) ++undo_retrans_;
  if (undo_retrans_ == 0) undo_retrans_ = -1;
}

// The tail of __tcp_retransmit_skb: the first retransmission's time
// (skb's new timestamp) and one more retransmission to be proven spurious.
void TcpSock::NoteRetransmit(const Skb& skb) {
  // The kernel's clock never reads 0; the model's starts there.
  if (retrans_stamp_ == 0) retrans_stamp_ = std::max<uint32_t>(1, static_cast<uint32_t>(skb.sent_ns / kNsPerMs));
  if (undo_retrans_ < 0) undo_retrans_ = 0;
  undo_retrans_ += static_cast<int32_t>(skb.pcount);
}

// tcp_packet_delayed: the ACK echoes a TS val older than the first
// retransmission (tcp_tsopt_ecr_before), or nothing was retransmitted
// (retrans_stamp 0), except for Reno at high_seq, where
// tcp_is_non_sack_preventing_reopen cleared it.
bool TcpSock::PacketDelayed() const {
  if (retrans_stamp_ != 0) return rcv_tsecr_ != 0 && static_cast<int32_t>(rcv_tsecr_ - retrans_stamp_) < 0;
  if (!IsSack() && snd_una_ >= high_seq_) return false;
  return true;
}

// tcp_may_undo.
bool TcpSock::MayUndo() const { return undo_marker_set_ && (undo_retrans_ == 0 || PacketDelayed()); }

// tcp_undo_cwnd_reduction: with prior_ssthresh (none after ECE or CWR),
// cwnd back to undo_cwnd (tcp_reno_undo_cwnd: max(cwnd, prior_cwnd), for
// reno and cubic alike) and ssthresh back up; then no more undo.
void TcpSock::UndoCwndReduction(bool unmark_loss) {
  if (unmark_loss) {
    for (Skb& skb : rtx_queue_) skb.lost = false;
    lost_out_ = 0;
  }
  if (prior_ssthresh_ != 0) {
    snd_cwnd_ = std::max(snd_cwnd_, prior_cwnd_);
    if (prior_ssthresh_ > snd_ssthresh_) {
      snd_ssthresh_ = prior_ssthresh_;
      ecn_queue_cwr_ = false;  // tcp_ecn_withdraw_cwr
    }
  }
  snd_cwnd_stamp_ = Jiffies();
  undo_marker_set_ = false;
  rack_.advanced = true;  // RACK looks at the marks again
}

// tcp_is_non_sack_preventing_reopen: Reno holds the state until data above
// high_seq is acked (RFC 2582).
bool TcpSock::NonSackPreventingReopen() {
  if (snd_una_ == high_seq_ && !IsSack()) {
    if (!AnyRetransDone()) retrans_stamp_ = 0;
    return true;
  }
  return false;
}

// tcp_retrans_stamp_cleanup.
void TcpSock::RetransStampCleanup() {
  if (!AnyRetransDone()) retrans_stamp_ = 0;
}

// tcp_try_undo_recovery: at the end of Recovery or Loss, undo if the
// reduction was spurious; then Open (Reno at high_seq: held). True when
// the state is held.
bool TcpSock::TryUndoRecovery() {
  if (MayUndo()) UndoCwndReduction(false);
  if (NonSackPreventingReopen()) return true;
  SetCaState(CaState::kOpen);
  return false;
}

// tcp_try_undo_dsack: D-SACKs covered every retransmission.
bool TcpSock::TryUndoDsack() {
  if (undo_marker_set_ && undo_retrans_ == 0) {
    UndoCwndReduction(false);
    return true;
  }
  return false;
}

// tcp_try_undo_loss: in Loss after snd_una advanced, or by F-RTO; the lost
// marks go too. SACK (or F-RTO) returns to Open at once.
bool TcpSock::TryUndoLoss(bool frto_undo) {
  if (!frto_undo && !MayUndo()) return false;
  UndoCwndReduction(true);
  retransmits_ = 0;  // icsk_retransmits
  if (NonSackPreventingReopen()) return true;
  if (frto_undo || IsSack()) SetCaState(CaState::kOpen);
  return true;
}

// tcp_try_undo_partial: a partial ACK in Recovery that the timestamps show
// filled the hole with the original (delayed, not lost). The reordering
// was underestimated; with no retransmission in flight the reduction is
// undone and the state may open. True: send new data only.
bool TcpSock::TryUndoPartial(uint64_t prior_snd_una) {
  if (!undo_marker_set_ || !PacketDelayed()) return false;  // (do_lost: not used with RACK)
  // tcp_check_sack_reordering(prior_snd_una, ts = 1).
  CheckSackReordering(prior_snd_una);
  if (retrans_out_ != 0) return true;
  if (!AnyRetransDone()) retrans_stamp_ = 0;
  UndoCwndReduction(true);
  TryKeepOpen();
  return false;
}

// tcp_dsack_seen: how many segments a D-SACK block reports (0: dubious,
// ignored): not wider than the peer's largest window, and not more in all
// than we ever retransmitted. A D-SACKed segment counts as delivered.
uint32_t TcpSock::DsackSeen(uint64_t start_seq, uint64_t end_seq, SacktagState* state) {
  if (start_seq >= end_seq) return 0;
  const uint64_t len = end_seq - start_seq;
  if (len > max_window_) return 0;
  uint32_t dup_segs = 1;
  if (len > mss_cache_) {
    dup_segs = static_cast<uint32_t>((len + mss_cache_ - 1) / mss_cache_);
  } else if (tlp_high_seq_ != 0 && tlp_high_seq_ == end_seq) {
    state->flag |= kFlagDsackTlp;  // the probe was a duplicate: no loss
  }
  dsack_dups_ += dup_segs;
  if (dsack_dups_ > total_retrans_) return 0;
  state->flag |= kFlagDsackingAck;
  state->sack_delivered += dup_segs;
  return dup_segs;
}

// tcp_check_dsack: the first block is a D-SACK when it lies below the ACK
// or inside the second block. One for data already cumulatively acked
// before this ACK (and after undo_marker) proves retransmissions spurious
// here; one above is counted by SacktagOne.
bool TcpSock::CheckDsack(const std::vector<std::pair<uint64_t, uint64_t>>& blocks, uint64_t ack,
                         uint64_t prior_snd_una, SacktagState* state) {
  const auto [start0, end0] = blocks[0];
  if (start0 >= ack) {
    if (blocks.size() < 2) return false;
    const auto [start1, end1] = blocks[1];
    if (end0 > end1 || start0 < start1) return false;
  }
  const uint32_t dup_segs = DsackSeen(start0, end0, state);
  if (dup_segs == 0) return false;
  if (undo_marker_set_ && undo_retrans_ > 0 && end0 <= prior_snd_una && end0 > undo_marker_) {
    undo_retrans_ = std::max<int32_t>(0, undo_retrans_ - static_cast<int32_t>(dup_segs));
  }
  return true;
}

// tcp_is_sackblock_valid: inside (snd_una, snd_nxt); a D-SACK may also lie
// below snd_una, from undo_marker on (or reaching across it by less than
// max_window). None without undo_marker.
bool TcpSock::SackblockValid(bool is_dsack, uint64_t start_seq, uint64_t end_seq) const {
  if (end_seq > snd_nxt_ || start_seq >= end_seq) return false;
  if (start_seq >= snd_nxt_) return false;
  if (start_seq > snd_una_) return true;
  if (!is_dsack || !undo_marker_set_) return false;
  if (end_seq > snd_una_) return false;
  if (start_seq >= undo_marker_) return true;
  if (end_seq <= undo_marker_) return false;
  return start_seq + max_window_ >= end_seq;
}

}  // namespace sendsim::model
