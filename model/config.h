#ifndef SENDSIM_MODEL_CONFIG_H_
#define SENDSIM_MODEL_CONFIG_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "model/event_loop.h"

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
  // The v6.18 tcp_rcv_space_adjust / tcp_rcvbuf_grow, as a tcp_rcvbuf_grow
  // trace on a 6.18 receiver shows it: the bytes still queued (inq) are not
  // counted as copied, and the target window is 2 x copied plus twice the
  // growth term, without the 16-MSS cushion of older kernels.
  bool drs_v6_18 = false;
  uint32_t init_rcv_wnd_segs = 20;      // initial window offered = 20 * (mss)  (tcp_select_initial_window)
  uint8_t wscale = 7;                   // window scale the peer announces
  bool delayed_ack = true;              // false: ACK every segment (quickack)
  uint32_t ack_every_segs = 2;          // full segments per immediate ACK (Linux: 2; 1/4 for tests)
  GroMode gro = GroMode::kOff;
  TimeNs gro_flush_ns = 0;              // batches end when the gap to the next segment exceeds this
  TimeNs ack_proc_ns = 0;               // receiver softirq latency before an ACK leaves
  uint64_t app_read_bytes_per_sec = 0;  // 0: the application reads instantly
  // v5.0+ receiver: while the rate-limited reader is inside recvmsg it owns
  // the socket, so arriving segments wait in the socket backlog, where
  // tcp_add_backlog coalesces contiguous ones (up to MAX_SKB_FRAGS frags);
  // the read's release_sock then processes each coalesced skb once, one ACK
  // decision per skb instead of per segment. Off: the v4.19 receiver, which
  // processes every segment as it arrives.
  bool backlog_coalesce = false;
  // v6.7+ (net.ipv4.tcp_backlog_ack_defer = 1): an immediate ACK decided while
  // release_sock runs the backlog is sent once, after it (tcp_release_cb).
  bool backlog_ack_defer = false;
  // The rate-limited reader sleeps (in poll) once it has read everything;
  // data arriving then wakes it this much later (the scheduler's wakeup
  // latency), so its next read takes what accumulated meanwhile. A reader
  // that finds data left after a read continues at once.
  TimeNs app_read_wakeup_ns = 0;
};

// net.ipv4 sysctls the sender reads besides autocorking/slow_start_after_idle
// (kept in ConnectionConfig for history). Defaults are the kernel's, so a
// config that does not mention them behaves as before they existed.
struct TcpSysctls {
  uint32_t wmem[3] = {4096, 16384, 4 * 1024 * 1024};  // tcp_wmem: [1] initial sndbuf, [2] autotuning cap
  uint32_t min_tso_segs = 2;                           // tcp_min_tso_segs
  uint32_t tso_win_divisor = 3;                        // tcp_tso_win_divisor (0: fixed 3-MSS rule)
  uint32_t pacing_ss_ratio = 200;                      // tcp_pacing_ss_ratio (%)
  uint32_t pacing_ca_ratio = 120;                      // tcp_pacing_ca_ratio (%)
  uint32_t notsent_lowat = UINT32_MAX;                 // tcp_notsent_lowat (socket option overrides)
  uint32_t mtu_probing = 0;                            // tcp_mtu_probing (2: tcp_mtu_probe from the start)
  uint32_t base_mss = 1024;                            // tcp_base_mss (first MSS when probing)
  uint32_t probe_threshold = 8;                        // tcp_probe_threshold (bytes of MTU search interval)
  uint32_t wmem_max = 212992;                          // net.core.wmem_max (caps SO_SNDBUF)
};

