#ifndef SENDSIM_PACKETDRILL_ICMP_NAMES_H_
#define SENDSIM_PACKETDRILL_ICMP_NAMES_H_

// The ICMP type and code names of upstream packetdrill's scripts
// ("icmp unreachable frag_needed mtu 1200 [...]"), with their IPv4 values
// (RFC 792, RFC 1191). Parser-only: no runner dependencies.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

inline constexpr uint8_t kIcmpDestUnreach = 3;   // ICMP_DEST_UNREACH
inline constexpr uint8_t kIcmpFragNeeded = 4;    // ICMP_FRAG_NEEDED (code of kIcmpDestUnreach)

// An ICMPv4 type by its script name; nullopt for a name upstream gives only
// ICMPv6 ("packet_too_big") or none at all.
std::optional<uint8_t> IcmpV4Type(std::string_view name);
// A "destination unreachable" code by its script name (0..15).
std::optional<uint8_t> IcmpV4UnreachCode(std::string_view name);
// Whether `name` is an ICMP type a script may write (IPv4 or IPv6).
bool IsIcmpTypeName(std::string_view name);

// Why neither target runs the ICMP line `p` (an UnimplementedError whose
// message is the skip reason), or OK: outbound ICMP, ICMPv6's packet too
// big, and messages that quote no TCP segment of ours.
absl::Status IcmpUnmodelled(const PacketEvent& p);
// "TYPE CODE", or "TYPE" when the line names no code.
std::string IcmpName(const IcmpMessage& m);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_ICMP_NAMES_H_
