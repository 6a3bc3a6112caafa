#ifndef SENDSIM_SCENARIO_SETTINGS_H_
#define SENDSIM_SCENARIO_SETTINGS_H_

// Every user-settable scenario setting, declared once. The list drives the
// scenario file's keys (read and written, scenario_json.cc), their range
// checks (scenario.cc), sendsim's flags and their --help text
// (cli/flags.cc). A setting's type is its Scenario member's; the readers
// and writers per type are in scenario_json.cc and cli/flags.cc, so a new
// setting of a known type is one line here (plus the model code that uses
// it, when the model has no field for it yet).
//
// X(key, member, group, check, help)
//   key     JSON key and flag name (flags also accept '-' for '_')
//   member  the Scenario member it sets (a path: host.xmit_cost_ns)
//   group   kWorkload, kNetwork (also checked by ValidateNetwork, the
//           property tests' ranges), kRun, kOutput, or kHost: the TCP
//           options, receiver and host placement a testbed or a script
//           sets; written to a scenario file only when not the default,
//           so files that never set them stay as they were
//   check   Range(lo, hi, unit), RangeOrZero(...), NoCheck(), or any of
//           them .Then(fn) for a rule across settings (scenario.cc)
//   help    meaning [unit]. Source: where the default comes from. The
//           defaults themselves are the Scenario members' (scenario.h) and,
//           for the tcp/receiver/host groups, the model's (model/config.h,
//           model/host/host.h).
//
// The order is the scenario file's key order and --help's.

#include <cstdint>

#include "absl/status/status.h"

namespace sendsim::scenario {

struct Scenario;

enum class SettingGroup { kWorkload, kNetwork, kRun, kOutput, kHost };

// How a setting's value is checked; the message names the key.
struct SettingCheck {
  bool range = false;
  uint64_t lo = 0;
  uint64_t hi = 0;
  const char* unit = "";
  bool zero_ok = false;  // 0 means "not set" and skips the range
  absl::Status (*then)(const Scenario&) = nullptr;

