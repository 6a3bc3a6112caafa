#include "messenger/crc32c.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace sendsim::messenger {
namespace {

// Bit-at-a-time reference written from the definition (reflected
// polynomial 0x82F63B78), independent of Boost.
uint32_t BitwiseRegisterUpdate(uint32_t reg, const std::vector<uint8_t>& d) {
  for (uint8_t b : d) {
    reg ^= b;
    for (int i = 0; i < 8; ++i) reg = (reg >> 1) ^ ((reg & 1) ? 0x82F63B78u : 0u);
  }
  return reg;
}

uint32_t Rfc(const std::vector<uint8_t>& d) { return Crc32cRfc3720(d.data(), d.size()); }

// RFC 3720 appendix B.4 vectors.
TEST(Crc32cTest, Rfc3720Zeros) { EXPECT_EQ(Rfc(std::vector<uint8_t>(32, 0)), 0x8A9136AAu); }
TEST(Crc32cTest, Rfc3720Ones) { EXPECT_EQ(Rfc(std::vector<uint8_t>(32, 0xFF)), 0x62A8AB43u); }
TEST(Crc32cTest, Rfc3720Incrementing) {
  std::vector<uint8_t> d(32);
  for (int i = 0; i < 32; ++i) d[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(Rfc(d), 0x46DD794Eu);
}
TEST(Crc32cTest, Rfc3720Decrementing) {
  std::vector<uint8_t> d(32);
  for (int i = 0; i < 32; ++i) d[i] = static_cast<uint8_t>(31 - i);
  EXPECT_EQ(Rfc(d), 0x113FDB5Cu);
}
TEST(Crc32cTest, CheckString) {
  // The catalogue "check" value of CRC-32C over "123456789".
  const std::vector<uint8_t> d = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(Rfc(d), 0xE3069283u);
}

TEST(Crc32cTest, EmptyInputReturnsSeed) {
  EXPECT_EQ(ceph_crc32c(0, nullptr, 0), 0u);
  EXPECT_EQ(ceph_crc32c(0xFFFFFFFFu, nullptr, 0), 0xFFFFFFFFu);
  EXPECT_EQ(ceph_crc32c(0x12345678u, nullptr, 0), 0x12345678u);
}

TEST(Crc32cTest, NoPreOrPostInversionAndAsymmetricSeed) {
  const std::vector<uint8_t> d = {0x01, 0x80, 0x7F, 0xAA, 0x55, 0x00, 0xFE};
  for (uint32_t seed : {0u, 0xFFFFFFFFu, 0x12345678u, 0x80000001u}) {
    EXPECT_EQ(ceph_crc32c(seed, d.data(), d.size()), BitwiseRegisterUpdate(seed, d)) << seed;
  }
}

TEST(Crc32cTest, ChainsThroughTheSeed) {
  std::vector<uint8_t> d(1000);
  for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(i * 7 + 3);
  for (size_t cut : {0u, 1u, 499u, 1000u}) {
    uint32_t a = ceph_crc32c(0x1234u, d.data(), cut);
    EXPECT_EQ(ceph_crc32c(a, d.data() + cut, d.size() - cut), ceph_crc32c(0x1234u, d.data(), d.size()));
  }
}

}  // namespace
}  // namespace sendsim::messenger
