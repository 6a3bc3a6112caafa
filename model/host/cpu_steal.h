#ifndef SENDSIM_MODEL_HOST_CPU_STEAL_H_
#define SENDSIM_MODEL_HOST_CPU_STEAL_H_

// CPU time that softirq work takes from the sending application's CPU.
//
// When the NIC interrupt (or RPS) for a flow lands on the CPU the kworker
// runs on, every ACK the sender processes (tcp_v4_rcv -> tcp_ack ->
// tcp_data_snd_check) and, on a veth pair steered to that CPU, every data
// segment the receiver processes runs there too: the softirq preempts the
// worker between (and during) its socket calls, so its next call starts
// later: ACK processing "on the sender's CPU". Work is charged at the simulated time
// it happens; charges may be posted ahead of the loop's clock (the link's
// lookahead delivers segments early) and count only once their time has come.
//
// Simplification: the worker is delayed by the whole charge even when the
// softirq ran while it was idle (the messenger only asks for the time stolen
// while it was busy, by difference), and work inside a socket call does not
// lengthen the call's hold on the socket.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

#include "model/event_loop.h"

namespace sendsim::model {

class CpuSteal {
 public:
  // Softirq work of `ns` at simulated time `at`.
  void Charge(TimeNs at, TimeNs ns) {
    if (ns <= 0) return;
    // Kept sorted by time; charges mostly arrive in order (an append).
    auto it = std::upper_bound(future_.begin(), future_.end(), at,
                               [](TimeNs t, const std::pair<TimeNs, TimeNs>& c) { return t < c.first; });
    future_.insert(it, {at, ns});
  }

  // Total work charged at times <= `now`.
  TimeNs StolenUpTo(TimeNs now) {
    while (!future_.empty() && future_.front().first <= now) {
      total_ += future_.front().second;
      future_.pop_front();
    }
    return total_;
  }

 private:
  TimeNs total_ = 0;
  std::deque<std::pair<TimeNs, TimeNs>> future_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HOST_CPU_STEAL_H_
