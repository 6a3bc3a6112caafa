#include "cli/pcap_writer.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "cli/testing/tshark.h"
#include "gtest/gtest.h"

namespace sendsim::cli {
namespace {

using testing::HaveTshark;

using testing::RunCommand;

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

// A small two-way exchange: the sender's segments of the given sizes, one
// ACK from the peer after every second segment, and the bytes delivered to
// the peer one segment later (as they would arrive after the link delay).
struct Synthetic {
  std::vector<uint32_t> sizes = {1448, 1448, 1200, 21, 1448, 952, 1448, 643, 1448, 1019, 376, 1448};
  std::string stream;  // payload byte i = (i * 7) & 0xff
};

void WriteSynthetic(const Synthetic& syn, const std::string& path, bool timestamps, uint64_t* frames) {
  std::ofstream out(path, std::ios::binary);
  PcapOptions opt;
  opt.timestamps = timestamps;
  opt.mss = timestamps ? 1448 : 1460;
  PcapWriter w(&out, opt);
  uint32_t seq = 0;
  model::TimeNs t = 0;
  std::vector<std::pair<uint32_t, uint32_t>> in_flight;
  for (size_t i = 0; i < syn.sizes.size(); ++i) {
    model::WirePacket p;
    p.time = t;
    p.dir = model::Direction::kData;
    p.seq = seq;
    p.len = syn.sizes[i];
    p.flags = model::kTcpAck | (i % 4 == 3 ? model::kTcpPsh : 0);
    p.win = 64000 << 7;
    w.OnWirePacket(p);
    in_flight.push_back({seq, p.len});
    seq += p.len;
    t += 2000;
    if (in_flight.size() == 2) {
      // The first of the two arrives at the peer now.
      auto [s, l] = in_flight.front();
      w.OnDeliver(t, s, reinterpret_cast<const uint8_t*>(syn.stream.data()) + s, l);
      in_flight.erase(in_flight.begin());
      if (i % 2 == 1) {
        model::WirePacket a;
        a.time = t + 500;
        a.dir = model::Direction::kAck;
        a.seq = 0;
        a.ack = s + l;
        a.flags = model::kTcpAck;
        a.win = 3000 << 7;
        w.OnWirePacket(a);
      }
    }
  }
  for (auto [s, l] : in_flight) w.OnDeliver(t, s, reinterpret_cast<const uint8_t*>(syn.stream.data()) + s, l);
  w.Finish();
  *frames = w.frames_written();
}

Synthetic MakeSynthetic() {
  Synthetic syn;
  uint64_t total = 0;
  for (uint32_t s : syn.sizes) total += s;
  for (uint64_t i = 0; i < total; ++i) syn.stream.push_back(static_cast<char>((i * 7) & 0xff));
  return syn;
}

TEST(PcapWriterTest, TsharkReadsTheSameHistogramWithValidChecksums) {
  if (!HaveTshark()) GTEST_SKIP() << "tshark not found on PATH: install the tshark package to run this test";
  for (bool timestamps : {true, false}) {
    SCOPED_TRACE(timestamps ? "timestamps" : "no timestamps");
    const Synthetic syn = MakeSynthetic();
    const std::string path = TempPath(timestamps ? "syn_ts.pcap" : "syn.pcap");
    uint64_t frames = 0;
    WriteSynthetic(syn, path, timestamps, &frames);

    const std::string out = RunCommand(
        "tshark -r " + path +
        " -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE -o tcp.relative_sequence_numbers:TRUE"
        " -T fields -E separator=, -e ip.src -e tcp.len -e tcp.checksum.status -e ip.checksum.status"
        " -e tcp.seq -e tcp.flags.syn 2>/dev/null");
    std::map<uint32_t, uint64_t> got, want;
    for (uint32_t s : syn.sizes) ++want[s];
    uint64_t lines = 0, acks = 0;
    uint32_t expect_seq = 1;  // relative: the SYN is 0
    for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
      ++lines;
      std::vector<std::string> f = absl::StrSplit(line, ',');
      ASSERT_GE(f.size(), 6u) << line;
      // Wireshark's checksum status: 0 bad, 1 good, 2 unverified.
      EXPECT_EQ(f[2], "1") << "tcp checksum: " << line;
      EXPECT_EQ(f[3], "1") << "ip checksum: " << line;
      if (f[5] == "1") continue;  // SYN / SYN-ACK
      uint32_t len = 0, seq = 0;
      ASSERT_TRUE(absl::SimpleAtoi(f[1], &len)) << line;
      if (f[0] == "10.0.0.1") {
        if (len > 0) {
          ++got[len];
          ASSERT_TRUE(absl::SimpleAtoi(f[4], &seq));
          EXPECT_EQ(seq, expect_seq) << line;
          expect_seq += len;
        }
      } else {
        ++acks;
      }
    }
    EXPECT_EQ(lines, frames);
    EXPECT_EQ(got, want);
    EXPECT_EQ(acks, 6u);  // one per two segments (12 segments)

    if (!timestamps) continue;  // one payload check is enough (tshark is slow to start)
    // Payload bytes are the delivered ones: packet 4 (the 21-byte one) holds
    // stream bytes [4096, 4117); first byte (4096 * 7) & 0xff = 0.
    const std::string payload = RunCommand("tshark -r " + path +
                                           " -Y 'tcp.len==21' -T fields -e tcp.payload 2>/dev/null");
    std::string want_hex;
    for (int i = 4096; i < 4117; ++i) {
      char b[3];
      std::snprintf(b, sizeof(b), "%02x", (i * 7) & 0xff);
      want_hex += b;
    }
    EXPECT_EQ(payload.substr(0, want_hex.size()), want_hex);
  }
}

// Without tshark the file structure is still checked: global header, record
// lengths that add up to the file size, IPv4 total length = frame - 14.
TEST(PcapWriterTest, RecordsAreConsistent) {
  const Synthetic syn = MakeSynthetic();
  const std::string path = TempPath("struct.pcap");
  uint64_t frames = 0;
  WriteSynthetic(syn, path, true, &frames);
  std::ifstream in(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(data.size(), 24u);
  auto le32 = [&](size_t at) {
    return static_cast<uint32_t>(static_cast<uint8_t>(data[at])) |
           static_cast<uint32_t>(static_cast<uint8_t>(data[at + 1])) << 8 |
           static_cast<uint32_t>(static_cast<uint8_t>(data[at + 2])) << 16 |
           static_cast<uint32_t>(static_cast<uint8_t>(data[at + 3])) << 24;
  };
  EXPECT_EQ(le32(0), 0xa1b23c4du);
  EXPECT_EQ(le32(20), 1u);  // LINKTYPE_ETHERNET
  size_t at = 24;
  uint64_t n = 0, data_frames = 0;
  while (at < data.size()) {
    ASSERT_LE(at + 16, data.size());
    const uint32_t incl = le32(at + 8);
    EXPECT_EQ(incl, le32(at + 12));
    const size_t frame = at + 16;
    ASSERT_LE(frame + incl, data.size());
    const uint32_t ip_total = static_cast<uint8_t>(data[frame + 16]) << 8 | static_cast<uint8_t>(data[frame + 17]);
    EXPECT_EQ(ip_total + 14, incl);
    const uint32_t tcp_hdr = (static_cast<uint8_t>(data[frame + 14 + 20 + 12]) >> 4) * 4;
    if (ip_total - 20 - tcp_hdr > 0 && data[frame + 14 + 12 + 3] == 1) ++data_frames;  // from 10.0.0.1
    at = frame + incl;
    ++n;
  }
  EXPECT_EQ(n, frames);
  EXPECT_EQ(data_frames, syn.sizes.size());
}

}  // namespace
}  // namespace sendsim::cli
