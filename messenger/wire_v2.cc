#include "messenger/wire_v2.h"

#include "messenger/crc32c.h"
#include "messenger/le.h"

namespace sendsim::messenger {

uint32_t PreambleCrc(const uint8_t* b) { return ceph_crc32c(0, b, kPreambleCrcOffset); }

std::array<uint8_t, kPreambleLen> EncodePreamble(Preamble p) {
  int n = 1;
  for (int i = 0; i < kFrameMaxSegments; ++i) {
    if (p.seg_len[i] > 0) n = i + 1;
  }
  p.num_segments = static_cast<uint8_t>(n);
  std::array<uint8_t, kPreambleLen> b{};
  b[0] = p.tag;
  b[1] = p.num_segments;
  for (int i = 0; i < kFrameMaxSegments; ++i) {
    PutLe32(&b[2 + 6 * i], p.seg_len[i]);
    PutLe16(&b[2 + 6 * i + 4], p.seg_align[i]);
  }
  b[26] = p.flags;
  b[27] = 0;
  PutLe32(&b[kPreambleCrcOffset], PreambleCrc(b.data()));
  return b;
}

Preamble DecodePreamble(const uint8_t* b) {
  Preamble p;
  p.tag = b[0];
  p.num_segments = b[1];
  for (int i = 0; i < kFrameMaxSegments; ++i) {
    p.seg_len[i] = GetLe32(b + 2 + 6 * i);
    p.seg_align[i] = GetLe16(b + 2 + 6 * i + 4);
  }
  p.flags = b[26];
  p.crc = GetLe32(b + kPreambleCrcOffset);
  return p;
}

std::array<uint8_t, kMsgHeader2Len> EncodeMsgHeader2(const CephMsgHeader& h, uint64_t ack_seq, uint8_t flags) {
  std::array<uint8_t, kMsgHeader2Len> b{};
  uint8_t* p = b.data();
  PutMsgHeaderCommon(p, h);
  PutLe32(p + 22, 0);  // data_pre_padding_len: 0 in plain mode
  PutLe16(p + 26, h.data_off);
  PutLe64(p + 28, ack_seq);
  p[36] = flags;
  PutLe16(p + 37, h.compat_version);
  PutLe16(p + 39, h.reserved);
  return b;
}

CephMsgHeader DecodeMsgHeader2(const uint8_t* p, uint64_t* ack_seq) {
  CephMsgHeader h;
  GetMsgHeaderCommon(p, &h);
  h.data_off = GetLe16(p + 26);
  if (ack_seq != nullptr) *ack_seq = GetLe64(p + 28);
  h.compat_version = GetLe16(p + 37);
  h.reserved = GetLe16(p + 39);
  return h;
}

std::array<uint8_t, kEpilogueCrcLen> EncodeEpiloguePlain(const EpiloguePlain& e) {
  std::array<uint8_t, kEpilogueCrcLen> b{};
  b[0] = e.late_status;
  PutLe32(&b[1], e.front_crc);
  PutLe32(&b[5], e.middle_crc);
  PutLe32(&b[9], e.data_crc);
  return b;
}

EpiloguePlain DecodeEpiloguePlain(const uint8_t* b) {
  EpiloguePlain e;
  e.late_status = b[0];
  e.front_crc = GetLe32(b + 1);
  e.middle_crc = GetLe32(b + 5);
  e.data_crc = GetLe32(b + 9);
  return e;
}

}  // namespace sendsim::messenger
