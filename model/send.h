#ifndef SENDSIM_MODEL_SEND_H_
#define SENDSIM_MODEL_SEND_H_

// Rules of tcp.c's skb building (do_tcp_sendpages, tcp_sendmsg_locked) that
// are pure functions of their inputs. The stateful loops are TcpSock members
// in send.cc.

#include <cstdint>

namespace sendsim::model {

// tcp_bound_to_half_wnd: never build skbs larger than half the largest window
// the peer ever offered (the whole window when that is tiny).
uint32_t BoundToHalfWnd(uint32_t max_window, uint32_t pktsize);

// tcp_xmit_size_goal's candidate before rounding to whole MSS:
// sk_gso_max_size (- 1 - MAX_TCP_HEADER before v6.x), bounded to half the window.
uint32_t SizeGoalCandidate(uint32_t max_window, bool subtract_header);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_SEND_H_
