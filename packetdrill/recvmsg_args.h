#ifndef SENDSIM_PACKETDRILL_RECVMSG_ARGS_H_
#define SENDSIM_PACKETDRILL_RECVMSG_ARGS_H_

// recvmsg() and readv() as upstream packetdrill writes them, shared by the
// model's driver (syscalls_recvmsg.cc) and the kernel target
// (kernel_recvmsg.cc):
//
//   recvmsg(4, {msg_name(...)=..., msg_iov(1)=[{..., 1000}], msg_flags=0,
//               msg_control=[{cmsg_level=SOL_TCP, cmsg_type=TCP_CM_INQ, cmsg_data=0}]}, 0) = 1000
//   readv(4, [{..., 500}, {..., 500}], 2) = 1000
//
// The control messages a call expects also size the buffer it passes, as
// upstream packetdrill allocates it: CMSG_SPACE of each expected message's
// data, no buffer for `msg_control=[]`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

// Linux's numbers (<bits/socket.h>, <linux/in.h>, <linux/tcp.h>,
// <linux/errqueue.h>).
inline constexpr int64_t kSolIp = 0;
inline constexpr int64_t kIpRecverr = 11;
inline constexpr int64_t kSolTcp = 6;
inline constexpr int64_t kTcpCmInq = 36;  // TCP_CM_INQ == TCP_INQ
inline constexpr int64_t kSolSocket = 1;
inline constexpr int64_t kScmTimestamping = 37;  // SCM_TIMESTAMPING (SO_TIMESTAMPING_OLD)
inline constexpr int64_t kSoEeOriginTimestamping = 4;
inline constexpr int64_t kSoEeOriginZerocopy = 5;
inline constexpr int64_t kSoEeCodeZerocopyCopied = 1;
inline constexpr int64_t kMsgCtrunc = 0x8;
inline constexpr int64_t kMsgTrunc = 0x20;
// Data sizes the kernel puts: an int (tcp_recvmsg's inq) and ip_recv_error's
// errhdr (struct sock_extended_err, then the offender's sockaddr_in).
inline constexpr size_t kInqDataLen = 4;
inline constexpr size_t kRecverrDataLen = 16 + 16;
// struct scm_timestamping: three timespecs (software, -, hardware).
inline constexpr size_t kScmTimestampingDataLen = 3 * 16;

// CMSG_ALIGN / CMSG_LEN / CMSG_SPACE on 64-bit Linux (a 16-byte cmsghdr).
inline constexpr size_t CmsgAlign(size_t n) { return (n + 7) & ~size_t{7}; }
inline constexpr size_t CmsgLen(size_t n) { return 16 + n; }
inline constexpr size_t CmsgSpace(size_t n) { return 16 + CmsgAlign(n); }

// struct sock_extended_err.
struct ExtendedErr {
  int64_t ee_errno = 0, ee_origin = 0, ee_type = 0, ee_code = 0, ee_info = 0, ee_data = 0;
  bool operator==(const ExtendedErr&) const = default;
};

// One control message: an int (TCP_CM_INQ), an extended error
// (IP_RECVERR) or a timestamp (SCM_TIMESTAMPING's software time, ts[0]).
// In an expectation, `any` marks `cmsg_data=...`.
//
// A timestamp is a script time: what a target returns is converted to the
// script's clock (the model's time; on the kernel target CLOCK_REALTIME
// less the script's start), and an expected {scm_sec=S, scm_nsec=N} matches
// a time within the run's tolerance of S s + N ns. {scm_sec=0, scm_nsec=0}
// matches any time: upstream scripts write it when the time does not matter.
struct Cmsg {
  int64_t level = 0;
  int64_t type = 0;
  bool recverr = false;  // data is `ee`
  bool tstamp = false;   // data is `ts_ns`; else `value`
  int64_t value = 0;
  ExtendedErr ee;
  int64_t ts_ns = 0;     // the software timestamp as a script time (ns)
  bool any = false;
};

// The data size of a message of this level and type (as the kernel puts
// it); 0 when not one sendsim knows.
size_t CmsgDataLen(int64_t level, int64_t type);

struct RecvmsgArgs {
  std::vector<uint64_t> iov_lens;
  uint64_t total = 0;  // the iovecs' sum: what the call may read
  int64_t flags = 0;   // the call's flags (readv: 0)
  std::optional<int64_t> want_msg_flags;  // nullopt: `...` or absent
  bool control_checked = false;           // msg_control=[...] given
  std::vector<Cmsg> want_control;
  size_t control_len = 0;  // the buffer the call passes
};

// Parses a recvmsg()/readv() call. InvalidArgument for a script that cannot
// mean anything (a count that disagrees with the iovecs, a malformed
// control message): a FAIL; Unimplemented for what sendsim does not model:
// a SKIP. Both carry a one-line reason.
absl::StatusOr<RecvmsgArgs> ParseRecvmsgArgs(const SyscallEvent& sc);

// Compares what a call returned with what the script expects: an empty
// string when they agree, else a one-line reason ("recvmsg(): msg_flags
// 0x2008, expected 0x2000").
// `tolerance_ns`: how far a timestamp may be from the expected script time.
std::string CompareRecvmsg(const RecvmsgArgs& want, int64_t msg_flags, const std::vector<Cmsg>& got,
                           int64_t tolerance_ns = 0);

// put_cmsg into a buffer of `room` bytes (the call's remaining control
// space): the messages that fit, and MSG_CTRUNC in `*msg_flags` when one
// did not (a missing or too small buffer). A truncated message is dropped
// here (its data is cut, so the script cannot match it).
std::vector<Cmsg> PutCmsgs(const std::vector<Cmsg>& put, size_t room, int64_t* msg_flags);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RECVMSG_ARGS_H_
