#ifndef SENDSIM_PACKETDRILL_RUNNER_H_
#define SENDSIM_PACKETDRILL_RUNNER_H_

// Runs a packetdrill script against the model. The model plays the local
// socket, the script the remote peer.
//
// Semantics (upstream packetdrill's):
// - Times: absolute "0.1", relative "+.1" (from when the previous event
//   actually completed; an inbound packet after an inbound packet counts from
//   the previous script time), ranges "a~b", blocking calls "a...b" (when a
//   is relative, b counts from the same base as a, the previous event, as in
//   upstream's adjust_relative_event_times; b written "+b" counts from a;
//   later events count from a),
//   "*" (any time). Tolerance: max(--tolerance_usecs (4000), --tolerance_percent
//   (12.5) of the gap since the previous event); outbound.h.
// - Outbound lines are matched against captured packets in order. Without
//   --strict_segments consecutive captures are joined up to the line's
//   length (outbound.h has the rules); with it, one capture per line.
//   Captures are what packetdrill's tun device sees: whole TSO skbs with TSO
//   on, MSS segments with TSO off.
// - Unsupported constructs make the script SKIP with the reason; they never
//   PASS.

#include <string>
#include <utility>
#include <vector>

#include "model/profile.h"
#include "packetdrill/ast.h"
#include "packetdrill/endpoint.h"
#include "packetdrill/outbound.h"

namespace sendsim::packetdrill {

enum class Verdict { kPass, kFail, kSkip };

struct Result {
  Result() = default;
  Result(Verdict v, std::string r) : verdict(v), reason(std::move(r)) {}

  Verdict verdict = Verdict::kPass;
  std::string reason;  // "path:line: ..." for FAIL and SKIP
  // With MatchRules::record: every packet sent up to the end (or the FAIL or
  // SKIP), oldest first, each a CaptureLine.
  std::vector<std::string> sent;
};

// `rules` are the caller's (command-line) tolerance and --strict_segments;
// the script's option lines override them.
Result RunParsedScript(const Script& script, const model::Profile& profile, const EndpointFactory& factory,
                       const MatchRules& rules = {});

// Parses and runs; a parse error is a FAIL with the parser's message.
Result RunScript(const std::string& path, const model::Profile& profile, const EndpointFactory& factory,
                 const MatchRules& rules = {});

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_RUNNER_H_
