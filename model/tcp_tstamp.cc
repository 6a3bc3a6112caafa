// SO_TIMESTAMPING transmit timestamps of the socket (tx_timestamp.h).

#include <utility>

#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

constexpr uint32_t kIpv4HeaderLen = 20;
constexpr uint32_t kTcpBaseHeaderLen = 20;

}  // namespace

// sock_set_timestamping: enabling OPT_ID (not re-enabling it) takes the
// counter's base. The runner has checked the value.
void TcpSock::SetTimestamping(uint32_t val) {
  if ((val & kSofOptId) && !(tsk_.tsflags & kSofOptId)) {
    tsk_.tskey = (val & kSofOptIdTcp) ? write_seq_ : snd_una_;
  }
  tsk_.tsflags = val;
}

// tcp_tx_timestamp at the end of a send call that queued bytes: the write
// queue's tail holds the call's last byte. A tail marked by an earlier call
// (the bytes coalesced into one skb) keeps its flags and takes the new key:
// that call's stamps are lost, as on Linux (MSG_EOR keeps calls apart).
void TcpSock::TxTimestamp() {
  if (!(tsk_.tsflags & kSofTxRecordMask) || write_queue_.empty()) return;
  Skb& skb = write_queue_.back();
  if (tsk_.tsflags & kSofTxSched) skb.tx_flags |= kSkbTxSchedTstamp;
  if (tsk_.tsflags & kSofTxSoftware) skb.tx_flags |= kSkbTxSwTstamp;
  if (tsk_.tsflags & kSofTxAck) skb.txstamp_ack = true;
  skb.tskey = skb.seq + skb.len() - 1;
}

// __skb_tstamp_tx for a TCP socket: an error queue entry of the skb's key
// at the model's time. OPT_ID and OPT_TSONLY are read now, as the kernel
// reads sk_tsflags when the stamp is taken.
void TcpSock::TstampTx(const Skb& skb, uint32_t type) {
  SockExterr e;
  e.ee_errno = kEnomsg;
  e.origin = kSoEeOriginTimestamping;
  e.info = type;
  e.data = (tsk_.tsflags & kSofOptId) ? static_cast<uint32_t>(skb.tskey - tsk_.tskey) : 0;
  e.tstamp_ns = loop_->now();
  if (!(tsk_.tsflags & kSofOptTsonly)) {
    // The clone's data: from the IP header on at the qdisc and the driver
    // (tun has no link-layer header), the payload of the queued skb at ACK.
    e.len = skb.len();
    if (type != kScmTstampAck) {
      e.len += kIpv4HeaderLen + kTcpBaseHeaderLen + (config_.timestamps ? kTcpTimestampOptionBytes : 0);
    }
  }
  errq_.Push(e);
}

// __dev_queue_xmit's SCHED stamp, then the driver's SND stamp, of every
// transmission of a marked skb (the clones share skb_shinfo).
void TcpSock::TstampXmit(const Skb& skb) {
  if (skb.tx_flags & kSkbTxSchedTstamp) TstampTx(skb, kScmTstampSched);
  if (skb.tx_flags & kSkbTxSwTstamp) TstampTx(skb, kScmTstampSnd);
}

// tcp_ack_tstamp: a freed skb whose key this ACK covered.
void TcpSock::AckTstamp(const Skb& skb, uint64_t prior_snd_una) {
  if (skb.txstamp_ack && skb.tskey >= prior_snd_una && skb.tskey < snd_una_) TstampTx(skb, kScmTstampAck);
}

// tcp_fragment_tstamp: the mark (stamp flags, ACK request and key) goes
// with the key to `buff`, the second piece, when it holds it.
void FragmentTstamp(Skb& skb, Skb& buff) {
  if (!HasTxTstamp(skb) || skb.tskey < buff.seq) return;
  buff.tx_flags |= skb.tx_flags;
  skb.tx_flags = 0;
  std::swap(skb.tskey, buff.tskey);
  buff.txstamp_ack = skb.txstamp_ack;
  skb.txstamp_ack = false;
}

// tcp_skb_collapse_tstamp: `next` was swallowed by `skb`.
void CollapseTstamp(Skb& skb, const Skb& next) {
  if (!HasTxTstamp(next)) return;
  skb.tx_flags |= next.tx_flags;
  skb.tskey = next.tskey;
  skb.txstamp_ack = skb.txstamp_ack || next.txstamp_ack;
}

}  // namespace sendsim::model
