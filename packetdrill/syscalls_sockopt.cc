#include "packetdrill/syscalls.h"

// The socket-option calls of SyscallDriver (setsockopt, getsockopt): split
// from syscalls.cc by concern; the model side is model::Socket::setsockopt (do_tcp_setsockopt).

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/tx_timestamp.h"
#include "packetdrill/keepalive.h"
#include "packetdrill/passive_options.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

// The model's socket option for a name the model implements, besides
// SO_RCVBUF (which only shapes the handshake).
std::optional<model::SockOpt> ModelSockOpt(const std::string& opt) {
  if (opt == "SO_SNDBUF") return model::SockOpt::kSoSndbuf;
  if (opt == "TCP_NODELAY") return model::SockOpt::kTcpNodelay;
  if (opt == "TCP_CORK") return model::SockOpt::kTcpCork;
  if (opt == "TCP_MAXSEG") return model::SockOpt::kTcpMaxseg;
  if (opt == "TCP_NOTSENT_LOWAT") return model::SockOpt::kTcpNotsentLowat;
  if (opt == "TCP_USER_TIMEOUT") return model::SockOpt::kTcpUserTimeout;
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------- socket options

absl::Status SyscallDriver::SysSockopt(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.size() != 5) return run_.Fail(c.line(), absl::StrFormat("%s() takes 5 arguments", sc.name));
  absl::StatusOr<int> fd = FdArg(c, 0);
  if (!fd.ok()) return fd.status();
  if (!fds_.count(*fd) || fds_[*fd].kind != Fd::Kind::kTcp) return Immediate(c, -kErrEbadf);
  if (sc.args[2].kind != Expr::Kind::kWord) return run_.Skip(c.line(), "non-symbolic socket option");
  const std::string& opt = sc.args[2].text;
  const bool on_conn = IsConnFd(*fd) && Connected();
  if (sc.name == "setsockopt") return SetSockopt(c, opt, on_conn, *fd);
  return GetSockopt(c, opt, on_conn);
}

absl::Status SyscallDriver::SetSockopt(const Call& c, const std::string& opt, bool on_conn, int fd) {
  const Expr& valx = c.sc.args[3];
  SockOpts& listen = run_.sock.listen_opts;
  if (opt == "SO_REUSEADDR" || opt == "SO_REUSEPORT" || opt == "SO_ZEROCOPY") {
    if (opt == "SO_ZEROCOPY") {
      // sock_setsockopt: SOCK_ZEROCOPY on or off; a connection's own flag
      // once it exists, else the listener's, inherited by the connection.
      std::optional<int64_t> on = IntValue(valx);
      if (!on) return run_.Skip(c.line(), "setsockopt(SO_ZEROCOPY) with a non-integer value");
      (on_conn ? run_.sock.conn_opts : listen).zerocopy = *on != 0;
    }
    return Immediate(c, 0);
  }
  if (opt == "TCP_CONGESTION") {
    if (valx.kind != Expr::Kind::kString || (valx.text != "reno" && valx.text != "cubic")) {
      return run_.Skip(c.line(), "TCP_CONGESTION other than reno/cubic is not modelled");
    }
    if (on_conn) return run_.Skip(c.line(), "changing congestion control on an established socket is not modelled");
    listen.cc = valx.text;
    return Immediate(c, 0);
  }
  if (opt == "SO_LINGER") {
    // sock_setsockopt: SOCK_LINGER and sk_lingertime, inherited by an
    // accepted connection; tcp_close reads them (reset.cc).
    std::optional<LingerValue> l = LingerArg(valx);
    if (!l) return run_.Skip(c.line(), "setsockopt(SO_LINGER) value not understood");
    SockOpts& o = on_conn ? run_.sock.conn_opts : listen;
    o.linger = l->onoff != 0;
    o.linger_secs = l->linger;
    return Immediate(c, 0);
  }
  std::optional<int64_t> v = IntValue(valx);
  if (!v) return run_.Skip(c.line(), absl::StrFormat("setsockopt(%s) with a non-integer value", opt));
  if (opt == "SO_RCVBUF") {
    if (!on_conn) listen.rcvbuf = *v;
    return Immediate(c, 0);
  }
  if (IsKeepaliveOption(opt)) {
    if (IsConnFd(fd) && run_.sock.phase == SocketPhase::kClosed) return Immediate(c, -kErrEbadf);
    return Immediate(c, SetKeepaliveOption(run_, on_conn ? run_.sock.conn_opts : listen, on_conn, opt, *v));
  }
  if (std::optional<PassiveOption> po = PassiveOptionByName(opt)) {
    if (IsConnFd(fd) && run_.sock.phase == SocketPhase::kClosed) return Immediate(c, -kErrEbadf);
    const int r = po->check(*v, on_conn);
    if (r == 0 && opt == "SO_TIMESTAMPING") {
      // The transmit timestamps are modelled (model/tx_timestamp.h); OPT_STATS'
      // tcp_get_timestamping_opt_stats message is not.
      if (*v & model::kSofOptStats) {
        return run_.Skip(c.line(), "SO_TIMESTAMPING with SOF_TIMESTAMPING_OPT_STATS is not modelled");
      }
      if (on_conn) {
        run_.sock.ep->socket().setsockopt(model::SockOpt::kSoTimestamping, *v);
        run_.sock.conn_opts.tsflags = *v;
      } else {
        listen.tsflags = *v;
      }
    }
    if (r == 0) passive_[{on_conn, opt}] = *v;
    return Immediate(c, r);
  }
  std::optional<model::SockOpt> mo = ModelSockOpt(opt);
  if (!mo) return run_.Skip(c.line(), absl::StrFormat("socket option %s is not modelled", opt));
  if (on_conn) {
    int r = run_.sock.ep->socket().setsockopt(*mo, *v);
    if (r == 0) {
      SockOpts& conn = run_.sock.conn_opts;
      if (*mo == model::SockOpt::kTcpNodelay) conn.nodelay = *v != 0;
      if (*mo == model::SockOpt::kTcpCork) conn.cork = *v != 0;
      if (*mo == model::SockOpt::kTcpNotsentLowat) conn.notsent_lowat = static_cast<uint32_t>(*v);
      if (*mo == model::SockOpt::kTcpUserTimeout) conn.user_timeout_ms = static_cast<uint32_t>(*v);
    }
    return Immediate(c, r);
  }
  if (IsConnFd(fd) && run_.sock.phase == SocketPhase::kClosed) return Immediate(c, -kErrEbadf);
  return SetBeforeConnection(c, *mo, *v);
}

