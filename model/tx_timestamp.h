#ifndef SENDSIM_MODEL_TX_TIMESTAMP_H_
#define SENDSIM_MODEL_TX_TIMESTAMP_H_

// SO_TIMESTAMPING's transmit timestamps on a TCP socket (tcp_tstamp.cc).
//
// tcp_tx_timestamp marks the last skb of each send call with the requested
// stamps and its key, the sequence number of the call's last byte. The
// mark travels with that byte: tcp_fragment/tso_fragment move it to the
// piece that holds it, tcp_eat_one_skb onto the skb that swallows it
// (tcp_mtu_probe takes a marked skb into its probe only as the last whole
// one), and a partial ACK stamps a key inside the skb. A stamp is an
// error queue entry (errqueue.h, origin SO_EE_ORIGIN_TIMESTAMPING, ee_errno
// ENOMSG) with the model's time:
//   SCHED  when the skb enters the qdisc (__dev_queue_xmit),
//   SND    when the driver takes it (skb_tx_timestamp in tun_net_xmit);
//          the model's qdisc and NIC are one FIFO, so both at transmission;
//   ACK    when a cumulative ACK covers the key (tcp_ack_tstamp).
// ee_data is the key less sk_tskey with OPT_ID (a byte count from the
// moment OPT_ID was enabled: snd_una then, or write_seq with OPT_ID_TCP),
// else 0. Without OPT_TSONLY the entry carries a copy of the packet: the
// IP and TCP headers and payload at SCHED/SND, the payload still queued at
// ACK (observed on 6.18), which MSG_ERRQUEUE reads like data.

#include <cstdint>

#include "model/skb.h"

namespace sendsim::model {

// SOF_TIMESTAMPING_* (<linux/net_tstamp.h>).
inline constexpr uint32_t kSofTxHardware = 1 << 0;
inline constexpr uint32_t kSofTxSoftware = 1 << 1;
inline constexpr uint32_t kSofRxSoftware = 1 << 3;
inline constexpr uint32_t kSofSoftware = 1 << 4;
inline constexpr uint32_t kSofOptId = 1 << 7;
inline constexpr uint32_t kSofTxSched = 1 << 8;
inline constexpr uint32_t kSofTxAck = 1 << 9;
inline constexpr uint32_t kSofOptTsonly = 1 << 11;
inline constexpr uint32_t kSofOptStats = 1 << 12;
inline constexpr uint32_t kSofOptIdTcp = 1 << 16;
inline constexpr uint32_t kSofOptRxFilter = 1 << 17;
// SOF_TIMESTAMPING_TX_RECORD_MASK: the flags that mark a call's last skb.
inline constexpr uint32_t kSofTxRecordMask = kSofTxHardware | kSofTxSoftware | kSofTxSched | kSofTxAck;

// skb_shinfo(skb)->tx_flags bits (SKBTX_*) the model keeps.
inline constexpr uint8_t kSkbTxSwTstamp = 1 << 1;
inline constexpr uint8_t kSkbTxSchedTstamp = 1 << 6;

// The socket's side (struct sock).
struct TxTimestampState {
  uint32_t tsflags = 0;  // sk_tsflags (SO_TIMESTAMPING)
  uint64_t tskey = 0;    // sk_tskey: OPT_ID's base, a sequence number
};

// tcp_has_tx_tstamp: the skb carries a mark.
inline bool HasTxTstamp(const Skb& skb) { return skb.txstamp_ack || skb.tx_flags != 0; }
// tcp_fragment_tstamp: `skb` was cut, `buff` holds its tail.
void FragmentTstamp(Skb& skb, Skb& buff);
// tcp_skb_collapse_tstamp: `skb` swallowed `next`.
void CollapseTstamp(Skb& skb, const Skb& next);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_TX_TIMESTAMP_H_
