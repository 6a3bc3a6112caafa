#ifndef SENDSIM_SCENARIO_SCENARIO_H_
#define SENDSIM_SCENARIO_SCENARIO_H_

// What one sendsim invocation simulates: the workload, the connection, the
// host and network around it, the writers to compare and where to put the
// outputs. A plain value type; defaults describe a 2018 10 GbE Ceph cluster
// (see the README table in cli/README.md for the source of every value).

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "model/config.h"
#include "model/constants.h"
#include "model/profile.h"

namespace sendsim::scenario {

// Data item kinds of a ceph_msg (docs/libceph-write-path.md §7.1).
enum class DataLayout { kPages, kPagelist, kBio, kBvecs };

absl::string_view DataLayoutName(DataLayout l);
absl::StatusOr<DataLayout> DataLayoutByName(absl::string_view name);

// Peer receive batching (model::GroMode).
enum class GroMode { kOff, kBatch };
absl::string_view GroModeName(GroMode g);
absl::StatusOr<GroMode> GroModeByName(absl::string_view name);

// The sender's congestion control by its sysctl name (cubic, reno).
absl::string_view CongestionControlName(model::CongestionControl c);
absl::StatusOr<model::CongestionControl> CongestionControlByName(absl::string_view name);

// One entry of the message size mix: data payload bytes and a relative weight.
struct SizeMixEntry {
  uint64_t bytes = 0;
  uint32_t weight = 1;
  friend bool operator==(const SizeMixEntry&, const SizeMixEntry&) = default;
};

// One writer to compare, optionally on its own kernel profile
// ("v1-splice@linux-6.8"). An empty kernel means the scenario's kernel.
struct WriterSpec {
  std::string writer;
  std::string kernel;
  friend bool operator==(const WriterSpec&, const WriterSpec&) = default;
};

// "name" or "name@kernel"; names are checked by ValidateScenario.
absl::StatusOr<WriterSpec> ParseWriterSpec(absl::string_view text);
std::string WriterSpecString(const WriterSpec& w);
// The kernel a writer runs on (its own or the scenario's).
std::string EffectiveKernel(const WriterSpec& w, absl::string_view scenario_kernel);

struct Scenario {
  // Free text for scenario files (JSON has no comments); not used by runs.
  std::string description;
  // --- workload ---
  uint64_t messages = 10000;
  std::vector<SizeMixEntry> sizes = {{131072, 1}};
  uint32_t front_len = 192;
  DataLayout layout = DataLayout::kBio;
  uint32_t page_offset = 0;
  uint32_t queue_depth = 4;           // requests outstanding (0: all submitted at t = 0)
  uint64_t osd_reply_ns = 500000;     // OSD: message decoded -> reply (acks it, frees a slot)
  // + a seeded uniform draw from [0, jitter] per reply: without spread the
  // queue-depth workload repeats one cycle
  // (docs/notes/2026-12-02-lockstep-and-osd-reply-spread.md).
  uint64_t osd_reply_jitter_ns = 200000;
  // --- TCP connection ---
  uint32_t mss = 1448;
  uint32_t mtu = 1500;
  bool timestamps = true;
  bool tso = true;
  bool nodelay = true;
  bool autocorking = true;
  uint32_t sndbuf = 0;
  uint32_t hz = 250;
  // --- link and hosts ---
  uint64_t link_mbps = 10000;
  uint64_t rtt_ns = 50000;
  uint64_t tx_completion_ns = 10000;
  uint64_t call_cost_ns = 1500;
  uint64_t crc_ns_per_page = 1000;
  // --- peer ---
  bool delayed_ack = true;
  uint32_t ack_every = 2;
  GroMode gro = GroMode::kBatch;
  uint64_t gro_flush_ns = 5000;
  uint64_t ack_proc_ns = 5000;
  // --- what to compare ---
  std::string kernel = std::string(model::kDefaultProfile);
  std::vector<WriterSpec> writers = {{"v1-legacy", ""},
                                     {"v1-notlast", ""},
                                     {"v1-cork", ""},
                                     {"v1-splice", "linux-6.8"},
                                     {"v2", "linux-6.8"}};
  uint64_t seed = 1;
  // Runs of the whole comparison, under seed, seed + 1, ..., seed + seeds - 1:
  // the table is the first run's, the spread and the 2018 measurement's criteria are
  // reported over all of them.
  uint32_t seeds = 5;
  // --- outputs (empty: not written) ---
  std::string trace;
  std::string pcap;
  std::string plot;

