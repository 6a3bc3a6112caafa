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

// tcp_tso_should_defer's last test: is the next ACK due soon enough for a
// TSO skb to wait for it? srtt_us8 is srtt_us (1/8 us units). v6.x (read
// from 6.1 and 6.12): the rtx head's ACK is expected at its send time +
// srtt, and waiting is allowed only if that is at most min(srtt / 2, 1 ms)
// away. v4.19: allowed once the head is at least srtt / 2 old (whole us).
inline bool TsoDeferAckDueSoonRule(int64_t now_ns, int64_t head_sent_ns, uint32_t srtt_us8, bool capped_1ms) {
  if (capped_1ms) {
    const int64_t srtt_ns = static_cast<int64_t>(srtt_us8) * 125;  // NSEC_PER_USEC >> 3
    const int64_t due_in = head_sent_ns + srtt_ns - now_ns;
    return due_in <= std::min<int64_t>(srtt_ns >> 1, 1000000);
  }
  return (now_ns - head_sent_ns) / 1000 >= static_cast<int64_t>(srtt_us8 >> 4);
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
