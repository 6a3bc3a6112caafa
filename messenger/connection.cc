#include "messenger/connection.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"
#include "messenger/crc32c.h"
#include "messenger/le.h"
#include "model/constants.h"

namespace sendsim::messenger {
namespace {

using model::TimeNs;

// libceph keeps the tag bytes in static variables and points kvecs at them.
constexpr uint8_t kTagMsgByte[1] = {kTagMsg};
constexpr uint8_t kTagAckByte[1] = {kTagAck};
constexpr uint8_t kTagKeepalive2Byte[1] = {kTagKeepalive2};

// The kernel's zero page, used by write_partial_skip. Id chosen outside the
// workload's page id range.
constexpr uint8_t kZeroPageData[model::kPageSize] = {};
constexpr uint64_t kZeroPageId = ~uint64_t{0};

constexpr int kBaseFlags = model::kMsgDontwait | model::kMsgNosignal;  // every libceph call

}  // namespace

CephConnection::CephConnection(model::EventLoop* loop, model::Socket* socket, ConnectionOptions options,
                               ConnectionListener* listener)
    : loop_(loop), sock_(socket), options_(std::move(options)), listener_(listener) {
  // set_sock_callbacks: sk_write_space -> ceph_sock_write_space.
  sock_->set_write_space_callback([this] { ceph_sock_write_space(); });
  if (options_.policy.kind == WriterKind::kHook && !options_.policy.hook) {
    error_ = absl::InvalidArgumentError("hook writer without a flag function");
  }
}

// ---------------------------------------------------------------------------
// Submission and scheduling

void CephConnection::ceph_con_send(CephMsgRef msg) {
  msg->hdr.src_type = options_.src_type;
  msg->hdr.src_num = options_.src_num;
  msg->needs_out_seq = true;
  out_queue_.push_back(std::move(msg));
  // Outside con->mutex: queue the work only if WRITE_PENDING was clear, so a
  // run that is blocked on a full socket is not woken by new messages.
  if (!write_pending_) {
    write_pending_ = true;
    queue_con();
  }
}

void CephConnection::ceph_con_keepalive() {
  const bool was_pending = keepalive_pending_;
  keepalive_pending_ = true;
  if (!was_pending && !write_pending_) {
    write_pending_ = true;
    queue_con();
  }
}

void CephConnection::OnIncomingMessages(uint64_t n) {
  pending_in_ += n;
  queue_con();  // ceph_sock_data_ready
}

void CephConnection::OnPeerAck(uint64_t seq) {
  // process_ack: drop acknowledged messages from out_sent.
  while (!out_sent_.empty() && out_sent_.front()->hdr.seq <= seq) out_sent_.pop_front();
}

void CephConnection::queue_con() {
  // queue_delayed_work(ceph_msgr_wq, &con->work, 0): a no-op while pending;
  // a work item queued while it runs runs again after the current run.
  if (work_queued_) return;
  work_queued_ = true;
  if (!running_) loop_->ScheduleAfter(options_.costs.worker_wakeup_ns, [this] { StartRun(); });
}

void CephConnection::ceph_sock_write_space() {
  // The model calls this only when sk_stream_is_writeable() holds; libceph
  // then queues the work only if it has something to write.
  if (write_pending_) queue_con();
}

void CephConnection::StartRun() {
  work_queued_ = false;
  if (!error_.ok()) return;
  running_ = true;
  ++worker_runs_;
  try_read();
  phase_ = Phase::kBegin;
  Step();
}

void CephConnection::try_read() {
  // Replies from the peer are read here, under con->mutex, so in_seq only
  // moves at the start of a worker run.
  in_seq_ += pending_in_;
  pending_in_ = 0;
}

void CephConnection::Step() {
  while (true) {
    if (sock_->owned()) {
      // lock_sock would sleep until release_sock; poll at the call cost.
      loop_->ScheduleAfter(std::max<TimeNs>(1, options_.costs.call_cost_ns), [this] { Step(); });
      return;
    }
    if (RunUnit() == Unit::kEnd) {
      // The kworker finishes the CPU work of its last call before the run
      // ends (and before a re-queued run can start).
      const TimeNs d = pending_cpu_;
      pending_cpu_ = 0;
      if (d > 0) {
        model::AfterCpu(loop_, sock_, d, [this] { EndRun(); });
      } else {
        EndRun();
      }
      return;
    }
    if (pending_cpu_ > 0) {
      const TimeNs d = pending_cpu_;
      pending_cpu_ = 0;
      model::AfterCpu(loop_, sock_, d, [this] { Step(); });
      return;
    }
  }
}

void CephConnection::EndRun() {
  running_ = false;
  if (work_queued_) loop_->ScheduleAfter(options_.costs.worker_wakeup_ns, [this] { StartRun(); });
}

CephConnection::Unit CephConnection::RunUnit() {
  switch (phase_) {
    case Phase::kBegin:
      phase_ = Phase::kWriting;
      if (options_.policy.v2()) {
        // ceph_con_v2_try_write: with nothing to send (populate_out_iter
        // finds nothing) it returns without touching the cork; otherwise
        // tcp_sock_set_cork(sk, true) before the send loop. (Order of the
        // first populate vs. the cork as remembered, UNVERIFIED.)
        const bool has_work = out_kvec_left_ > 0 || out_msg_ != nullptr || keepalive_pending_ ||
                              !out_queue_.empty() || in_seq_ > in_seq_acked_;
        if (!has_work) {
          write_pending_ = false;
          phase_ = Phase::kDone;
          return Unit::kEnd;
        }
        DoSetCork(true);
        return Unit::kContinue;
      }
      [[fallthrough]];
    case Phase::kWriting:
      if (TryWriteOne() == Unit::kContinue) return Unit::kContinue;
      phase_ = Phase::kEnding;
      [[fallthrough]];
    case Phase::kEnding:
      phase_ = Phase::kDone;
      if (options_.policy.v2() && error_.ok()) {
        DoSetCork(false);  // ... and uncork after it, whatever ended the loop
        return Unit::kContinue;
      }
      if (corked_ && options_.policy.cork == CorkMode::kBatch && error_.ok()) {
        // v1-cork-batch, as messenger_v2: a run that ends (socket full, or
        // nothing left) uncorks. Held across a blocked write, the cork keeps
        // a sub-MSS tail with nothing in flight to clock it out, until the
        // probe0 timer (what v1-cork does: liveness_no_probe0 fixtures).
        corked_ = false;
        DoSetCork(false);
        return Unit::kContinue;
      }
      return Unit::kEnd;
    case Phase::kDone:
      return Unit::kEnd;
  }
  return Unit::kEnd;
}

// try_write (v4.19; v6.8 ceph_con_v1_try_write is the same), from label MORE,
// up to one socket call or one prepare_* step.
CephConnection::Unit CephConnection::TryWriteOne() {
  if (!error_.ok()) return Unit::kEnd;
  if (need_cork_) {
    // v1-cork: TCP_CORK before the message's first byte.
    need_cork_ = false;
    corked_ = true;
    DoSetCork(true);
    return Unit::kContinue;
  }
  if (out_kvec_left_ > 0) {
    const int r = write_partial_kvec();
    return r == kCalled ? Unit::kContinue : Unit::kEnd;
  }
  if (out_skip_ > 0) {
    const int r = write_partial_skip();
    return r == kCalled ? Unit::kContinue : Unit::kEnd;
  }
  if (out_msg_) {
    if (out_msg_done_) {
      out_msg_.reset();  // ceph_msg_put; goto do_next
    } else {
      const int r = write_partial_message_data();
      if (r == kCalled || r == 1) return Unit::kContinue;  // 1: footer queued, goto more
      return Unit::kEnd;                                     // 0: socket full; <0: error
    }
  }
  // do_next:
  if (corked_ && (options_.policy.cork != CorkMode::kBatch || !out_more_ || out_queue_.empty())) {
    // v1-cork: clear TCP_CORK once the footer (or the revoke's zero fill) is
    // out; v1-cork-batch only once the footer went without MORE or nothing
    // else is queued (tcp_sock_set_cork(sk, false) pushes what it held).
    corked_ = false;
    DoSetCork(false);
    return Unit::kContinue;
  }
  const bool v2 = options_.policy.v2();
  if (keepalive_pending_) {
    keepalive_pending_ = false;
    v2 ? prepare_keepalive2_v2() : prepare_write_keepalive();
    return Unit::kContinue;
  }
  if (!out_queue_.empty()) {
    v2 ? prepare_message_v2() : prepare_write_message();
    return Unit::kContinue;
  }
  if (in_seq_ > in_seq_acked_) {
    v2 ? prepare_ack_v2() : prepare_write_ack();
    return Unit::kContinue;
  }
  write_pending_ = false;
  return Unit::kEnd;
}

// ---------------------------------------------------------------------------
// Socket calls

int CephConnection::Flags(const CallContext& ctx) const { return PolicyFlags(options_.policy, ctx); }

int64_t CephConnection::Finish(CallPart part, uint64_t tag, int flags, int64_t r) {
  pending_cpu_ += options_.costs.call_cost_ns + sock_->last_call_xmit_ns();
  if (listener_ != nullptr) listener_->OnSocketCall(part, tag, flags, r);
  if (r == -model::kEagain) return 0;  // ceph_tcp_sendmsg/sendpage map EAGAIN to 0
  if (r < 0) {
    error_ = absl::InternalError(absl::StrFormat("socket call (%s) failed: errno %d", CallPartName(part), -r));
    return r;
  }
  bytes_written_ += static_cast<uint64_t>(r);
  return r;
}

int64_t CephConnection::DoSendmsg(CallPart part, uint64_t tag, const model::Iovec* iov, size_t n, int flags) {
  // Zero-length kvecs (an empty front) carry no bytes; leave them out of the
  // iterator the model sees.
  sendmsg_iov_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (iov[i].len > 0) sendmsg_iov_.push_back(iov[i]);
  }
  flags |= kBaseFlags;
  sock_->set_call_tag(tag);
  return Finish(part, tag, flags, sock_->sendmsg(absl::MakeConstSpan(sendmsg_iov_), flags));
}

