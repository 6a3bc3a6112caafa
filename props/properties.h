#ifndef SENDSIM_PROPS_PROPERTIES_H_
#define SENDSIM_PROPS_PROPERTIES_H_

// The properties of issue 5 as plain functions of a concrete Case. Each
// property = a precondition (in its name and comment; a case that does not
// meet it is kSkipped) + a body. Bodies are public so that negative controls
// can run them on a deliberately wrong writer or mutation and assert that
// they FAIL. RapidCheck wrappers, fixtures and the explorer all call these.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "props/case.h"
#include "props/outcome.h"
#include "props/runner.h"

namespace sendsim::props {

enum class Verdict : uint8_t { kHolds, kFails, kSkipped };
absl::string_view VerdictName(Verdict v);

// One "claimed better" vs "other" comparison, for statistics.
struct Comparison {
  std::string label;  // e.g. "v1-notlast@linux-4.19 vs v1-legacy@linux-4.19"
  int64_t better_sub_mss = 0, other_sub_mss = 0;
  int64_t better_packets = 0, other_packets = 0;
};

struct PropertyResult {
  Verdict verdict = Verdict::kHolds;
  std::string detail;  // why it failed / was skipped, with outcomes
  std::vector<Comparison> comparisons;
  std::map<uint32_t, uint64_t> runts;  // runt sizes of the primary run
  // A judged case that could have told a wrong writer apart: the compared
  // runs differ, some alternative assignment differs, or the layout bound
  // is more than one segment per unit. The harness floors the share of
  // decisive cases so that a generator that drifts into ties fails CI.
  bool decisive = false;
};

// --- 1. Integrity (precondition: none beyond a writer that exists on the
// profile): the decoder validates every frame and crc of what arrived, and
// gets exactly the queued messages when the run completed.
PropertyResult Integrity_AnyWriterProfileConfig(const Case& c, const Runner& run);
PropertyResult IntegrityBody(const Case& c, const Runner& run);

// --- 2. Liveness (precondition: one of the five real writers): every
// message is written and acknowledged before LivenessHorizonNs(c).
PropertyResult Liveness_RealWriter_BoundedTime(const Case& c, const Runner& run);
PropertyResult LivenessBody(const Case& c, const Runner& run);

// Stronger (precondition: a real writer and no revoke): complete, and no
// data waited for the probe0 timer. A revoke whose zero fill ends the stream
// is excluded because every real writer sends the last zero chunk with MORE
// (v4.19 and v5.0 write_partial_skip), so a sub-MSS tail of it stays corked
// until probe0 when nothing else is in flight (found by exploration).
PropertyResult Liveness_RealWriterNoRevoke_NoProbe0(const Case& c, const Runner& run);

// --- 3. Lower bound (precondition: writer v1-notlast, quiescent
// configuration per IsQuiescentConfig, and the run confirms that no ACK,
// completion or timer ran while a message was written): every flush run of
// L bytes (see FlushRuns) leaves in exactly ceil(L/MSS) segments of which
// at most one, the last, is sub-MSS.
PropertyResult LowerBound_NotlastQuiescent(const Case& c, const Runner& run);
PropertyResult FlushRunsMinimalBody(const Case& c, const Runner& run);
// The same claim with the window half of the precondition dropped (zero
// costs and ample buffers only). FALSE: a layout larger than the peer's
// first window (<= 65535 bytes, never scaled in the SYN-ACK) is cut at the
// window edge by the footer's Nagle-off push (tcp_mss_split_point sends
// `needed` = the window when Nagle allows partials), leaving a non-MSS
// segment mid-run and the rest for the ACK (fixture lower_bound_zero_cost-*).
PropertyResult LowerBound_NotlastZeroCost(const Case& c, const Runner& run);

// The layout's own bound, for units that end in MSG_EOR. Messages joined by
// more_to_follow form one flush unit (libceph sends their footers with
// MSG_MORE); a unit ends at a footer sent without MORE, which libceph
// always sends with MSG_EOR. The bound rests on skb->eor, not on a push:
// nothing is appended to an eor skb (tcp_skb_can_collapse_to; model/send.cc),
// so each unit starts a fresh skb and no segment spans two units, while a
// push inside a unit that does not leave at once (cwnd, autocork) is joined
// by the unit's later bytes. A unit of B v1 wire bytes cannot leave in fewer
// than ceil(B/MSS) segments, and holds a sub-MSS segment whenever B mod MSS
// != 0. Without EOR a held tail takes the next unit's bytes and a writer
// beats the bound (control-no-eor, fixture lower_bound_layout_no_eor-*).
struct LayoutBound {
  std::vector<uint64_t> unit_bytes;
  uint64_t packets = 0;  // sum of ceil(B/MSS)
  uint64_t runts = 0;    // units with B mod MSS != 0
};
LayoutBound LayoutLowerBound(const Layout& l, uint32_t mss);
// True when some unit is longer than one MSS: a push between two of its
// calls (there are at least the prefix and the footer) cuts a segment short,
// so a writer that pushes early misses the bound. Units of at most one MSS
// leave whole whatever the flags: such cases cannot tell writers apart.
bool LayoutBoundDecisive(const Layout& l, uint32_t mss);

// Precondition: a v1 writer that exists on the profile, no revoke, a
// quiescent configuration (IsQuiescentConfig) with TCP_NODELAY (libceph's
// default; with Nagle a unit's held tail merges into the next unit, which
// beats the bound for every writer), and a run in which nothing
// asynchronous interleaved a message's writes. Claim: the case's writer
// attains the bound, packets == LayoutBound::packets and sub-MSS ==
// LayoutBound::runts. The registry draws v1-notlast; negative controls run
// the same function on v1-legacy and a push-every-page writer.
PropertyResult LowerBound_LayoutQuiescent(const Case& c, const Runner& run);
// The claim without the precondition (negative controls, explanations).
PropertyResult LayoutBoundBody(const Case& c, const Runner& run);
// Why `c` is outside LowerBound_LayoutQuiescent's configuration
// precondition; empty when it qualifies.
std::string LayoutBoundPreconditionFailure(const Case& c);

// An upper bound on the skb frags one flush unit can need: a frag per data
// piece (distinct pages never coalesce), and for the kvec calls copied into
// sk_page_frag (tcp_sendmsg_locked) two per prefix and per 32 KiB of it, two
// per footer. At most MAX_SKB_FRAGS (17) means no skb of the unit is cut by
// the frag limit (`i >= sysctl_max_skb_frags` -> tcp_mark_push + new
// segment in tcp_sendmsg_locked and do_tcp_sendpages), which cuts the unit
// at a non-MSS point: lower_bound_layout's counterexamples.
uint32_t MaxUnitFrags(const Layout& l);
inline constexpr uint32_t kMaxSkbFrags = 17;
// LowerBound_LayoutQuiescent, on layouts with MaxUnitFrags <= kMaxSkbFrags.
PropertyResult LowerBound_LayoutQuiescentFewFrags(const Case& c, const Runner& run);

// --- 4. Optimality (precondition: sendpage profile): among all per-piece
// flag assignments over {MORE|NOTLAST, MORE, none} for the non-final pieces
// (the final data piece of each message fixed to MORE, as v1-notlast has
// it), `candidate` yields no more sub-MSS segments (+slack_sub) and no more
// packets (+slack_packets) than any other. Exhaustive when at most
// kExhaustiveFreePieces pieces are free (layouts up to 7 pieces with one
// message), else `samples` assignments drawn from the case seed.
inline constexpr int kExhaustiveFreePieces = 6;
// Data pieces whose flags an assignment may choose: all but each message's last.
uint32_t FreePieces(const Layout& l);
struct OptimalityOptions {
  int samples = 48;
  int64_t slack_sub = 0;
  int64_t slack_packets = 0;
  // Runtime quiescence: skip when the candidate's run had an asynchronous
  // event during a message's writes, and compare only against alternatives
  // whose runs had none either.
  bool require_no_async = false;
};
PropertyResult Optimality_NotlastAmongAssignments(const Case& c, const Runner& run,
                                                  OptimalityOptions opt = {});
PropertyResult AssignmentOptimalBody(const Case& c, const std::vector<PieceFlags>& candidate,
                                     const Runner& run, OptimalityOptions opt = {});
// Every assignment the optimality property compares (exhaustive or sampled).
std::vector<std::vector<PieceFlags>> AlternativeAssignments(const Layout& l, int samples, uint64_t seed);

// --- 5. Dominance (precondition: both writers exist on their profiles):
// sub-MSS(better) <= sub-MSS(other) + slack_sub and packets(better) <=
// packets(other) + slack_packets, same layout and configuration.
struct Side {
  Writer writer;
  std::string profile;  // empty: the case's profile
};
PropertyResult DominatesBody(const Case& c, const Side& better, const Side& other, const Runner& run,
                             int64_t slack_sub = 0, int64_t slack_packets = 0, bool require_no_async = false);
// v1-notlast vs v1-legacy on the case's (sendpage) profile.
PropertyResult Dominance_NotlastOverLegacy_SameProfile(const Case& c, const Runner& run);
// v1-cork vs v1-notlast on the case's (sendpage) profile.
PropertyResult Dominance_CorkOverNotlast_SameProfile(const Case& c, const Runner& run);
// v1-splice on linux-6.8 vs v1-notlast on linux-5.0 (the case's profile is ignored).
PropertyResult Dominance_Splice68OverNotlast50(const Case& c, const Runner& run);
// Dominance checked only on cases in a quiescent configuration (and, with
// `no_more_to_follow`, without more_to_follow): the precondition is the
// property's own, so a replayed case outside it is skipped, whatever
// generator made it.
// With `equality_claim` (the pair ties on every quiescent case: the claim
// is equality) a case is decisive when v1-notlast's flags change the wire
// on it (RuleMatters on `other`'s profile), not when the pair differs.
PropertyResult DominatesQuiescent(const Case& c, const Side& better, const Side& other, const Runner& run,
                                  bool no_more_to_follow, bool equality_claim = false);
// True when v1-notlast and push-every-page, on `profile` (empty: the case's),
// differ in sub-MSS segments or packets on the case: the page flags matter.
bool RuleMatters(const Case& c, const std::string& profile, const Runner& run);
// A paired measurement, not a dominance claim: v1-notlast against `other`
// on the same case outside the quiescent regime (a case in a quiescent
// configuration is skipped). The verdict holds on every run case; the
// comparison (strict win / tie / loss for v1-notlast) is what the explorer
// counts, with intervals, and the harness floors the share of non-ties.
PropertyResult CompareNotlastOutsideQuiescence(const Case& c, const Side& other, const Runner& run);
// Optimality (exhaustive over <= kExhaustiveFreePieces free pieces) on
// quiescent cases only. A case beyond the exhaustive limit, or with a
// revoke, is skipped with that reason: never judged by sampling.
PropertyResult Optimality_NotlastQuiescent(const Case& c, const Runner& run);

// --- 6. Determinism and invariants (precondition: none): two runs give the
// same trace hash and outcome; the model's invariants hold; wire-level
// invariants hold (no segment above MSS, first transmissions tile the
// written stream without gap or overlap, delivered == written on completion).
PropertyResult Determinism_AndInvariants_Any(const Case& c, const Runner& run);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_PROPERTIES_H_
