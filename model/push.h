#ifndef SENDSIM_MODEL_PUSH_H_
#define SENDSIM_MODEL_PUSH_H_

// tcp_push, autocorking, forced_push, __tcp_push_pending_frames and
// tcp_push_one are TcpSock members (push.cc); this header holds their pure
// decision rules.

#include <cstdint>

namespace sendsim::model {

// forced_push(): more than half the peer's largest window written since the
// last PSH mark.
inline bool ForcedPushRule(uint64_t write_seq, uint64_t pushed_seq, uint32_t max_window) {
  return write_seq > pushed_seq + (max_window >> 1);
}

// tcp_should_autocork: the tail is not full, autocorking is on, something is
// in flight, and this socket has more bytes in qdisc/NIC than the tail's own
// truesize (a TX completion is due). v6.x also requires a non-eor tail.
inline bool ShouldAutocorkRule(uint32_t tail_len, uint32_t size_goal, bool autocorking, bool rtx_queue_empty,
                               uint32_t wmem_alloc, uint32_t tail_truesize, bool tail_eor, bool requires_non_eor) {
  return tail_len < size_goal && autocorking && !rtx_queue_empty && wmem_alloc > tail_truesize &&
         !(requires_non_eor && tail_eor);
}

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_PUSH_H_
