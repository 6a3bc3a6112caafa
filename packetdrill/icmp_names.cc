#include "packetdrill/icmp_names.h"

#include <utility>

#include "absl/strings/str_format.h"

namespace sendsim::packetdrill {
namespace {

constexpr std::pair<std::string_view, uint8_t> kV4Types[] = {
    {"echo_reply", 0},           {"unreachable", 3},           {"source_quench", 4},
    {"redirect", 5},             {"echo_request", 8},          {"time_exceeded", 11},
    {"parameter_problem", 12},   {"timestamp_request", 13},    {"timestamp_reply", 14},
    {"information_request", 15}, {"information_reply", 16},    {"address_mask_request", 17},
    {"address_mask_reply", 18},
};

constexpr std::pair<std::string_view, uint8_t> kUnreachCodes[] = {
    {"net_unreachable", 0},         {"host_unreachable", 1},          {"protocol_unreachable", 2},
    {"port_unreachable", 3},        {"frag_needed", 4},               {"source_route_failed", 5},
    {"net_unknown", 6},             {"host_unknown", 7},              {"source_host_isolated", 8},
    {"net_prohibited", 9},          {"host_prohibited", 10},          {"net_unreachable_for_tos", 11},
    {"host_unreachable_for_tos", 12}, {"packet_filtered", 13},        {"precedence_violation", 14},
    {"precedence_cutoff", 15},
};

}  // namespace

std::optional<uint8_t> IcmpV4Type(std::string_view name) {
  for (const auto& [n, v] : kV4Types) {
    if (n == name) return v;
  }
  return std::nullopt;
}

std::optional<uint8_t> IcmpV4UnreachCode(std::string_view name) {
  for (const auto& [n, v] : kUnreachCodes) {
    if (n == name) return v;
  }
  return std::nullopt;
}

bool IsIcmpTypeName(std::string_view name) { return IcmpV4Type(name).has_value() || name == "packet_too_big"; }

absl::Status IcmpUnmodelled(const PacketEvent& p) {
  const IcmpMessage& m = *p.icmp;
  if (!p.inbound) return absl::UnimplementedError("outbound ICMP packets are not modelled");
  if (m.type == "packet_too_big") return absl::UnimplementedError("ICMPv6 (packet too big) is not modelled");
  if (!m.quoted_other.empty()) {
    return absl::UnimplementedError(
        absl::StrFormat("an ICMP message quoting a %s datagram is not modelled", m.quoted_other));
  }
  if (!m.quotes_tcp) {
    return absl::UnimplementedError("an ICMP message without a quoted TCP segment ([start:end(len)]) is not modelled");
  }
  return absl::OkStatus();
}

std::string IcmpName(const IcmpMessage& m) { return m.code.empty() ? m.type : m.type + " " + m.code; }

}  // namespace sendsim::packetdrill
