#ifndef SENDSIM_MODEL_ZEROCOPY_H_
#define SENDSIM_MODEL_ZEROCOPY_H_

// MSG_ZEROCOPY completion notifications (net/core/skbuff.c: the msgzc
// ubuf_info, "uarg"; sk->sk_zckey; sk->sk_error_queue).
//
// Each zerocopy call takes a uarg: a fresh one with the next id of
// sk_zckey (msg_zerocopy_alloc), or the write queue tail's one grown by an
// id when its ids end at sk_zckey (msg_zerocopy_realloc). Every skb
// holding the call's pages references it (Skb::zc_uarg in tcp_sock.h), and
// so does the call until it returns. When the last reference goes
// (__msg_zerocopy_callback) a notification {lo=id, hi=id+len-1} joins the
// error queue, merged into the tail when it continues it
// (skb_zerocopy_notify_extend).
//
// Simplification: references are not counted as they move; a uarg is
// complete when no call holds it and no queued skb names it, which the
// socket checks (Sweep) before the error queue is read or polled. Uargs
// complete in id order, as the kernel frees their skbs in sequence order.

#include <cstdint>
#include <functional>
#include <map>

#include "model/errqueue.h"

namespace sendsim::model {

// Notifications go to the socket's error queue (errqueue.h) as entries
// of origin SO_EE_ORIGIN_ZEROCOPY: ee_info = lo, ee_data = hi, ee_code
// SO_EE_CODE_ZEROCOPY_COPIED when copied (ZerocopyErr).
class ZerocopyState {
 public:
  // `errq` (the socket's sk_error_queue) must outlive this.
  explicit ZerocopyState(ErrorQueue* errq) : errq_(errq) {}
  // msg_zerocopy_realloc for a call of `size` bytes; `tail` is the write
  // queue tail skb's uarg (0: none). Returns the uarg the call holds.
  uint32_t Realloc(uint64_t size, uint32_t tail);
  // The device copied a transmitted skb's frags (tun: skb_orphan_frags_rx
  // -> skb_copy_ubufs), which clears uarg->zerocopy.
  void MarkCopied(uint32_t uarg);
  // The call returns (net_zcopy_put); with nothing copied
  // (msg_zerocopy_put_abort) its id is given back first.
  void EndCall(uint32_t uarg, bool aborted);
  // Completes every uarg no call holds and `held` says no skb names.
  void Sweep(const std::function<bool(uint32_t)>& held);
 private:
  struct Uarg {
    uint32_t id = 0;
    uint32_t len = 1;
    uint64_t bytelen = 0;
    bool zerocopy = true;
    int call_refs = 0;
  };
  void Complete(const Uarg& u);

  std::map<uint32_t, Uarg> live_;  // by handle; handles grow with ids
  uint32_t next_handle_ = 1;
  uint32_t zckey_ = 0;  // sk->sk_zckey
  ErrorQueue* errq_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_ZEROCOPY_H_
