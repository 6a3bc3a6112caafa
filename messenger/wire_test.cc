#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "messenger/crc32c.h"
#include "messenger/le.h"
#include "messenger/wire_v1.h"
#include "messenger/wire_v2.h"

namespace sendsim::messenger {
namespace {

// Sizes from docs/libceph-write-path.md §1.2-1.4 and §12.2.
TEST(WireV1Test, StructSizes) {
  EXPECT_EQ(EncodeMsgHeader(CephMsgHeader{}).size(), 53u);
  // 8+8+2+2+2+4+4+4+2+9+2+2 = 49 bytes precede the crc.
  EXPECT_EQ(kMsgHeaderCrcOffset, 49u);
  uint8_t buf[32] = {};
  EXPECT_EQ(EncodeMsgFooter(CephMsgFooter{}, false, buf), 21u);  // 3 crcs + sig + flags
  EXPECT_EQ(EncodeMsgFooter(CephMsgFooter{}, true, buf), 13u);   // 3 crcs + flags
  EXPECT_EQ(1 + kAckSeqLen, 9u);
  EXPECT_EQ(1 + kTimespecLen, 9u);
  EXPECT_EQ(kTagMsg, 7);
  EXPECT_EQ(kTagAck, 8);
  EXPECT_EQ(kTagKeepalive2, 14);
}

TEST(WireV1Test, HeaderLayoutIsPackedLittleEndian) {
  CephMsgHeader h;
  h.seq = 0x0102030405060708ull;
  h.front_len = 277;
  h.data_len = 131072;
  h.src_type = 8;
  h.src_num = 4100;
  h.crc = 0xAABBCCDD;
  const auto b = EncodeMsgHeader(h);
  EXPECT_EQ(b[0], 0x08);  // le64 seq, low byte first
  EXPECT_EQ(b[7], 0x01);
  EXPECT_EQ(GetLe32(&b[22]), 277u);     // front_len after seq, tid, type, priority, version
  EXPECT_EQ(GetLe32(&b[30]), 131072u);  // data_len
  EXPECT_EQ(b[36], 8);                  // src.type
  EXPECT_EQ(GetLe64(&b[37]), 4100u);    // src.num
  EXPECT_EQ(GetLe32(&b[49]), 0xAABBCCDDu);
  const CephMsgHeader d = DecodeMsgHeader(b.data());
  EXPECT_EQ(d.seq, h.seq);
  EXPECT_EQ(d.src_num, 4100u);
  EXPECT_EQ(MsgHeaderCrc(h), ceph_crc32c(0, b.data(), 49));
}

TEST(WireV1Test, FooterFlagsAreTheLastByte) {
  CephMsgFooter f;
  f.front_crc = 1;
  f.data_crc = 3;
  f.flags = kFooterComplete;
  uint8_t b[21];
  EncodeMsgFooter(f, false, b);
  EXPECT_EQ(GetLe32(b + 8), 3u);
  EXPECT_EQ(b[20], kFooterComplete);
  EncodeMsgFooter(f, true, b);
  EXPECT_EQ(b[12], kFooterComplete);
}

TEST(WireV2Test, FrameSizes) {
  EXPECT_EQ(kPreambleLen, 32u);
  EXPECT_EQ(EncodeMsgHeader2(CephMsgHeader{}, 0, 0).size(), 41u);
  EXPECT_EQ(kPlainHeadLen, 77u);  // docs/libceph-write-path.md §12.2: 32 + 41 + 4
  EXPECT_EQ(EncodeEpiloguePlain(EpiloguePlain{}).size(), 13u);
}

TEST(WireV2Test, PreambleCountsSegmentsAndCarriesCrc) {
  Preamble p;
  p.tag = kFrameTagMessage;
  p.seg_len = {41, 277, 0, 4096};
  const auto b = EncodePreamble(p);
  EXPECT_EQ(b[0], 17);
  EXPECT_EQ(b[1], 4);  // last non-empty segment is the 4th
  EXPECT_EQ(GetLe32(&b[2 + 6 * 1]), 277u);
  EXPECT_EQ(GetLe32(&b[28]), ceph_crc32c(0, b.data(), 28));
  p.seg_len = {41, 0, 0, 0};
  EXPECT_EQ(EncodePreamble(p)[1], 1);
  const Preamble d = DecodePreamble(b.data());
  EXPECT_EQ(d.seg_len[3], 4096u);
  EXPECT_EQ(d.crc, PreambleCrc(b.data()));
}

TEST(WireV2Test, Header2CarriesAckSeq) {
  CephMsgHeader h;
  h.seq = 5;
  h.tid = 6;
  h.data_off = 512;
  const auto b = EncodeMsgHeader2(h, 77, 0);
  uint64_t ack = 0;
  const CephMsgHeader d = DecodeMsgHeader2(b.data(), &ack);
  EXPECT_EQ(ack, 77u);
  EXPECT_EQ(d.seq, 5u);
  EXPECT_EQ(d.tid, 6u);
  EXPECT_EQ(d.data_off, 512u);
  EXPECT_EQ(GetLe64(&b[28]), 77u);
}

}  // namespace
}  // namespace sendsim::messenger
