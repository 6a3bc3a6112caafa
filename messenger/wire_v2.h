#ifndef SENDSIM_MESSENGER_WIRE_V2_H_
#define SENDSIM_MESSENGER_WIRE_V2_H_

// msgr2 (protocol revision 2.1) frame pieces in plain "crc" mode
// (net/ceph/messenger_v2.c, include/linux/ceph/msgr.h).
//
//   preamble (32) | segment 1 + its crc32c (inline) | segments 2..4 | epilogue (13)
//
// The epilogue (late status + crcs of segments 2..4) is present only when the
// frame has more than one segment.

#include <array>
#include <cstddef>
#include <cstdint>

#include "messenger/wire_v1.h"

namespace sendsim::messenger {

// FRAME_TAG_* / CEPH_MSGR2_TAG_* values used on an open session.
inline constexpr uint8_t kFrameTagMessage = 17;
inline constexpr uint8_t kFrameTagKeepalive2 = 18;
inline constexpr uint8_t kFrameTagKeepalive2Ack = 19;
inline constexpr uint8_t kFrameTagAck = 20;

inline constexpr size_t kPreambleLen = 32;        // CEPH_PREAMBLE_LEN
inline constexpr size_t kPreambleCrcOffset = 28;  // crc covers the first 28 bytes
inline constexpr int kFrameMaxSegments = 4;       // CEPH_FRAME_MAX_SEGMENT_COUNT
inline constexpr size_t kCrcLen = 4;              // CEPH_CRC_LEN (inline crc after segment 1)
inline constexpr size_t kMsgHeader2Len = 41;      // sizeof(struct ceph_msg_header2), packed
inline constexpr size_t kEpilogueCrcLen = 13;     // CEPH_EPILOGUE_PLAIN_LEN: late status + 3 crcs
inline constexpr size_t kPlainHeadLen = kPreambleLen + kMsgHeader2Len + kCrcLen;  // 77

// FRAME_LATE_STATUS_*.
inline constexpr uint8_t kLateStatusAborted = 0x1;
inline constexpr uint8_t kLateStatusComplete = 0xe;
inline constexpr uint8_t kLateStatusAbortedMask = 0xf;

// Segment alignments announced in the preamble. UNVERIFIED against the
// kernel source: 8 for control/front/middle, PAGE_SIZE for data. They do not
// change the byte count (plain mode has no padding).
inline constexpr uint16_t kSegAlign = 8;
inline constexpr uint16_t kDataSegAlign = 4096;

struct Preamble {
  uint8_t tag = 0;
  uint8_t num_segments = 0;
  std::array<uint32_t, kFrameMaxSegments> seg_len{};
  std::array<uint16_t, kFrameMaxSegments> seg_align{};
  uint8_t flags = 0;
  uint32_t crc = 0;
};

// Fills num_segments (index of the last non-empty segment + 1, at least 1) and
// the crc (crc32c(0, first 28 bytes)).
std::array<uint8_t, kPreambleLen> EncodePreamble(Preamble p);
Preamble DecodePreamble(const uint8_t* b);
uint32_t PreambleCrc(const uint8_t* b);

// struct ceph_msg_header2.
std::array<uint8_t, kMsgHeader2Len> EncodeMsgHeader2(const CephMsgHeader& h, uint64_t ack_seq, uint8_t flags);
CephMsgHeader DecodeMsgHeader2(const uint8_t* b, uint64_t* ack_seq);

struct EpiloguePlain {
  uint8_t late_status = kLateStatusComplete;
  uint32_t front_crc = 0;
  uint32_t middle_crc = 0;
  uint32_t data_crc = 0;
};
std::array<uint8_t, kEpilogueCrcLen> EncodeEpiloguePlain(const EpiloguePlain& e);
EpiloguePlain DecodeEpiloguePlain(const uint8_t* b);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_WIRE_V2_H_
