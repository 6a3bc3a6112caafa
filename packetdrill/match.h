#ifndef SENDSIM_PACKETDRILL_MATCH_H_
#define SENDSIM_PACKETDRILL_MATCH_H_

// The outbound side: what packetdrill sniffs on its tun device and checks
// against the script's outbound packets ("> ..."). OnXmit is the tun device:
// it records each skb the model socket transmits as the captures packetdrill
// would see (whole TSO skbs with TSO on, MSS segments with it off).
// MatchOutbound is packetdrill's verify_outbound_live_packet: it takes the
// next captures (joined up to the line's length unless --strict_segments, by
// outbound.h's rules), then compares flags, sequence, length, ack, window,
// options and time, naming the first difference.

#include "absl/status/status.h"
#include "model/types.h"
#include "model/wire.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// The model transmitted an skb: record it as the tun device would see it
// and complete it at once (tun orphans the skb on transmit).
void OnXmit(RunState& run, const model::XmitSkb& skb);

// Matches the outbound packet `p` of event `e`, expected at `t` within
// [lo, hi]. `*last` is when its last capture left.
absl::Status MatchOutbound(RunState& run, const Event& e, const PacketEvent& p, model::TimeNs t, model::TimeNs lo,
                           model::TimeNs hi, model::TimeNs* last);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_MATCH_H_
