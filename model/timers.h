#ifndef SENDSIM_MODEL_TIMERS_H_
#define SENDSIM_MODEL_TIMERS_H_

// The ICSK transmit timer (tcp_timer.c): one slot shared by RTO, probe0 and
// the tail loss probe; TcpSock members in timers.cc. Timers expire on jiffy
// ticks (timer-wheel slack for long timeouts is not modelled).

#include <cstdint>

namespace sendsim::model {

// TLP timeout in jiffies before the RTO cap (tcp_schedule_loss_probe):
// 2*srtt, plus TCP_RTO_MIN when one packet is out (delayed ACK) else
// TCP_TIMEOUT_MIN; TCP_TIMEOUT_INIT without an RTT sample.
uint32_t TlpTimeoutJiffiesRule(uint32_t srtt_us_x8, uint32_t packets_out, int hz);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_TIMERS_H_
