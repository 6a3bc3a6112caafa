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

// model::Profile::initial_rwnd_capped: v4.19 (true) and v4.20+ (false).
constexpr bool kCapped = true;
constexpr bool kUncapped = false;

TEST(HandshakeTest, PeerWithoutTimestamps) {
  PeerSyn p;
  p.mss = 1000;
  p.sack_ok = true;
  p.wscale = 7;
  Negotiated n = Negotiate(Defaults(), {}, &p, kCapped);
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
  Negotiated n = Negotiate(Defaults(), {}, &p, kCapped);
  EXPECT_TRUE(n.timestamps);
  EXPECT_EQ(n.syn_mss, 1460u);
  EXPECT_EQ(n.advmss, 1448u);
  EXPECT_EQ(n.mss_cache, 1448u);
  EXPECT_EQ(n.rcv_wnd, 20u * 1448);
}

TEST(HandshakeTest, KernelDefaultRmemGivesWscale7) {
  PeerSyn p;
  p.wscale = 2;
  Negotiated n = Negotiate(Settings(), {}, &p, kCapped);
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
  Negotiated n = Negotiate(s, {}, &p, kCapped);
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
  Negotiated n = Negotiate(s, o, &p, kCapped);
  EXPECT_EQ(n.syn_mss, 1200u);
  EXPECT_EQ(n.mss_cache, 1000u);  // pmtu 1040 - 40
  o.user_mss = 600;
  n = Negotiate(s, o, &p, kCapped);
  EXPECT_EQ(n.syn_mss, 600u);
  EXPECT_EQ(n.mss_cache, 600u);
}

TEST(HandshakeTest, Ipv6HeadersCost20MoreBytes) {
  Settings s = Defaults();
  s.ipv6 = true;
  PeerSyn p;
  p.mss = 1460;
  Negotiated n = Negotiate(s, {}, &p, kCapped);
  EXPECT_EQ(n.syn_mss, 1440u);
  EXPECT_EQ(n.mss_cache, 1440u);
}

// The peer's SYN most tests answer: MSS 1000, SACK, wscale 7.
PeerSyn Mss1000Wscale7Peer() {
  PeerSyn p;
  p.mss = 1000;
  p.sack_ok = true;
  p.wscale = 7;
  return p;
}

// tcp_select_initial_window with TCP_MAXSEG 600 on the listener: space is
// half of tcp_rmem[1] rounded down to 600s; v4.19 caps it at
// tcp_default_init_rwnd(600) = 20 segments, v4.20+ do not (a 6.18 kernel
// advertised 43200 with tcp_rmem[1] 87380 and 65535 with 540000).
TEST(HandshakeTest, InitialWindowCapIsV419Only) {
  Settings s = Defaults();
  const PeerSyn p = Mss1000Wscale7Peer();
  LocalSockOpts o;
  o.user_mss = 600;
  EXPECT_EQ(Negotiate(s, o, &p, kCapped).rcv_wnd, 12000u);
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped).rcv_wnd, 270000u);  // 540000 / 2, a multiple of 600
  s.tcp_rmem[1] = 87380;
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped).rcv_wnd, 43200u);  // 43690 rounded down to 600s
  o.user_mss = 0;
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped).rcv_wnd, 42340u);  // 43690 rounded down to 1460s
  EXPECT_EQ(Negotiate(s, o, &p, kCapped).rcv_wnd, 29200u);    // 20 * 1460
}

// tcp_default_init_rwnd above MSS 1460: max(1460 * 20 / mss, 2) segments.
TEST(HandshakeTest, InitialWindowCapShrinksAboveMss1460) {
  Settings s = Defaults();
  s.route_mtu = 9000;
  PeerSyn p;
  p.mss = 8960;
  p.wscale = 7;
  Negotiated n = Negotiate(s, {}, &p, kCapped);
  ASSERT_EQ(n.syn_mss, 8960u);
  EXPECT_EQ(n.rcv_wnd, 3u * 8960);  // 29200 / 8960 = 3
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

// tcp_select_initial_window from v4.20 to v6.5 (read in 6.1.192) keeps
// rcv_wnd within U16_MAX even with window scaling: half of tcp_rmem[1]
// 131072 is 65536, rounded down to MSS 1000 is 65000, under the cap; with
// tcp_rmem[1] 540000 the 270000 (a multiple of 1000) becomes 65535.
TEST(HandshakeTest, InitialWindowU16CapBeforeV66) {
  Settings s = Defaults();
  const PeerSyn p = Mss1000Wscale7Peer();
  LocalSockOpts o;
  o.user_mss = 1000;
  s.tcp_rmem[1] = 131072;
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped, true).rcv_wnd, 65000u);
  s.tcp_rmem[1] = 540000;
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped, true).rcv_wnd, 65535u);
  EXPECT_EQ(Negotiate(s, o, &p, kUncapped, false).rcv_wnd, 270000u);
}

}  // namespace
}  // namespace sendsim::packetdrill
