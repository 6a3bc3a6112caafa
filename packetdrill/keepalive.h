#ifndef SENDSIM_PACKETDRILL_KEEPALIVE_H_
#define SENDSIM_PACKETDRILL_KEEPALIVE_H_

// TCP keepalive (tcp_keepalive_timer) and the options that drive it:
// SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT and the
// tcp_keepalive_time/intvl/probes sysctls. The runner, not the model, keeps
// the timer: it needs the receive side (icsk_ack.lrcvtime) and sends a
// keepalive probe and the final RST as its own control segments, as it does
// the other segments the model's send path does not make. It also connects
// the model's write timeouts (TCP_USER_TIMEOUT, model/user_timeout.cc) to the
// script's socket (tcp_done with ETIMEDOUT).

#include <cstdint>
#include <optional>
#include <string>

#include "packetdrill/run_state.h"
#include "packetdrill/socket_config.h"

namespace sendsim::packetdrill {

// True for SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL and TCP_KEEPCNT.
bool IsKeepaliveOption(const std::string& opt);

// setsockopt of one of those on `o` (the connection's options when
// `on_conn`, which may re-arm its timer, else the listener's): 0 or -errno.
int SetKeepaliveOption(RunState& run, SockOpts& o, bool on_conn, const std::string& opt, int64_t value);

// getsockopt of one of those: the value Linux returns.
int64_t GetKeepaliveOption(const RunState& run, const SockOpts& o, const std::string& opt);

// The connection was just established with the options it inherited
// (conn_opts): the model's write timeouts end it through TcpDone, and with
// SO_KEEPALIVE the keepalive timer starts (tcp_create_openreq_child /
// tcp_finish_connect: keepalive_time_when).
void StartConnectionTimers(RunState& run);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_KEEPALIVE_H_
