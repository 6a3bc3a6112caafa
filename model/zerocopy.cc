#include "model/zerocopy.h"

#include <vector>

namespace sendsim::model {
namespace {

constexpr uint64_t kByteLimit = 1 << 19;  // msg_zerocopy_realloc: "a few TSO"
constexpr uint32_t kMaxLen = 0xffff - 1;  // uarg->len is a u16

}  // namespace

uint32_t ZerocopyState::Realloc(uint64_t size, uint32_t tail) {
  // msg_zerocopy_realloc: grow the tail's uarg when its ids end at sk_zckey
  // and it stays under the byte limit; TCP otherwise takes a new one.
  if (auto it = live_.find(tail); tail != 0 && it != live_.end()) {
    Uarg& u = it->second;
    if (u.len < kMaxLen && u.bytelen + size <= kByteLimit && u.id + u.len == zckey_) {
      ++u.len;
      u.bytelen += size;
      ++zckey_;
      ++u.call_refs;
      return tail;
    }
  }
  // msg_zerocopy_alloc.
  Uarg u;
  u.id = zckey_++;
  u.bytelen = size;
  u.call_refs = 1;
  const uint32_t h = next_handle_++;
  live_[h] = u;
  return h;
}

void ZerocopyState::MarkCopied(uint32_t uarg) {
  if (auto it = live_.find(uarg); it != live_.end()) it->second.zerocopy = false;
}

void ZerocopyState::EndCall(uint32_t uarg, bool aborted) {
  auto it = live_.find(uarg);
  if (it == live_.end()) return;
  if (aborted) {
    // msg_zerocopy_put_abort: the id goes back to sk_zckey.
    --zckey_;
    --it->second.len;
  }
  --it->second.call_refs;
}

void ZerocopyState::Sweep(const std::function<bool(uint32_t)>& held) {
  std::vector<uint32_t> done;
  for (const auto& [h, u] : live_) {
    if (u.call_refs == 0 && !held(h)) done.push_back(h);
  }
  for (uint32_t h : done) {
    Complete(live_[h]);
    live_.erase(h);
  }
}

// __msg_zerocopy_callback: nothing for an aborted lone call (len 0); else
// the range, merged into the queue's tail when it continues it
// (skb_zerocopy_notify_extend keeps the tail's ee_code).
void ZerocopyState::Complete(const Uarg& u) {
  if (u.len == 0) return;
  const uint32_t lo = u.id, hi = u.id + u.len - 1;
  if (SockExterr* t = errq_->tail(); t != nullptr && t->origin == kSoEeOriginZerocopy) {
    const uint64_t sum = static_cast<uint64_t>(t->data - t->info) + 1 + u.len;
    if (sum < (uint64_t{1} << 32) && lo == t->data + 1) {
      t->data += u.len;
      errq_->ReportMerge();
      return;
    }
  }
  errq_->Push(ZerocopyErr(lo, hi, !u.zerocopy));
}

}  // namespace sendsim::model
