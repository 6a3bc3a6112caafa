#include "messenger/crc32c.h"

#include <algorithm>
#include <array>
#include <climits>

#include <isa-l/crc.h>

namespace sendsim::messenger {
namespace {

// A GF(2)-linear map of the 32-bit register, by the images of its 32 bits.
using RegisterMap = std::array<uint32_t, 32>;

constexpr uint32_t Apply(const RegisterMap& m, uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i, v >>= 1) {
    if (v & 1) r ^= m[i];
  }
  return r;
}

// The register after 4096 zero bytes, as four byte-indexed tables: the
// one-bit step of the reflected Castagnoli register (shift right, fold in
// 0x82F63B78 when a one drops out) composed with itself 2^15 times
// (4096 x 8 bits) by repeated squaring, at compile time.
constexpr std::array<std::array<uint32_t, 256>, 4> PageShiftTables() {
  RegisterMap m{};
  for (int i = 0; i < 32; ++i) {
    const uint32_t bit = uint32_t{1} << i;
    m[i] = (bit >> 1) ^ ((bit & 1) ? 0x82F63B78u : 0u);
  }
  for (int k = 0; k < 15; ++k) {
    RegisterMap sq{};
    for (int i = 0; i < 32; ++i) sq[i] = Apply(m, m[i]);
    m = sq;
  }
  std::array<std::array<uint32_t, 256>, 4> t{};
  for (int k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) t[k][b] = Apply(m, b << (8 * k));
  }
  return t;
}

constexpr std::array<std::array<uint32_t, 256>, 4> kPageShift = PageShiftTables();

}  // namespace

uint32_t ceph_crc32c_page_from_crc0(uint32_t crc, uint32_t crc0) {
  return kPageShift[0][crc & 0xFF] ^ kPageShift[1][(crc >> 8) & 0xFF] ^ kPageShift[2][(crc >> 16) & 0xFF] ^
         kPageShift[3][crc >> 24] ^ crc0;
}

uint32_t ceph_crc32c(uint32_t seed, const uint8_t* data, size_t len) {
  // ISA-L's crc32_iscsi has exactly libceph's convention (Ceph's own
  // userspace crc32c calls it): the seed is the reflected register as given
  // and no final inversion is applied. It takes an int length, so feed
  // anything longer in chunks, chained through the seed.
  uint32_t crc = seed;
  while (len > 0) {
    const size_t n = std::min<size_t>(len, INT_MAX);
    crc = crc32_iscsi(const_cast<uint8_t*>(data), static_cast<int>(n), crc);
    data += n;
    len -= n;
  }
  return crc;
}

}  // namespace sendsim::messenger
