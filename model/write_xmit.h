#ifndef SENDSIM_MODEL_WRITE_XMIT_H_
#define SENDSIM_MODEL_WRITE_XMIT_H_

// Pure rules of tcp_write_xmit and its helpers (tcp_output.c). The loop
// itself, tso_fragment and TSQ are TcpSock members in write_xmit.cc.

#include <algorithm>
#include <cstdint>

#include "model/constants.h"

namespace sendsim::model {

// tcp_nagle_check: true = hold a partial (sub-MSS) segment. CORK holds any
// partial; mode 0 holds only while a short segment is unacked (Minshall) and
// data is in flight; OFF never holds.
inline bool NagleCheckRule(bool partial, int nonagle, uint32_t packets_out, bool minshall_unacked) {
  return partial && ((nonagle & kTcpNagleCork) || (nonagle == 0 && packets_out > 0 && minshall_unacked));
}

// tcp_cwnd_test (without the FIN exception): segments allowed now, at most
// half the cwnd in one burst.
inline uint32_t CwndQuotaRule(uint32_t in_flight, uint32_t cwnd) {
  if (in_flight >= cwnd) return 0;
  return std::min(std::max(cwnd >> 1, 1U), cwnd - in_flight);
}

// tcp_set_skb_tso_segs: pcount is 1 exactly when len <= mss.
inline uint32_t TsoSegsForLen(uint32_t len, uint32_t mss) { return len <= mss ? 1 : (len + mss - 1) / mss; }

// tcp_tso_autosize + tcp_tso_segs: burst size in segments from the pacing
// rate (~1 ms of data), at least tcp_min_tso_segs. v6.x adds
// gso_max_size >> (min_rtt_us >> tcp_tso_rtt_log) and clamps to gso_max_size.
uint32_t TsoAutosizeRule(uint64_t pacing_rate, uint32_t mss_now, bool rtt_term, uint32_t min_rtt_us, int tso_rtt_log,
                         uint32_t min_tso_segs = kTcpMinTsoSegs);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_WRITE_XMIT_H_
