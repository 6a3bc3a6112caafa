#ifndef SENDSIM_MODEL_ACK_H_
#define SENDSIM_MODEL_ACK_H_

// Pure rules of the ACK path (tcp_input.c, tcp_cong.c, tcp_cubic.c). ACK
// processing itself is TcpSock members in ack.cc.

#include <cstdint>

namespace sendsim::model {

// tcp_slow_start: returns the new cwnd and leaves the unused credit in *acked.
inline uint32_t SlowStartRule(uint32_t cwnd, uint32_t ssthresh, uint32_t* acked) {
  uint64_t next = static_cast<uint64_t>(cwnd) + *acked;
  if (next > ssthresh) next = ssthresh;
  *acked -= static_cast<uint32_t>(next - cwnd);
  return static_cast<uint32_t>(next);
}

// tcp_sndbuf_expand's per-MSS truesize estimate.
uint32_t SndbufPerMss(uint32_t mss_clamp);

// __sk_stream_is_writeable without the notsent_lowat part: free space at
// least half of what is queued.
inline bool StreamWriteableRule(uint32_t sndbuf, uint32_t wmem_queued) {
  return static_cast<int64_t>(sndbuf) - static_cast<int64_t>(wmem_queued) >= static_cast<int64_t>(wmem_queued >> 1);
}

// Integer cube root (floor), used by CUBIC for K.
uint32_t CubicRoot(uint64_t a);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_ACK_H_
