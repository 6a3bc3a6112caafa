#ifndef SENDSIM_MODEL_ERRQUEUE_H_
#define SENDSIM_MODEL_ERRQUEUE_H_

// sk->sk_error_queue: what MSG_ERRQUEUE reads. Two kinds of entries reach
// it on the send path: MSG_ZEROCOPY completions (zerocopy.h) and
// SO_TIMESTAMPING transmit timestamps (tx_timestamp.h). One queue, in the
// order they were queued, as the kernel's sock_queue_err_skb keeps them.

#include <cstdint>
#include <deque>
#include <optional>

#include "model/types.h"

namespace sendsim::model {

// <linux/errqueue.h>.
inline constexpr uint8_t kSoEeOriginTimestamping = 4;
inline constexpr uint8_t kSoEeOriginZerocopy = 5;
inline constexpr uint32_t kScmTstampSnd = 0;    // SCM_TSTAMP_SND: the driver took it
inline constexpr uint32_t kScmTstampSched = 1;  // SCM_TSTAMP_SCHED: entered the qdisc
inline constexpr uint32_t kScmTstampAck = 2;    // SCM_TSTAMP_ACK: cumulatively acked
inline constexpr int kEnomsg = 42;

// One queued skb (struct sock_exterr_skb): its sock_extended_err and, for a
// timestamp, the skb's time and length.
struct SockExterr {
  int ee_errno = 0;       // zerocopy: 0; timestamping: ENOMSG
  uint8_t origin = kSoEeOriginZerocopy;
  uint8_t code = 0;       // zerocopy: SO_EE_CODE_ZEROCOPY_COPIED
  uint32_t info = 0;      // zerocopy: the first id; timestamping: SCM_TSTAMP_*
  uint32_t data = 0;      // zerocopy: the last id; timestamping: the key (OPT_ID)
  TimeNs tstamp_ns = -1;  // timestamping: skb->tstamp (the model's time)
  // Timestamping without OPT_TSONLY: the bytes of the looped packet copy
  // that MSG_ERRQUEUE reads (see tx_timestamp.h); 0 otherwise.
  uint32_t len = 0;
  bool operator==(const SockExterr&) const = default;
};

// A zerocopy completion {lo..hi} (ee_info, ee_data).
inline SockExterr ZerocopyErr(uint32_t lo, uint32_t hi, bool copied) {
  SockExterr e;
  e.info = lo;
  e.data = hi;
  e.code = copied ? 1 : 0;
  return e;
}

class ErrorQueue {
 public:
  // sock_queue_err_skb, and its sk_error_report.
  void Push(const SockExterr& e) {
    q_.push_back(e);
    ++reports_;
  }
  // The newest entry, for skb_zerocopy_notify_extend's merge (nullptr:
  // empty). A merge reports again (ReportMerge).
  SockExterr* tail() { return q_.empty() ? nullptr : &q_.back(); }
  void ReportMerge() { ++reports_; }
  bool pending() const { return !q_.empty(); }
  // sk_error_report calls so far: each one is a wakeup with EPOLLERR.
  uint64_t reports() const { return reports_; }
  // sock_dequeue_err_skb: the oldest entry, removed.
  std::optional<SockExterr> Dequeue() {
    if (q_.empty()) return std::nullopt;
    SockExterr e = q_.front();
    q_.pop_front();
    return e;
  }

 private:
  std::deque<SockExterr> q_;
  uint64_t reports_ = 0;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_ERRQUEUE_H_