  constexpr SettingCheck Then(absl::Status (*fn)(const Scenario&)) const {
    SettingCheck c = *this;
    c.then = fn;
    return c;
  }
};
constexpr SettingCheck NoCheck() { return {}; }
constexpr SettingCheck Range(uint64_t lo, uint64_t hi, const char* unit) { return {true, lo, hi, unit}; }
constexpr SettingCheck RangeOrZero(uint64_t lo, uint64_t hi, const char* unit) {
  return {true, lo, hi, unit, true};
}

// (Limits named here are in scenario.h.)
// clang-format off
#define SENDSIM_SCENARIO_SETTINGS(X)                                                                            \
  X(messages, messages, kWorkload, Range(1, kMaxMessages, "messages"),                                         \
    "Messages sent per writer [count]. Source: about 10,000 krbd-style 128 KiB OSD writes.")                   \
  X(sizes, sizes, kWorkload, NoCheck().Then(CheckSizes),                                                        \
    "Data bytes per message, a weighted mix SIZE[:WEIGHT],... with K/M/G suffixes [bytes]. "                   \
    "Source: krbd 128 KiB writes as in the 2018 measurement.")                                                  \
  X(front_len, front_len, kWorkload, Range(1, kMaxFrontLen, "bytes"),                                           \
    "MOSDOp front length [bytes]. Source: the 2018 measurement's odd packet sizes imply 192 "                   \
    "(1019 = 131339 mod 1448); docs/libceph-write-path.md 11.2 computes 277 for a luminous MOSDOp v8.")         \
  X(layout, layout, kWorkload, NoCheck(),                                                                       \
    "Data item kind: pages, pagelist, bio, bvecs. Source: krbd passes block-layer bios "                        \
    "(docs/libceph-write-path.md 7.1).")                                                                        \
  X(page_offset, page_offset, kWorkload, NoCheck().Then(CheckPageOffset),                                       \
    "Offset of the first data byte in its first page [bytes, < 4096]. Source: page-cache and "                  \
    "O_DIRECT 4 KiB I/O is page aligned.")                                                                      \
  X(queue_depth, queue_depth, kWorkload, Range(0, 4096, "requests"),                                            \
    "OSD requests kept outstanding; a new one is submitted when a reply arrives [requests, 0 = all at "         \
    "t=0]. Source: a lightly loaded krbd client (fio iodepth=4; krbd allows 128). At >= 8 the 10 GbE link "     \
    "saturates and the model shows none of the 2018 measurement's per-page runts "                              \
    "(docs/notes/2026-12-02-default-scenario-calibration.md).")                                                 \
  X(osd_reply_ns, osd_reply_ns, kWorkload, Range(0, kMaxTimeNs, "ns"),                                          \
    "OSD time from having the whole request to its reply [ns]. Source: SSD-backed BlueStore write "             \
    "latency of a few hundred us (UNVERIFIED).")                                                                \
  X(osd_reply_jitter_ns, osd_reply_jitter_ns, kWorkload, Range(0, kMaxTimeNs, "ns"),                            \
    "Spread of the OSD reply time: each reply adds a seeded uniform draw from [0, this] [ns]. Source: "         \
    "no OSD measurement; one part of the reply path, a receiving thread's wakeup, measured 53-269 us "          \
    "across the kernel comparison's 128 KiB cells (tools/kernelcmp). Without spread the queue-depth "           \
    "workload repeats one 4-message cycle and the counts are phase artifacts (0: lockstep).")                   \
  X(mss, mss, kNetwork, Range(kMinMss, kMaxMtu, "bytes"),                                                       \
    "TCP MSS (mss_cache) [bytes]. Source: 1500 MTU - 20 IPv4 - 20 TCP - 12 timestamp option.")                 \
  X(mtu, mtu, kNetwork, Range(kMinMtu, kMaxMtu, "bytes").Then(CheckMssFitsMtu),                                 \
    "Interface MTU [bytes]. Source: Ethernet default; jumbo frames were optional.")                             \
  X(timestamps, timestamps, kNetwork, NoCheck(),                                                                \
    "TCP timestamps option (12 bytes per segment). Source: net.ipv4.tcp_timestamps=1.")                         \
  X(tso, tso, kNetwork, NoCheck(),                                                                              \
    "NIC TCP segmentation offload. Source: on by default on 10 GbE NICs (ixgbe, i40e, mlx5).")                  \
  X(nodelay, nodelay, kNetwork, NoCheck(), "TCP_NODELAY. Source: libceph sets it on every connection.")         \
  X(autocorking, autocorking, kNetwork, NoCheck(),                                                              \
    "net.ipv4.tcp_autocorking. Source: kernel default 1 since 3.14.")                                           \
  X(sndbuf, sndbuf, kWorkload, RangeOrZero(kMinSndbuf, 1u << 30, "bytes (0 = autotuned)"),                      \
    "SO_SNDBUF [bytes, 0 = autotuned from tcp_wmem]. Source: libceph does not set it.")                        \
  X(hz, hz, kNetwork, NoCheck().Then(CheckHz),                                                                  \
    "Kernel HZ (jiffy = 1/HZ s) [100|250|300|1000]. Source: Debian/Ubuntu CONFIG_HZ_250.")                      \
  X(link_mbps, link_mbps, kNetwork, Range(1, 1'000'000, "Mbit/s"),                                              \
    "Link rate [Mbit/s]. Source: 10 GbE, the 2018 Ceph norm.")                                                  \
  X(rtt_ns, rtt_ns, kNetwork, Range(0, kMaxTimeNs, "ns"),                                                       \
    "Round-trip propagation + switching, half each way [ns]. Source: same-rack 10 GbE ping, 20-100 us.")        \
  X(tx_completion_ns, tx_completion_ns, kNetwork, Range(0, kMaxTimeNs, "ns"),                                   \
    "NIC TX-completion delay after the last bit (interrupt coalescing; releases autocork/TSQ) [ns]. "           \
    "Source: ethtool -c tx-usecs / adaptive ITR, plausibly 5-50 us (UNVERIFIED).")                              \
  X(call_cost_ns, call_cost_ns, kNetwork, Range(0, kMaxTimeNs, "ns"),                                           \
    "CPU time of one socket call holding the socket [ns]. Source: estimate for a 2018 Xeon "                    \
    "do_tcp_sendpages of one page, 1-2 us (UNVERIFIED).")                                                       \
  X(crc_ns_per_page, crc_ns_per_page, kNetwork, Range(0, kMaxTimeNs, "ns"),                                     \
    "crc32c work between page calls [ns per 4 KiB]. Source: docs/libceph-write-path.md 10.1 estimate (~1 us).") \
  X(delayed_ack, delayed_ack, kNetwork, NoCheck(),                                                              \
    "Peer delays ACKs (false: quickack every segment). Source: Linux default.")                                 \
  X(ack_every, ack_every, kNetwork, Range(1, 64, "segments"),                                                   \
    "Full-sized segments per immediate ACK [segments]. Source: Linux __tcp_ack_snd_check (more than one MSS).") \
  X(gro, gro, kNetwork, NoCheck(), "Peer GRO: off or batch. Source: GRO is on by default in Linux NIC drivers.") \
  X(gro_flush_ns, gro_flush_ns, kNetwork, Range(0, kMaxTimeNs, "ns"),                                           \
    "Peer GRO: a gap longer than this ends a batch (NAPI poll) [ns]. Source: rx interrupt coalescing, "         \
    "a few us at 10 GbE (UNVERIFIED).")                                                                         \
  X(ack_proc_ns, ack_proc_ns, kNetwork, Range(0, kMaxTimeNs, "ns"),                                             \
    "Peer softirq latency before an ACK leaves [ns]. Source: receive softirq + TX, a few us (UNVERIFIED).")     \
  X(kernel, kernel, kNetwork, NoCheck().Then(CheckScenarioKernel),                                              \
    "Kernel profile of the sender: linux-4.19|linux-5.0|linux-6.1|linux-6.8|linux-6.12|linux-6.18 (sendsim "  \
    "packetdrill: linux-6.18 unless given). Source: the 2018 measurement's era (v4.19).")                       \
  X(writers, writers, kRun, NoCheck().Then(CheckWriters),                                                       \
    "Writers to compare, WRITER[@KERNEL],...; the first is the baseline. Known: v1-legacy, v1-notlast, "        \
    "v1-cork, v1-splice, v2, and the comparison writers v1-more (MORE without NOTLAST), v1-sendmsg (one "       \
    "sendmsg per message), v1-cork-batch (TCP_CORK held across more_to_follow; props/README.md).")              \
  X(seed, seed, kRun, NoCheck(),                                                                                \
    "Seed of the first run's PRNG streams (size mix draws, page contents, OSD reply spread). Same inputs "      \
    "+ seed = same output.")                                                                                    \
  X(seeds, seeds, kRun, Range(1, kMaxSeeds, "runs").Then(CheckSeedRange),                                       \
    "Runs of the comparison, under seeds seed .. seed+N-1 [runs, 1-1000]. The table, csv, --trace, "            \
    "--pcap and --plot are the first run's; the spread across runs and the 2018 measurement's criteria "        \
    "follow the table, and JSON carries every run.")                                                            \
  X(trace, trace, kOutput, NoCheck(),                                                                           \
    "Write one CSV row per wire packet to FILE (per writer FILE.<writer>-<kernel>.csv when several run).")       \
  X(pcap, pcap, kOutput, NoCheck(), "Write a pcap of the run to FILE (per writer suffix as for --trace).")       \
  X(plot, plot, kOutput, NoCheck(), "Write an SVG of the writers' size histograms to FILE.")                    \
  /* TCP beyond the knobs above: route, socket options, sysctls. */                                             \
  X(tcp_mss_clamp, tcp.mss_clamp, kHost, Range(0, kMaxMtu, "bytes"),                                            \
    "The peer's MSS option (rx_opt.mss_clamp) [bytes, 0 = mss + options]. Source: a peer on the same MTU.")     \
  X(tcp_sack, tcp.sack, kHost, NoCheck(), "SACK permitted on the connection. Source: net.ipv4.tcp_sack=1.")     \
  X(tcp_initcwnd, tcp.initcwnd, kHost, Range(1, 65535, "segments"),                                             \
    "Initial congestion window (route initcwnd) [segments]. Source: Linux's TCP_INIT_CWND, 10.")                \
  X(tcp_cwnd_clamp, tcp.cwnd_clamp, kHost, Range(0, 1'000'000, "segments"),                                     \
    "Upper limit of snd_cwnd (snd_cwnd_clamp) [segments, 0 = none]. Source: no limit by default.")              \
  X(tcp_cc, tcp.cc, kHost, NoCheck(),                                                                           \
    "Congestion control: cubic or reno. Source: net.ipv4.tcp_congestion_control, cubic since 2.6.19.")          \
  X(tcp_slow_start_after_idle, tcp.slow_start_after_idle, kHost, NoCheck(),                                     \
    "net.ipv4.tcp_slow_start_after_idle: the window restarts after an idle RTO (tcp_cwnd_restart). "            \
    "Source: kernel default 1.")                                                                                \
  /* The receiver beyond its ACK policy. */                                                                     \
  X(receiver_rcvbuf, receiver.rcvbuf, kHost, Range(1, 1u << 31, "bytes"),                                       \
    "The peer's receive buffer, the limit of its window (tcp_rmem[2]) [bytes]. Source: Linux's default "        \
    "tcp_rmem[2], 6 MiB.")                                                                                      \
  X(receiver_rcvbuf_autotune_initial, receiver.rcvbuf_autotune_initial, kHost, Range(0, 1u << 31, "bytes"),     \
    "Autotune the peer's buffer (tcp_rcv_space_adjust) from this (tcp_rmem[1]) up to receiver_rcvbuf "          \
    "[bytes, 0 = fixed at receiver_rcvbuf]. Source: fixed, the plain host.")                                    \
  X(receiver_rcv_rtt_from_window, receiver.rcv_rtt_from_window, kHost, NoCheck(),                               \
    "Autotune on the time to receive one window, kept at its minimum (tcp_rcv_rtt_measure) instead of "         \
    "the path RTT: what a receiver whose RTT is below the 1 ms timestamp tick does. Source: the path RTT.")     \
  X(receiver_init_rcv_wnd_segs, receiver.init_rcv_wnd_segs, kHost, Range(1, 65535, "segments"),                 \
    "Cap of the initial window the peer offers, in MSS (tcp_select_initial_window) [segments]. "                \
    "Source: Linux's 20-segment cap.")                                                                          \
  X(receiver_wscale, receiver.wscale, kHost, Range(0, 14, ""),                                                  \
    "Window scale the peer announces [0-14]. Source: 7, what a 6 MiB tcp_rmem[2] gives.")                       \
  X(receiver_app_read_bytes_per_sec, receiver.app_read_bytes_per_sec, kHost, NoCheck(),                         \
    "The receiving application's read rate [bytes/s, 0 = instant]. Source: instant.")                          \
  /* Where the hosts run the work (model/host/host.h); defaults: the plain host. */                             \
  X(host_tx_completion_at_arrival, host.tx_completion_at_arrival, kHost, NoCheck(),                             \
    "A software path (veth): TX completion counts tx_completion_ns from the segment's arrival at the peer "     \
    "(ip_rcv_core orphans the skb), not from its last bit. Source: a NIC.")                                     \
  X(host_tx_orphan_at_xmit, host.tx_orphan_at_xmit, kHost, NoCheck(),                                           \
    "A tun device: the skb is orphaned when the device takes it (tun_net_xmit), so TSQ and autocorking "        \
    "never see a sent skb. Source: a NIC.")                                                                     \
  X(host_data_delay_spread_ns, host.data_delay_spread_ns, kHost, Range(0, kMaxTimeNs, "ns"),                    \
    "Mean of an exponential extra delay before the peer processes each data segment (a receive "                \
    "backlog), order kept [ns, 0 = none]. Source: none on the plain host.")                                     \
  X(host_rx_cpu_service_ns, host.rx_cpu_service_ns, kHost, Range(0, kMaxTimeNs, "ns"),                          \
    "The receiving CPU as a queue: time per data segment [ns]; with host_rx_cpu_wakeup_ns, either > 0 "         \
    "replaces host_data_delay_spread_ns. Source: no queue on the plain host.")                                  \
  X(host_rx_cpu_wakeup_ns, host.rx_cpu_wakeup_ns, kHost, Range(0, kMaxTimeNs, "ns"),                            \
    "The receiving CPU's mean wakeup when a segment finds it idle (exponential; an IPI to a halted "            \
    "vCPU) [ns]. Source: no queue on the plain host.")                                                          \
  X(host_rps_backlog_on_sender_cpu, host.rps_backlog_on_sender_cpu, kHost, NoCheck(),                           \
    "RPS steers both directions to the sender's CPU: one backlog, the sender's transmits taken inline "         \
    "unless the reader's ACK scheduled it (enqueue_to_backlog); needs the receiving-CPU queue. "                \
    "Source: off.")                                                                                             \
  X(host_xmit_cost_ns, host.xmit_cost_ns, kHost, Range(0, kMaxTimeNs, "ns"),                                    \
    "CPU per segment a call transmits itself (tcp_transmit_skb .. dev_queue_xmit), added to its socket "        \
    "hold [ns, 0 = every call costs call_cost_ns]. Source: 0.")                                                 \
  X(host_xmit_softirq_on_sender_cpu, host.xmit_softirq_on_sender_cpu, kHost, NoCheck(),                         \
    "Segments sent from softirq context (ACK, TSQ completion) take host_xmit_cost_ns from the sender's "        \
    "CPU too. Source: off.")                                                                                    \
  X(host_sender_softirq_ack_ns, host.sender_softirq_ack_ns, kHost, Range(0, kMaxTimeNs, "ns"),                  \
    "Sender-CPU softirq time per ACK it processes (tcp_v4_rcv -> tcp_ack) [ns]. Source: 0, receive work "       \
    "elsewhere.")                                                                                               \
  X(host_sender_softirq_peer_rx_ns, host.sender_softirq_peer_rx_ns, kHost, Range(0, kMaxTimeNs, "ns"),          \
    "Sender-CPU softirq time per data segment the receiver processes, when its receive path runs there "        \
    "[ns]. Source: 0, receive work elsewhere.")                                                                 \
  X(host_app_read_wakeup_ns, host.app_read_wakeup_ns, kHost, Range(0, kMaxTimeNs, "ns"),                        \
    "A rate-limited reader that read everything sleeps; data arriving wakes it this much later "                \
    "(scheduler wakeup latency) [ns]. Source: 0, a reader that never sleeps.")
// clang-format on

// The list as data, for --help and tests.
struct SettingInfo {
  const char* key;
  SettingGroup group;
  const char* help;
};
inline constexpr SettingInfo kSettings[] = {
#define SENDSIM_SETTING_INFO(key, member, group, check, help) {#key, SettingGroup::group, help},
    SENDSIM_SCENARIO_SETTINGS(SENDSIM_SETTING_INFO)
#undef SENDSIM_SETTING_INFO
};

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_SETTINGS_H_
