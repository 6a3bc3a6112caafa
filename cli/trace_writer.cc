#include "cli/trace_writer.h"

#include "absl/strings/str_format.h"
#include "cli/run_result.h"
#include "messenger/call_tag.h"

namespace sendsim::cli {

std::string TcpFlagsString(uint8_t flags) {
  std::string s;
  if (flags & model::kTcpSyn) s += 'S';
  if (flags & model::kTcpFin) s += 'F';
  if (flags & model::kTcpRst) s += 'R';
  if (flags & model::kTcpPsh) s += 'P';
  if (flags & model::kTcpAck) s += '.';
  return s;
}

TraceWriter::TraceWriter(std::ostream* out) : out_(out) {
  *out_ << "time_ns,direction,seq,ack,len,flags,win,reason,message,part,piece\n";
}

void TraceWriter::OnWirePacket(const model::WirePacket& pkt) {
  const bool data = pkt.dir == model::Direction::kData;
  std::string message, part, piece;
  if (data && pkt.len > 0) {
    const messenger::CallTag tag = messenger::DecodeCallTag(pkt.tag);
    if (tag.msg_index != messenger::kNoMessage) message = absl::StrFormat("%d", tag.msg_index);
    part = std::string(messenger::CallPartName(tag.part));
    piece = absl::StrFormat("%d", tag.piece);
  }
  *out_ << absl::StrFormat("%d,%s,%u,%u,%u,%s,%u,%s,%s,%s,%s\n", pkt.time, data ? "data" : "ack", pkt.seq, pkt.ack,
                           pkt.len, TcpFlagsString(pkt.flags), pkt.win, ReasonLabel(pkt.reason), message, part, piece);
}

}  // namespace sendsim::cli
