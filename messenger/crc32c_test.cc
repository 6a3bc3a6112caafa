#include "messenger/crc32c.h"

#include <cstdint>
#include <random>
#include <vector>

#include <boost/crc.hpp>

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

uint32_t ReverseBits(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

// Boost.CRC, the second independent reference (table driven, fast enough
// for long buffers). Reflected in and out with no final xor returns the raw
// register; Boost takes its initial remainder in polynomial bit order, and
// Ceph's seed is a reflected register value, hence the bit reversal.
uint32_t BoostRegisterUpdate(uint32_t seed, const uint8_t* d, size_t n) {
  boost::crc_optimal<32, 0x1EDC6F41, 0, 0, true, true> crc(ReverseBits(seed));
  if (n > 0) crc.process_bytes(d, n);
  return crc.checksum();
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

// libceph's seeds as our notes describe them: msgr1 seeds header, front,
// middle and data crcs with 0; msgr2 seeds segment crcs with -1. With a -1
// seed the raw register is the RFC 3720 CRC before its final inversion.
TEST(Crc32cTest, LibcephSeedConventions) {
  const std::vector<uint8_t> d = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(ceph_crc32c(~0u, d.data(), d.size()), ~0xE3069283u);
  // Seed 0 over 32 zero bytes leaves the register at 0: nothing shifts in.
  const std::vector<uint8_t> zeros(32, 0);
  EXPECT_EQ(ceph_crc32c(0, zeros.data(), zeros.size()), 0u);
  EXPECT_EQ(ceph_crc32c(0, d.data(), d.size()), BitwiseRegisterUpdate(0, d));
}

// The library against Boost over random lengths (0 to 3 pages, so ISA-L's
// 8-, 64- and folding paths and their tails all run), start alignments and
// seeds. Fixed seed: a failure names the case and reproduces.
TEST(Crc32cTest, MatchesBoostOnRandomBuffers) {
  std::mt19937_64 rng(20261203);
  std::vector<uint8_t> buf(3 * 4096 + 64);
  for (auto& b : buf) b = static_cast<uint8_t>(rng());
  for (int i = 0; i < 5000; ++i) {
    const size_t off = rng() % 64;
    const size_t len = i < 200 ? static_cast<size_t>(i) : rng() % (buf.size() - off + 1);
    const uint32_t seeds[] = {0u, ~0u, static_cast<uint32_t>(rng())};
    const uint32_t seed = seeds[i % 3];
    ASSERT_EQ(ceph_crc32c(seed, buf.data() + off, len), BoostRegisterUpdate(seed, buf.data() + off, len))
        << "case " << i << ": offset " << off << ", length " << len << ", seed " << seed;
  }
}

// The page shortcut against the straight computation over the same bytes,
// for random pages and seeds (and the seeds whose bits stress each table).
TEST(Crc32cTest, PageFromCrc0MatchesTheStraightComputation) {
  std::mt19937_64 rng(4096);
  std::vector<uint8_t> page(4096);
  for (int i = 0; i < 300; ++i) {
    for (auto& b : page) b = static_cast<uint8_t>(rng());
    const uint32_t crc0 = ceph_crc32c(0, page.data(), page.size());
    const uint32_t seeds[] = {0u, ~0u, 1u, 0x80000000u, static_cast<uint32_t>(rng())};
    for (uint32_t seed : seeds) {
      ASSERT_EQ(ceph_crc32c_page_from_crc0(seed, crc0), BoostRegisterUpdate(seed, page.data(), page.size()))
          << "page " << i << ", seed " << seed;
    }
  }
}

TEST(Crc32cTest, BitwiseReferenceAgreesWithBoost) {
  // The two references must agree with each other, or a shared mistake in
  // one of them would go unnoticed.
  std::vector<uint8_t> d(777);
  for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(i * 131 + 7);
  for (uint32_t seed : {0u, ~0u, 0xDEADBEEFu}) {
    EXPECT_EQ(BitwiseRegisterUpdate(seed, d), BoostRegisterUpdate(seed, d.data(), d.size())) << seed;
  }
}

}  // namespace
}  // namespace sendsim::messenger
