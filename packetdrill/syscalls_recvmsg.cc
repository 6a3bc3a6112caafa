// recvmsg() and readv() on the model: reads of the connection's queued data
// (with TCP_INQ's control message), and MSG_ERRQUEUE reads of the
// MSG_ZEROCOPY completions (model/zerocopy.h). Arguments, the control
// buffer and the comparison: recvmsg_args.h, shared with the kernel target.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/tx_timestamp.h"
#include "packetdrill/passive_options.h"
#include "packetdrill/recvmsg_args.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/syscalls.h"

namespace sendsim::packetdrill {
namespace {

// What the call returned besides its value.
struct RecvResult {
  int64_t msg_flags = 0;
  std::vector<Cmsg> control;
};

// ip_recv_error's messages for an error queue entry: the timestamp first
// (sock_recv_timestamp: a transmit timestamp, when SOF_TIMESTAMPING_SOFTWARE
// asks for software stamps to be reported), then SOL_IP/IP_RECVERR.
std::vector<Cmsg> ErrqueueCmsgs(const model::SockExterr& e, int64_t tsflags) {
  std::vector<Cmsg> out;
  if (e.tstamp_ns >= 0 && (tsflags & model::kSofSoftware)) {
    Cmsg t;
    t.level = kSolSocket;
    t.type = kScmTimestamping;
    t.tstamp = true;
    t.ts_ns = e.tstamp_ns;  // the model's clock is the script's
    out.push_back(t);
  }
  Cmsg c;
  c.level = kSolIp;
  c.type = kIpRecverr;
  c.recverr = true;
  c.ee = ExtendedErr{e.ee_errno, e.origin, 0, e.code, e.info, e.data};
  out.push_back(c);
  return out;
}

}  // namespace

// A passive option's value on the connection: its own, else the one it
// inherited from the listener, else 0.
int64_t SyscallDriver::PassiveValue(const std::string& name) const {
  auto own = passive_.find({true, name});
  auto inherited = passive_.find({false, name});
  return own != passive_.end() ? own->second : inherited != passive_.end() ? inherited->second : 0;
}

absl::Status SyscallDriver::SysRecvmsg(const Call& c) {
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  absl::StatusOr<RecvmsgArgs> parsed = ParseRecvmsgArgs(c.sc);
  if (!parsed.ok()) {
    if (absl::IsUnimplemented(parsed.status())) return run_.Skip(c.line(), std::string(parsed.status().message()));
    return run_.Fail(c.line(), std::string(parsed.status().message()));
  }
  auto args = std::make_shared<RecvmsgArgs>(*std::move(parsed));
  if (args->flags & ~(kMsgErrqueue | model::kMsgDontwait)) {
    return run_.Skip(c.line(), "recvmsg() flags other than MSG_DONTWAIT and MSG_ERRQUEUE are not modelled");
  }
  if (!fds_.count(*fd)) return Immediate(c, -kErrEbadf);
  if (fds_[*fd].kind != Fd::Kind::kTcp) return run_.Skip(c.line(), "reading a file is not modelled");
  auto got = std::make_shared<RecvResult>();
  auto compare = [this, &c, args, got](absl::Status st) -> absl::Status {
    if (!st.ok() || c.sc.name == "readv" || c.e.timing.block_end || run_.pending->ret < 0) return st;
    const std::string why = CompareRecvmsg(*args, got->msg_flags, got->control, run_.Tolerance(0));
    return why.empty() ? absl::OkStatus() : run_.Fail(c.line(), why);
  };
  if (args->flags & kMsgErrqueue) {
    // tcp_recvmsg -> inet_recv_error -> ip_recv_error: never blocks; with
    // nothing queued -EAGAIN. A zerocopy notification's or OPT_TSONLY
    // timestamp's skb holds no data; another timestamp's holds the packet
    // copy, read like data (MSG_TRUNC when it does not fit). MSG_ERRQUEUE is
    // set, and MSG_CTRUNC by put_cmsg when the buffer is missing or short.
    // The listener's queue stays empty.
    std::optional<model::SockExterr> n;
    if (IsConnFd(*fd) && Connected()) n = run_.sock.ep->socket().RecvErrqueue();
    if (!n) return Immediate(c, -kErrEagain);
    got->msg_flags = kMsgErrqueue;
    const uint64_t copied = std::min<uint64_t>(n->len, args->total);
    if (n->len > args->total) got->msg_flags |= kMsgTrunc;
    got->control = PutCmsgs(ErrqueueCmsgs(*n, PassiveValue("SO_TIMESTAMPING")), args->control_len, &got->msg_flags);
    return compare(Immediate(c, static_cast<int64_t>(copied)));
  }
  if (c.e.timing.block_end && (args->want_msg_flags || args->control_checked)) {
    return run_.Skip(c.line(), "a blocking recvmsg() ('...') with msg_flags or msg_control checked");
  }
  // tcp_recvmsg: with TCP_INQ set (tp->recvmsg_inq) the bytes still queued
  // after the copy, as tcp_inq_hint counts them: rcv_nxt - copied_seq,
  // where rcv_nxt has passed the peer's FIN, which a read consumes only
  // once nothing is left before it; with the FIN in (SOCK_DONE) 0 reads
  // as 1. Either way: queued + 1 after the FIN.
  const bool inq = PassiveValue("TCP_INQ") != 0;
  // SO_TIMESTAMPING's software receive timestamps would add a message to
  // the data (tcp_recv_timestamp): reported with SOFTWARE when RX_SOFTWARE
  // is set or OPT_RX_FILTER is not (then whenever the host timestamps
  // received packets for anyone).
  const int64_t tsflags = PassiveValue("SO_TIMESTAMPING");
  if (args->control_checked && (tsflags & model::kSofSoftware) &&
      ((tsflags & model::kSofRxSoftware) || !(tsflags & model::kSofOptRxFilter))) {
    return run_.Skip(c.line(), "recvmsg() of data with SO_TIMESTAMPING receive timestamps is not modelled");
  }
  auto on_read = [this, args, got, inq] {
    got->msg_flags = 0;
    if (!inq) return;
    Cmsg m;
    m.level = kSolTcp;
    m.type = kTcpCmInq;
    m.value = static_cast<int64_t>(run_.sock.rcv.queued) + (run_.sock.peer_fin ? 1 : 0);
    got->control = PutCmsgs({m}, args->control_len, &got->msg_flags);
  };
  const bool dontwait = fds_[*fd].nonblock || (args->flags & model::kMsgDontwait) != 0;
  return compare(ReadStream(c, *fd, args->total, dontwait, on_read));
}

}  // namespace sendsim::packetdrill
