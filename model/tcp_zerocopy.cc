// The socket's side of MSG_ZEROCOPY completions (zerocopy.h): the call's
// reference, and the error queue read.

#include <optional>

#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_sendmsg_locked's exit: net_zcopy_put on `out`, and on `out_err`
// (nothing copied) net_zcopy_put_abort, which gives the id back.
void TcpSock::ZerocopyCallEnd(const SendCursor& c, int64_t r) {
  if (c.uarg == 0) return;
  zc_.EndCall(c.uarg, r <= 0 && c.copied == 0);
}

// A uarg is still referenced while an skb of either queue names it.
std::optional<SockExterr> TcpSock::RecvErrqueue() {
  errqueue_pending();
  return errq_.Dequeue();
}

bool TcpSock::errqueue_pending() {
  zc_.Sweep([this](uint32_t uarg) {
    for (const auto* q : {&write_queue_, &rtx_queue_}) {
      for (const Skb& skb : *q) {
        if (skb.zc_uarg == uarg) return true;
      }
    }
    return false;
  });
  return errq_.pending();
}

uint64_t TcpSock::errqueue_reports() {
  errqueue_pending();
  return errq_.reports();
}

}  // namespace sendsim::model
