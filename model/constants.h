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
inline constexpr int kEconnreset = 104;  // ECONNRESET
inline constexpr int kEtimedout = 110;   // ETIMEDOUT

inline constexpr int kPageSize = 4096;            // PAGE_SIZE
inline constexpr int kMaxSkbFrags = 17;           // MAX_SKB_FRAGS with 4 KiB pages
inline constexpr int kGsoMaxSize = 65536;         // GSO_MAX_SIZE
inline constexpr int kGsoMaxSegs = 65535;         // GSO_MAX_SEGS
inline constexpr int kMaxTcpHeader = 304;         // MAX_TCP_HEADER, typical distro build (UNVERIFIED)
inline constexpr int kTcpMssDefault = 536;        // TCP_MSS_DEFAULT
inline constexpr uint32_t kTcpMinSndMss = 48;     // TCP_MIN_SND_MSS
inline constexpr uint32_t kIpTcpHeaderBytes = 40;          // IPv4 header + struct tcphdr
inline constexpr uint32_t kTcpTimestampOptionBytes = 12;   // TCPOLEN_TSTAMP_ALIGNED
inline constexpr int kTcpInitCwnd = 10;           // TCP_INIT_CWND
inline constexpr uint32_t kTcpInfiniteSsthresh = 0x7fffffff;  // TCP_INFINITE_SSTHRESH
inline constexpr int kTcpMaxQuickacks = 16;       // TCP_MAX_QUICKACKS
inline constexpr int kTcpMinTsoSegs = 2;          // sysctl_tcp_min_tso_segs
inline constexpr int kTcpTsoWinDivisor = 3;       // sysctl_tcp_tso_win_divisor
inline constexpr int kSkPacingShift = 10;         // sk_pacing_shift default

// Truesize of an skb allocated by sk_stream_alloc_skb(sk, 0) (sendpage,
// tso_fragment, v6.x sendmsg): fclone sk_buff + 1 KiB head incl. shinfo.
// UNVERIFIED estimate, see docs/libceph-write-path.md §10.1.
inline constexpr uint32_t kSkbTruesizeHeadOnly = 1280;
// sendmsg's "first skb" (both queues empty, <= v5.x): linear area and truesize.
inline constexpr uint32_t kFirstSkbLinear = 1424;        // SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)
inline constexpr uint32_t kSkbTruesizeFirstLinear = 2304;  // UNVERIFIED estimate
// sk_page_frag refill size (32 KiB compound page, SKB_FRAG_PAGE_ORDER).
inline constexpr uint32_t kPageFragSize = 32768;
// tcp_sndbuf_expand per-MSS cost: roundup_pow_of_two(mss_clamp + MAX_TCP_HEADER
// + aligned shinfo) + aligned sizeof(sk_buff); 1460+304+320 -> 4096, + 256.
inline constexpr uint32_t kSkbSharedInfoSize = 320;       // SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
inline constexpr uint32_t kSkBuffSize = 256;              // SKB_DATA_ALIGN(sizeof(struct sk_buff))
inline constexpr uint32_t kTcpWmemDefault = 16384;        // tcp_wmem[1]
inline constexpr uint32_t kTcpWmemMax = 4 * 1024 * 1024;  // tcp_wmem[2]
inline constexpr uint32_t kWmemMax = 212992;              // net.core.wmem_max (SO_SNDBUF cap)
inline constexpr uint32_t kSockMinSndbuf = 4608;          // SOCK_MIN_SNDBUF = 2 * (2048 + 256)
inline constexpr uint32_t kTcpReorderingDefault = 3;      // sysctl_tcp_reordering
inline constexpr uint32_t kTcpMinMss = 88;                // TCP_MIN_MSS
inline constexpr uint32_t kMaxTcpWindow = 32767;          // MAX_TCP_WINDOW (TCP_MAXSEG upper bound)
inline constexpr uint32_t kTcpHeaderLen = 32;             // tcp_header_len with timestamps (20 + 12)

// Timers (jiffy-based in the kernel; here in ns).
inline constexpr int64_t kTcpRtoMinNs = 200'000'000;      // TCP_RTO_MIN (HZ/5)
inline constexpr int64_t kTcpRtoMaxNs = 120'000'000'000;  // TCP_RTO_MAX (120 s)
inline constexpr uint32_t kTcpRetries2 = 15;               // net.ipv4.tcp_retries2 default (not a modelled sysctl)
inline constexpr int64_t kTcpTimeoutInitNs = 1'000'000'000;  // TCP_TIMEOUT_INIT (1 s)
inline constexpr int64_t kTcpTimeoutFallbackNs = 3'000'000'000;  // TCP_TIMEOUT_FALLBACK (3 s)
inline constexpr int kTcpTimeoutMinJiffies = 2;           // TCP_TIMEOUT_MIN (2 jiffies), TLP slack

// tcp_update_pacing_rate ratios (percent).
inline constexpr uint64_t kTcpPacingSsRatio = 200;        // sysctl_tcp_pacing_ss_ratio
inline constexpr uint64_t kTcpPacingCaRatio = 120;        // sysctl_tcp_pacing_ca_ratio

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CONSTANTS_H_
