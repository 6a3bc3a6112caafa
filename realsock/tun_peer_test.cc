#include "realsock/tun_peer.h"

#include <vector>

#include "gtest/gtest.h"

namespace sendsim::realsock {
namespace {

TEST(TunPeerTest, BuiltPacketParsesBack) {
  TunSegment s;
  s.saddr = 0xc6120802;
  s.daddr = 0xc6120701;
  s.sport = 6800;
  s.dport = 40000;
  s.seq = 1001;
  s.ack = 123456;
  s.flags = 0x12;
  s.win = 65535;
  s.mss = 1460;
  s.wscale = 7;
  s.sack_ok = true;
  s.has_ts = true;
  s.tsval = 77;
  s.tsecr = 99;
  const std::vector<uint8_t> p = BuildTunPacket(s);
  TunSegment r;
  ASSERT_TRUE(ParseTunSegment(p.data(), p.size(), &r));
  EXPECT_EQ(r.saddr, s.saddr);
  EXPECT_EQ(r.daddr, s.daddr);
  EXPECT_EQ(r.sport, 6800);
  EXPECT_EQ(r.dport, 40000);
  EXPECT_EQ(r.seq, 1001u);
  EXPECT_EQ(r.ack, 123456u);
  EXPECT_EQ(r.flags, 0x12);
  EXPECT_EQ(r.win, 65535);
  EXPECT_EQ(r.mss, 1460);
  EXPECT_EQ(r.wscale, 7);
  EXPECT_TRUE(r.sack_ok);
  EXPECT_TRUE(r.has_ts);
  EXPECT_EQ(r.tsval, 77u);
  EXPECT_EQ(r.tsecr, 99u);
  EXPECT_EQ(r.len, 0u);
}

// One's-complement sums over the IP header and over the TCP pseudo-header
// and segment come out 0xffff when the checksums are right.
uint16_t Sum(const uint8_t* p, size_t n, uint32_t sum) {
  for (size_t i = 0; i + 1 < n; i += 2) sum += static_cast<uint32_t>(p[i] << 8 | p[i + 1]);
  if (n % 2) sum += static_cast<uint32_t>(p[n - 1] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(sum);
}

TEST(TunPeerTest, ChecksumsVerify) {
  TunSegment s;
  s.saddr = 0x0a000001;
  s.daddr = 0x0a000002;
  s.flags = 0x10;
  s.len = 3;  // odd payload of zeros
  s.has_ts = true;
  s.tsval = 0x12345678;
  const std::vector<uint8_t> p = BuildTunPacket(s);
  EXPECT_EQ(Sum(p.data(), 20, 0), 0xffff);
  const size_t tcp_len = p.size() - 20;
  const uint32_t pseudo = Sum(p.data() + 12, 8, 0) + 6 + static_cast<uint32_t>(tcp_len);
  EXPECT_EQ(Sum(p.data() + 20, tcp_len, pseudo), 0xffff);
}

TEST(TunPeerTest, RejectsNonTcpAndShortPackets) {
  TunSegment s;
  std::vector<uint8_t> p = BuildTunPacket(s);
  TunSegment r;
  EXPECT_FALSE(ParseTunSegment(p.data(), 30, &r));
  p[9] = 17;  // UDP
  EXPECT_FALSE(ParseTunSegment(p.data(), p.size(), &r));
}

}  // namespace
}  // namespace sendsim::realsock
