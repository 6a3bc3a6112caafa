#include "packetdrill/handshake.h"

#include "gtest/gtest.h"

namespace sendsim::packetdrill {
namespace {

Settings Defaults() {
  Settings s;
  ApplyDefaultsSh(&s);
  return s;
}

std::vector<TcpOption::Kind> Kinds(const std::vector<TcpOption>& v) {
  std::vector<TcpOption::Kind> k;
  for (const TcpOption& o : v) k.push_back(o.kind);
  return k;
}

using K = TcpOption::Kind;

TEST(HandshakeTest, PeerWithoutTimestamps) {
  PeerSyn p;
  p.mss = 1000;
  p.sack_ok = true;
  p.wscale = 7;
  Negotiated n = Negotiate(Defaults(), {}, &p);
  EXPECT_FALSE(n.timestamps);
  EXPECT_TRUE(n.sack);
  EXPECT_EQ(n.snd_wscale, 7);
  // ilog2(15728640) = 23 -> 23 - 15 = 8.
  EXPECT_EQ(n.rcv_wscale, 8);
  EXPECT_EQ(n.syn_mss, 1460u);
  EXPECT_EQ(n.advmss, 1460u);
  EXPECT_EQ(n.mss_cache, 1000u);
  // min(540000 / 2 rounded down to 1460s, 20 * 1460) = 29200.
  EXPECT_EQ(n.rcv_wnd, 29200u);
}

TEST(HandshakeTest, TimestampsCostTwelveBytes) {
  PeerSyn p;
  p.mss = 1460;
  p.sack_ok = true;
  p.wscale = 7;
  p.ts_val = 5;
  Negotiated n = Negotiate(Defaults(), {}, &p);
  EXPECT_TRUE(n.timestamps);
  EXPECT_EQ(n.syn_mss, 1460u);
  EXPECT_EQ(n.advmss, 1448u);
  EXPECT_EQ(n.mss_cache, 1448u);
  EXPECT_EQ(n.rcv_wnd, 20u * 1448);
}

TEST(HandshakeTest, KernelDefaultRmemGivesWscale7) {
  PeerSyn p;
  p.wscale = 2;
  Negotiated n = Negotiate(Settings(), {}, &p);
  // ilog2(6291456) = 22 -> 7. No MSS option: 536.
  EXPECT_EQ(n.rcv_wscale, 7);
  EXPECT_EQ(n.mss_cache, 536u);
}

TEST(HandshakeTest, SysctlsDisableOptions) {
  Settings s = Defaults();
  s.tcp_window_scaling = 0;
  s.tcp_sack = 0;
  s.tcp_timestamps = 0;
  PeerSyn p;
  p.mss = 1460;
  p.sack_ok = true;
  p.wscale = 7;
  p.ts_val = 1;
  Negotiated n = Negotiate(s, {}, &p);
  EXPECT_FALSE(n.wscale_ok || n.sack || n.timestamps);
  EXPECT_EQ(n.snd_wscale, 0);
  EXPECT_EQ(n.rcv_wscale, 0);
}

TEST(HandshakeTest, RouteAndMaxseg) {
  Settings s = Defaults();
  s.route_mtu = 1040;
  s.route_advmss = 1200;
  PeerSyn p;
  p.mss = 1460;
  LocalSockOpts o;
  Negotiated n = Negotiate(s, o, &p);
  EXPECT_EQ(n.syn_mss, 1200u);
  EXPECT_EQ(n.mss_cache, 1000u);  // pmtu 1040 - 40
  o.user_mss = 600;
  n = Negotiate(s, o, &p);
  EXPECT_EQ(n.syn_mss, 600u);
  EXPECT_EQ(n.mss_cache, 600u);
}

TEST(HandshakeTest, Ipv6HeadersCost20MoreBytes) {
  Settings s = Defaults();
  s.ipv6 = true;
  PeerSyn p;
  p.mss = 1460;
  Negotiated n = Negotiate(s, {}, &p);
  EXPECT_EQ(n.syn_mss, 1440u);
  EXPECT_EQ(n.mss_cache, 1440u);
}

TEST(HandshakeTest, SynOptionLayoutsFollowTcpOptionsWrite) {
  EXPECT_EQ(Kinds(SynOptions(1460, true, true, 1, 2, 8)),
            (std::vector<K>{K::kMss, K::kSackOk, K::kTimestamp, K::kNop, K::kWscale}));
  EXPECT_EQ(Kinds(SynOptions(1460, false, true, 1, 2, 8)),
            (std::vector<K>{K::kMss, K::kNop, K::kNop, K::kTimestamp, K::kNop, K::kWscale}));
  EXPECT_EQ(Kinds(SynOptions(1460, true, false, 0, 0, 8)),
            (std::vector<K>{K::kMss, K::kNop, K::kNop, K::kSackOk, K::kNop, K::kWscale}));
  EXPECT_EQ(Kinds(SynOptions(1460, false, false, 0, 0, std::nullopt)), (std::vector<K>{K::kMss}));
  EXPECT_EQ(Kinds(DataOptions(true, 1, 2)), (std::vector<K>{K::kNop, K::kNop, K::kTimestamp}));
  EXPECT_TRUE(DataOptions(false, 1, 2).empty());
}

}  // namespace
}  // namespace sendsim::packetdrill
