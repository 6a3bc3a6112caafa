#include "model/send.h"

#include <algorithm>
#include <cstring>

#include "model/tcp_sock.h"

namespace sendsim::model {

uint32_t BoundToHalfWnd(uint32_t max_window, uint32_t pktsize) {
  const uint32_t cutoff = max_window > static_cast<uint32_t>(kTcpMssDefault) ? max_window >> 1 : max_window;
  if (cutoff != 0 && pktsize > cutoff) return std::max<uint32_t>(cutoff, 68U - kTcpHeaderLen);
  return pktsize;
}

uint32_t SizeGoalCandidate(uint32_t max_window, bool subtract_header) {
  const uint32_t gso = subtract_header ? kGsoMaxSize - 1 - kMaxTcpHeader : kGsoMaxSize;
  return BoundToHalfWnd(max_window, gso);
}

// tcp_xmit_size_goal: gso_segs is only recomputed when the candidate moved
// out of [gso_segs*mss, gso_segs*mss + mss).
uint32_t TcpSock::XmitSizeGoal(uint32_t mss_now) {
  const uint32_t cand = SizeGoalCandidate(max_window_, profile_.size_goal_subtracts_header);
  uint32_t goal = gso_segs_ * mss_now;
  if (cand < goal || cand >= goal + mss_now) {
    gso_segs_ = std::min<uint32_t>(cand / mss_now, kGsoMaxSegs);
    goal = gso_segs_ * mss_now;
  }
  return std::max(goal, mss_now);
}

// tcp_send_mss: tcp_current_mss (route_mss.cc) and the size goal.
TcpSock::MssGoal TcpSock::SendMss(int /*flags*/) {
  const uint32_t mss_now = CurrentMss();
  return MssGoal{mss_now, XmitSizeGoal(mss_now)};
}

// sk_stream_memory_free / tcp_stream_memory_free.
bool TcpSock::StreamMemoryFree(int wake) const {
  if (wmem_queued_ >= sndbuf_) return false;
  const uint64_t notsent = write_seq_ - snd_nxt_;
  // The wake shift (POLLOUT/write space only below half the mark) came
  // with v5.4 ("tcp: reduce POLLOUT events caused by TCP_NOTSENT_LOWAT").
  if (!profile_.notsent_lowat_wake_shift) wake = 0;
  return (notsent << wake) < NotsentLowat();
}

// skb_entail.
Skb& TcpSock::SkbEntail(uint32_t truesize, uint32_t linear_room) {
  // tcp_add_write_queue_tail: the first unsent skb starts the busy chrono.
  if (write_queue_.empty()) ChronoStart(Chrono::kBusy);
  Skb& skb = write_queue_.emplace_back();
  skb.seq = skb.end_seq = write_seq_;
  skb.tcp_flags = kTcpAck;
  skb.truesize = truesize;
  skb.linear_room = linear_room;
  skb.tag = call_tag_;
  wmem_queued_ += truesize;
  nonagle_ &= ~kTcpNaglePush;
  SlowStartAfterIdleCheck();
  return skb;
}

void TcpSock::AppendPayload(Skb& skb, const uint8_t* data, uint32_t len) {
  if (!config_.track_payload || data == nullptr) return;
  if (!skb.payload.empty() && skb.payload.back().data + skb.payload.back().len == data) {
    skb.payload.back().len += len;
  } else {
    skb.payload.push_back(PayloadPiece{data, len});
  }
}

// Copies of sendmsg data live in chunks freed once fully acknowledged, so the
// caller may reuse its buffer as soon as the call returns (kernel copy
// semantics). Returns null when payload is not tracked.
uint8_t* TcpSock::ReserveStore(uint32_t len) {
  if (!config_.track_payload) return nullptr;
  constexpr uint32_t kChunk = 256 * 1024;
  if (copy_store_.empty() || copy_store_.back().used + len > copy_store_.back().size) {
    CopyChunk c;
    c.size = std::max(kChunk, len);
    c.data = std::make_unique<uint8_t[]>(c.size);
    copy_store_.push_back(std::move(c));
  }
  CopyChunk& c = copy_store_.back();
  uint8_t* dst = c.data.get() + c.used;
  c.used += len;
  c.last_seq = write_seq_ + len;
  return dst;
}

// copy_from_iter: takes `n` bytes from the call's iterator (possibly across
// elements); returns the model's copy (null when payload is not tracked).
const uint8_t* TcpSock::CopyFromCursor(SendCursor& c, uint32_t n) {
  uint8_t* dst = ReserveStore(n);
  uint32_t done = 0;
  while (done < n) {
    const uint8_t* src = nullptr;
    uint64_t avail;
    if (c.kind == SendCursor::Kind::kKvec) {
      const Iovec& v = c.iov[c.idx];
      avail = v.len - c.off;
      if (v.base != nullptr) src = v.base + c.off;
    } else {
      const BioVec& b = c.bvec[c.idx];
      avail = b.len - c.off;
      if (b.page.data != nullptr) src = b.page.data + b.offset + c.off;
    }
    const uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(avail, n - done));
    if (dst != nullptr) {
      if (src != nullptr) {
        std::memcpy(dst + done, src, take);
      } else {
        std::memset(dst + done, 0, take);
      }
    }
    done += take;
    c.off += take;
    const uint64_t elem_len = c.kind == SendCursor::Kind::kKvec ? c.iov[c.idx].len : c.bvec[c.idx].len;
    if (c.off == elem_len) {
      ++c.idx;
      c.off = 0;
    }
  }
  // Skip empty elements so that c.idx always names data when c.left > 0.
  c.left -= n;
  return dst;
}

