#include "model/config.h"

#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

using ::testing::HasSubstr;

TEST(ValidateConfig, DefaultAccepted) { EXPECT_TRUE(ValidateConfig(ConnectionConfig{}).ok()); }

TEST(ValidateConfig, BoundaryValuesAccepted) {
  ConnectionConfig c;
  c.mss = 88;  // TCP_MIN_MSS
  c.peer.rcvbuf = 4 * 88;
  c.peer.wscale = 14;
  c.hz = 300;
  c.one_way_delay_ns = 0;
  EXPECT_TRUE(ValidateConfig(c).ok()) << ValidateConfig(c);
  ConnectionConfig j;  // 9000-byte jumbo frames: 9000 - 40 - 12 = 8948
  j.mtu = 9000;
  j.mss = 8948;
  EXPECT_TRUE(ValidateConfig(j).ok()) << ValidateConfig(j);
}

struct Case {
  std::string field;  // must appear in the message
  std::function<void(ConnectionConfig&)> mutate;
};

TEST(ValidateConfig, EachBadFieldRejectedByName) {
  const std::vector<Case> cases = {
      {"link_bps", [](ConnectionConfig& c) { c.link_bps = 0; }},
      {"hz", [](ConnectionConfig& c) { c.hz = 0; }},
      {"hz", [](ConnectionConfig& c) { c.hz = -250; }},
      {"hz", [](ConnectionConfig& c) { c.hz = 200; }},
      {"peer.wscale", [](ConnectionConfig& c) { c.peer.wscale = 15; }},
      {"peer.ack_every_segs", [](ConnectionConfig& c) { c.peer.ack_every_segs = 0; }},
      {"peer.init_rcv_wnd_segs", [](ConnectionConfig& c) { c.peer.init_rcv_wnd_segs = 0; }},
      {"peer.gro_flush_ns", [](ConnectionConfig& c) { c.peer.gro_flush_ns = -1; }},
      {"peer.ack_proc_ns", [](ConnectionConfig& c) { c.peer.ack_proc_ns = -1; }},
      {"tx_completion_ns", [](ConnectionConfig& c) { c.tx_completion_ns = -1; }},
      {"host.data_delay_spread_ns", [](ConnectionConfig& c) { c.host.data_delay_spread_ns = -1; }},
      {"host.app_read_wakeup_ns", [](ConnectionConfig& c) { c.host.app_read_wakeup_ns = -1; }},
      {"one_way_delay_ns", [](ConnectionConfig& c) { c.one_way_delay_ns = -1; }},
      {"call_cost_ns", [](ConnectionConfig& c) { c.call_cost_ns = -1; }},
      {"host.xmit_cost_ns", [](ConnectionConfig& c) { c.host.xmit_cost_ns = -1; }},
      {"host.sender_softirq_ack_ns", [](ConnectionConfig& c) { c.host.sender_softirq_ack_ns = -1; }},
      {"host.sender_softirq_peer_rx_ns", [](ConnectionConfig& c) { c.host.sender_softirq_peer_rx_ns = -1; }},
      {"host.rx_cpu_service_ns", [](ConnectionConfig& c) { c.host.rx_cpu_service_ns = -1; }},
      {"host.rx_cpu_wakeup_ns", [](ConnectionConfig& c) { c.host.rx_cpu_wakeup_ns = -1; }},
      {"peer.rcvbuf_autotune_initial", [](ConnectionConfig& c) { c.peer.rcvbuf_autotune_initial = 5791; }},
      // 4 * 1448 = 5792: one byte less is rejected.
      {"peer.rcvbuf", [](ConnectionConfig& c) { c.peer.rcvbuf = 5791; }},
      // 1448 + 40 + 12 = 1500: one more byte of MSS exceeds the MTU.
      {"mtu", [](ConnectionConfig& c) { c.mss = 1449; }},
      // Without timestamps 1460 fits, 1461 does not.
      {"mtu", [](ConnectionConfig& c) { c.timestamps = false; c.mss = 1461; }},
      {"mss", [](ConnectionConfig& c) { c.mss = 87; }},
      {"mss", [](ConnectionConfig& c) { c.mtu = 65535; c.mss = 65496; }},
      {"mtu", [](ConnectionConfig& c) { c.mtu = 67; }},
      {"initcwnd", [](ConnectionConfig& c) { c.initcwnd = 0; }},
      {"drop_data_segments", [](ConnectionConfig& c) { c.drop_data_segments = {5, 5}; }},
      // The backlog needs the receiving CPU's service or wakeup time.
      {"host.rps_backlog_on_sender_cpu", [](ConnectionConfig& c) { c.host.rps_backlog_on_sender_cpu = true; }},
      // A device is a tun (frees at xmit) or a veth (frees on the peer's
      // arrival), not both.
      {"host.tx_orphan_at_xmit", [](ConnectionConfig& c) {
         c.host.tx_orphan_at_xmit = true;
         c.host.tx_completion_at_arrival = true;
       }},
  };
  for (const Case& k : cases) {
    ConnectionConfig c;
    k.mutate(c);
    const absl::Status s = ValidateConfig(c);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << k.field;
    EXPECT_THAT(std::string(s.message()), HasSubstr(k.field));
    EXPECT_EQ(std::string(s.message()).find('\n'), std::string::npos) << "one line: " << s.message();
  }
}

TEST(ValidateConfig, TunOrVethAloneAccepted) {
  ConnectionConfig tun;
  tun.host.tx_orphan_at_xmit = true;
  EXPECT_TRUE(ValidateConfig(tun).ok()) << ValidateConfig(tun);
  ConnectionConfig veth;
  veth.host.tx_completion_at_arrival = true;
  EXPECT_TRUE(ValidateConfig(veth).ok()) << ValidateConfig(veth);
}

TEST(ValidateConfig, NoTimestampsMss1460Accepted) {
  ConnectionConfig c;
  c.timestamps = false;
  c.mss = 1460;
  EXPECT_TRUE(ValidateConfig(c).ok()) << ValidateConfig(c);
}

}  // namespace
}  // namespace sendsim::model
