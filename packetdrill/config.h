#ifndef SENDSIM_PACKETDRILL_CONFIG_H_
#define SENDSIM_PACKETDRILL_CONFIG_H_

// Maps a script's shell commands (init command, mid-script backtick
// commands, cleanup) onto the settings the model understands. Upstream runs
// these in a shell on a real host; sendsim recognises the handful of forms
// the TCP send-path scripts use and refuses the rest (the runner then skips
// the script, naming the command).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace sendsim::packetdrill {

struct Settings {
  // net.ipv4.* sysctls. Defaults are the kernel's (not defaults.sh), so a
  // script without the baseline still starts from a known state.
  int tcp_timestamps = 1;
  int tcp_sack = 1;
  int tcp_window_scaling = 1;
  uint32_t tcp_wmem[3] = {4096, 16384, 4194304};
  uint32_t tcp_rmem[3] = {4096, 131072, 6291456};
  uint32_t tcp_min_tso_segs = 2;
  uint32_t tcp_tso_win_divisor = 3;
  uint32_t tcp_notsent_lowat = UINT32_MAX;
  int tcp_slow_start_after_idle = 1;
  int tcp_autocorking = 1;
  int tcp_mtu_probing = 0;
  int tcp_ecn = 2;  // classic ECN: 0 off, 1 request and accept, 2 accept only
  uint32_t tcp_base_mss = 1024;
  uint32_t tcp_probe_threshold = 8;
  std::string tcp_congestion_control = "cubic";
  uint32_t tcp_pacing_ss_ratio = 200;
  uint32_t tcp_pacing_ca_ratio = 120;
  uint32_t tcp_invalid_ratelimit = 500;  // ms between challenge ACKs per socket (reset.cc)
  uint32_t tcp_frto = 2;                 // F-RTO after an RTO (0 off; 1 and 2 alike since v4.10)
  uint32_t tcp_syn_retries = 6;          // SYN retransmissions before connect() times out (syn_retransmit.cc)
  uint32_t tcp_syn_linear_timeouts = 4;  // v6.5+: SYN retransmissions at the initial RTO before backing off
  uint32_t tcp_synack_retries = 5;       // SYN-ACK retransmissions before the request is dropped (syn_retransmit.cc)
  uint32_t tcp_keepalive_time = 7200;    // s of idleness before the first keepalive probe (keepalive.cc)
  uint32_t tcp_keepalive_intvl = 75;     // s between keepalive probes
  uint32_t tcp_keepalive_probes = 9;     // unanswered keepalive probes before the reset
  std::string qdisc = "pfifo_fast";
  uint32_t rmem_max = 212992;  // net.core.rmem_max (window scale choice)
  uint32_t wmem_max = 212992;  // net.core.wmem_max (SO_SNDBUF cap, read at setsockopt time)
  int tcp_dsack = 1;           // D-SACK blocks for duplicate segments (teardown.cc, read live)
  uint32_t ignored_int = 0;    // sink for sysctls accepted without effect

  // ethtool -K tun0
  bool tso = true;
  bool gso = true;

  // ip route change ... (per-route metrics); ip link set ... mtu N sets the
  // device MTU, which the route inherits. `ip route change|replace` gives
  // the route exactly the metrics it names (the others go back to none).
  std::optional<uint32_t> route_advmss;
  std::optional<uint32_t> route_mtu;
  bool route_mtu_metric = false;  // route_mtu is the route's mtu metric, not the device's MTU
  bool route_mtu_lock = false;
  std::optional<uint32_t> route_initcwnd;
  std::optional<uint32_t> link_mtu;  // ip link set ... mtu N
  uint32_t route_adds = 0;           // ip route add commands run

  // --ip_version=ipv6 (40-byte IPv6 header instead of 20).
  bool ipv6 = false;

  // Files the script created: with dd or truncate in a command, or open()
  // with O_CREAT and writes (path -> size in bytes, zero-filled).
  std::map<std::string, uint64_t> files;

  // ../common/set_sysctls.py: the settings before its latest call and the
  // sysctls that call set, which /tmp/sysctl_restore_${PPID}.sh puts back
  // (each call writes that script anew, so only the latest call is undone).
  std::shared_ptr<const Settings> before_set_sysctls;
  std::vector<std::string> set_sysctls_names;
};

// Applies one backtick command (may hold several lines or ';'/'&&'-joined
// commands). Unsupported commands -> UnimplementedError whose message is the
// skip reason; malformed recognised commands -> InvalidArgumentError.
absl::Status ApplyCommand(std::string_view command, Settings* s);

// A command text as simple commands (split at newlines, ';' and '&&'
// outside quotes, comments dropped), and one simple command as shell words
// (false on an unterminated quote).
std::vector<std::string> SplitCommands(std::string_view text);
bool SplitShellWords(std::string_view cmd, std::vector<std::string>* out);

// What ../common/defaults.sh sets, as (sysctl name, value) pairs in order:
// a known starting point whatever the host's configuration (a new network
// namespace inherits some of the host's values). The kernel target writes
// these; the model applies them.
const std::vector<std::pair<std::string, std::string>>& DefaultsShSysctls();
void ApplyDefaultsSh(Settings* s);

// Whether a command word runs one of upstream's helper scripts.
bool IsDefaultsSh(std::string_view word);
bool IsSetSysctlsPy(std::string_view word);
bool IsSysctlRestore(std::string_view word);  // /tmp/sysctl_restore_${PPID}.sh

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_CONFIG_H_