int64_t CephConnection::DoSendPage(CallPart part, uint64_t tag, const MsgPage& page, uint32_t off, uint32_t len,
                                   int flags) {
  flags |= kBaseFlags;
  sock_->set_call_tag(tag);
  const model::BioVec bv{page.page, off, len};
  int64_t r;
  if (options_.policy.splice_pages() || !options_.has_sendpage) {
    // v6.5+ ceph_tcp_sendpage: one-entry ITER_BVEC, SPLICE_PAGES only when
    // sendpage_ok(), else the page is copied.
    if (page.sendpage_ok) flags |= model::kMsgSplicePages;
    r = sock_->sendmsg_bvec(absl::MakeConstSpan(&bv, 1), flags);
  } else if (page.sendpage_ok) {
    r = sock_->sendpage(page.page, off, len, flags);  // kernel_sendpage -> tcp_sendpage
  } else {
    // v4.19: sock_sendmsg with an ITER_BVEC; v5.0: sock_no_sendpage ->
    // kernel_sendmsg. Both copy via tcp_sendmsg with the same flags.
    r = sock_->sendmsg_bvec(absl::MakeConstSpan(&bv, 1), flags);
  }
  return Finish(part, tag, flags, r);
}

void CephConnection::DoSetCork(bool on) {
  const int r = sock_->setsockopt(model::SockOpt::kTcpCork, on ? 1 : 0);
  pending_cpu_ += options_.costs.call_cost_ns + sock_->last_call_xmit_ns();
  if (r < 0 && error_.ok()) error_ = absl::InternalError(absl::StrFormat("setsockopt(TCP_CORK) failed: errno %d", -r));
}