void TcpSock::ReleaseCopyStore() {
  while (copy_store_.size() > 1 && copy_store_.front().last_seq <= snd_una_) copy_store_.pop_front();
}

// Appends `len` bytes of page `page_id` at `offset` to the skb as a frag
// (coalescing with the last frag when contiguous in the same page).
static void AddFrag(Skb& skb, uint64_t page_id, uint32_t offset, uint32_t len, bool coalesce) {
  const uint32_t new_len = skb.len() + len;
  if (coalesce) {
    skb.frag_end[skb.nr_frags - 1] = new_len;
  } else {
    skb.frag_end[skb.nr_frags++] = new_len;
  }
  skb.last_frag_page = page_id;
  skb.last_frag_end = offset + len;
}

static bool CanCoalesce(const Skb& skb, uint64_t page_id, uint32_t offset) {
  return skb.nr_frags > 0 && skb.last_frag_page == page_id && skb.last_frag_end == offset;
}

int64_t TcpSock::sendpage(Page page, uint32_t offset, uint32_t size, int flags, DoneFn done) {
  // ->sendpage was removed in v6.5: callers use sendmsg(MSG_SPLICE_PAGES).
  if (!profile_.has_sendpage) return -kEinval;
  if (offset > static_cast<uint32_t>(kPageSize) || size > static_cast<uint32_t>(kPageSize) - offset) return -kEinval;
  if (sk_err_ != 0) return -TakeSockError();  // sk_stream_error: sock_error before EPIPE
  if (send_shutdown_) return -kEpipe;  // sk_stream_error after SEND_SHUTDOWN
  LockSock();
  RateCheckAppLimited();  // do_tcp_sendpages
  SendCursor c;
  c.kind = SendCursor::Kind::kPage;
  c.flags = flags;
  c.page = page;
  c.offset = offset;
  c.size = size;
  const int64_t r = DoTcpSendpages(c);
  if (r == kInProgress) {
    pending_call_ = std::make_unique<PendingCall>();
    pending_call_->cursor = c;
    pending_call_->done = std::move(done);
  }
  ScheduleRelease();
  return r;
}

int64_t TcpSock::sendmsg(absl::Span<const Iovec> iov, int flags, DoneFn done) {
  // tcp_sendmsg_locked: do_error; sk_stream_error reports a pending sk_err
  // (sock_error, which clears it) before -EPIPE.
  if (sk_err_ != 0) return -TakeSockError();
  if (send_shutdown_) return -kEpipe;
  SendCursor c;
  c.kind = SendCursor::Kind::kKvec;
  c.flags = flags;
  c.iov = iov;
  for (const Iovec& v : iov) c.left += v.len;
  c.zerocopy = (flags & kMsgZerocopy) != 0 && c.left > 0;
  // tcp_sendmsg_locked -> msg_zerocopy_realloc with the write queue tail's uarg.
  if (c.zerocopy) c.uarg = zc_.Realloc(c.left, write_queue_.empty() ? 0 : write_queue_.back().zc_uarg);
  return SendmsgCall(c, std::move(done));
}

