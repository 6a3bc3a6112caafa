#include "tools/kernelcmp/pcap.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

// Builds classic pcap files byte by byte, so the parser is checked against
// the format's definition rather than against itself.
class PcapBuilder {
 public:
  PcapBuilder(uint32_t linktype, bool big_endian = false) : be_(big_endian) {
    U32(0xa1b2c3d4);  // magic (µs timestamps)
    U16(2);
    U16(4);
    U32(0);      // thiszone
    U32(0);      // sigfigs
    U32(128);    // snaplen
    U32(linktype);
  }

  // An Ethernet + IPv4 (20 B) + TCP (32 B: timestamps) frame carrying
  // `payload` bytes, of which only `snap` frame bytes are recorded.
  void AddTcp(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport, uint32_t seq,
              uint8_t flags, uint32_t payload, uint32_t snap = 128) {
    std::string f;
    f.append(12, '\x02');               // MACs
    Be(&f, 0x0800, 2);                  // ethertype IPv4
    f.push_back('\x45');                // v4, ihl 5
    f.push_back(0);
    Be(&f, 20 + 32 + payload, 2);       // total length
    Be(&f, 0, 2);                       // id
    Be(&f, 0x4000, 2);                  // DF, offset 0
    f.push_back(64);
    f.push_back(6);                     // TCP
    Be(&f, 0, 2);
    Be(&f, src, 4);
    Be(&f, dst, 4);
    Be(&f, sport, 2);
    Be(&f, dport, 2);
    Be(&f, seq, 4);
    Be(&f, 7, 4);                       // ack
    f.push_back(static_cast<char>(8 << 4));  // data offset 32 bytes
    f.push_back(static_cast<char>(flags));
    Be(&f, 1000, 2);
    Be(&f, 0, 4);                       // csum + urg
    f.append(12, '\x01');               // options
    f.append(payload, 'x');
    AddRecord(f, snap);
  }

  void AddRecord(const std::string& frame, uint32_t snap) {
    const uint32_t caplen = std::min<uint32_t>(snap, frame.size());
    U32(1);  // ts sec
    U32(2);  // ts usec
    U32(caplen);
    U32(static_cast<uint32_t>(frame.size()));
    out_.append(frame.substr(0, caplen));
  }

  std::string bytes() const { return out_; }

 private:
  static void Be(std::string* s, uint32_t v, int n) {
    for (int i = n - 1; i >= 0; --i) s->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      const int shift = be_ ? 8 * (3 - i) : 8 * i;
      out_.push_back(static_cast<char>((v >> shift) & 0xff));
    }
  }
  void U16(uint16_t v) {
    for (int i = 0; i < 2; ++i) {
      const int shift = be_ ? 8 * (1 - i) : 8 * i;
      out_.push_back(static_cast<char>((v >> shift) & 0xff));
    }
  }
  bool be_;
  std::string out_;
};

constexpr uint32_t kA = 0xc0000201;  // 192.0.2.1
constexpr uint32_t kB = 0xc0000202;

TEST(ParsePcap, ReadsTcpFieldsAndPayloadLengthFromIpHeader) {
  PcapBuilder b(1);
  b.AddTcp(kA, kB, 40000, 6800, 1000, 0x02, 0);
  // A full-MSS segment recorded with a 128-byte snaplen: the payload length
  // must come from the IP total length (1448), not from the record.
  b.AddTcp(kA, kB, 40000, 6800, 1001, 0x10, 1448, 128);
  absl::StatusOr<PcapContents> p = ParsePcap(b.bytes());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->linktype, 1u);
  EXPECT_EQ(p->records, 2u);
  EXPECT_EQ(p->non_tcp, 0u);
  ASSERT_EQ(p->segments.size(), 2u);
  EXPECT_EQ(p->segments[0].flags, 0x02);
  EXPECT_EQ(p->segments[0].seq, 1000u);
  EXPECT_EQ(p->segments[0].payload_len, 0u);
  EXPECT_EQ(p->segments[1].src_ip, kA);
  EXPECT_EQ(p->segments[1].dst_ip, kB);
  EXPECT_EQ(p->segments[1].src_port, 40000);
  EXPECT_EQ(p->segments[1].dst_port, 6800);
  EXPECT_EQ(p->segments[1].seq, 1001u);
  EXPECT_EQ(p->segments[1].ack, 7u);
  EXPECT_EQ(p->segments[1].payload_len, 1448u);
  // Records are stamped 1 s + 2 µs by the builder.
  EXPECT_EQ(p->segments[1].time_ns, 1'000'002'000);
}

TEST(ParsePcap, ReadsBigEndianFiles) {
  PcapBuilder b(1, /*big_endian=*/true);
  b.AddTcp(kA, kB, 1, 2, 5, 0x18, 21);
  absl::StatusOr<PcapContents> p = ParsePcap(b.bytes());
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->segments.size(), 1u);
  EXPECT_EQ(p->segments[0].payload_len, 21u);
}

TEST(ParsePcap, CountsNonTcpRecords) {
  PcapBuilder b(1);
  std::string arp(42, '\0');
  arp[12] = '\x08';
  arp[13] = '\x06';  // ethertype ARP
  b.AddRecord(arp, 128);
  b.AddTcp(kA, kB, 1, 2, 5, 0x10, 10);
  absl::StatusOr<PcapContents> p = ParsePcap(b.bytes());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->records, 2u);
  EXPECT_EQ(p->non_tcp, 1u);
  EXPECT_EQ(p->segments.size(), 1u);
}

TEST(ParsePcap, RejectsTruncatedRecord) {
  PcapBuilder b(1);
  b.AddTcp(kA, kB, 1, 2, 5, 0x10, 10);
  std::string bytes = b.bytes();
  bytes.resize(bytes.size() - 5);
  EXPECT_FALSE(ParsePcap(bytes).ok());
}

TEST(ParsePcap, RejectsSnaplenShorterThanTcpHeader) {
  PcapBuilder b(1);
  b.AddTcp(kA, kB, 1, 2, 5, 0x10, 10, /*snap=*/40);  // 14 + 20 + 6 bytes
  EXPECT_FALSE(ParsePcap(b.bytes()).ok());
}

TEST(ParsePcap, RejectsBadMagicAndLinkType) {
  EXPECT_FALSE(ParsePcap(std::string(24, '\0')).ok());
  EXPECT_FALSE(ParsePcap("short").ok());
  PcapBuilder b(147);  // a user link type
  EXPECT_FALSE(ParsePcap(b.bytes()).ok());
}

}  // namespace
}  // namespace sendsim::kernelcmp
