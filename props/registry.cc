#include "props/registry.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::props {
namespace {

using Check = std::function<PropertyResult(const Case&, const Runner&)>;

CaseLimits SendpageOnly(CaseLimits l) {
  l.profiles = {"linux-4.19", "linux-5.0"};
  return l;
}

PropertySpec Spec(std::string name, std::string summary, CaseLimits limits, Check check, bool expected_to_hold = true,
                  std::vector<std::string> weaker = {}) {
  PropertySpec s;
  s.name = std::move(name);
  s.summary = std::move(summary);
  s.limits = std::move(limits);
  s.check = std::move(check);
  s.expected_to_hold = expected_to_hold;
  s.weaker = std::move(weaker);
  return s;
}

PropertySpec WithFloors(PropertySpec s, double min_judged_share, double min_decisive_share,
                        std::vector<PropertySpec::MustKill> must_kill = {}) {
  s.floors = Floors{min_judged_share, min_decisive_share};
  s.must_kill = std::move(must_kill);
  return s;
}

// The registry in groups: integrity and liveness; lower bounds; optimality;
// comparisons as the issue stated them; comparisons under narrower
// preconditions.
void AddIntegrityAndLiveness(std::vector<PropertySpec>* out) {
  std::vector<PropertySpec>& v = *out;
  const CaseLimits any;
  v.push_back(Spec("integrity", "decoder gets exactly the sent messages, every crc checks (any writer/profile/config)",
                   any, [](const Case& c, const Runner& r) { return Integrity_AnyWriterProfileConfig(c, r); }));
  v.back().floors = {0.8, 0};
  v.push_back(Spec("liveness",
                   "real writers: every message written and acknowledged within 30 s simulated + one RTT per segment",
                   any,
                   [](const Case& c, const Runner& r) { return Liveness_RealWriter_BoundedTime(c, r); }));
  v.back().floors = {0.8, 0};
  // Known false for v1-cork: TCP_CORK held while the writer waits for send
  // buffer space keeps a sub-MSS tail with nothing in flight until the
  // probe0 timer (fixtures liveness_no_probe0-*).
  v.push_back(Spec("liveness_no_probe0", "real writers, no revoke: complete without data waiting for probe0", any,
                   [](const Case& c, const Runner& r) { return Liveness_RealWriterNoRevoke_NoProbe0(c, r); },
                   /*expected_to_hold=*/false, {"integrity", "liveness"}));
  CaseLimits uncorked = any;
  uncorked.layout.allow_revoke = false;
  uncorked.writers.erase(std::remove(uncorked.writers.begin(), uncorked.writers.end(), WriterKind::kV1Cork),
                         uncorked.writers.end());
  v.push_back(Spec("liveness_no_probe0_uncorked",
                   "real writers but v1-cork, no revoke: complete without data waiting for probe0", uncorked,
                   [](const Case& c, const Runner& r) {
                     if (c.writer == WriterKind::kV1Cork) return PropertyResult{Verdict::kSkipped, "v1-cork", {}, {}};
                     return Liveness_RealWriterNoRevoke_NoProbe0(c, r);
                   }));
  v.back().floors = {0.8, 0};
}

void AddLowerBounds(std::vector<PropertySpec>* out) {
  std::vector<PropertySpec>& v = *out;
  const CaseLimits any;
    CaseLimits l = SendpageOnly(any);
    l.writers = {WriterKind::kV1Notlast};
    l.config.quiescent = true;
    // Known false: zero costs and ample buffers, but layouts beyond the
    // peer's 64 KiB first window (see IsQuiescentConfig).
    v.push_back(Spec("lower_bound_zero_cost",
                     "v1-notlast, zero costs, ample buffers, any layout size: flush runs in ceil(L/MSS) segments", l,
                     [](const Case& c, const Runner& r) { return LowerBound_NotlastZeroCost(c, r); },
                     /*expected_to_hold=*/false, {"integrity", "liveness"}));
    l.config.fits_initial_window = true;
    l.layout.max_pieces = 15;
    {
      CaseLimits lb = l;
      lb.layout.allow_revoke = false;
      lb.config.nodelay = true;
      // Known false: the 17-frag limit cuts a unit of many small pieces at
      // a non-MSS point (fixtures lower_bound_layout-*, ~0.01 % of cases).
      v.push_back(Spec("lower_bound_layout",
                       "v1-notlast, quiescent network, TCP_NODELAY, no revoke: packets = sum of ceil(B/MSS) and "
                       "sub-MSS = units with B mod MSS != 0, B = v1 bytes between footers sent without MORE",
                       lb, [](const Case& c, const Runner& r) { return LowerBound_LayoutQuiescent(c, r); },
                       /*expected_to_hold=*/false, {"integrity", "liveness", "lower_bound_quiescent"}));
      v.push_back(WithFloors(
          Spec("lower_bound_layout_few_frags",
               "lower_bound_layout on layouts whose flush units need at most 17 skb frags (MaxUnitFrags)", lb,
               [](const Case& c, const Runner& r) { return LowerBound_LayoutQuiescentFewFrags(c, r); }),
          0.7, 0.3,
          {{HookWriter::kMutantPushEveryPage, 0.5},
           {HookWriter::kMutantDropMore, 0},
           {HookWriter::kMutantPushRandom, 0}}));
      // The control: units that end without MSG_EOR. Known false: the
      // footer's skb stays open, an autocorked or cwnd-held tail takes the
      // next message's first bytes, and the writer beats the bound
      // (fixture lower_bound_layout_no_eor-*).
      v.push_back(Spec("lower_bound_layout_no_eor",
                       "lower_bound_layout_few_frags for a writer whose calls never carry MSG_EOR (control-no-eor)",
                       lb,
                       [](const Case& c, const Runner& r) {
                         Case x = c;
                         if (x.writer == WriterKind::kV1Notlast) x.writer = HookWriter::kControlNoEor;
                         return LowerBound_LayoutQuiescentFewFrags(x, r);
                       },
                       /*expected_to_hold=*/false, {"integrity", "liveness"}));
    }
    // Kills no mutant: a run ends at every PSH, so early pushes only make
    // shorter runs (why the layout bound exists).
    v.push_back(WithFloors(
        Spec("lower_bound_quiescent",
             "v1-notlast, quiescent network (zero costs, layout inside the first window): each flush run of L "
             "bytes in ceil(L/MSS) segments, only the last sub-MSS",
             l, [](const Case& c, const Runner& r) { return LowerBound_NotlastQuiescent(c, r); }),
        0.8, 0.3));
}

void AddOptimality(std::vector<PropertySpec>* out) {
  std::vector<PropertySpec>& v = *out;
  const CaseLimits any;
    CaseLimits l = SendpageOnly(any);
    l.writers = {WriterKind::kV1Notlast};
    l.layout.max_pieces = 7;
    l.layout.min_pieces = 2;
    l.layout.max_messages = 1;
    l.layout.allow_revoke = false;
    v.push_back(Spec("optimality",
                     "v1-notlast flags vs every assignment (<= 7 pieces, exhaustive): no more sub-MSS, no more packets",
                     l, [](const Case& c, const Runner& r) { return Optimality_NotlastAmongAssignments(c, r); },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
    l.layout.min_pieces = 8;
    l.layout.max_pieces = 64;
    l.layout.max_messages = 2;
    v.push_back(Spec("optimality_sampled", "v1-notlast flags vs sampled assignments (8..64 pieces)", l,
                     [](const Case& c, const Runner& r) {
                       return Optimality_NotlastAmongAssignments(c, r, {16, 0, 0});
                     },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
}

void AddComparisons(std::vector<PropertySpec>* out) {
  std::vector<PropertySpec>& v = *out;
  const CaseLimits any;
    CaseLimits l = SendpageOnly(any);
    l.writers = {WriterKind::kV1Notlast};
    v.push_back(Spec("dominance_notlast_legacy", "sub-MSS and packets: v1-notlast <= v1-legacy, same profile", l,
                     [](const Case& c, const Runner& r) { return Dominance_NotlastOverLegacy_SameProfile(c, r); },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
    v.push_back(Spec("dominance_cork_notlast", "sub-MSS and packets: v1-cork <= v1-notlast, same profile", l,
                     [](const Case& c, const Runner& r) { return Dominance_CorkOverNotlast_SameProfile(c, r); },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
    v.push_back(Spec("dominance_splice68_notlast50", "sub-MSS and packets: v1-splice@6.8 <= v1-notlast@5.0", l,
                     [](const Case& c, const Runner& r) { return Dominance_Splice68OverNotlast50(c, r); },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
}

void AddNarrowComparisons(std::vector<PropertySpec>* out) {
  std::vector<PropertySpec>& v = *out;
  const CaseLimits any;
  // Narrower preconditions for the comparisons (exploration decides which
  // hold; see the fixtures and props/README.md).
    CaseLimits q = SendpageOnly(any);
    q.writers = {WriterKind::kV1Notlast};
    q.config.quiescent = true;
    q.config.fits_initial_window = true;
    q.layout.max_pieces = 15;
    CaseLimits small = q;
    small.layout.max_pieces = 7;
    small.layout.min_pieces = 2;
    small.layout.max_messages = 1;
    small.layout.allow_revoke = false;
    v.push_back(WithFloors(
        Spec("optimality_quiescent", "optimality (<= 7 pieces, exhaustive) in a quiescent network", small,
             [](const Case& c, const Runner& r) { return Optimality_NotlastQuiescent(c, r); }),
        0.8, 0.3,
        {{HookWriter::kMutantPushEveryPage, 0},
         {HookWriter::kMutantDropMore, 0},
         {HookWriter::kMutantPushRandom, 0}}));
    CaseLimits na = SendpageOnly(any);
    na.writers = {WriterKind::kV1Notlast};
    na.layout = small.layout;
    v.push_back(Spec("optimality_no_async",
                     "optimality (<= 7 pieces, exhaustive) among runs where nothing asynchronous interleaves a "
                     "message's writes",
                     na, [](const Case& c, const Runner& r) {
                       return Optimality_NotlastAmongAssignments(c, r, {48, 0, 0, true});
                     },
                     /*expected_to_hold=*/false, {"integrity", "liveness", "determinism_invariants"}));
    auto dom = [](Side b, Side o, bool no_async) {
      return [b, o, no_async](const Case& c, const Runner& r) { return DominatesBody(c, b, o, r, 0, 0, no_async); };
    };
    // The quiescent comparisons check their precondition themselves.
    auto domq = [](Side b, Side o, bool no_more_to_follow, bool equality = false) {
      return [b, o, no_more_to_follow, equality](const Case& c, const Runner& r) {
        return DominatesQuiescent(c, b, o, r, no_more_to_follow, equality);
      };
    };
    const std::vector<PropertySpec::MustKill> all_but_drop_notlast = {
        {HookWriter::kMutantPushEveryPage, 0}, {HookWriter::kMutantDropMore, 0}, {HookWriter::kMutantPushRandom, 0}};
    const Side notlast{WriterKind::kV1Notlast, ""}, legacy{WriterKind::kV1Legacy, ""}, cork{WriterKind::kV1Cork, ""};
    const Side splice68{WriterKind::kV1Splice, "linux-6.8"}, notlast50{WriterKind::kV1Notlast, "linux-5.0"};
    v.push_back(WithFloors(Spec("dominance_notlast_legacy_quiescent", "v1-notlast <= v1-legacy in a quiescent network",
                                q, domq(notlast, legacy, false)),
                           0.8, 0.2, {{HookWriter::kMutantPushEveryPage, 0}, {HookWriter::kMutantPushRandom, 0}}));
    v.push_back(Spec("dominance_cork_notlast_quiescent", "v1-cork <= v1-notlast in a quiescent network", q,
                     domq(cork, notlast, false), /*expected_to_hold=*/false,
                     {"dominance_notlast_legacy_quiescent", "dominance_splice68_notlast50_quiescent"}));
    CaseLimits q1 = q;
    q1.layout.allow_more_to_follow = false;
    // Both tie on every quiescent case: stated and checked as equalities,
    // decisive where v1-notlast's flags change the wire (RuleMatters).
    v.push_back(WithFloors(Spec("dominance_cork_notlast_quiescent_no_more_to_follow",
                                "v1-cork == v1-notlast in a quiescent network when no message sets more_to_follow",
                                q1, domq(cork, notlast, true, true)),
                           0.8, 0.2, all_but_drop_notlast));
    v.push_back(WithFloors(Spec("dominance_splice68_notlast50_quiescent",
                                "v1-splice@6.8 == v1-notlast@5.0, quiescent network", q,
                                domq(splice68, notlast50, false, true)),
                           0.8, 0.2, all_but_drop_notlast));
    CaseLimits anyl = SendpageOnly(any);
    anyl.writers = {WriterKind::kV1Notlast};
    v.push_back(Spec("dominance_notlast_legacy_no_async",
                     "v1-notlast <= v1-legacy when neither run has an asynchronous event during a message's writes",
                     anyl, dom(notlast, legacy, true), /*expected_to_hold=*/false));
    v.push_back(Spec("dominance_cork_notlast_no_async", "v1-cork <= v1-notlast, no asynchronous event during writes",
                     anyl, dom(cork, notlast, true), /*expected_to_hold=*/false));
    v.push_back(Spec("dominance_splice68_notlast50_no_async",
                     "v1-splice@6.8 <= v1-notlast@5.0, no asynchronous event during writes", anyl,
                     dom(splice68, notlast50, true), /*expected_to_hold=*/false));
}

// Paired comparisons outside the quiescent regime: where NOTLAST matters.
// Two generators: the map's (no revoke, up to 3 messages and 32 pieces,
// configurations drawn, quiescent ones skipped) and the OSD-write
// regime of the 2018 measurement (LayoutLimits::osd_writes). Floors on the share of non-ties (decisive).
void AddPairedComparisons(std::vector<PropertySpec>* out) {
  CaseLimits general;
  general.layout.allow_revoke = false;
  general.layout.max_pieces = 32;
  general.writers = {WriterKind::kV1Notlast};
  general.profiles = {"linux-4.19", "linux-5.0"};
  CaseLimits osd = general;
  osd.layout.osd_writes = true;
  struct Other {
    const char* name;
    Writer w;
    double min_decisive_general, min_decisive_osd;
  };
  // Floors at about half of the measured share of non-ties (seed 1; see
  // props/README.md).
  const Other others[] = {{"more", WriterKind::kV1More, 0.07, 0.25},
                          {"legacy", WriterKind::kV1Legacy, 0.2, 0.25},
                          {"sendmsg", WriterKind::kV1Sendmsg, 0.06, 0.3},
                          {"cork_batch", WriterKind::kV1CorkBatch, 0.04, 0.15}};
  for (const Other& o : others) {
    for (const bool osd_writes : {false, true}) {
      const Side side{o.w, ""};
      PropertySpec p = Spec(
          absl::StrFormat("compare_notlast_%s%s", o.name, osd_writes ? "_osd_writes" : ""),
          absl::StrFormat("paired, outside quiescence%s: v1-notlast vs %s, same case (a measurement)",
                          osd_writes ? ", 4-8 x 128 KiB in flight" : "", WriterName(o.w)),
          osd_writes ? osd : general,
          [side](const Case& c, const Runner& r) { return CompareNotlastOutsideQuiescence(c, side, r); });
      p.comparison = true;
      p.floors = {0.5, osd_writes ? o.min_decisive_osd : o.min_decisive_general};
      // Only this pair can tell NOTLAST from MORE: dropping NOTLAST makes
      // v1-notlast v1-more, and every case ties (a missed floor).
      if (o.w == WriterKind::kV1More) p.must_kill = {{HookWriter::kMutantDropNotlast, 0}};
      out->push_back(std::move(p));
    }
  }
}

}  // namespace

std::vector<PropertySpec> AllProperties() {
  std::vector<PropertySpec> v;
  AddIntegrityAndLiveness(&v);
  AddLowerBounds(&v);
  AddOptimality(&v);
  AddComparisons(&v);
  AddNarrowComparisons(&v);
  const CaseLimits any;
  v.push_back(Spec("determinism_invariants", "same case twice: identical trace; model and wire invariants hold", any,
                   [](const Case& c, const Runner& r) { return Determinism_AndInvariants_Any(c, r); }));
  v.back().floors = {0.8, 0};
  AddPairedComparisons(&v);
  return v;
}

absl::StatusOr<PropertySpec> PropertyByName(absl::string_view name) {
  std::vector<std::string> names;
  for (PropertySpec& p : AllProperties()) {
    if (p.name == name) return std::move(p);
    names.push_back(p.name);
  }
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown property '%s' (known: %s, or all / holding / comparisons)", name, absl::StrJoin(names, ", ")));
}

}  // namespace sendsim::props
