#ifndef SENDSIM_PACKETDRILL_ICMP_H_
#define SENDSIM_PACKETDRILL_ICMP_H_

// Inbound ICMP on the model: "fragmentation needed" about one of our
// segments (path MTU discovery) reaches the model socket as tcp_v4_err
// delivers it (model::TcpSock::IcmpFragNeeded). Other ICMP errors skip.

#include "absl/status/status.h"
#include "packetdrill/ast.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// Injects the ICMP line `p` of event `e` now.
absl::Status InjectIcmp(RunState& run, const Event& e, const PacketEvent& p);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_ICMP_H_
