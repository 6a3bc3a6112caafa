#ifndef SENDSIM_CLI_TRACE_WRITER_H_
#define SENDSIM_CLI_TRACE_WRITER_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "model/observer.h"

namespace sendsim::cli {

// TCP flag letters in tcpdump order ("S", "F", "R", "P", "." for ACK).
std::string TcpFlagsString(uint8_t flags);

// --trace: one CSV row per wire packet, both directions:
//   time_ns,direction,seq,ack,len,flags,win,reason,message,part,piece
// direction is "data" (sender->peer) or "ack"; message/part/piece decode
// the messenger's call tag (messenger/call_tag.h) of the call that queued
// the packet's last byte: message index (empty for standalone acks and
// keepalives), part (prefix, data, footer, ack, keepalive, skip) and data
// piece number. All three are empty for packets without payload.
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
