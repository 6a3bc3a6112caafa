#include "netdev/inet.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace sendsim::netdev {
namespace {

TEST(InetTest, GetReadsBigEndian) {
  const uint8_t b[] = {0x12, 0x34, 0x56, 0x78, 0x9a};
  EXPECT_EQ(Get16(b), 0x1234);
  EXPECT_EQ(Get16(b + 1), 0x3456);  // no alignment needed
  EXPECT_EQ(Get32(b), 0x12345678u);
  EXPECT_EQ(Get32(b + 1), 0x3456789au);
}

TEST(InetTest, PutWritesBigEndianAndRoundTrips) {
  uint8_t b[6] = {0, 0, 0, 0, 0, 0};
  Put16(b, 0xbeef);
  Put32(b + 2, 0xc0000201u);
  const uint8_t want[] = {0xbe, 0xef, 0xc0, 0x00, 0x02, 0x01};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(b[i], want[i]) << "byte " << i;
  EXPECT_EQ(Get16(b), 0xbeef);
  EXPECT_EQ(Get32(b + 2), 0xc0000201u);
}

// The classic IPv4 header example, checksum field zeroed. By hand:
// 4500+0073+0000+4000+4011+0000+c0a8+0001+c0a8+00c7 = 0x2479c;
// folded 0x479c + 0x2 = 0x479e; complemented 0xb861.
TEST(InetTest, Ipv4HeaderChecksum) {
  uint8_t h[] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  EXPECT_EQ(SumWords(h, sizeof(h), 0), 0x2479cu);
  EXPECT_EQ(Fold(SumWords(h, sizeof(h), 0)), 0xb861);
  // With the checksum in place the header verifies: it sums to 0xffff.
  Put16(h + 10, 0xb861);
  EXPECT_EQ(Fold(SumWords(h, sizeof(h), 0)), 0);
}

TEST(InetTest, OddLengthPadsLastByteWithZero) {
  const uint8_t b[] = {0x01, 0x02, 0x03};
  EXPECT_EQ(SumWords(b, 3, 0), 0x0102u + 0x0300u);
  EXPECT_EQ(SumWords(b, 3, 0x10), 0x0412u);  // a carried-in (pseudo-header) sum adds
  EXPECT_EQ(Fold(0x0402), 0xfbfd);
}

TEST(InetTest, FoldCarriesUntilSixteenBits) {
  // 0x1ffff -> 0xffff + 0x1 = 0x10000 -> 0x0000 + 0x1 = 0x1; ~0x1 = 0xfffe.
  EXPECT_EQ(Fold(0x1ffff), 0xfffe);
  EXPECT_EQ(Fold(0), 0xffff);
}

TEST(InetTest, ParseIpv4IsHostOrder) {
  EXPECT_EQ(ParseIpv4("192.0.2.1"), 0xc0000201u);
  EXPECT_EQ(ParseIpv4("198.18.0.1"), 0xc6120001u);
  EXPECT_EQ(ParseIpv4("not an address"), 0u);
}

}  // namespace
}  // namespace sendsim::netdev
