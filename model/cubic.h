#ifndef SENDSIM_MODEL_CUBIC_H_
#define SENDSIM_MODEL_CUBIC_H_

// The CUBIC congestion control's per-socket state (struct bictcp in
// tcp_cubic.c, with its HyStart fields). TcpSock's ack.cc runs it.

#include <cstdint>

namespace sendsim::model {

struct CubicState {
  uint32_t cnt = 0;
  uint32_t last_max_cwnd = 0;
  uint32_t last_cwnd = 0;
  uint32_t last_time = 0;   // jiffies
  uint32_t bic_origin_point = 0;
  uint32_t bic_k = 0;
  uint32_t delay_min = 0;   // us (cubic_usec_clock) or ms << 3
  uint32_t epoch_start = 0; // jiffies, 0 = none
  uint32_t ack_cnt = 0;
  uint32_t tcp_cwnd = 0;
  // HyStart: a round runs until snd_una passes end_seq. Times in the
  // profile's HyStart clock (us on cubic_usec_clock, else ms).
  bool found = false;       // slow start already ended by HyStart
  uint8_t sample_cnt = 0;   // RTT samples taken this round
  uint32_t round_start = 0;
  uint32_t last_ack = 0;    // last ACK of the current train
  uint32_t curr_rtt = 0;    // the round's minimum delay (delay_min's unit)
  uint64_t end_seq = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CUBIC_H_
