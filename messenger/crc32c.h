#ifndef SENDSIM_MESSENGER_CRC32C_H_
#define SENDSIM_MESSENGER_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace sendsim::messenger {

// Ceph's crc32c convention (kernel crc32c() / __crc32c_le, userspace
// ceph_crc32c): the reflected Castagnoli register update with the caller's
// seed as the initial register and NO final inversion. Chaining therefore
// works by passing the previous result as the next seed:
//   ceph_crc32c(ceph_crc32c(s, a), b) == ceph_crc32c(s, a ++ b).
// The standard CRC-32C of RFC 3720 is ~ceph_crc32c(~0u, data).
// libceph seeds msgr1 header/front/middle/data crcs with 0; msgr2 seeds the
// preamble crc with 0 and segment crcs with -1 (docs/libceph-write-path.md §1.5).
uint32_t ceph_crc32c(uint32_t seed, const uint8_t* data, size_t len);

// ceph_crc32c(crc, page, 4096) from crc0 = ceph_crc32c(0, page, 4096),
// without reading the page. Exact: with no inversions the register update is
// linear over GF(2), so running a page from seed `crc` gives the seed pushed
// through 4096 zero bytes, xor the page's own crc from seed 0. PagePool
// computes crc0 once per distinct page content; the sender then chains
// whole-page pieces with four table lookups.
uint32_t ceph_crc32c_page_from_crc0(uint32_t crc, uint32_t crc0);

// CRC-32C as defined by RFC 3720 (iSCSI), for the test vectors.
inline uint32_t Crc32cRfc3720(const uint8_t* data, size_t len) { return ~ceph_crc32c(~0u, data, len); }

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_CRC32C_H_
