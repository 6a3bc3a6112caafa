#ifndef SENDSIM_MESSENGER_CALL_TAG_H_
#define SENDSIM_MESSENGER_CALL_TAG_H_

// Tags given to model::Socket::set_call_tag before each call, so that wire
// packets can be traced back to (message, part, piece). Not a kernel concept.
//
//   bits 63..24  message index (kNoMessage for standalone acks/keepalives)
//   bits 23..20  CallPart
//   bits 19..0   data piece number within the message (0 for other parts)

#include <cstdint>

#include "messenger/writer_policy.h"

namespace sendsim::messenger {

inline constexpr uint64_t kNoMessage = (uint64_t{1} << 40) - 1;

inline uint64_t MakeCallTag(uint64_t msg_index, CallPart part, uint32_t piece) {
  return ((msg_index & kNoMessage) << 24) | (uint64_t{static_cast<uint8_t>(part)} << 20) | (piece & 0xFFFFF);
}

struct CallTag {
  uint64_t msg_index = 0;
  CallPart part = CallPart::kPrefix;
  uint32_t piece = 0;
};

inline CallTag DecodeCallTag(uint64_t tag) {
  return CallTag{tag >> 24, static_cast<CallPart>((tag >> 20) & 0xF), static_cast<uint32_t>(tag & 0xFFFFF)};
}

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_CALL_TAG_H_
