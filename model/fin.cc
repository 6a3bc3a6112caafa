// Connection teardown on the send side (tcp_shutdown / tcp_close ->
// tcp_send_fin) and tcp_poll's POLLOUT test (tcp.c).

#include <algorithm>

#include "model/ack.h"
#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_send_fin (v4.19 = v5.0 = v6.8 for what the model covers): the FIN rides
// on the last unsent skb when there is one; otherwise a new data-less skb
// carries it (the sent tail is reused only under memory pressure, which the
// model does not have). Either way the FIN takes one sequence number
// (end_seq, write_seq) and the queue is pushed with TCP_NAGLE_OFF, so a
// corked or Nagle-held tail leaves with the FIN.
int TcpSock::Shutdown() {
  if (send_shutdown_) return 0;  // tcp_close_state: FIN already queued (or the socket was reset)
  LockSock();
  send_shutdown_ = true;
  // A writer parked in sk_stream_wait_memory is woken and fails (EPIPE).
  if (pending_call_ && !pending_call_->resume_scheduled) {
    pending_call_->resume_scheduled = true;
    loop_->ScheduleAfter(0, [this] { ResumeBlockedCall(); });
  }
  if (!write_queue_.empty()) {
    Skb& tail = write_queue_.back();
    tail.tcp_flags |= kTcpFin;
    ++tail.end_seq;
    ++write_seq_;
  } else {
    // alloc_skb_fclone(MAX_TCP_HEADER) + sk_forced_mem_schedule +
    // tcp_init_nondata_skb + tcp_queue_skb (not skb_entail: no PUSH clearing,
    // no restart-after-idle check). Head-only truesize.
    ChronoStart(Chrono::kBusy);  // tcp_queue_skb -> tcp_add_write_queue_tail
    Skb& skb = write_queue_.emplace_back();
    skb.seq = write_seq_;
    skb.end_seq = write_seq_ + 1;
    skb.tcp_flags = kTcpAck | kTcpFin;
    skb.truesize = profile_.skb_head_truesize;
    skb.pcount = 1;
    skb.tag = call_tag_;
    wmem_queued_ += skb.truesize;
    ++write_seq_;
  }
  PushPendingFrames(CurrentMss(), kTcpNagleOff, PushReason::kControl);
  ScheduleRelease();
  return 0;
}

// tcp_reset -> tcp_done (and tcp_close's reset paths, which end in
// inet_csk_destroy_sock): tcp_write_queue_purge frees every skb, unsent or
// in flight, and zeroes packets_out; tcp_clear_xmit_timers stops the
// retransmit/probe timer; sk_shutdown becomes SHUTDOWN_MASK. A writer parked
// in sk_stream_wait_memory wakes to sk_err (do_error -> sk_stream_error).
void TcpSock::Abort(int err) {
  if (aborted_) return;
  aborted_ = true;
  sk_err_ = err;
  send_shutdown_ = true;
  // tcp_write_queue_purge stops the busy chrono before it empties the
  // queues: a running busy chrono restarts and keeps running.
  ChronoStop(Chrono::kBusy);
  for (const std::deque<Skb>* q : {&write_queue_, &rtx_queue_}) {
    for (const Skb& skb : *q) wmem_queued_ -= skb.truesize;
  }
  write_queue_.clear();
  rtx_queue_.clear();
  copy_store_.clear();
  backlog_.clear();
  packets_out_ = lost_out_ = retrans_out_ = sacked_out_ = 0;
  backoff_ = 0;
  // (icsk_ca_state stays: tcp_reset and tcp_done leave it, only
  // tcp_disconnect returns to Open; rst_in_loss.pkt.)
  ClearXmitTimer();
  tsq_ = TsqFlags{};
  if (pending_call_ && !pending_call_->resume_scheduled) {
    pending_call_->resume_scheduled = true;
    loop_->ScheduleAfter(0, [this] { ResumeBlockedCall(); });
  }
}

int TcpSock::TakeSockError() {
  const int e = sk_err_;
  sk_err_ = 0;
  return e;
}

// tcp_poll: POLLOUT once SEND_SHUTDOWN is set; otherwise
// __sk_stream_is_writeable(sk, 1): free space >= half the queued truesize and
// tcp_stream_memory_free (below sndbuf and below TCP_NOTSENT_LOWAT; v5.4+
// compares twice the unsent bytes).
bool TcpSock::PollWriteable() const {
  if (send_shutdown_) return true;
  return StreamWriteableRule(sndbuf_, wmem_queued_) && StreamMemoryFree(1);
}

// tcp_poll: a stream that is not writeable gets SOCK_NOSPACE before the
// second test, so that tcp_check_space -> tcp_new_space wakes the poller
// (and may grow sndbuf) once ACKs free space.
bool TcpSock::PollOut() {
  if (PollWriteable()) return true;
  sock_nospace_ = true;
  return PollWriteable();
}

}  // namespace sendsim::model
