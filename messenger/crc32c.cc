#include "messenger/crc32c.h"

#include <boost/crc.hpp>

namespace sendsim::messenger {
namespace {

uint32_t ReverseBits(uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return r;
}

}  // namespace

uint32_t ceph_crc32c(uint32_t seed, const uint8_t* data, size_t len) {
  // Reflected in and out, no final xor: checksum() then returns the raw
  // register, which is exactly what the kernel's crc32c() hands back.
  // Boost takes the initial remainder in unreflected (polynomial) bit order
  // and reflects it itself, while Ceph's seed is a reflected register value:
  // hand Boost the bit-reversed seed.
  boost::crc_optimal<32, 0x1EDC6F41, 0, 0, true, true> crc(ReverseBits(seed));
  if (len > 0) crc.process_bytes(data, len);
  return crc.checksum();
}

}  // namespace sendsim::messenger
