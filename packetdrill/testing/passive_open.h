#ifndef SENDSIM_PACKETDRILL_TESTING_PASSIVE_OPEN_H_
#define SENDSIM_PACKETDRILL_TESTING_PASSIVE_OPEN_H_

namespace sendsim::packetdrill::testing {

// A listener with a handshake pending (SYN-RECV): the peer's SYN (MSS 1000,
// wscale 7) and our SYN-ACK.
#define SENDSIM_PENDING_REQUEST                                              \
  "\n    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3\n"                     \
  "   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0\n"             \
  "   +0 bind(3, ..., ...) = 0\n"                                           \
  "   +0 listen(3, 1) = 0\n"                                                \
  "   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,nop,nop,nop,wscale 7>\n"     \
  "   +0 > S. 0:0(0) ack 1 <mss 1460,nop,nop,sackOK,nop,wscale 8>\n"
inline constexpr char kPendingRequest[] = SENDSIM_PENDING_REQUEST;

// The passive open most test scripts start with: the pending request, the
// peer's ACK, accept -> fd 4.
inline constexpr char kPassiveOpen[] = SENDSIM_PENDING_REQUEST
    "  +.1 < . 1:1(0) ack 1 win 257\n"
    "   +0 accept(3, ..., ...) = 4\n";

// A passive open with timestamps (the peer's MSS 1000, wscale 7; its TS val
// 100 on the SYN, 200 on the ACK, so ts_recent 200), up to accept() -> fd 4.
inline constexpr char kPassiveOpenTs[] = R"(
    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3
   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0
   +0 bind(3, ..., ...) = 0
   +0 listen(3, 1) = 0
   +0 < S 0:0(0) win 32792 <mss 1000,sackOK,TS val 100 ecr 0,nop,wscale 7>
   +0 > S. 0:0(0) ack 1 <mss 1460,sackOK,TS val 0 ecr 100,nop,wscale 8>
  +.1 < . 1:1(0) ack 1 win 257 <nop,nop,TS val 200 ecr 0>
   +0 accept(3, ..., ...) = 4
)";

#undef SENDSIM_PENDING_REQUEST

}  // namespace sendsim::packetdrill::testing

#endif  // SENDSIM_PACKETDRILL_TESTING_PASSIVE_OPEN_H_
