#ifndef SENDSIM_PACKETDRILL_OUTBOUND_H_
#define SENDSIM_PACKETDRILL_OUTBOUND_H_

// packetdrill's rules for outbound packets, shared by the model runner
// (match.cc) and the kernel target (kernel_script.cc): the timing tolerance,
// how consecutive captures are joined into the one packet a script line
// describes, and how the joined packet is compared with the line.
//
// Joining (unless --strict_segments): a line is matched against as many
// consecutive captures of the same connection as it takes to reach the
// line's payload length. The joined packet has the sequence number and CWR
// of the first piece and every other header field (flags, ack, window,
// options, time) of the last; PSH, FIN and CWR of the earlier pieces are not
// compared; each piece but the last carries as many payload bytes as the one
// before it; a capture of another connection is never joined (it is the
// next line's). The kernel sends `> P. 1:10001(10000)` as five 2000-byte TSO
// packets with PSH on each: one line.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

// What the caller can set per run; a script's own `--tolerance_usecs=`,
// `--tolerance_percent=` and `--strict_segments` lines override it.
struct MatchRules {
  int64_t tolerance_usecs = 4000;
  double tolerance_percent = 12.5;
  bool strict_segments = false;
  // --record: outbound lines are not checked; every packet the target sends
  // is kept (Result::sent) as a script line, for writing a script or
  // comparing the model with a kernel on the same inbound packets and calls.
  bool record = false;
};

// How far from its script time an event may happen: the larger of
// tolerance_usecs and tolerance_percent of `gap_ns`, the time since the
// previous event (packetdrill's --tolerance_usecs and --tolerance_percent).
int64_t ToleranceNs(const MatchRules& rules, int64_t gap_ns);

// Applies the script's option lines to `rules`; an error ("path:line: ...")
// names a bad value. Other options are left to the caller.
absl::Status ApplyMatchOptions(const Script& script, MatchRules* rules);

// A packet as packetdrill's tun device captures it (script-relative numbers).
struct Capture {
  int64_t t = 0;  // ns since the script's start
  uint32_t seq = 0;
  uint32_t len = 0;
  uint8_t flags = 0;
  uint32_t ack = 0;
  uint32_t win = 0;
  std::vector<TcpOption> options;
  uint64_t flow = 0;  // addresses and ports: captures of different flows are never joined
  uint8_t ecn = 0;    // the IP header's ECN field (kEcnNotEct ... kEcnCe)
  bool win_unknown = false;  // model target: Linux's window may differ (ScriptSocket::Receive::wnd_unknown)
};

// The IP header's ECN field (RFC 3168).
inline constexpr uint8_t kEcnNotEct = 0;
inline constexpr uint8_t kEcnEct1 = 1;
inline constexpr uint8_t kEcnEct0 = 2;
inline constexpr uint8_t kEcnCe = 3;

// The field an inbound packet's "[noecn]", "[ect0]", "[ect1]" or "[ce]"
// marking asks for (no marking: Not-ECT); nullopt for "[ect01]", which only
// an outbound line may use (either ECT codepoint).
std::optional<uint8_t> InboundEcn(const std::string& marking);

// Whether `next` joins the pieces in `group` (non-empty) for a line of
// `want` payload bytes.
bool JoinsGroup(const MatchRules& rules, const std::vector<Capture>& group, const Capture& next, uint32_t want);

// The pieces as one packet.
Capture JoinCaptures(const std::vector<Capture>& group);

// The first way the joined packet differs from the line other than in time;
// empty when they match.
std::string OutboundDifference(const PacketEvent& p, const std::vector<Capture>& group, const Capture& joined);

// The failure message for a difference: "what: expected X, got Y (N segments)".
std::string OutboundMismatch(const std::string& what, const PacketEvent& p, const std::vector<Capture>& group,
                             const Capture& joined);

// tcpdump-like text of the line and of a capture.
std::string ExpectedText(const PacketEvent& p);
std::string CaptureText(const Capture& c);
// A capture as an outbound script line with its time, as --record prints
// it: "0.100000 > [ect0] P. 1:1001(1000) ack 1 win 257 <...>".
std::string CaptureLine(const Capture& c);
std::string OptionsText(const std::vector<TcpOption>& opts);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_OUTBOUND_H_
