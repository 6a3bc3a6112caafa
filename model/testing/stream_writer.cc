#include "model/testing/stream_writer.h"

#include "model/constants.h"

namespace sendsim::model::testing {

StreamWriter::StreamWriter(EventLoop* loop, Socket* sock, MessageShape shape, uint64_t messages, TimeNs gap_ns)
    : loop_(loop), sock_(sock), shape_(shape), messages_(messages), gap_ns_(gap_ns) {
  sock_->set_write_space_callback([this] { OnWriteSpace(); });
  if (shape_.prefix == 0) piece_ = 1;
}

void StreamWriter::Start() { loop_->ScheduleAfter(0, [this] { Step(); }); }

uint32_t StreamWriter::PieceLen(uint32_t piece) const {
  if (piece == 0) return shape_.prefix;
  if (piece <= shape_.pages) return kPageSize;
  return shape_.footer;
}

void StreamWriter::OnWriteSpace() {
  if (in_call_) {
    space_during_call_ = true;
    return;
  }
  if (waiting_) {
    waiting_ = false;
    loop_->ScheduleAfter(0, [this] { Step(); });
  }
}

void StreamWriter::Step() {
  if (done()) return;
  const uint32_t len = PieceLen(piece_) - offset_;
  const bool last_piece = piece_ == shape_.pages + 1 || (piece_ == shape_.pages && shape_.footer == 0);
  int flags = kMsgDontwait;
  int64_t r;
  in_call_ = true;
  space_during_call_ = false;
  ++calls_;
  if (piece_ == 0 || piece_ > shape_.pages) {
    // Payload bytes are not tracked in these runs: zeros.
    const Iovec iov{zeros_.data(), len};
    flags |= piece_ == 0 ? kMsgMore : kMsgEor;
    r = sock_->sendmsg(absl::Span<const Iovec>(&iov, 1), flags);
  } else {
    if (!last_piece) flags |= kMsgMore | (shape_.notlast ? kMsgSendpageNotlast : 0);
    Page page;
    page.id = (msg_ << 8) + piece_ + 1;
    r = sock_->sendpage(page, offset_, len, flags);
  }
  in_call_ = false;
  if (r > 0) {
    bytes_ += static_cast<uint64_t>(r);
    offset_ += static_cast<uint32_t>(r);
    if (offset_ == PieceLen(piece_)) {
      offset_ = 0;
      ++piece_;
      if (piece_ > shape_.pages + (shape_.footer > 0 ? 1 : 0)) {
        piece_ = shape_.prefix > 0 ? 0 : 1;
        ++msg_;
      }
      if (done()) return;
      loop_->ScheduleAfter(gap_ns_, [this] { Step(); });
      return;
    }
  }
  // Short count or -EAGAIN: wait for write space (or retry at once when it
  // was signalled during the call).
  if (space_during_call_) {
    loop_->ScheduleAfter(gap_ns_, [this] { Step(); });
  } else {
    waiting_ = true;
  }
}

}  // namespace sendsim::model::testing
