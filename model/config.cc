#include "model/config.h"

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::model {
namespace {

absl::Status Bad(const absl::FormatSpec<>& msg) { return absl::InvalidArgumentError(absl::StrFormat(msg)); }

absl::Status NonNegative(const char* field, TimeNs v) {
  if (v >= 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat("%s must be >= 0 (got %d)", field, v));
}

}  // namespace

// Every range the link, NIC and peer rely on is checked here, once: they do
// not clamp silently (they assert instead).
absl::Status ValidateConfig(const ConnectionConfig& c) {
  // Largest IPv4 MSS: 65535-byte datagram minus 20 IP and 20 TCP header bytes.
  constexpr uint32_t kMaxMss = 65535 - 40;
  const uint32_t options = c.timestamps ? 12 : 0;
  if (c.mtu < 68 || c.mtu > 65535)
    return absl::InvalidArgumentError(absl::StrFormat("mtu %d out of range [68, 65535]", c.mtu));
  if (c.mss < kTcpMinMss || c.mss > kMaxMss)
    return absl::InvalidArgumentError(
        absl::StrFormat("mss %d out of range [%d (TCP_MIN_MSS), %d]", c.mss, kTcpMinMss, kMaxMss));
  if (uint64_t{c.mss} + 40 + options > c.mtu)
    return absl::InvalidArgumentError(
        absl::StrFormat("mss %d + 40 header bytes + %d option bytes exceeds mtu %d", c.mss, options, c.mtu));
  if (c.initcwnd == 0) return Bad("initcwnd must be >= 1");
  if (c.link_bps == 0) return Bad("link_bps must be > 0");
  for (const auto& [field, v] : {std::pair<const char*, TimeNs>{"one_way_delay_ns", c.one_way_delay_ns},
                                 {"tx_completion_ns", c.tx_completion_ns},
                                 {"call_cost_ns", c.call_cost_ns},
                                 {"peer.gro_flush_ns", c.peer.gro_flush_ns},
                                 {"peer.ack_proc_ns", c.peer.ack_proc_ns},
                                 {"host.data_delay_spread_ns", c.host.data_delay_spread_ns},
                                 {"host.rx_cpu_service_ns", c.host.rx_cpu_service_ns},
                                 {"host.rx_cpu_wakeup_ns", c.host.rx_cpu_wakeup_ns},
                                 {"host.xmit_cost_ns", c.host.xmit_cost_ns},
                                 {"host.sender_softirq_ack_ns", c.host.sender_softirq_ack_ns},
                                 {"host.sender_softirq_peer_rx_ns", c.host.sender_softirq_peer_rx_ns},
                                 {"host.app_read_wakeup_ns", c.host.app_read_wakeup_ns}}) {
    if (absl::Status s = NonNegative(field, v); !s.ok()) return s;
  }
  if (c.host.tx_orphan_at_xmit && c.host.tx_completion_at_arrival)
    return Bad("host.tx_orphan_at_xmit (tun) and host.tx_completion_at_arrival (veth) exclude each other");
  if (c.host.rps_backlog_on_sender_cpu && !c.host.has_rx_cpu())
    return Bad("host.rps_backlog_on_sender_cpu needs host.rx_cpu_service_ns or host.rx_cpu_wakeup_ns > 0");
  if (c.hz != 100 && c.hz != 250 && c.hz != 300 && c.hz != 1000)
    return absl::InvalidArgumentError(absl::StrFormat("hz %d is not one of 100, 250, 300, 1000", c.hz));
  if (c.peer.ack_every_segs == 0) return Bad("peer.ack_every_segs must be >= 1");
  if (c.peer.init_rcv_wnd_segs == 0) return Bad("peer.init_rcv_wnd_segs must be >= 1");
  if (c.peer.wscale > 14)
    return absl::InvalidArgumentError(absl::StrFormat("peer.wscale %d > 14 (TCP_MAX_WSCALE)", c.peer.wscale));
  if (c.peer.rcvbuf_autotune_initial != 0 && uint64_t{c.peer.rcvbuf_autotune_initial} < uint64_t{4} * c.mss)
    return absl::InvalidArgumentError(absl::StrFormat("peer.rcvbuf_autotune_initial %d below 4 * mss (%d)",
                                                      c.peer.rcvbuf_autotune_initial, uint64_t{4} * c.mss));
  if (uint64_t{c.peer.rcvbuf} < uint64_t{4} * c.mss)
    return absl::InvalidArgumentError(
        absl::StrFormat("peer.rcvbuf %d below 4 * mss (%d)", c.peer.rcvbuf, uint64_t{4} * c.mss));
  if (c.sysctl.wmem[0] == 0 || c.sysctl.wmem[1] == 0 || c.sysctl.wmem[2] == 0)
    return Bad("sysctl.wmem values must be >= 1");
  if (c.sysctl.min_tso_segs == 0) return Bad("sysctl.min_tso_segs must be >= 1");
  for (size_t i = 1; i < c.drop_data_segments.size(); ++i)
    if (c.drop_data_segments[i] <= c.drop_data_segments[i - 1])
      return Bad("drop_data_segments must be strictly increasing");
  return absl::OkStatus();
}

}  // namespace sendsim::model