// ---------------------------------------------------------------------------
// out_kvec

void CephConnection::con_out_kvec_reset() {
  out_kvec_left_ = 0;
  out_kvec_bytes_ = 0;
  out_kvec_cur_ = 0;
}

void CephConnection::con_out_kvec_add(const uint8_t* base, size_t len) {
  const int index = out_kvec_left_;
  if (index >= kMaxKvec && !options_.policy.sendmsg_per_message()) std::abort();  // BUG_ON in the kernel
  if (static_cast<size_t>(index) >= out_kvec_.size()) out_kvec_.resize(index + 1);
  out_kvec_[index] = model::Iovec{base, len};
  ++out_kvec_left_;
  out_kvec_bytes_ += len;
}

uint64_t CephConnection::con_out_kvec_skip() {
  // Drops the last queued entry (what is left of it).
  uint64_t skip = 0;
  if (out_kvec_bytes_ > 0) {
    skip = out_kvec_[out_kvec_cur_ + out_kvec_left_ - 1].len;
    out_kvec_bytes_ -= skip;
    --out_kvec_left_;
  }
  return skip;
}

CallPart CephConnection::KvecPart() const { return out_kvec_part_; }

// write_partial_kvec: one ceph_tcp_sendmsg per unit.
int CephConnection::write_partial_kvec() {
  CallContext ctx;
  ctx.part = KvecPart();
  ctx.msg_index = out_kvec_has_msg_ && out_msg_ ? out_msg_->index : kNoMessage;
  ctx.out_more = out_more_;
  const int flags = Flags(ctx);
  const int64_t r = DoSendmsg(ctx.part, MakeCallTag(ctx.msg_index, ctx.part, 0), &out_kvec_[out_kvec_cur_],
                              static_cast<size_t>(out_kvec_left_), flags);
  pending_cpu_ += options_.costs.per_call_ns;
  if (r <= 0) return static_cast<int>(r);
  out_kvec_bytes_ -= static_cast<uint64_t>(r);
  if (out_kvec_bytes_ == 0) {
    out_kvec_left_ = 0;  // done
    if (out_msg_done_ && out_kvec_has_msg_ && out_msg_ && listener_ != nullptr) {
      listener_->OnMessageWritten(*out_msg_, bytes_written_, loop_->now());
    }
    return kCalled;
  }
  uint64_t left = static_cast<uint64_t>(r);
  while (left >= out_kvec_[out_kvec_cur_].len) {  // whole entries consumed
    left -= out_kvec_[out_kvec_cur_].len;
    ++out_kvec_cur_;
    --out_kvec_left_;
  }
  if (left > 0) {  // and a partially consumed one
    out_kvec_[out_kvec_cur_].base += left;
    out_kvec_[out_kvec_cur_].len -= left;
  }
  return kCalled;
}

