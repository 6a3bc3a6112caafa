// Inbound ICMP on the model (icmp.h).

#include "packetdrill/icmp.h"

#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "packetdrill/icmp_names.h"
#include "packetdrill/reset.h"

namespace sendsim::packetdrill {

absl::Status InjectIcmp(RunState& run, const Event& e, const PacketEvent& p) {
  if (absl::Status st = IcmpUnmodelled(p); !st.ok()) return run.At(e.line, st);
  const IcmpMessage& m = *p.icmp;
  if (m.code != "frag_needed") {
    return run.Skip(e.line, absl::StrFormat("ICMP %s is not modelled (only unreachable frag_needed is)", IcmpName(m)));
  }
  if (run.settings.ipv6) return run.Skip(e.line, "ICMP on an IPv6 connection is not modelled");
  // tcp_v4_err: no socket (reset, closed) or a timewait socket ignores it.
  if (run.sock.tw.alive || ConnectionGone(run)) return absl::OkStatus();
  // A listener ignores it; a request socket or SYN-SENT (tcp_req_err,
  // tcp_v4_mtu_reduced on the SYN) are the runner's handshake, not modelled.
  if (!run.sock.ep) return run.Skip(e.line, "ICMP before the connection is established is not modelled");
  // Script numbers count from our ISN (1: the first data byte); the model's
  // from the first data byte (0).
  run.sock.ep->IcmpFragNeeded(m.seq_start - 1, *m.mtu);
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
