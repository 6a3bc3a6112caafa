#ifndef SENDSIM_TOOLS_KERNELCMP_PCAP_H_
#define SENDSIM_TOOLS_KERNELCMP_PCAP_H_

#include <cstdint>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"

namespace sendsim::kernelcmp {

// The fields of one captured IPv4/TCP packet kernelcmp needs. Payload length
// comes from the IP total length, so a small snaplen is enough.
struct TcpSegment {
  uint32_t src_ip = 0;  // host byte order
  uint32_t dst_ip = 0;
  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint32_t seq = 0;
  uint32_t ack = 0;
  uint8_t flags = 0;  // TCP header flag byte (FIN 0x01, SYN 0x02, ..., PSH 0x08)
  uint32_t payload_len = 0;
  int64_t time_ns = 0;  // capture timestamp
};

struct PcapContents {
  uint32_t linktype = 0;
  uint64_t records = 0;  // every record in the file
  uint64_t non_tcp = 0;  // records that are not IPv4/TCP (skipped)
  std::vector<TcpSegment> segments;
};

// Parses a classic pcap file (either byte order, µs or ns timestamps) with
// link type Ethernet (1), Linux cooked v1 (113) / v2 (276) or raw IP (101).
// Truncated or malformed records are errors: a capture we cannot read fully
// cannot be checked for completeness.
absl::StatusOr<PcapContents> ParsePcap(absl::string_view bytes);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_PCAP_H_