// One TCP connection's static parameters (route, host, NIC, link).
struct ConnectionConfig {
  uint32_t mss = 1448;                  // mss_cache after options (1500 MTU with timestamps)
  uint32_t mtu = 1500;
  uint32_t mss_clamp = 0;               // peer's MSS option (rx_opt.mss_clamp); 0: mss + options
  bool timestamps = true;               // 12 bytes of TCP options per segment
  bool sack = true;
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
  // A software path (veth) instead of a NIC: the skb stays charged to the
  // socket until the receiving stack takes it (ip_rcv_core orphans it), so
  // TX completion is tx_completion_ns after the segment reaches the peer,
  // not after its last bit.
  bool tx_completion_at_arrival = false;
  // veth with the receive path on the sender's own CPU: the softirq run when
  // dev_queue_xmit re-enables bottom halves takes each segment at once
  // (process_backlog -> ip_rcv_core orphans it), so TX completion happens
  // inside the transmit, before the sending code goes on. Overrides
  // tx_completion_ns and tx_completion_at_arrival.
  bool tx_completion_in_xmit = false;
  // Extra delay of each data segment before the peer processes it, drawn
  // from an exponential distribution with this mean (seeded by link_seed,
  // order kept: a segment never overtakes the one before it). Stands for a
  // receive backlog drained when its CPU gets to it (veth + RPS); 0: none.
  // Simplified: one distribution, no correlation with what that CPU runs.
  TimeNs data_delay_spread_ns = 0;
  // In its place, the receiving CPU as a queue (veth + RPS on a VM): each
  // data segment waits for the segments before it, rx_cpu_service_ns each,
  // and one that finds the CPU idle waits for it to wake up, a draw from an
  // exponential of mean rx_cpu_wakeup_ns (an IPI to a halted vCPU). So the
  // delay is shared by a whole burst, not drawn per segment. Either > 0
  // turns it on (data_delay_spread_ns is then ignored).
  TimeNs rx_cpu_service_ns = 0;
  TimeNs rx_cpu_wakeup_ns = 0;
  // RPS steers receive processing to the CPU the receiving application runs
  // on (kernelcmp's "receiver's CPU" placement). Since the sender's ACKs are
  // steered there too, that CPU also runs the sender's transmits from
  // softirq context (tcp_ack -> tcp_data_snd_check, tcp_tsq_handler;
  // xmit_cost_ns each) and the reader's copies (tcp_recvmsg), both queued
  // with the data segments on the rx_cpu queue: that CPU, not the link,
  // bounds the throughput when it is saturated. Needs the queue (rx_cpu_* >
  // 0). Simplified: work runs in the order it is posted and none preempts
  // another (in the kernel softirq preempts the copy at irq exit, and under
  // load ksoftirqd and the reader alternate in scheduler slices); a read
  // takes what had arrived when it was posted.
  bool rx_cpu_is_reader_cpu = false;
  // RPS steers both directions to the sender's own CPU (kernelcmp's
  // "sender's CPU" placement): one backlog takes the data segments and the
  // ACKs (model/rps_backlog.h). The sender's transmits are taken inline at
  // rx_cpu_service_ns each, unless an ACK the reader sent from its own CPU
  // has scheduled the backlog: then they wait for that CPU's IPI, an
  // exponential of mean rx_cpu_wakeup_ns. Replaces the rx_cpu queue's
  // wakeup on idle; needs rx_cpu_service_ns or rx_cpu_wakeup_ns > 0.
  bool rps_backlog_on_sender_cpu = false;
  uint64_t link_seed = 1;
  // Keep each data segment's (first bit, arrival at the peer) for
  // Connection::data_timing() (diagnostics; memory grows with the run).
  bool record_data_timing = false;
  TimeNs call_cost_ns = 0;              // CPU time one socket call holds the socket (lock_sock..release_sock)
  // CPU per segment the caller's own context transmits (tcp_transmit_skb ->
  // ip_output -> software GSO -> dev_queue_xmit), added to the hold of the
  // call that sends it, release_sock included: a call that only queues bytes
  // costs call_cost_ns, one that sends three segments call_cost_ns + 3 x this.
  // With xmit_softirq_on_sender_cpu, segments sent from softirq context (an
  // ACK or TSQ completion handled on the sender's CPU) take it from the
  // caller too (model/cpu_steal.h). 0: every call costs call_cost_ns.
  TimeNs xmit_cost_ns = 0;
  bool xmit_softirq_on_sender_cpu = false;
  // Softirq work that shares the sending application's CPU (model/cpu_steal.h):
  // per ACK the sender processes (tcp_v4_rcv -> tcp_ack), and per data segment
  // the receiver processes when its receive path runs on that CPU too (a veth
  // pair with RPS steered to the sender's CPU). 0: receive work runs elsewhere.
  TimeNs sender_softirq_ack_ns = 0;
  TimeNs sender_softirq_peer_rx_ns = 0;
  int hz = 250;                         // jiffy length for jiffy-granular rules
  bool track_payload = true;            // deliver payload bytes to Observer::OnDeliver
  bool full_trace = true;               // report every WirePacket to the observer
  std::vector<uint64_t> drop_data_segments;  // 0-based indices of data segments the link drops
  PeerConfig peer;
};

// Checks ranges and consistency (e.g. MSS + 40 + options <= MTU).
absl::Status ValidateConfig(const ConnectionConfig& c);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_CONFIG_H_