// Before the connection exists: remembered and inherited by it.
absl::Status SyscallDriver::SetBeforeConnection(const Call& c, model::SockOpt mo, int64_t v) {
  SockOpts& listen = run_.sock.listen_opts;
  switch (mo) {
    case model::SockOpt::kSoSndbuf:
      // sock_setsockopt reads net.core.wmem_max now: min(val, wmem_max).
      // min_t(u32, val, wmem_max): a negative value is a huge one.
      listen.sndbuf = std::min<uint64_t>(static_cast<uint32_t>(v), run_.settings.wmem_max);
      listen_sndbuf_ = std::max<int64_t>(listen.sndbuf * 2, model::kSockMinSndbuf);
      break;
    case model::SockOpt::kTcpNodelay: listen.nodelay = v != 0; break;
    case model::SockOpt::kTcpCork: listen.cork = v != 0; break;
    case model::SockOpt::kTcpMaxseg:
      // do_tcp_setsockopt: TCP_MIN_MSS..MAX_TCP_WINDOW (0 clears).
      if (v != 0 && (v < 88 || v > 32767)) return Immediate(c, -kErrEinval);
      listen.user_mss = static_cast<uint32_t>(v);
      break;
    case model::SockOpt::kTcpNotsentLowat: listen.notsent_lowat = static_cast<uint32_t>(v); break;
    case model::SockOpt::kSoTimestamping: break;  // a passive option (above)
    case model::SockOpt::kTcpUserTimeout:
      // tcp_sock_set_user_timeout: ms, not negative (an int).
      if (v < 0 || v > INT32_MAX) return Immediate(c, -kErrEinval);
      listen.user_timeout_ms = static_cast<uint32_t>(v);
      break;
  }
  return Immediate(c, 0);
}

// getsockopt: computes the value and compares it with the script's [value].
absl::Status SyscallDriver::GetSockopt(const Call& c, const std::string& opt, bool on_conn) {
  const SockOpts& listen = run_.sock.listen_opts;
  const SockOpts& opts = on_conn ? run_.sock.conn_opts : listen;
  int64_t val = 0;
  if (opt == "SO_SNDBUF") {
    if (on_conn) val = run_.sock.ep->socket().info().sndbuf;
    else val = listen.sndbuf > 0 ? listen_sndbuf_ : run_.settings.tcp_wmem[1];
  } else if (opt == "TCP_MAXSEG") {
    val = on_conn ? run_.sock.ep->socket().info().snd_mss : (listen.user_mss != 0 ? listen.user_mss : 536);
  } else if (opt == "TCP_NODELAY") {
    // do_tcp_getsockopt: !!(nonagle & TCP_NAGLE_OFF), !!(nonagle & TCP_NAGLE_CORK),
    // tp->notsent_lowat (0 while the sysctl applies).
    val = opts.nodelay;
  } else if (opt == "TCP_CORK") {
    val = opts.cork;
  } else if (opt == "TCP_NOTSENT_LOWAT") {
    // Read back through an int: -1 stays -1.
    val = static_cast<int32_t>(opts.notsent_lowat);
  } else if (opt == "TCP_USER_TIMEOUT") {
    val = opts.user_timeout_ms;
  } else if (IsKeepaliveOption(opt)) {
    val = GetKeepaliveOption(run_, opts, opt);
  } else if (std::optional<PassiveOption> po = PassiveOptionByName(opt)) {
    // The connection inherits what was set on the listener.
    auto own = passive_.find({on_conn, opt});
    auto inherited = passive_.find({false, opt});
    val = own != passive_.end() ? own->second : inherited != passive_.end() ? inherited->second : po->initial;
  } else if (opt == "SO_ERROR") {
    // sock_getsockopt: the pending sk_err (a reset's, a refused connect's), cleared by reading it.
    val = on_conn || run_.sock.RefusedOrAborted() ? run_.sock.TakeSockError() : 0;
  } else {
    return run_.Skip(c.line(), absl::StrFormat("getsockopt(%s) is not modelled", opt));
  }
  if (absl::Status st = CheckOutValue(c.line(), absl::StrFormat("getsockopt(%s)", opt), c.sc.args[3], val);
      !st.ok()) {
    return st;
  }
  return Immediate(c, 0);
}

}  // namespace sendsim::packetdrill
