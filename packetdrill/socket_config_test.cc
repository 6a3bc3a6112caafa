// What the model socket is configured from: the handshake's choices, the
// socket options inherited from the socket() fd, and the sysctls and routes.

#include "packetdrill/socket_config.h"

#include "gtest/gtest.h"
#include "model/constants.h"

namespace sendsim::packetdrill {
namespace {

TEST(SocketConfigTest, HandshakeChoicesAndInheritedOptions) {
  const Negotiated neg{.timestamps = false, .sack = true, .pmtu = 1400, .mss_cache = 988, .mss_clamp = 1000};
  const SockOpts o{.nodelay = true, .sndbuf = 10000, .cc = "reno"};
  const model::ConnectionConfig c = SocketConfigFor(Settings(), neg, o);
  EXPECT_EQ(c.mss, 988u);
  EXPECT_EQ(c.mtu, 1400u);
  EXPECT_EQ(c.mss_clamp, 1000u);
  EXPECT_FALSE(c.timestamps);
  EXPECT_TRUE(c.sack);
  EXPECT_TRUE(c.nodelay);
  EXPECT_EQ(c.sndbuf, 10000u);
  EXPECT_EQ(c.cc, model::CongestionControl::kReno);
  EXPECT_EQ(c.initcwnd, static_cast<uint32_t>(model::kTcpInitCwnd));
}

TEST(SocketConfigTest, SysctlsAndRoutes) {
  Settings s;
  s.tcp_congestion_control = "reno";
  s.tso = false;
  s.route_initcwnd = 4;
  s.tcp_autocorking = 0;
  s.tcp_slow_start_after_idle = 0;
  s.tcp_wmem[1] = 32768;
  s.tcp_min_tso_segs = 5;
  s.tcp_mtu_probing = -1;  // clamped: the model's sysctl is unsigned
  s.wmem_max = 4096;
  const model::ConnectionConfig c = SocketConfigFor(s, Negotiated(), SockOpts());
  EXPECT_EQ(c.cc, model::CongestionControl::kReno);
  EXPECT_FALSE(c.tso);
  EXPECT_EQ(c.initcwnd, 4u);
  EXPECT_FALSE(c.autocorking);
  EXPECT_FALSE(c.slow_start_after_idle);
  EXPECT_EQ(c.sysctl.wmem[1], 32768u);
  EXPECT_EQ(c.sysctl.min_tso_segs, 5u);
  EXPECT_EQ(c.sysctl.mtu_probing, 0u);
  EXPECT_EQ(c.sysctl.wmem_max, 4096u);
  EXPECT_EQ(c.sndbuf, 0u);  // no SO_SNDBUF: autotuned from tcp_wmem
  // The socket option wins over the sysctl.
  EXPECT_EQ(SocketConfigFor(s, Negotiated(), SockOpts{.cc = "cubic"}).cc, model::CongestionControl::kCubic);
}

// The runner is the network: the model adds no delay of its own.
TEST(SocketConfigTest, NoLinkDelays) {
  const model::ConnectionConfig c = SocketConfigFor(Settings(), Negotiated(), SockOpts());
  EXPECT_EQ(c.one_way_delay_ns, 0);
  EXPECT_EQ(c.tx_completion_ns, 0);
  EXPECT_EQ(c.call_cost_ns, 0);
  EXPECT_FALSE(c.track_payload);
  EXPECT_FALSE(c.full_trace);
}

TEST(SocketConfigTest, HandshakeOptsAndUnmodelledSysctls) {
  SockOpts o;
  o.user_mss = 1200;
  o.rcvbuf = 65536;
  const LocalSockOpts l = HandshakeOpts(o);
  EXPECT_EQ(l.user_mss, 1200u);
  EXPECT_EQ(l.rcvbuf, 65536);
  Settings s;
  EXPECT_TRUE(UnmodelledSysctls(s).ok());
  s.tcp_min_tso_segs = 0;
  EXPECT_EQ(UnmodelledSysctls(s).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace sendsim::packetdrill
