#ifndef SENDSIM_MESSENGER_WIRE_V1_H_
#define SENDSIM_MESSENGER_WIRE_V1_H_

// msgr v1 wire structs (include/linux/ceph/msgr.h), encoded field by field
// into their packed little-endian layout.

#include <array>
#include <cstddef>
#include <cstdint>

namespace sendsim::messenger {

// Tags (CEPH_MSGR_TAG_*).
inline constexpr uint8_t kTagMsg = 7;
inline constexpr uint8_t kTagAck = 8;
inline constexpr uint8_t kTagKeepalive = 9;
inline constexpr uint8_t kTagKeepalive2 = 14;
inline constexpr uint8_t kTagKeepalive2Ack = 15;

inline constexpr size_t kMsgHeaderLen = 53;        // sizeof(struct ceph_msg_header), packed
inline constexpr size_t kMsgHeaderCrcOffset = 49;  // offsetof(struct ceph_msg_header, crc)
inline constexpr size_t kMsgFooterLen = 21;        // sizeof(struct ceph_msg_footer)
inline constexpr size_t kMsgFooterOldLen = 13;     // sizeof(struct ceph_msg_footer_old)
inline constexpr size_t kAckSeqLen = 8;            // le64 after CEPH_MSGR_TAG_ACK
inline constexpr size_t kTimespecLen = 8;          // struct ceph_timespec (le32 sec, le32 nsec)

// Footer flags (CEPH_MSG_FOOTER_*).
inline constexpr uint8_t kFooterComplete = 1;
inline constexpr uint8_t kFooterNocrc = 2;
inline constexpr uint8_t kFooterSigned = 4;

// struct ceph_msg_header. `ack_seq` and `flags` exist only in msgr2's
// ceph_msg_header2; they are kept here so that one header serves both.
struct CephMsgHeader {
  uint64_t seq = 0;
  uint64_t tid = 0;
  uint16_t type = 0;
  uint16_t priority = 0;
  uint16_t version = 0;
  uint32_t front_len = 0;
  uint32_t middle_len = 0;
  uint32_t data_len = 0;
  uint16_t data_off = 0;
  uint8_t src_type = 0;   // struct ceph_entity_name
  uint64_t src_num = 0;
  uint16_t compat_version = 0;
  uint16_t reserved = 0;
  uint32_t crc = 0;       // crc32c(0, first 49 bytes)
};

// struct ceph_msg_footer (or, with `old`, ceph_msg_footer_old without sig).
struct CephMsgFooter {
  uint32_t front_crc = 0;
  uint32_t middle_crc = 0;
  uint32_t data_crc = 0;
  uint64_t sig = 0;
  uint8_t flags = 0;
};

std::array<uint8_t, kMsgHeaderLen> EncodeMsgHeader(const CephMsgHeader& h);

// seq, tid, type, priority, version: the first 22 bytes of ceph_msg_header,
// laid out the same in msgr2's ceph_msg_header2.
void PutMsgHeaderCommon(uint8_t* p, const CephMsgHeader& h);
void GetMsgHeaderCommon(const uint8_t* p, CephMsgHeader* h);
CephMsgHeader DecodeMsgHeader(const uint8_t* p);
// crc32c(0, ...) over the 49 bytes before the crc field (prepare_write_message).
uint32_t MsgHeaderCrc(const CephMsgHeader& h);

// Writes sizeof_footer() bytes: 21, or 13 when `old` (peer lacks MSG_AUTH).
size_t EncodeMsgFooter(const CephMsgFooter& f, bool old, uint8_t* out);
CephMsgFooter DecodeMsgFooter(const uint8_t* p, bool old);
inline size_t SizeofFooter(bool old) { return old ? kMsgFooterOldLen : kMsgFooterLen; }

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_WIRE_V1_H_