int64_t TcpSock::sendmsg_bvec(absl::Span<const BioVec> bvec, int flags, DoneFn done) {
  for (const BioVec& b : bvec)
    if (b.offset > static_cast<uint32_t>(kPageSize) || b.len > static_cast<uint32_t>(kPageSize) - b.offset) return -kEinval;
  if (sk_err_ != 0) return -TakeSockError();
  if (send_shutdown_) return -kEpipe;
  SendCursor c;
  c.kind = SendCursor::Kind::kBvec;
  c.flags = flags;
  c.bvec = bvec;
  // MSG_SPLICE_PAGES is an unknown (ignored) flag before v6.5: data is copied.
  c.splice = profile_.has_splice_pages && (flags & kMsgSplicePages) != 0;
  for (const BioVec& b : bvec) c.left += b.len;
  return SendmsgCall(c, std::move(done));
}

// A full-size skb in the middle of a call (do_tcp_sendpages and
// tcp_sendmsg_locked alike): forced_push (more than half the largest window
// written since the last push) pushes everything with PSH, else a skb at the
// head of the queue goes out alone (tcp_push_one).
void TcpSock::PushFullSkb(Skb& skb, uint32_t mss_now) {
  if (ForcedPush()) {
    MarkPush(skb);
    PushPendingFrames(mss_now, kTcpNaglePush, PushReason::kForcedPush);
  } else if (&skb == &write_queue_.front()) {
    TcpPushOne(mss_now);
  }
}

// tcp_sendmsg: lock_sock, tcp_sendmsg_locked, release_sock. A call that
// waits for memory is parked with its own copy of the caller's vectors.
int64_t TcpSock::SendmsgCall(SendCursor c, DoneFn done) {
  LockSock();
  RateCheckAppLimited();  // tcp_sendmsg_locked: is sending application-limited?
  const int64_t r = TcpSendmsgLocked(c);
  if (r != kInProgress) ZerocopyCallEnd(c, r);
  if (r == kInProgress) {
    pending_call_ = std::make_unique<PendingCall>();
    pending_call_->iov_copy.assign(c.iov.begin(), c.iov.end());
    pending_call_->bvec_copy.assign(c.bvec.begin(), c.bvec.end());
    pending_call_->cursor = c;
    pending_call_->cursor.iov = absl::MakeConstSpan(pending_call_->iov_copy);
    pending_call_->cursor.bvec = absl::MakeConstSpan(pending_call_->bvec_copy);
    pending_call_->done = std::move(done);
  }
  ScheduleRelease();
  return r;
}

// do_tcp_sendpages (v4.19 = v4.20 = v5.0). A blocking wait parks the call;
// it re-enters here from the top (the kernel recomputes mss/size_goal after
// sk_stream_wait_memory too).
int64_t TcpSock::DoTcpSendpages(SendCursor& c) {
  const MssGoal mg = SendMss(c.flags);
  while (c.size > 0) {
    Skb* skb = write_queue_.empty() ? nullptr : &write_queue_.back();
    int64_t copy = 0;
    if (skb == nullptr || (copy = static_cast<int64_t>(mg.size_goal) - skb->len()) <= 0 || skb->eor) {
    new_segment:
      if (!StreamMemoryFree(0)) {
        sock_nospace_ = true;  // wait_for_sndbuf
        return WaitForMemory(c);
      }
      skb = &SkbEntail(profile_.skb_head_truesize, 0);
      copy = mg.size_goal;
    }
    copy = std::min<int64_t>(copy, c.size);
    const bool coalesce = CanCoalesce(*skb, c.page.id, c.offset);
    if (!coalesce && skb->nr_frags >= kMaxSkbFrags) {
      MarkPush(*skb);
      goto new_segment;
    }
    const uint32_t n = static_cast<uint32_t>(copy);
    AddFrag(*skb, c.page.id, c.offset, n, coalesce);
    AppendPayload(*skb, c.page.data == nullptr ? nullptr : c.page.data + c.offset, n);
    skb->end_seq += n;
    skb->truesize += n;
    skb->pcount = 0;
    skb->tag = call_tag_;
    wmem_queued_ += n;
    write_seq_ += n;
    if (c.copied == 0) skb->tcp_flags &= ~kTcpPsh;
    c.copied += n;
    c.offset += n;
    c.size -= n;
    if (c.size == 0) break;  // checked before the size_goal test
    if (skb->len() < mg.size_goal) continue;
    PushFullSkb(*skb, mg.mss_now);
  }
  // out: (do_tcp_sendpages stamps even with MSG_SENDPAGE_NOTLAST)
  if (c.copied > 0) TxTimestamp();
  if (c.copied > 0 && !(c.flags & kMsgSendpageNotlast))
    TcpPush(c.flags, mg.mss_now, nonagle_, mg.size_goal, PushReason::kEndOfCall);
  return c.copied;
}