  // --- the TCP options, receiver and host placement a testbed or a script
  // sets (packetdrill scripts, property cases, the kernel comparison's
  // host presets); the defaults are Linux's and the plain host. Settable
  // as tcp_*, receiver_* and host_* (settings.h) ---
  // TCP beyond the knobs above: route, socket options, sysctls.
  struct Tcp {
    uint32_t mss_clamp = 0;  // the peer's MSS option; 0: mss + options
    bool sack = true;
    uint32_t initcwnd = 10;   // route initcwnd
    uint32_t cwnd_clamp = 0;  // 0: none
    model::CongestionControl cc = model::CongestionControl::kCubic;
    bool slow_start_after_idle = true;
    model::TcpSysctls sysctl;
    friend bool operator==(const Tcp&, const Tcp&) = default;
  } tcp;
  // The receiver beyond its ACK policy: buffer, autotuning, window scale,
  // and the application's read rate (0: instant).
  struct Receiver {
    uint32_t rcvbuf = model::PeerConfig().rcvbuf;
    uint32_t rcvbuf_autotune_initial = 0;
    bool rcv_rtt_from_window = false;
    uint32_t init_rcv_wnd_segs = model::PeerConfig().init_rcv_wnd_segs;
    uint8_t wscale = model::PeerConfig().wscale;
    uint64_t app_read_bytes_per_sec = 0;
    friend bool operator==(const Receiver&, const Receiver&) = default;
  } receiver;
  // Where the hosts run the work (model/host/host.h); default: the plain host.
  model::HostConfig host;

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// Known names (the messenger's writers and the model's kernel profiles).
const std::vector<std::string>& KnownWriters();
const std::vector<std::string>& KnownKernels();

// Limits used by validation (and documented in --help).
inline constexpr uint64_t kMaxMessages = 100'000'000;
inline constexpr uint64_t kMaxMessageBytes = uint64_t{1} << 30;   // 1 GiB of data per message
inline constexpr uint64_t kMaxStreamBytes = uint64_t{1} << 50;    // messages x largest size
inline constexpr uint32_t kMaxFrontLen = 1 << 20;
inline constexpr uint32_t kPageSize = model::kPageSize;
inline constexpr uint32_t kMinMss = model::kTcpMinMss;
inline constexpr uint32_t kMinMtu = 576;      // IPv4 minimum datagram every host accepts
inline constexpr uint32_t kMaxMtu = 65535;
inline constexpr uint32_t kMinSndbuf = model::kSockMinSndbuf;
inline constexpr uint64_t kMaxTimeNs = 10'000'000'000;  // 10 s for any delay/cost knob
inline constexpr uint32_t kMaxSeeds = 1000;

// TCP + IPv4 header bytes beside the MSS (20 + 20, +12 for timestamps).
uint32_t HeaderOverhead(const Scenario& s);

// Checks every setting (settings.h, in its order); the message names the
// setting and the problem in one line.
absl::Status ValidateScenario(const Scenario& s);
// The settings of the kNetwork group only (mss, mtu, hz, rates, delays, the
// ACK policy, the kernel profile): what the property tests' cases share
// with scenarios.
absl::Status ValidateNetwork(const Scenario& s);
// ValidateNetwork and the kHost group (tcp_*, receiver_*, host_*): what a
// testbed's host preset sets, whatever its workload and writers.
absl::Status ValidateNetworkAndHost(const Scenario& s);

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_SCENARIO_H_
