// The receiver's window and its application: tcp_select_window and the
// space it is computed from (tcp_space, tcp_full_space), the rate-limited
// reader (tcp_recvmsg, tcp_cleanup_rbuf) and receive-buffer autotuning
// (tcp_rcv_space_adjust). The rest of the peer is in peer.cc.

#include "model/peer.h"

#include <algorithm>
#include <cassert>

#include "model/constants.h"

namespace sendsim::model {

// ---------------------------------------------------------------------------
// Receive window

uint32_t Peer::FreeSpace() const {
  const uint64_t used = unread_ + ofo_bytes_;
  return used >= full_space_ ? 0 : static_cast<uint32_t>(full_space_ - used);
}

uint32_t Peer::ReceiveWindow() const {
  const int64_t w = static_cast<int64_t>(rcv_wup_ + rcv_wnd_) - static_cast<int64_t>(rcv_nxt_);
  return w < 0 ? 0 : static_cast<uint32_t>(w);
}

uint32_t Peer::SelectWindowRaw() {
  int64_t mss = rcv_mss_;
  int64_t free_space = FreeSpace();
  const int64_t allowed_space = full_space_;
  const int64_t full_space = std::min<int64_t>(window_clamp_, allowed_space);
  if (mss > full_space) {
    mss = full_space;
    if (mss <= 0) return 0;
  }
  const uint32_t unit = 1u << wscale_;
  if (free_space < (full_space >> 1)) {
    quick_ = 0;
    free_space &= ~static_cast<int64_t>(unit - 1);  // round down to the scale unit (free_space >= 0)
    if (free_space < (allowed_space >> 4) || free_space < mss) return 0;
  }
  if (free_space > rcv_ssthresh_) free_space = rcv_ssthresh_;
  int64_t window;
  if (wscale_ != 0) {
    window = static_cast<int64_t>(AlignUpPow2(static_cast<uint64_t>(free_space), unit));
  } else {
    window = rcv_wnd_;
    if (window <= free_space - mss || window > free_space) {
      window = free_space / mss * mss;
    } else if (mss == full_space && free_space > window + (full_space >> 1)) {
      window = free_space;
    }
  }
  return static_cast<uint32_t>(window);
}

uint32_t Peer::SelectWindow() {
  const uint32_t cur_win = ReceiveWindow();
  uint64_t new_win = SelectWindowRaw();
  const uint32_t unit = 1u << wscale_;
  if (new_win < cur_win) new_win = AlignUpPow2(cur_win, unit);  // never shrink the offered window
  rcv_wnd_ = static_cast<uint32_t>(new_win);
  rcv_wup_ = rcv_nxt_;
  new_win = std::min<uint64_t>(new_win, uint64_t{65535} << wscale_);
  return static_cast<uint32_t>((new_win >> wscale_) << wscale_);
}

// ---------------------------------------------------------------------------
// Application reads

void Peer::AppRead(uint64_t copied) {
  copied = std::min(copied, unread_);
  unread_ -= copied;
  copied_seq_ += copied;
  if (pcfg_.rcvbuf_autotune_initial != 0) RcvSpaceAdjust();
  // tcp_cleanup_rbuf.
  bool time_to_ack = false;
  if (pending_ & kAckSched) {
    if (AckThresholdReached() ||
        (copied > 0 && (pending_ & (kAckPushed | kAckPushed2)) && unread_ + ofo_bytes_ == 0)) {
      time_to_ack = true;
    }
  }
  if (copied > 0 && !time_to_ack) {
    const uint32_t now_win = ReceiveWindow();
    if (uint64_t{2} * now_win <= window_clamp_) {
      const uint32_t new_win = SelectWindowRaw();
      if (new_win != 0 && new_win >= uint64_t{2} * now_win) time_to_ack = true;
    }
  }
  if (time_to_ack) {
    ++stats_.read_acks;
    in_read_ = true;
    SendAck();
    in_read_ = false;
  }
}

// tcp_rcv_space_adjust (dynamic right-sizing), at most once per receiver RTT
// (the model's rcv_rtt is the path RTT): when the application read more than
// in the previous RTT, size sk_rcvbuf for twice that plus twice the growth
// and 16 MSS, up to tcp_rmem[2]; the window clamp follows. The buffer a
// window needs is 2 x the window here (receive memory = 2 x payload), in
// place of the kernel's per-MSS truesize ratio.
void Peer::RcvSpaceAdjust() {
  const TimeNs rtt = pcfg_.rcv_rtt_from_window ? rcv_rtt_ns_ : srtt_ns_;
  if (rtt <= 0 || now_ - rcvq_time_ < rtt) return;
  uint64_t copied = copied_seq_ - rcvq_seq_;
  if (drs_skips_queued_) copied = copied > unread_ ? copied - unread_ : 0;
  if (copied > rcvq_space_) {
    uint64_t rcvwin = (copied << 1) + (drs_no_cushion_ ? 0 : 16 * uint64_t{advmss_});
    const uint64_t grow = rcvwin * (copied - rcvq_space_) / rcvq_space_;
    rcvwin += grow << 1;
    const uint64_t rcvbuf = std::min<uint64_t>(2 * rcvwin, pcfg_.rcvbuf);
    if (rcvbuf > sk_rcvbuf_) {
      SetRcvbuf(rcvbuf);
      ++stats_.rcvbuf_grows;
    }
    rcvq_space_ = copied;
  }
  rcvq_seq_ = copied_seq_;
  rcvq_time_ = now_;
}

// sk_rcvbuf and what follows from it: tcp_full_space and the window clamp.
void Peer::SetRcvbuf(uint64_t rcvbuf) {
  sk_rcvbuf_ = rcvbuf;
  full_space_ = WinFromSpace(rcvbuf);
  window_clamp_ = static_cast<uint32_t>(std::min<uint64_t>(full_space_, uint64_t{65535} << wscale_));
}

void Peer::StartReadChunk(bool awake) {
  if (reading_ || waking_ || unread_ == 0 || pcfg_.app_read_bytes_per_sec == 0) return;
  if (!awake && app_read_wakeup_ns_ > 0) {
    waking_ = true;
    wake_at_ = now_ + app_read_wakeup_ns_;
    return;
  }
  read_chunk_ = std::min<uint64_t>(unread_, kAppReadChunk);
  const uint64_t rate = pcfg_.app_read_bytes_per_sec;
  const TimeNs dur = static_cast<TimeNs>((read_chunk_ * static_cast<uint64_t>(kNsPerSec) + rate - 1) / rate);
  read_done_ = now_ + std::max<TimeNs>(dur, 1);
  reading_ = true;
}

}  // namespace sendsim::model
