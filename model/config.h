#ifndef SENDSIM_MODEL_CONFIG_H_
#define SENDSIM_MODEL_CONFIG_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/host/host.h"

namespace sendsim::model {

enum class CongestionControl : uint8_t { kReno, kCubic };

// How the peer's receive path batches segments before its ACK decision.
enum class GroMode : uint8_t {
  kOff,    // every segment is processed on its own (__tcp_ack_snd_check per segment)
  kBatch,  // in-order segments arriving back to back merge (tcp_gro_receive); one ACK decision per batch
};

// Peer (receiver) behaviour: everything that shapes the ACK stream.
struct PeerConfig {
  uint32_t rcvbuf = 6 * 1024 * 1024;    // tcp_rmem[2]-like limit of the receive window
  // > 0: receive-buffer autotuning (tcp_rcv_space_adjust) from this sk_rcvbuf
  // (tcp_rmem[1]) up to `rcvbuf`; 0: the buffer is fixed at `rcvbuf`.
  uint32_t rcvbuf_autotune_initial = 0;
  // The receiver's RTT for autotuning. false: the path RTT (simplification).
  // true: tcp_rcv_rtt_measure, the time to receive one advertised window,
  // kept at its minimum -- what a Linux receiver ends up with when the RTT
  // is below the 1 ms timestamp tick (tcp_rcv_rtt_measure_ts samples are
  // then 0 and ignored; the odd tick crossing is not modelled).
  bool rcv_rtt_from_window = false;
  uint32_t init_rcv_wnd_segs = 20;      // initial window offered = 20 * (mss)  (tcp_select_initial_window)
  uint8_t wscale = 7;                   // window scale the peer announces
  bool delayed_ack = true;              // false: ACK every segment (quickack)
  uint32_t ack_every_segs = 2;          // full segments per immediate ACK (Linux: 2; 1/4 for tests)
  GroMode gro = GroMode::kOff;
  TimeNs gro_flush_ns = 0;              // batches end when the gap to the next segment exceeds this
  TimeNs ack_proc_ns = 0;               // receiver softirq latency before an ACK leaves
  uint64_t app_read_bytes_per_sec = 0;  // 0: the application reads instantly
  // (The receiver's kernel-version rules, such as socket-backlog coalescing,
  // come from the connection's Profile: the peer runs the same kernel.)
};

// net.ipv4 sysctls the sender reads besides autocorking/slow_start_after_idle
// (kept in ConnectionConfig for history). Defaults are the kernel's, so a
// config that does not mention them behaves as before they existed.
struct TcpSysctls {
  // tcp_wmem: [1] initial sndbuf, [2] autotuning cap
  uint32_t wmem[3] = {static_cast<uint32_t>(kPageSize), kTcpWmemDefault, kTcpWmemMax};
  uint32_t min_tso_segs = kTcpMinTsoSegs;              // tcp_min_tso_segs
  uint32_t tso_win_divisor = kTcpTsoWinDivisor;        // tcp_tso_win_divisor (0: fixed 3-MSS rule)
  uint32_t pacing_ss_ratio = 200;                      // tcp_pacing_ss_ratio (%)
  uint32_t pacing_ca_ratio = 120;                      // tcp_pacing_ca_ratio (%)
  uint32_t notsent_lowat = UINT32_MAX;                 // tcp_notsent_lowat (socket option overrides)
  uint32_t mtu_probing = 0;                            // tcp_mtu_probing (2: tcp_mtu_probe from the start)
  uint32_t base_mss = 1024;                            // tcp_base_mss (first MSS when probing)
  uint32_t probe_threshold = 8;                        // tcp_probe_threshold (bytes of MTU search interval)
  uint32_t wmem_max = kWmemMax;                        // net.core.wmem_max (caps SO_SNDBUF)
  uint32_t frto = 2;                                   // tcp_frto (F-RTO after an RTO unless 0)

  friend bool operator==(const TcpSysctls&, const TcpSysctls&) = default;
};

// One TCP connection's static parameters (route, host, NIC, link).
struct ConnectionConfig {
  uint32_t mss = 1448;                  // mss_cache after options (1500 MTU with timestamps)
  uint32_t mtu = 1500;
  bool route_mtu_metric = false;        // mtu is the route's mtu metric (ip route ... mtu N), not the device's
  bool route_mtu_locked = false;        // `mtu lock N`: ICMP cannot lower it (ip_mtu_locked)
  uint32_t mss_clamp = 0;               // peer's MSS option (rx_opt.mss_clamp); 0: mss + options
  bool timestamps = true;               // 12 bytes of TCP options per segment
  bool sack = true;
  bool ecn = false;                     // classic ECN negotiated in the handshake (TCP_ECN_OK)
  bool tso = true;                      // NIC segmentation; false = software GSO before the NIC
  bool nodelay = true;                  // TCP_NODELAY at connect (libceph default)
  bool autocorking = true;              // net.ipv4.tcp_autocorking
  uint32_t sndbuf = 0;                  // SO_SNDBUF bytes (0 = autotuned from tcp_wmem)
  uint32_t initcwnd = 10;               // route initcwnd
  uint32_t cwnd_clamp = 0;              // 0 = none; limits snd_cwnd (tests, property configurations)
  CongestionControl cc = CongestionControl::kCubic;
  bool slow_start_after_idle = true;
  TcpSysctls sysctl;
  uint64_t link_bps = 10'000'000'000;   // link rate, bits per second
  TimeNs one_way_delay_ns = 25 * kNsPerUs;  // propagation + switching, each direction
  TimeNs tx_completion_ns = 0;          // NIC TX-completion (IRQ coalescing) delay after the last bit
  uint64_t link_seed = 1;                // seeds the host layer's draws (host/)
  // Keep each data segment's (first bit, arrival at the peer) for
  // Connection::data_timing() (diagnostics; memory grows with the run).
  bool record_data_timing = false;
  TimeNs call_cost_ns = 0;              // CPU time one socket call holds the socket (lock_sock..release_sock)
  int hz = 250;                         // jiffy length for jiffy-granular rules
  bool track_payload = true;            // deliver payload bytes to Observer::OnDeliver
  bool full_trace = true;               // report every WirePacket to the observer
  std::vector<uint64_t> drop_data_segments;  // 0-based indices of data segments the link drops
  PeerConfig peer;
  // Where each host runs the work (host/host.h); default: the plain host.
  HostConfig host;
};

// Checks ranges and consistency (e.g. MSS + 40 + options <= MTU).
absl::Status ValidateConfig(const ConnectionConfig& c);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CONFIG_H_
