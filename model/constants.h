#ifndef SENDSIM_MODEL_CONSTANTS_H_
#define SENDSIM_MODEL_CONSTANTS_H_

#include <cstdint>

// Every kernel constant the model uses, with the kernel symbol beside it.
// Version-dependent values live in Profile (model/profile.h) instead.
// Names are kCamelCase so that they never collide with <sys/socket.h> macros
// (tools that use real sockets include both).

namespace sendsim::model {

// send flags, include/linux/socket.h
inline constexpr int kMsgDontwait = 0x40;               // MSG_DONTWAIT
inline constexpr int kMsgEor = 0x80;                    // MSG_EOR
inline constexpr int kMsgNosignal = 0x4000;             // MSG_NOSIGNAL
inline constexpr int kMsgMore = 0x8000;                 // MSG_MORE
inline constexpr int kMsgSendpageNotlast = 0x20000;     // MSG_SENDPAGE_NOTLAST (<= v6.4)
inline constexpr int kMsgZerocopy = 0x4000000;          // MSG_ZEROCOPY
inline constexpr int kMsgSplicePages = 0x8000000;       // MSG_SPLICE_PAGES (v6.5+)

// tp->nonagle bits, include/net/tcp.h
inline constexpr int kTcpNagleOff = 1;    // TCP_NAGLE_OFF
inline constexpr int kTcpNagleCork = 2;   // TCP_NAGLE_CORK
inline constexpr int kTcpNaglePush = 4;   // TCP_NAGLE_PUSH

// errno values returned negated, as the kernel does.
inline constexpr int kEagain = 11;   // EAGAIN
inline constexpr int kEpipe = 32;    // EPIPE
inline constexpr int kEinval = 22;   // EINVAL

inline constexpr int kPageSize = 4096;            // PAGE_SIZE
inline constexpr int kMaxSkbFrags = 17;           // MAX_SKB_FRAGS with 4 KiB pages
inline constexpr int kGsoMaxSize = 65536;         // GSO_MAX_SIZE
inline constexpr int kGsoMaxSegs = 65535;         // GSO_MAX_SEGS
inline constexpr int kMaxTcpHeader = 304;         // MAX_TCP_HEADER, typical distro build (UNVERIFIED)
inline constexpr int kTcpMssDefault = 536;        // TCP_MSS_DEFAULT
inline constexpr int kTcpInitCwnd = 10;           // TCP_INIT_CWND
inline constexpr uint32_t kTcpInfiniteSsthresh = 0x7fffffff;  // TCP_INFINITE_SSTHRESH
inline constexpr int kTcpMaxQuickacks = 16;       // TCP_MAX_QUICKACKS
inline constexpr int kTcpMinTsoSegs = 2;          // sysctl_tcp_min_tso_segs
inline constexpr int kTcpTsoWinDivisor = 3;       // sysctl_tcp_tso_win_divisor
inline constexpr int kSkPacingShift = 10;         // sk_pacing_shift default

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CONSTANTS_H_