// wait_for_memory of both loops: push what is queued (PSH, no MSG_MORE), then
// sk_stream_wait_memory. Returns 0 to continue (never, here: waits park the
// call), the final result, or kInProgress.
int64_t TcpSock::WaitForMemory(SendCursor& c) {
  const MssGoal mg = SendMss(c.flags);
  const bool is_sendpage = c.kind == SendCursor::Kind::kPage;
  if (!is_sendpage && !profile_.sendmsg_first_skb_linear) RemoveEmptyTailSkb();  // v6.x tcp_remove_empty_skb
  if (is_sendpage || c.copied > 0)
    TcpPush(c.flags & ~kMsgMore, mg.mss_now, kTcpNaglePush, mg.size_goal, PushReason::kSndbufFull);
  sock_nospace_ = true;
  if (c.flags & kMsgDontwait) {
    // sk_stream_wait_memory with timeo 0: -EAGAIN; do_error -> out.
    if (c.copied > 0) {
      TxTimestamp();  // do_error -> out
      if (!is_sendpage || !(c.flags & kMsgSendpageNotlast))
        TcpPush(c.flags, mg.mss_now, nonagle_, mg.size_goal, PushReason::kEndOfCall);
      return c.copied;
    }
    ++counters_.eagains;
    // "make sure we wake any epoll edge trigger waiter"
    const bool empty = is_sendpage ? write_queue_.empty() : write_queue_.empty() && rtx_queue_.empty();
    if (empty) {
      WriteSpace();
      ChronoStop(Chrono::kSndbufLimited);
    }
    return -kEagain;
  }
  return kInProgress;
}

void TcpSock::RemoveEmptyTailSkb() {
  if (!write_queue_.empty() && write_queue_.back().len() == 0) {
    wmem_queued_ -= write_queue_.back().truesize;
    write_queue_.pop_back();
    if (write_queue_.empty()) ChronoStop(Chrono::kBusy);  // tcp_remove_empty_skb
  }
}

// A parked blocking call continues once write space wakes it
// (sk_stream_wait_memory's condition: sk_stream_memory_free).
void TcpSock::ResumeBlockedCall() {
  if (!pending_call_) return;
  pending_call_->resume_scheduled = false;
  if (send_shutdown_) {
    // sk_stream_wait_memory: SEND_SHUTDOWN ends the wait with -EPIPE, and the
    // call returns what it had copied (do_error).
    const int64_t copied = pending_call_->cursor.copied;
    if (copied > 0) TxTimestamp();  // do_error -> out
    DoneFn done = std::move(pending_call_->done);
    ZerocopyCallEnd(pending_call_->cursor, copied > 0 ? copied : -kEpipe);
    pending_call_.reset();
    // A reset's sk_err is reported (and cleared) only when nothing was copied.
    const int64_t err = copied > 0 ? copied : sk_err_ != 0 ? -TakeSockError() : -kEpipe;
    if (done) done(err);
    return;
  }
  if (!StreamMemoryFree(0)) return;
  LockSock();
  SendCursor& c = pending_call_->cursor;
  const int64_t r = c.kind == SendCursor::Kind::kPage ? DoTcpSendpages(c) : TcpSendmsgLocked(c);
  DoneFn done;
  if (r != kInProgress) {
    ZerocopyCallEnd(c, r);
    done = std::move(pending_call_->done);
    pending_call_.reset();
  }
  ScheduleRelease();
  if (done) done(r);
}

