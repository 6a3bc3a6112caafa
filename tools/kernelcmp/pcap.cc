#include "tools/kernelcmp/pcap.h"

#include "absl/strings/str_format.h"

namespace sendsim::kernelcmp {
namespace {

constexpr uint32_t kLinkEthernet = 1;
constexpr uint32_t kLinkRawIp = 101;
constexpr uint32_t kLinkSll = 113;
constexpr uint32_t kLinkSll2 = 276;
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
constexpr uint16_t kEtherTypeVlan = 0x8100;
constexpr uint8_t kIpProtoTcp = 6;

uint32_t Be16(const uint8_t* p) { return (uint32_t{p[0]} << 8) | p[1]; }
uint32_t Be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

class FileReader {
 public:
  FileReader(absl::string_view b, bool swapped) : b_(b), swapped_(swapped) {}
  uint32_t U32(size_t off) const {
    const auto* p = reinterpret_cast<const uint8_t*>(b_.data() + off);
    uint32_t le = uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) |
                  (uint32_t{p[3]} << 24);
    uint32_t be = Be32(p);
    return swapped_ ? be : le;
  }

 private:
  absl::string_view b_;
  bool swapped_;
};

// Returns the offset of the IPv4 header in the frame, or -1 if not IPv4.
int IpOffset(uint32_t linktype, const uint8_t* f, uint32_t caplen) {
  switch (linktype) {
    case kLinkEthernet: {
      if (caplen < 14) return -1;
      uint32_t type = Be16(f + 12);
      int off = 14;
      if (type == kEtherTypeVlan) {
        if (caplen < 18) return -1;
        type = Be16(f + 16);
        off = 18;
      }
      return type == kEtherTypeIpv4 ? off : -1;
    }
    case kLinkSll:
      if (caplen < 16) return -1;
      return Be16(f + 14) == kEtherTypeIpv4 ? 16 : -1;
    case kLinkSll2:
      if (caplen < 20) return -1;
      return Be16(f) == kEtherTypeIpv4 ? 20 : -1;
    case kLinkRawIp:
      return caplen >= 1 && (f[0] >> 4) == 4 ? 0 : -1;
  }
  return -1;
}

// The TCP segment in an IPv4 packet of `caplen` captured bytes (record
// `record` of the file, for messages); the caller sets the time.
absl::StatusOr<TcpSegment> DecodeTcp(const uint8_t* iph, uint32_t caplen, uint64_t record) {
  const uint32_t ihl = (iph[0] & 0x0f) * 4u;
  const uint32_t total = Be16(iph + 2);
  const uint32_t frag = Be16(iph + 6) & 0x3fff;  // MF + offset
  if (ihl < 20 || total < ihl + 20 || frag != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pcap: record %u: unexpected IPv4 header (ihl %u, total %u, frag %u)", record, ihl,
                        total, frag));
  }
  if (caplen < ihl + 20) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pcap: record %u: snaplen too small for the TCP header", record));
  }
  const uint8_t* th = iph + ihl;
  const uint32_t doff = (th[12] >> 4) * 4u;
  if (doff < 20 || ihl + doff > total) {
    return absl::InvalidArgumentError(absl::StrFormat("pcap: record %u: bad TCP data offset %u", record, doff));
  }
  TcpSegment s;
  s.src_ip = Be32(iph + 12);
  s.dst_ip = Be32(iph + 16);
  s.src_port = static_cast<uint16_t>(Be16(th));
  s.dst_port = static_cast<uint16_t>(Be16(th + 2));
  s.seq = Be32(th + 4);
  s.ack = Be32(th + 8);
  s.flags = th[13];
  s.payload_len = total - ihl - doff;
  return s;
}

}  // namespace

absl::StatusOr<PcapContents> ParsePcap(absl::string_view bytes) {
  if (bytes.size() < 24) return absl::InvalidArgumentError("pcap: file shorter than its header");
  const auto* u = reinterpret_cast<const uint8_t*>(bytes.data());
  uint32_t magic_le = uint32_t{u[0]} | (uint32_t{u[1]} << 8) | (uint32_t{u[2]} << 16) |
                      (uint32_t{u[3]} << 24);
  bool swapped;
  const bool nanos = magic_le == 0xa1b23c4d || magic_le == 0x4d3cb2a1;
  if (magic_le == 0xa1b2c3d4 || magic_le == 0xa1b23c4d) {
    swapped = false;
  } else if (magic_le == 0xd4c3b2a1 || magic_le == 0x4d3cb2a1) {
    swapped = true;
  } else {
    return absl::InvalidArgumentError(
        absl::StrFormat("pcap: bad magic 0x%08x (pcapng is not supported)", magic_le));
  }
  FileReader r(bytes, swapped);
  PcapContents out;
  out.linktype = r.U32(20) & 0x0fffffff;
  if (out.linktype != kLinkEthernet && out.linktype != kLinkSll && out.linktype != kLinkSll2 &&
      out.linktype != kLinkRawIp) {
    return absl::InvalidArgumentError(
        absl::StrFormat("pcap: unsupported link type %u", out.linktype));
  }
  size_t off = 24;
  while (off < bytes.size()) {
    if (bytes.size() - off < 16) {
      return absl::InvalidArgumentError(
          absl::StrFormat("pcap: truncated record header at offset %u", off));
    }
    const int64_t time_ns = int64_t{r.U32(off)} * 1'000'000'000 +
                            int64_t{r.U32(off + 4)} * (nanos ? 1 : 1000);
    uint32_t caplen = r.U32(off + 8);
    uint32_t origlen = r.U32(off + 12);
    off += 16;
    if (caplen > bytes.size() - off || caplen > origlen) {
      return absl::InvalidArgumentError(
          absl::StrFormat("pcap: record %u truncated or inconsistent (caplen %u, origlen %u)",
                          out.records, caplen, origlen));
    }
    const uint8_t* f = u + off;
    off += caplen;
    ++out.records;
    int ip = IpOffset(out.linktype, f, caplen);
    if (ip < 0 || caplen < static_cast<uint32_t>(ip) + 20 || (f[ip] >> 4) != 4 ||
        f[ip + 9] != kIpProtoTcp) {
      ++out.non_tcp;
      continue;
    }
    absl::StatusOr<TcpSegment> seg = DecodeTcp(f + ip, caplen - static_cast<uint32_t>(ip), out.records - 1);
    if (!seg.ok()) return seg.status();
    seg->time_ns = time_ns;
    out.segments.push_back(*seg);
  }
  return out;
}

}  // namespace sendsim::kernelcmp
