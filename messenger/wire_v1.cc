#include "messenger/wire_v1.h"

#include "messenger/crc32c.h"
#include "messenger/le.h"

namespace sendsim::messenger {

void PutMsgHeaderCommon(uint8_t* p, const CephMsgHeader& h) {
  PutLe64(p + 0, h.seq);
  PutLe64(p + 8, h.tid);
  PutLe16(p + 16, h.type);
  PutLe16(p + 18, h.priority);
  PutLe16(p + 20, h.version);
}

void GetMsgHeaderCommon(const uint8_t* p, CephMsgHeader* h) {
  h->seq = GetLe64(p + 0);
  h->tid = GetLe64(p + 8);
  h->type = GetLe16(p + 16);
  h->priority = GetLe16(p + 18);
  h->version = GetLe16(p + 20);
}

std::array<uint8_t, kMsgHeaderLen> EncodeMsgHeader(const CephMsgHeader& h) {
  std::array<uint8_t, kMsgHeaderLen> b{};
  uint8_t* p = b.data();
  PutMsgHeaderCommon(p, h);
  PutLe32(p + 22, h.front_len);
  PutLe32(p + 26, h.middle_len);
  PutLe32(p + 30, h.data_len);
  PutLe16(p + 34, h.data_off);
  p[36] = h.src_type;
  PutLe64(p + 37, h.src_num);
  PutLe16(p + 45, h.compat_version);
  PutLe16(p + 47, h.reserved);
  PutLe32(p + 49, h.crc);
  return b;
}

CephMsgHeader DecodeMsgHeader(const uint8_t* p) {
  CephMsgHeader h;
  GetMsgHeaderCommon(p, &h);
  h.front_len = GetLe32(p + 22);
  h.middle_len = GetLe32(p + 26);
  h.data_len = GetLe32(p + 30);
  h.data_off = GetLe16(p + 34);
  h.src_type = p[36];
  h.src_num = GetLe64(p + 37);
  h.compat_version = GetLe16(p + 45);
  h.reserved = GetLe16(p + 47);
  h.crc = GetLe32(p + 49);
  return h;
}

uint32_t MsgHeaderCrc(const CephMsgHeader& h) {
  const auto b = EncodeMsgHeader(h);
  return ceph_crc32c(0, b.data(), kMsgHeaderCrcOffset);
}

size_t EncodeMsgFooter(const CephMsgFooter& f, bool old, uint8_t* out) {
  PutLe32(out + 0, f.front_crc);
  PutLe32(out + 4, f.middle_crc);
  PutLe32(out + 8, f.data_crc);
  if (old) {
    out[12] = f.flags;
    return kMsgFooterOldLen;
  }
  PutLe64(out + 12, f.sig);
  out[20] = f.flags;
  return kMsgFooterLen;
}

CephMsgFooter DecodeMsgFooter(const uint8_t* p, bool old) {
  CephMsgFooter f;
  f.front_crc = GetLe32(p + 0);
  f.middle_crc = GetLe32(p + 4);
  f.data_crc = GetLe32(p + 8);
  if (old) {
    f.flags = p[12];
  } else {
    f.sig = GetLe64(p + 12);
    f.flags = p[20];
  }
  return f;
}

}  // namespace sendsim::messenger