// skb_splice_from_iter (v6.x MSG_SPLICE_PAGES): attaches the cursor's page
// pieces to `skb` until `copy` bytes or a full frag array; returns the bytes
// attached (0: the frag array was full, the caller starts a new skb). The
// skb's end_seq moves as pieces go in, because AddFrag measures from
// skb->len().
uint32_t TcpSock::SpliceFromIter(Skb& skb, SendCursor& c, uint32_t copy) {
  uint32_t n = 0;
  while (n < copy && c.idx < c.bvec.size()) {
    const BioVec& b = c.bvec[c.idx];
    const uint32_t off = b.offset + static_cast<uint32_t>(c.off);
    const uint32_t part = std::min<uint32_t>(b.len - static_cast<uint32_t>(c.off), copy - n);
    const bool co = CanCoalesce(skb, b.page.id, off);
    if (!co && skb.nr_frags >= kMaxSkbFrags) break;
    AddFrag(skb, b.page.id, off, part, co);
    AppendPayload(skb, b.page.data == nullptr ? nullptr : b.page.data + off, part);
    skb.end_seq += part;
    n += part;
    c.off += part;
    if (c.off == b.len) {
      ++c.idx;
      c.off = 0;
    }
  }
  return n;
}

// The copy path's page-frag step of tcp_sendmsg_locked: sk_page_frag_refill
// needs 32 bytes, else a fresh 32 KiB page (simplification: a page is never
// reused at refcount 1); the bytes copied coalesce into the skb's last frag
// when they continue it. Returns the bytes copied (0: the frag array is
// full, the caller PSH-marks and starts a new skb).
uint32_t TcpSock::CopyToPageFrag(Skb& skb, SendCursor& c, uint32_t copy) {
  if (pfrag_offset_ + 32 > kPageFragSize) {
    pfrag_page_ = next_pfrag_id_++;
    pfrag_offset_ = 0;
  }
  const bool co = CanCoalesce(skb, pfrag_page_, pfrag_offset_);
  if (!co && skb.nr_frags >= kMaxSkbFrags) return 0;
  const uint32_t n = std::min<uint32_t>(copy, kPageFragSize - pfrag_offset_);
  AddFrag(skb, pfrag_page_, pfrag_offset_, n, co);
  AppendPayload(skb, CopyFromCursor(c, n), n);
  pfrag_offset_ += n;
  skb.truesize += n;
  wmem_queued_ += n;
  return n;
}

// skb_zerocopy_iter_stream -> zerocopy_fill_skb_from_iter (MSG_ZEROCOPY):
// pins the pages of the current element (iov_iter_get_pages2 stays inside
// one iovec) and makes each page a frag, at most MAX_SKB_FRAGS per skb;
// truesize grows by the page-aligned span. Each element is taken to start on
// a page of its own (user buffers' alignment is not modelled), so frags
// never coalesce across elements. Returns the bytes attached (0: the frag
// array was full, the caller PSH-marks and starts a new skb).
uint32_t TcpSock::ZerocopyFromIter(Skb& skb, SendCursor& c, uint32_t copy) {
  constexpr uint32_t kPage = kPageSize;
  // skb_zerocopy_iter_stream: an skb references one uarg (-EEXIST: the
  // caller PSH-marks it and starts a new one).
  if (skb.zc_uarg != 0 && skb.zc_uarg != c.uarg) return 0;
  uint32_t n = 0;
  while (n < copy && c.left > 0 && skb.nr_frags < kMaxSkbFrags) {
    while (c.off == c.iov[c.idx].len) {  // empty elements
      ++c.idx;
      c.off = 0;
    }
    const Iovec& v = c.iov[c.idx];
    const uint32_t start = static_cast<uint32_t>(c.off % kPage);
    const uint64_t room = static_cast<uint64_t>(kMaxSkbFrags - skb.nr_frags) * kPage - start;
    const uint32_t got = static_cast<uint32_t>(std::min<uint64_t>({v.len - c.off, copy - n, room}));
    for (uint32_t done = 0, off = start; done < got; off = 0) {
      const uint32_t size = std::min(got - done, kPage - off);
      AddFrag(skb, next_pfrag_id_++, off, size, false);
      skb.end_seq += size;  // AddFrag measures from skb.len()
      done += size;
    }
    const uint32_t span = ((start + got + kPage - 1) / kPage) * kPage;
    skb.truesize += span;
    wmem_queued_ += span;
    AppendPayload(skb, v.base == nullptr ? nullptr : v.base + c.off, got);
    c.off += got;
    c.left -= got;
    n += got;
  }
  skb.end_seq -= n;  // re-added with the caller's common accounting
  if (n > 0) skb.zc_uarg = c.uarg;  // skb_zcopy_set, once pages are attached
  return n;
}

