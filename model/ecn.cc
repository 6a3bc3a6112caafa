// Classic ECN (RFC 3168) on the sending side: an ACK with ECE puts the
// socket into TCP_CA_CWR, whose cwnd reduction is the proportional rate
// reduction of tcp_cwnd_reduction (as read in 6.1 and 6.12, which agree;
// older kernels' variant is not modelled, every profile uses this one),
// and the next new data segment carries CWR. The receiving side (CE marks
// and the ECE echo) lives with the packetdrill runner, which generates our
// ACKs. Only reachable with ConnectionConfig::ecn (the handshake agreed).

#include <algorithm>

#include "model/recovery_flags.h"
#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_enter_cwr: once per window (no-op in CWR, Recovery or Loss). ECN
// proves congestion, so there is no undo.
void TcpSock::EnterCwr() {
  prior_ssthresh_ = 0;
  if (ca_state_ >= CaState::kCwr) return;
  undo_marker_set_ = false;
  InitCwndReduction();
  SetCaState(CaState::kCwr);
}

// tcp_init_cwnd_reduction: the start of a PRR reduction (CWR or
// Recovery); ssthresh from the congestion control (CUBIC's side effects).
void TcpSock::InitCwndReduction() {
  high_seq_ = snd_nxt_;
  tlp_high_seq_ = 0;
  snd_cwnd_cnt_ = 0;
  prior_cwnd_ = snd_cwnd_;
  prr_delivered_ = 0;
  prr_out_ = 0;
  snd_ssthresh_ = CaSsthresh();
  if (config_.ecn) ecn_queue_cwr_ = true;  // tcp_ecn_queue_cwr
}

// tcp_cwnd_reduction (PRR, RFC 6937): while more than ssthresh is in
// flight, send ssthresh/prior_cwnd of what is delivered; below it, as much
// as is delivered plus one when snd_una advanced without new losses, up to
// ssthresh; at least one segment before any was sent in the reduction (the
// fast retransmit).
void TcpSock::CwndReduction(uint32_t newly_acked_sacked, uint32_t newly_lost, int flag) {
  if (newly_acked_sacked == 0 || prior_cwnd_ == 0) return;
  const int64_t in_flight = PacketsInFlight();
  const int64_t delta = static_cast<int64_t>(snd_ssthresh_) - in_flight;
  prr_delivered_ += newly_acked_sacked;
  int64_t sndcnt;
  if (delta < 0) {
    const uint64_t dividend = static_cast<uint64_t>(snd_ssthresh_) * prr_delivered_ + prior_cwnd_ - 1;
    sndcnt = static_cast<int64_t>(dividend / prior_cwnd_) - prr_out_;
  } else {
    sndcnt = std::max<int64_t>(static_cast<int64_t>(prr_delivered_) - prr_out_, newly_acked_sacked);
    if ((flag & kFlagSndUnaAdvanced) && newly_lost == 0) ++sndcnt;
    sndcnt = std::min(delta, sndcnt);
  }
  sndcnt = std::max<int64_t>(sndcnt, prr_out_ != 0 ? 0 : 1);
  snd_cwnd_ = static_cast<uint32_t>(in_flight + sndcnt);
}

// tcp_end_cwnd_reduction: cwnd falls to ssthresh at the end of CWR, or of
// Recovery unless the reduction was undone (undo_marker cleared).
void TcpSock::EndCwndReduction() {
  if (snd_ssthresh_ < kTcpInfiniteSsthresh && (ca_state_ == CaState::kCwr || undo_marker_set_)) {
    snd_cwnd_ = snd_ssthresh_;
    snd_cwnd_stamp_ = Jiffies();
  }
}

// tcp_ecn_send: on an ECN connection new data goes out ECT(0) and the first
// of it after a reduction carries CWR; pure ACKs, data-less FINs, window
// probes and retransmissions go out Not-ECT (INET_ECN_dontxmit).
void TcpSock::EcnSend(XmitSkb& x, const Skb& skb, bool retransmit) {
  if (!config_.ecn) return;
  if (skb.len() == 0 || retransmit || skb.seq < snd_nxt_) return;
  x.ect = true;
  if (ecn_queue_cwr_) {
    ecn_queue_cwr_ = false;
    x.tcp_flags |= kTcpCwr;
  }
}

}  // namespace sendsim::model
