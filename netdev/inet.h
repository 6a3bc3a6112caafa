#ifndef SENDSIM_NETDEV_INET_H_
#define SENDSIM_NETDEV_INET_H_

// Byte-level IPv4/TCP helpers for code that builds and parses packets on a
// tun device: network byte order, the internet checksum (RFC 1071) and
// dotted-quad addresses.

#include <cstddef>
#include <cstdint>

namespace sendsim::netdev {

// Big-endian (network order) fields at `p`.
uint16_t Get16(const uint8_t* p);
uint32_t Get32(const uint8_t* p);
void Put16(uint8_t* p, uint16_t v);
void Put32(uint8_t* p, uint32_t v);

// `sum` plus the n bytes at `p` as big-endian 16-bit words, an odd last
// byte padded with zero. Unfolded, so a pseudo-header's sum can be carried
// into the segment's.
uint32_t SumWords(const uint8_t* p, size_t n, uint32_t sum);
// The ones' complement of `sum` folded to 16 bits: the checksum field.
uint16_t Fold(uint32_t sum);

// A dotted-quad IPv4 address in host order; 0 if `a` is not one.
uint32_t ParseIpv4(const char* a);

}  // namespace sendsim::netdev

#endif  // SENDSIM_NETDEV_INET_H_
