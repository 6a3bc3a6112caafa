#ifndef SENDSIM_PACKETDRILL_SOCKET_CONFIG_H_
#define SENDSIM_PACKETDRILL_SOCKET_CONFIG_H_

// The configuration of the model socket that stands for the script's TCP
// connection, built in one place from what Linux's connection would take it
// from: the sysctls and routes the script's commands set (Settings), the
// handshake's choices (Negotiated) and the socket options set before
// accept()/connect() returned (SockOpts). The runner is the network, so the
// links add no delay and transmitted skbs complete at once (tun orphans them).

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "model/config.h"
#include "packetdrill/config.h"
#include "packetdrill/handshake.h"

namespace sendsim::packetdrill {

// Socket options a script sets on a socket; the connection inherits those of
// the socket() fd.
struct SockOpts {
  bool nodelay = false;
  bool cork = false;
  uint32_t user_mss = 0;
  int64_t sndbuf = -1;
  int64_t rcvbuf = -1;
  uint32_t notsent_lowat = 0;
  bool zerocopy = false;
  bool linger = false;      // SO_LINGER l_onoff (SOCK_LINGER, inherited by sk_clone_lock)
  int linger_secs = 0;      // l_linger (sk_lingertime)
  uint32_t user_timeout_ms = 0;  // TCP_USER_TIMEOUT (icsk_user_timeout; the model's timers read it)
  int64_t tsflags = 0;           // SO_TIMESTAMPING (sk_tsflags; model/tx_timestamp.h)
  // SO_KEEPALIVE (SOCK_KEEPOPEN) and TCP_KEEPIDLE/KEEPINTVL (s)/KEEPCNT
  // (0: the tcp_keepalive_* sysctl); keepalive.cc.
  bool keepalive = false;
  uint32_t keepidle = 0;
  uint32_t keepintvl = 0;
  uint32_t keepcnt = 0;
  std::string cc;
};

// The options among `o` that shape the handshake.
LocalSockOpts HandshakeOpts(const SockOpts& o);

// The model socket's configuration. A mid-script command passes the same
// configuration to the live socket, which takes only the sysctls from it
// (Endpoint::UpdateSysctls).
model::ConnectionConfig SocketConfigFor(const Settings& s, const Negotiated& neg, const SockOpts& opts);

// Settings no model socket can take: an UnimplementedError with the reason.
absl::Status UnmodelledSysctls(const Settings& s);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SOCKET_CONFIG_H_
