#ifndef SENDSIM_CLI_TRACE_WRITER_H_
#define SENDSIM_CLI_TRACE_WRITER_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "model/observer.h"

namespace sendsim::cli {

// Call tags (Socket::set_call_tag) carry the message index and the data
// piece index: tag = (message << 20) | piece; piece kKvecPiece marks the
// kvec parts (ack, tag, header, front, footer).
inline constexpr uint64_t kPieceBits = 20;
inline constexpr uint64_t kKvecPiece = (uint64_t{1} << kPieceBits) - 1;
inline constexpr uint64_t MakeCallTag(uint64_t message, uint64_t piece) { return (message << kPieceBits) | piece; }
inline constexpr uint64_t TagMessage(uint64_t tag) { return tag >> kPieceBits; }
inline constexpr uint64_t TagPiece(uint64_t tag) { return tag & kKvecPiece; }

// TCP flag letters in tcpdump order ("S", "F", "R", "P", "." for ACK).
std::string TcpFlagsString(uint8_t flags);

// --trace: one CSV row per wire packet, both directions:
//   time_ns,direction,seq,ack,len,flags,win,reason,message,piece
// direction is "data" (sender->peer) or "ack"; message/piece come from the
// tag of the call that queued the packet's last byte (empty for packets
// without payload; piece "kvec" for header/front/footer writes).
class TraceWriter : public model::Observer {
 public:
  // `out` must outlive the writer; the header row is written at once.
  explicit TraceWriter(std::ostream* out);
  void OnWirePacket(const model::WirePacket& pkt) override;

 private:
  std::ostream* out_;
};

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_TRACE_WRITER_H_
