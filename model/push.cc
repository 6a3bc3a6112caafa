#include "model/push.h"

#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_mark_push.
void TcpSock::MarkPush(Skb& skb) {
  skb.tcp_flags |= kTcpPsh;
  pushed_seq_ = write_seq_;
}

bool TcpSock::ForcedPush() const { return ForcedPushRule(write_seq_, pushed_seq_, max_window_); }

bool TcpSock::ShouldAutocork(const Skb& skb, uint32_t size_goal) const {
  return ShouldAutocorkRule(skb.len(), size_goal, config_.autocorking, rtx_queue_.empty(), wmem_alloc_, skb.truesize,
                            skb.eor, profile_.autocork_requires_non_eor);
}

// tcp_push (v4.19 = v5.0 = v6.8 apart from the autocork eor test).
void TcpSock::TcpPush(int flags, uint32_t mss_now, int nonagle, uint32_t size_goal, PushReason reason) {
  if (write_queue_.empty()) return;  // no tcp_send_head
  Skb& skb = write_queue_.back();
  if (!(flags & kMsgMore) || ForcedPush()) MarkPush(skb);
  if (ShouldAutocork(skb, size_goal)) {
    if (!tsq_.throttled) {
      ++counters_.autocorks;  // LINUX_MIB_TCPAUTOCORKING counts the bit being set
      tsq_.throttled = true;
    }
    // A TX completion may have run before the bit was set: re-check.
    if (wmem_alloc_ > skb.truesize) return;
  }
  if (flags & kMsgMore) nonagle = kTcpNagleCork;
  PushPendingFrames(mss_now, nonagle, reason);
}

}  // namespace sendsim::model