// tcp_sendmsg_locked (copy path; v6.x MSG_SPLICE_PAGES page attachment;
// MSG_ZEROCOPY). 80 lines: kept in one piece, in the kernel's order (new
// skb, copy/attach, push decisions, wait), so the two read side by side.
int64_t TcpSock::TcpSendmsgLocked(SendCursor& c) {
restart:
  const MssGoal mg = SendMss(c.flags);
  while (c.left > 0) {
    Skb* skb = write_queue_.empty() ? nullptr : &write_queue_.back();
    int64_t copy = 0;
    uint32_t n = 0;
    if (skb != nullptr) copy = static_cast<int64_t>(mg.size_goal) - skb->len();
    if (copy <= 0 || skb == nullptr || skb->eor) {
    new_segment:
      if (!StreamMemoryFree(0)) {
        sock_nospace_ = true;  // wait_for_sndbuf
        return WaitForMemory(c);
      }
      // sk_flush_backlog on the 2nd+ new skb of the call (v6.x: every 16th).
      if (const int every = profile_.sendmsg_flush_backlog_every; every > 0 && c.process_backlog >= every) {
        if (every > 1) c.process_backlog = 0;
        if (!backlog_.empty()) {
          c.process_backlog = 0;
          ProcessBacklog(PushReason::kBacklog);
          goto restart;
        }
      }
      {
        const bool first_skb = write_queue_.empty() && rtx_queue_.empty();
        const bool linear = profile_.sendmsg_first_skb_linear && first_skb && !c.splice && !c.zerocopy;
        skb = &SkbEntail(linear ? kSkbTruesizeFirstLinear : profile_.skb_head_truesize, linear ? kFirstSkbLinear : 0);
      }
      ++c.process_backlog;
      copy = mg.size_goal;
    }
    copy = std::min<int64_t>(copy, static_cast<int64_t>(c.left));
    if (c.zerocopy) {
      // -EMSGSIZE (a full frag array) -> tcp_mark_push, new skb.
      n = ZerocopyFromIter(*skb, c, static_cast<uint32_t>(copy));
      if (n == 0) {
        MarkPush(*skb);
        goto new_segment;
      }
    } else if (c.splice) {
      // skb_splice_from_iter: attach page pieces until `copy` bytes or a full
      // frag array (-EMSGSIZE with nothing attached -> PSH-mark, new skb).
      n = SpliceFromIter(*skb, c, static_cast<uint32_t>(copy));
      if (n == 0) {
        MarkPush(*skb);
        goto new_segment;
      }
      skb->end_seq -= n;  // re-added with the common accounting below
      c.left -= n;
      skb->truesize += n;
      wmem_queued_ += n;
    } else if (skb->linear_room > 0) {
      // skb_availroom: copy into the linear head (truesize unchanged).
      n = std::min<uint32_t>(static_cast<uint32_t>(copy), skb->linear_room);
      AppendPayload(*skb, CopyFromCursor(c, n), n);
      skb->linear_room -= n;
      skb->linear_len += n;
    } else {
      n = CopyToPageFrag(*skb, c, static_cast<uint32_t>(copy));
      if (n == 0) {
        MarkPush(*skb);
        goto new_segment;
      }
    }
    if (c.copied == 0) skb->tcp_flags &= ~kTcpPsh;
    write_seq_ += n;
    skb->end_seq += n;
    skb->pcount = 0;
    skb->tag = call_tag_;
    c.copied += n;
    if (c.left == 0) {
      if (c.flags & kMsgEor) skb->eor = true;
      break;
    }
    if (skb->len() < mg.size_goal) continue;
    PushFullSkb(*skb, mg.mss_now);
  }
  if (c.copied > 0) {  // out:
    TxTimestamp();
    TcpPush(c.flags, mg.mss_now, nonagle_, mg.size_goal, PushReason::kEndOfCall);
  }
  return c.copied;
}

}  // namespace sendsim::model