// write_partial_message_data: one page call per unit; crc32c of the piece and
// the cursor advance are the CPU work after the call.
int CephConnection::write_partial_message_data() {
  CephMsg& m = *out_msg_;
  const bool v2 = options_.policy.v2();
  const bool do_crc = options_.do_crc || v2;
  if (m.data.empty()) {
    error_ = absl::InvalidArgumentError("write_partial_message_data: message has no data items");
    return -model::kEinval;
  }
  CephMsgDataCursor& c = m.cursor;
  uint32_t crc = do_crc ? (v2 ? out_v2_data_crc_ : m.footer.data_crc) : 0;
  while (c.total_resid > 0) {
    if (c.resid == 0) {  // empty item
      ceph_msg_data_advance(&c, 0);
      continue;
    }
    const DataPiece p = ceph_msg_data_next(c);
    CallContext ctx;
    ctx.part = CallPart::kData;
    ctx.msg_index = m.index;
    ctx.piece_index = piece_index_;
    ctx.last_piece_of_item = p.last_piece;
    ctx.last_of_payload = p.length == c.total_resid;
    ctx.sendpage_ok = p.page.sendpage_ok;
    const int flags = Flags(ctx);
    const int64_t r = DoSendPage(CallPart::kData, MakeCallTag(m.index, CallPart::kData, piece_index_), p.page,
                                 p.page_offset, p.length, flags);
    pending_cpu_ += options_.costs.per_call_ns;
    if (r <= 0) return static_cast<int>(r);  // crc so far is already saved below
    if (do_crc && c.need_crc) {
      // ceph_crc32c_page over the whole piece, once, even if only part of it
      // was accepted.
      if (p.page.has_crc0 && p.page_offset == 0 && p.length == model::kPageSize) {
        crc = ceph_crc32c_page_from_crc0(crc, p.page.crc0);
      } else if (p.page.page.data != nullptr) {
        crc = ceph_crc32c(crc, p.page.page.data + p.page_offset, p.length);
      }
      ChargeCrc(p.length);
    }
    ceph_msg_data_advance(&c, static_cast<uint64_t>(r));
    if (c.need_crc) ++piece_index_;
    (v2 ? out_v2_data_crc_ : m.footer.data_crc) = crc;
    return kCalled;
  }
  // The payload is out: queue the footer/epilogue.
  con_out_kvec_reset();
  out_kvec_part_ = CallPart::kFooter;
  out_kvec_has_msg_ = true;
  if (v2) {
    out_v2_data_crc_ = crc;
    prepare_epilogue_v2();
    return 1;
  }
  if (do_crc) {
    m.footer.data_crc = crc;
  } else {
    m.footer.flags |= kFooterNocrc;
  }
  prepare_write_message_footer();
  return 1;
}

