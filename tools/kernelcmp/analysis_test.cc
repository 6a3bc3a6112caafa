#include "tools/kernelcmp/analysis.h"

#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace sendsim::kernelcmp {
namespace {

constexpr uint32_t kMss = 1448;
const Flow kFlow{1, 40000, 2, 6800};

TcpSegment Seg(uint32_t seq, uint32_t len, uint8_t flags = 0x10) {
  TcpSegment s;
  s.src_ip = kFlow.src_ip;
  s.src_port = kFlow.src_port;
  s.dst_ip = kFlow.dst_ip;
  s.dst_port = kFlow.dst_port;
  s.seq = seq;
  s.flags = flags;
  s.payload_len = len;
  return s;
}

TEST(AnalyzeFlow, CountsPacketsSubMssAndSizes) {
  // ISN 100: stream byte 0 is sequence 101.
  std::vector<TcpSegment> segs = {Seg(100, 0, 0x02), Seg(101, 1448), Seg(1549, 1200),
                                  Seg(2749, 21, 0x18)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->packets, 3u);
  EXPECT_EQ(f->sub_mss_packets, 2u);  // 1200 and 21
  EXPECT_EQ(f->unique_payload_bytes, 1448u + 1200 + 21);
  EXPECT_EQ(f->retransmitted_packets, 0u);
  EXPECT_EQ(f->sizes, (SizeHistogram{{21, 1}, {1200, 1}, {1448, 1}}));
}

// The capture holds both directions; the reverse flow's pure ACKs are
// counted, its SYN-ACK and FIN are not, nor another connection's ACK.
TEST(AnalyzeFlow, CountsTheReceiversPureAcks) {
  auto Reverse = [](uint32_t ack, uint8_t flags) {
    TcpSegment s = Seg(0, 0, flags);
    std::swap(s.src_ip, s.dst_ip);
    std::swap(s.src_port, s.dst_port);
    s.ack = ack;
    return s;
  };
  TcpSegment other_conn = Reverse(1, 0x10);
  other_conn.dst_port = 40001;
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02),    Reverse(1, 0x12),         Seg(1, 1448),
                                  Reverse(1449, 0x10), Seg(1449, 1448),          Reverse(2897, 0x10),
                                  other_conn,          Reverse(2897, 0x11)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->acks, 2u);
  EXPECT_EQ(f->packets, 2u);
}

TEST(AnalyzeFlow, ThroughputSpansFirstToLastDataPacket) {
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02), Seg(1, 1000), Seg(1001, 1000)};
  segs[0].time_ns = 0;
  segs[1].time_ns = 5'000'000;  // the SYN's time does not count
  segs[2].time_ns = 7'000'000;
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  // 2000 bytes over 2 ms = 1e6 bytes/s.
  EXPECT_DOUBLE_EQ(f->BytesPerSecond(), 1e6);
}

TEST(AnalyzeFlow, IgnoresOtherFlowsAndPureAcks) {
  TcpSegment other = Seg(5000, 700);
  other.src_port = 1;
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02), other, Seg(1, 0), Seg(1, 100)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->packets, 1u);
  EXPECT_EQ(f->unique_payload_bytes, 100u);
}

TEST(AnalyzeFlow, RetransmissionsAreNotCountedTwice) {
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02), Seg(1, 1448), Seg(1449, 1448), Seg(1, 1448)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->packets, 2u);
  EXPECT_EQ(f->retransmitted_packets, 1u);
  EXPECT_EQ(f->unique_payload_bytes, 2896u);
}

TEST(AnalyzeFlow, SplitsTsoSkbsIntoMssSegments) {
  // 3000 = 2 x 1448 + 104: a TSO NIC emits 1448, 1448, 104 (tcp-send-path §7).
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02), Seg(1, 3000)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, true);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->packets, 3u);
  EXPECT_EQ(f->sub_mss_packets, 1u);
  EXPECT_EQ(f->oversized_skbs, 1u);
  EXPECT_EQ(f->sizes, (SizeHistogram{{104, 1}, {1448, 2}}));
}

TEST(AnalyzeFlow, OversizedPacketWithTsoOffIsAnError) {
  std::vector<TcpSegment> segs = {Seg(0, 0, 0x02), Seg(1, 3000)};
  EXPECT_FALSE(AnalyzeFlow(segs, kFlow, kMss, false).ok());
}

TEST(AnalyzeFlow, NeedsTheSyn) {
  EXPECT_FALSE(AnalyzeFlow({Seg(1, 100)}, kFlow, kMss, false).ok());
  EXPECT_FALSE(AnalyzeFlow({}, kFlow, kMss, false).ok());
}

TEST(AnalyzeFlow, UnwrapsSequenceNumbers) {
  // ISN near 2^32: the stream crosses the wrap; 3 x 1448 distinct bytes.
  const uint32_t isn = 0xffffff00;
  std::vector<TcpSegment> segs = {Seg(isn, 0, 0x02), Seg(isn + 1, 1448), Seg(isn + 1 + 1448, 1448),
                                  Seg(isn + 1 + 2896, 1448)};
  absl::StatusOr<RunFigures> f = AnalyzeFlow(segs, kFlow, kMss, false);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->unique_payload_bytes, 3u * 1448);
  EXPECT_EQ(f->retransmitted_packets, 0u);
}

TEST(ParseTcpdumpStats, ReadsTheThreeCounters) {
  absl::StatusOr<CaptureStats> s = ParseTcpdumpStats(
      "tcpdump: listening on kc-s, link-type EN10MB (Ethernet), snapshot length 128 bytes\n"
      "18600 packets captured\n18601 packets received by filter\n2 packets dropped by kernel\n");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->captured, 18600u);
  EXPECT_EQ(s->received_by_filter, 18601u);
  EXPECT_EQ(s->dropped_by_kernel, 2u);
  EXPECT_EQ(s->dropped_by_interface, 0u);
}

TEST(ParseTcpdumpStats, MissingCountersAreAnError) {
  EXPECT_FALSE(ParseTcpdumpStats("tcpdump: listening on kc-s\n5 packets captured\n").ok());
}

}  // namespace
}  // namespace sendsim::kernelcmp
