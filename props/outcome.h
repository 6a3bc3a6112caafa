#ifndef SENDSIM_PROPS_OUTCOME_H_
#define SENDSIM_PROPS_OUTCOME_H_

// What one run of a Case produced, reduced to what the properties look at.
// Derived figures (sub-MSS count, flush runs) are computed here from the
// packet list, so that they can be tested on hand-built outcomes.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace sendsim::props {

inline constexpr uint8_t kPsh = 0x08;  // TCP PSH flag bit on the wire

// One data-direction packet carrying payload, in wire order.
struct PacketRecord {
  int64_t time = 0;
  uint32_t seq = 0;
  uint32_t len = 0;
  uint8_t flags = 0;
  uint8_t reason = 0;  // model::PushReason
  bool retransmit = false;
};

struct Outcome {
  uint32_t mss = 0;
  std::vector<PacketRecord> packets;
  // Stream offset just past each message's last byte, in order (v1: end of
  // the footer or of the zero fill that replaced it); from the decoder, so
  // RunDepth::kFull only.
  std::vector<uint64_t> message_ends;
  uint64_t bytes_written = 0;    // accepted by the socket
  uint64_t bytes_delivered = 0;  // in order at the peer
  // Decoder verdict over the delivered stream (RunDepth::kFull only).
  bool stream_checked = false;
  bool decoder_ok = false;
  std::string decoder_error;
  uint32_t messages_expected = 0;
  uint32_t messages_decoded = 0;
  // Completion: every message written and every byte acknowledged.
  bool completed = false;
  int64_t completion_ns = -1;
  int64_t horizon_ns = 0;
  std::string stall_info;  // why not completed (empty when completed)
  // Data packets released only by the probe0 timer (tcp_write_wakeup): data
  // nobody pushed, sent >= 200 ms later.
  uint64_t probe0_packets = 0;
  // True when an ACK, TX completion or timer ran between the first and the
  // last socket call of some message (the opposite of "quiescent").
  bool async_during_write = false;
  uint64_t trace_hash = 0;
  absl::Status invariants;
  // Counter snapshot for explanations (autocorks, TSO deferrals, ...).
  std::map<std::string, uint64_t> counters;
};

// A maximal byte range the sender flushed as one unit: runs end at a PSH
// segment (pushed_seq: tcp_push without MSG_MORE, forced push, 17-frag limit)
// and at message ends (the footer's MSG_EOR starts a new skb chain).
struct FlushRun {
  uint64_t begin = 0;  // stream offset
  uint64_t bytes = 0;
  uint32_t segments = 0;
  uint32_t sub_mss = 0;
};

uint64_t DataPackets(const Outcome& o);  // first transmissions with payload
uint64_t SubMss(const Outcome& o);       // first transmissions with 0 < len < mss
std::map<uint32_t, uint64_t> RuntSizes(const Outcome& o);
std::vector<FlushRun> FlushRuns(const Outcome& o);
// One line: packets, sub-MSS, runt sizes, decoder, completion, hash.
std::string Summarize(const Outcome& o);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_OUTCOME_H_