// write_partial_skip: zeros from the zero page, one chunk per unit.
int CephConnection::write_partial_skip() {
  const uint32_t size = static_cast<uint32_t>(std::min<uint64_t>(out_skip_, model::kPageSize));
  CallContext ctx;
  ctx.part = CallPart::kSkip;
  ctx.msg_index = kNoMessage;
  ctx.last_of_payload = size == out_skip_;
  const int flags = Flags(ctx);
  const MsgPage zero{model::Page{kZeroPageId, kZeroPageData}, true};
  const int64_t r = DoSendPage(CallPart::kSkip, MakeCallTag(kNoMessage, CallPart::kSkip, 0), zero, 0, size, flags);
  pending_cpu_ += options_.costs.per_call_ns;
  if (r <= 0) return static_cast<int>(r);
  out_skip_ -= static_cast<uint64_t>(r);
  return kCalled;
}

// ---------------------------------------------------------------------------
// prepare_* (msgr1)

// The part of prepare_write_message both protocols share: move the head of
// out_queue to out_sent, give it its sequence number once, and fill the
// header's length fields.
CephMsgRef CephConnection::take_next_out_msg() {
  CephMsgRef m = out_queue_.front();
  out_queue_.pop_front();
  out_sent_.push_back(m);
  out_msg_ = m;
  if (m->needs_out_seq) {
    m->hdr.seq = ++out_seq_;
    m->needs_out_seq = false;
    if (listener_ != nullptr) listener_->OnMessagePrepared(*m, loop_->now());
    // reencode_message is not modelled: the workload's front already has its
    // final (send-time) length, features word included.
  }
  m->hdr.front_len = static_cast<uint32_t>(m->front.size());
  m->hdr.middle_len = m->middle ? static_cast<uint32_t>(m->middle->size()) : 0;
  m->hdr.data_len = static_cast<uint32_t>(m->data_length);
  return m;
}

void CephConnection::prepare_write_message() {
  con_out_kvec_reset();
  out_msg_done_ = false;
  out_kvec_part_ = CallPart::kPrefix;
  out_kvec_has_msg_ = true;
  // Piggyback an ack.
  if (in_seq_ > in_seq_acked_) {
    in_seq_acked_ = in_seq_;
    con_out_kvec_add(kTagAckByte, 1);
    PutLe64(out_temp_ack_.data(), in_seq_acked_);
    con_out_kvec_add(out_temp_ack_.data(), kAckSeqLen);
  }
  CephMsgRef m = take_next_out_msg();
  con_out_kvec_add(kTagMsgByte, 1);
  con_out_kvec_add(out_hdr_.data(), kMsgHeaderLen);
  con_out_kvec_add(m->front.data(), m->front.size());
  if (m->middle) con_out_kvec_add(m->middle->data(), m->middle->size());
  m->hdr.crc = MsgHeaderCrc(m->hdr);
  out_hdr_ = EncodeMsgHeader(m->hdr);
  m->footer.front_crc = ceph_crc32c(0, m->front.data(), m->front.size());
  m->footer.middle_crc = m->middle ? ceph_crc32c(0, m->middle->data(), m->middle->size()) : 0;
  m->footer.flags = 0;
  m->footer.data_crc = 0;
  m->footer.sig = 0;
  pending_cpu_ += options_.costs.prepare_message_ns;
  ChargeCrc(kMsgHeaderCrcOffset + m->front.size() + m->hdr.middle_len);
  piece_index_ = 0;
  if (m->data_length > 0) {
    ceph_msg_data_cursor_init(&m->cursor, &m->data, m->data_length);
    out_more_ = true;  // data and footer will follow
    if (options_.policy.sendmsg_per_message()) queue_data_kvecs();
  } else {
    prepare_write_message_footer();
  }
  write_pending_ = true;
  if (options_.policy.corks() && !corked_) need_cork_ = true;
}

