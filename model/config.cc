#include "model/config.h"

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::model {

absl::Status ValidateConfig(const ConnectionConfig& c) {
  const uint32_t options = c.timestamps ? 12 : 0;
  if (c.mtu < 68 || c.mtu > 65535) return absl::InvalidArgumentError(absl::StrFormat("mtu %d out of range [68, 65535]", c.mtu));
  if (c.mss < kTcpMinMss) return absl::InvalidArgumentError(absl::StrFormat("mss %d below TCP_MIN_MSS (%d)", c.mss, kTcpMinMss));
  if (c.mss + 40 + options > c.mtu)
    return absl::InvalidArgumentError(
        absl::StrFormat("mss %d + 40 header bytes + %d option bytes exceeds mtu %d", c.mss, options, c.mtu));
  if (c.initcwnd == 0) return absl::InvalidArgumentError("initcwnd must be >= 1");
  if (c.link_bps == 0) return absl::InvalidArgumentError("link rate must be > 0");
  if (c.one_way_delay_ns < 0) return absl::InvalidArgumentError("one-way delay must be >= 0");
  if (c.tx_completion_ns < 0) return absl::InvalidArgumentError("tx completion delay must be >= 0");
  if (c.call_cost_ns < 0) return absl::InvalidArgumentError("call cost must be >= 0");
  if (c.hz != 100 && c.hz != 250 && c.hz != 1000)
    return absl::InvalidArgumentError(absl::StrFormat("hz %d is not one of 100, 250, 1000", c.hz));
  if (c.peer.ack_every_segs == 0) return absl::InvalidArgumentError("peer ack_every_segs must be >= 1");
  if (c.peer.init_rcv_wnd_segs == 0) return absl::InvalidArgumentError("peer initial window must be >= 1 segment");
  if (c.peer.wscale > 14) return absl::InvalidArgumentError(absl::StrFormat("peer wscale %d > 14", c.peer.wscale));
  if (c.peer.gro_flush_ns < 0 || c.peer.ack_proc_ns < 0) return absl::InvalidArgumentError("peer delays must be >= 0");
  for (size_t i = 1; i < c.drop_data_segments.size(); ++i)
    if (c.drop_data_segments[i] <= c.drop_data_segments[i - 1])
      return absl::InvalidArgumentError("drop_data_segments must be strictly increasing");
  return absl::OkStatus();
}

}  // namespace sendsim::model
