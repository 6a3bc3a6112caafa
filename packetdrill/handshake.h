#ifndef SENDSIM_PACKETDRILL_HANDSHAKE_H_
#define SENDSIM_PACKETDRILL_HANDSHAKE_H_

// The three-way handshake as Linux performs it, on the runner's side of the
// seam (the model starts from an established socket): option negotiation,
// MSS/window-scale/initial-window choices and the SYN/SYN-ACK option layout.

#include <cstdint>
#include <optional>
#include <vector>

#include "packetdrill/ast.h"
#include "packetdrill/config.h"

namespace sendsim::packetdrill {

// What the peer put in its SYN (or SYN-ACK).
struct PeerSyn {
  std::optional<uint32_t> mss;
  bool sack_ok = false;
  std::optional<uint8_t> wscale;
  std::optional<uint32_t> ts_val;
  uint32_t window = 0;  // unscaled (SYN windows never are)
};

PeerSyn PeerSynFromOptions(const std::vector<TcpOption>& options, uint32_t window);

struct Negotiated {
  bool timestamps = false;
  bool sack = false;
  bool wscale_ok = false;
  uint8_t snd_wscale = 0;     // applied to the peer's windows
  uint8_t rcv_wscale = 0;     // applied to ours
  uint32_t pmtu = 1500;
  uint32_t syn_mss = 1460;    // MSS option we send: route advmss clamped by TCP_MAXSEG
  uint32_t advmss = 1460;     // tp->advmss (tcpi_advmss): syn_mss minus the timestamp option
  uint32_t mss_cache = 1460;  // sending MSS: min(pmtu - 40, peer MSS, TCP_MAXSEG) minus options
  uint32_t mss_clamp = 536;   // tp->rx_opt.mss_clamp: the peer's MSS option clamped by TCP_MAXSEG
  uint32_t rcv_wnd = 0;       // initial receive window (bytes)
  uint32_t full_space = 0;    // tcp_full_space: the receive buffer's window share (half of it)
  bool ecn = false;           // classic ECN agreed (TCP_ECN_OK): set by the runner from the SYN flags
};

// Local knobs that shape the handshake besides the sysctls.
struct LocalSockOpts {
  uint32_t user_mss = 0;  // TCP_MAXSEG
  int64_t rcvbuf = -1;    // SO_RCVBUF value as passed (the kernel doubles it)
};

// tcp_openreq_init_rwin / tcp_select_initial_window / tcp_sync_mss, in our words.
// `peer` is null for our own SYN (active open before the SYN-ACK).
// `initial_rwnd_capped` is model::Profile::initial_rwnd_capped (v4.19's
// 20-MSS cap on the initial window), `rcv_wnd_u16_max`
// model::Profile::initial_rcv_wnd_u16_max (v4.20..v6.5's 65535 cap).
Negotiated Negotiate(const Settings& s, const LocalSockOpts& o, const PeerSyn* peer, bool initial_rwnd_capped,
                     bool rcv_wnd_u16_max = false);

// tcp_options_write order for SYN and SYN-ACK: mss; TS (preceded by sackOK when
// SACK is on, else by nop,nop); nop,nop,sackOK when SACK without TS; nop,wscale.
std::vector<TcpOption> SynOptions(uint32_t mss, bool sack, bool ts, uint32_t ts_val, uint32_t ts_ecr,
                                  std::optional<uint8_t> wscale);

// Options on established segments: nop,nop,TS when timestamps are on.
std::vector<TcpOption> DataOptions(bool ts, uint32_t ts_val, uint32_t ts_ecr);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_HANDSHAKE_H_