// v1-sendmsg: every data piece behind the prefix in out_kvec, the data crc
// over all of them now, then the footer, so that write_partial_kvec offers
// the whole message to one sendmsg (the copy path; a short send resumes
// inside the kvec array as for any prefix).
void CephConnection::queue_data_kvecs() {
  CephMsg& m = *out_msg_;
  CephMsgDataCursor& c = m.cursor;
  uint32_t crc = 0;
  while (c.total_resid > 0) {
    if (c.resid == 0) {  // empty item
      ceph_msg_data_advance(&c, 0);
      continue;
    }
    const DataPiece p = ceph_msg_data_next(c);
    if (p.page.page.data == nullptr) {
      error_ = absl::FailedPreconditionError("v1-sendmsg needs page contents (payload tracking)");
      return;
    }
    con_out_kvec_add(p.page.page.data + p.page_offset, p.length);
    if (options_.do_crc) {
      crc = p.page.has_crc0 && p.page_offset == 0 && p.length == model::kPageSize
                ? ceph_crc32c_page_from_crc0(crc, p.page.crc0)
                : ceph_crc32c(crc, p.page.page.data + p.page_offset, p.length);
      ChargeCrc(p.length);
    }
    ceph_msg_data_advance(&c, p.length);
  }
  if (options_.do_crc) {
    m.footer.data_crc = crc;
  } else {
    m.footer.flags |= kFooterNocrc;
  }
  prepare_write_message_footer();
}

void CephConnection::prepare_write_message_footer() {
  CephMsg& m = *out_msg_;
  m.footer.flags |= kFooterComplete;
  // With MSG_AUTH the message would be signed here (sign_message); signing
  // is not modelled, sig stays 0.
  const size_t n = EncodeMsgFooter(m.footer, options_.old_footer, out_footer_.data());
  con_out_kvec_add(out_footer_.data(), n);
  out_more_ = m.more_to_follow;
  out_msg_done_ = true;
}

void CephConnection::prepare_write_ack() {
  con_out_kvec_reset();
  out_kvec_part_ = CallPart::kAck;
  out_kvec_has_msg_ = false;
  in_seq_acked_ = in_seq_;
  con_out_kvec_add(kTagAckByte, 1);
  PutLe64(out_temp_ack_.data(), in_seq_acked_);
  con_out_kvec_add(out_temp_ack_.data(), kAckSeqLen);
  out_more_ = true;  // "more will follow eventually"
  write_pending_ = true;
}

void CephConnection::prepare_write_keepalive() {
  con_out_kvec_reset();
  out_kvec_part_ = CallPart::kKeepalive;
  out_kvec_has_msg_ = false;
  // Peer has KEEPALIVE2 (any modern OSD): tag + ceph_timespec of "now".
  const TimeNs t = loop_->now();
  PutLe32(out_temp_keepalive2_.data(), static_cast<uint32_t>(t / model::kNsPerSec));
  PutLe32(out_temp_keepalive2_.data() + 4, static_cast<uint32_t>(t % model::kNsPerSec));
  con_out_kvec_add(kTagKeepalive2Byte, 1);
  con_out_kvec_add(out_temp_keepalive2_.data(), kTimespecLen);
  // out_more is left as the previous writer set it.
  write_pending_ = true;
}

// ---------------------------------------------------------------------------
// prepare_* (msgr2, crc mode)

void CephConnection::prepare_message_v2() {
  con_out_kvec_reset();
  out_msg_done_ = false;
  out_kvec_part_ = CallPart::kPrefix;
  out_kvec_has_msg_ = true;
  CephMsgRef m = take_next_out_msg();
  // msgr2 acks ride in every message header (ack_seq).
  in_seq_acked_ = in_seq_;
  Preamble pre;
  pre.tag = kFrameTagMessage;
  pre.seg_len = {static_cast<uint32_t>(kMsgHeader2Len), m->hdr.front_len, m->hdr.middle_len, m->hdr.data_len};
  pre.seg_align = {kSegAlign, kSegAlign, kSegAlign, kDataSegAlign};
  const auto pb = EncodePreamble(pre);
  const auto h2 = EncodeMsgHeader2(m->hdr, in_seq_acked_, 0);
  std::copy(pb.begin(), pb.end(), out_head_.begin());
  std::copy(h2.begin(), h2.end(), out_head_.begin() + kPreambleLen);
  PutLe32(out_head_.data() + kPreambleLen + kMsgHeader2Len, ceph_crc32c(~0u, h2.data(), h2.size()));
  con_out_kvec_add(out_head_.data(), kPlainHeadLen);
  con_out_kvec_add(m->front.data(), m->front.size());
  if (m->middle) con_out_kvec_add(m->middle->data(), m->middle->size());
  m->footer.front_crc = ceph_crc32c(~0u, m->front.data(), m->front.size());
  m->footer.middle_crc = m->middle ? ceph_crc32c(~0u, m->middle->data(), m->middle->size()) : ~0u;
  out_v2_data_crc_ = ~0u;
  pending_cpu_ += options_.costs.prepare_message_ns;
  ChargeCrc(kPreambleCrcOffset + kMsgHeader2Len + m->front.size() + m->hdr.middle_len);
  piece_index_ = 0;
  if (m->data_length > 0) {
    ceph_msg_data_cursor_init(&m->cursor, &m->data, m->data_length);
  } else {
    prepare_epilogue_v2();
  }
  write_pending_ = true;
}

