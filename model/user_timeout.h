#ifndef SENDSIM_MODEL_USER_TIMEOUT_H_
#define SENDSIM_MODEL_USER_TIMEOUT_H_

// The inet_connection_sock fields the write timeouts read
// (user_timeout.cc, timers.cc's probe0): TCP_USER_TIMEOUT and the window
// probe count and start that tcp_probe_timer measures against it.

#include <cstdint>

namespace sendsim::model {

struct UserTimeoutState {
  uint32_t user_timeout_ms = 0;  // icsk_user_timeout (TCP_USER_TIMEOUT, ms; 0: off)
  uint32_t probes_out = 0;       // icsk_probes_out
  uint32_t probes_tstamp = 0;    // icsk_probes_tstamp (jiffies of the first probe0 timer; 0: none)
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_USER_TIMEOUT_H_