void CephConnection::prepare_epilogue_v2() {
  const CephMsg& m = *out_msg_;
  // Single-segment frames (header only) carry no epilogue in msgr2.1 crc mode.
  if (m.hdr.front_len > 0 || m.hdr.middle_len > 0 || m.data_length > 0) {
    EpiloguePlain e;
    e.late_status = kLateStatusComplete;
    e.front_crc = m.footer.front_crc;
    e.middle_crc = m.footer.middle_crc;
    e.data_crc = out_v2_data_crc_;
    out_epil_ = EncodeEpiloguePlain(e);
    con_out_kvec_add(out_epil_.data(), kEpilogueCrcLen);
  }
  out_msg_done_ = true;
}

namespace {

// A one-segment control frame: preamble + 8-byte body + inline crc.
void EncodeControlFrame(uint8_t tag, const uint8_t body[8], uint8_t* out) {
  Preamble pre;
  pre.tag = tag;
  pre.seg_len = {8, 0, 0, 0};
  pre.seg_align = {kSegAlign, 0, 0, 0};
  const auto pb = EncodePreamble(pre);
  std::copy(pb.begin(), pb.end(), out);
  std::copy(body, body + 8, out + kPreambleLen);
  PutLe32(out + kPreambleLen + 8, ceph_crc32c(~0u, body, 8));
}

}  // namespace

void CephConnection::prepare_ack_v2() {
  con_out_kvec_reset();
  out_kvec_part_ = CallPart::kAck;
  out_kvec_has_msg_ = false;
  in_seq_acked_ = in_seq_;
  uint8_t body[8];
  PutLe64(body, in_seq_acked_);
  EncodeControlFrame(kFrameTagAck, body, out_head_.data());
  con_out_kvec_add(out_head_.data(), kPreambleLen + 8 + kCrcLen);
  write_pending_ = true;
}

void CephConnection::prepare_keepalive2_v2() {
  con_out_kvec_reset();
  out_kvec_part_ = CallPart::kKeepalive;
  out_kvec_has_msg_ = false;
  const TimeNs t = loop_->now();
  uint8_t body[8];
  PutLe32(body, static_cast<uint32_t>(t / model::kNsPerSec));
  PutLe32(body + 4, static_cast<uint32_t>(t % model::kNsPerSec));
  EncodeControlFrame(kFrameTagKeepalive2, body, out_head_.data());
  con_out_kvec_add(out_head_.data(), kPreambleLen + 8 + kCrcLen);
  write_pending_ = true;
}

// ---------------------------------------------------------------------------
// ceph_msg_revoke

absl::Status CephConnection::ceph_msg_revoke(const CephMsgRef& msg) {
  if (options_.policy.v2()) {
    return absl::UnimplementedError("ceph_msg_revoke: msgr2 revoke (zero fill + aborted epilogue) is not modelled");
  }
  if (options_.policy.sendmsg_per_message()) {
    return absl::UnimplementedError("ceph_msg_revoke: v1-sendmsg keeps data in out_kvec; revoke is not modelled");
  }
  for (auto* list : {&out_queue_, &out_sent_}) {
    auto it = std::find(list->begin(), list->end(), msg);
    if (it != list->end()) {
      list->erase(it);
      break;
    }
  }
  if (out_msg_ == msg) {
    // The stream must stay byte-consistent: every byte of the message still
    // owed is replaced by zeros (footer first, then data, middle, front).
    if (out_msg_done_) {
      out_skip_ += con_out_kvec_skip();
    } else {
      out_skip_ += SizeofFooter(options_.old_footer);
    }
    if (msg->data_length > 0) out_skip_ += msg->cursor.total_resid;
    if (msg->middle) out_skip_ += con_out_kvec_skip();
    out_skip_ += con_out_kvec_skip();
    out_msg_.reset();
  }
  return absl::OkStatus();
}

}  // namespace sendsim::messenger
