#include "props/properties.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "props/generators.h"

namespace sendsim::props {
namespace {

PropertyResult Fails(std::string detail) { return PropertyResult{Verdict::kFails, std::move(detail), {}, {}}; }
PropertyResult Skipped(std::string why) { return PropertyResult{Verdict::kSkipped, std::move(why), {}, {}}; }

// Runs `c`; a case the runner refuses as not applicable (writer missing on
// the profile) makes the property skip, any other error is a failure.
bool RunOrReport(const Case& c, const Runner& run, RunDepth depth, Outcome* out, PropertyResult* res) {
  absl::StatusOr<Outcome> o = run(c, depth);
  if (o.ok()) {
    *out = *std::move(o);
    return true;
  }
  std::string msg = absl::StrCat(WriterName(c.writer), "@", c.net.kernel, ": ", o.status().ToString());
  *res = o.status().code() == absl::StatusCode::kFailedPrecondition ? Skipped(msg) : Fails("runner error " + msg);
  return false;
}

Case WithWriter(const Case& c, Writer w, const std::string& profile) {
  Case x = c;
  x.writer = w;
  if (!profile.empty()) x.net.kernel = profile;
  if (w != HookWriter::kAssigned) x.assignment.clear();
  return x;
}

Case WithAssignment(const Case& c, const std::vector<PieceFlags>& a) {
  Case x = c;
  x.writer = HookWriter::kAssigned;
  x.assignment = a;
  return x;
}

bool IsRealWriter(Writer w) {
  for (Writer r : AllWriters()) {
    if (r == w) return true;
  }
  return false;
}

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

absl::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kHolds: return "holds";
    case Verdict::kFails: return "fails";
    case Verdict::kSkipped: return "skipped";
  }
  return "?";
}

// ---------------------------------------------------------------- 1
PropertyResult IntegrityBody(const Case& c, const Runner& run) {
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  res.runts = RuntSizes(o);
  if (!o.decoder_ok) return Fails(absl::StrCat("decoder rejected the stream: ", Summarize(o)));
  if (o.completed && o.messages_decoded != o.messages_expected) {
    return Fails(absl::StrFormat("decoded %d of %d messages: %s", o.messages_decoded, o.messages_expected,
                                 Summarize(o)));
  }
  if (o.completed && o.bytes_delivered != o.bytes_written) {
    return Fails(absl::StrCat("delivered != written: ", Summarize(o)));
  }
  res.verdict = Verdict::kHolds;
  return res;
}

PropertyResult Integrity_AnyWriterProfileConfig(const Case& c, const Runner& run) {
  if (!WriterRunsOn(c.writer, c.net.kernel)) return Skipped("writer does not exist on the profile");
  return IntegrityBody(c, run);
}

// ---------------------------------------------------------------- 2
PropertyResult LivenessBody(const Case& c, const Runner& run) {
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  res.runts = RuntSizes(o);
  if (!o.completed || o.completion_ns > LivenessHorizonNs(c)) {
    return Fails(absl::StrCat("not complete within ", LivenessHorizonNs(c), " ns: ", Summarize(o)));
  }
  return res;
}

PropertyResult Liveness_RealWriter_BoundedTime(const Case& c, const Runner& run) {
  if (!IsRealWriter(c.writer)) return Skipped("not one of the five real writers");
  if (!WriterRunsOn(c.writer, c.net.kernel)) return Skipped("writer does not exist on the profile");
  return LivenessBody(c, run);
}

PropertyResult Liveness_RealWriterNoRevoke_NoProbe0(const Case& c, const Runner& run) {
  if (c.layout.revoke.has_value()) return Skipped("the layout has a revoke");
  PropertyResult res = Liveness_RealWriter_BoundedTime(c, run);
  if (res.verdict != Verdict::kHolds) return res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  if (o.probe0_packets > 0) return Fails(absl::StrCat("data released only by the probe0 timer: ", Summarize(o)));
  return res;
}

// ---------------------------------------------------------------- 3
PropertyResult FlushRunsMinimalBody(const Case& c, const Runner& run) {
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  res.runts = RuntSizes(o);
  // ceil(L/MSS) segments alone would let one mid-run runt hide behind a
  // short tail (1448+1200+1375 is still 3 segments); the statement we test
  // is the one that implies both halves of the claim: every segment of a run
  // but its last is a full MSS.
  for (const FlushRun& r : FlushRuns(o)) {
    uint64_t want = (r.bytes + o.mss - 1) / o.mss;
    bool tail_runt = r.bytes % o.mss != 0;
    if (r.segments != want || r.sub_mss > (tail_runt ? 1u : 0u)) {
      return Fails(absl::StrFormat(
          "flush run at %u of %u bytes left in %u segments with %u sub-MSS; ceil(L/MSS)=%u: %s", r.begin,
          r.bytes, r.segments, r.sub_mss, want, Summarize(o)));
    }
  }
  return res;
}

PropertyResult LowerBound_NotlastQuiescent(const Case& c, const Runner& run) {
  if (c.writer != WriterKind::kV1Notlast) return Skipped("writer is not v1-notlast");
  if (!WriterRunsOn(c.writer, c.net.kernel)) return Skipped("writer does not exist on the profile");
  if (!IsQuiescentConfig(c.net, V1WireBytes(c.layout))) return Skipped("configuration is not quiescent");
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  if (o.async_during_write) return Skipped("an asynchronous event ran while a message was written");
  // Run again through the body with a runner that hands back this outcome.
  PropertyResult r = FlushRunsMinimalBody(c, [&o](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return o; });
  r.decisive = LayoutBoundDecisive(c.layout, o.mss);
  return r;
}

PropertyResult LowerBound_NotlastZeroCost(const Case& c, const Runner& run) {
  if (c.writer != WriterKind::kV1Notlast) return Skipped("writer is not v1-notlast");
  if (!WriterRunsOn(c.writer, c.net.kernel)) return Skipped("writer does not exist on the profile");
  scenario::Scenario q = c.net;
  MakeQuiescent(&q, V1WireBytes(c.layout));
  if (!(q == c.net)) return Skipped("configuration has costs or small buffers");
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kFull, &o, &res)) return res;
  if (o.async_during_write) return Skipped("an asynchronous event ran while a message was written");
  return FlushRunsMinimalBody(c, [&o](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return o; });
}

LayoutBound LayoutLowerBound(const Layout& l, uint32_t mss) {
  LayoutBound b;
  uint64_t unit = 0;
  for (size_t i = 0; i < l.messages.size(); ++i) {
    unit += V1WireBytes(l.messages[i]);
    const bool footer_with_more = l.more_to_follow && i + 1 < l.messages.size();
    if (footer_with_more) continue;
    b.unit_bytes.push_back(unit);
    b.packets += (unit + mss - 1) / mss;
    b.runts += unit % mss != 0 ? 1 : 0;
    unit = 0;
  }
  return b;
}

std::string LayoutBoundPreconditionFailure(const Case& c) {
  if (!WriterRunsOn(c.writer, c.net.kernel)) return "writer does not exist on the profile";
  if (c.writer == WriterKind::kV2) return "v2 frames are not v1 wire bytes";
  if (c.layout.revoke.has_value()) return "the layout has a revoke";
  if (!IsQuiescentConfig(c.net, V1WireBytes(c.layout))) return "configuration is not quiescent";
  if (!c.net.nodelay) return "Nagle is on (TCP_NODELAY off)";
  return "";
}

PropertyResult LayoutBoundBody(const Case& c, const Runner& run) {
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kWire, &o, &res)) return res;
  res.runts = RuntSizes(o);
  const LayoutBound b = LayoutLowerBound(c.layout, o.mss);
  const uint64_t packets = DataPackets(o), runts = SubMss(o);
  if (packets < b.packets || runts < b.runts) {
    return Fails(absl::StrFormat("below the layout bound (%u packets, %u runts): %s; the bound or the model is wrong",
                                 b.packets, b.runts, Summarize(o)));
  }
  if (packets != b.packets || runts != b.runts) {
    return Fails(absl::StrFormat("%s: %u packets, %u sub-MSS; the layout's flush units %s allow %u packets, %u sub-MSS: %s",
                                 WriterName(c.writer), packets, runts, absl::StrJoin(b.unit_bytes, "+"), b.packets,
                                 b.runts, Summarize(o)));
  }
  return res;
}

bool LayoutBoundDecisive(const Layout& l, uint32_t mss) {
  for (uint64_t b : LayoutLowerBound(l, mss).unit_bytes) {
    if (b > mss) return true;
  }
  return false;
}

uint32_t MaxUnitFrags(const Layout& l) {
  uint32_t worst = 0, unit = 0;
  for (size_t i = 0; i < l.messages.size(); ++i) {
    const MessageLayout& m = l.messages[i];
    const uint64_t prefix = 1 + 53 + m.front_len + m.middle_len;  // tag, header, front, middle
    unit += PieceCount(m) + static_cast<uint32_t>(prefix / 32768) + 2 + 2;
    if (l.more_to_follow && i + 1 < l.messages.size()) continue;
    worst = std::max(worst, unit);
    unit = 0;
  }
  return worst;
}

PropertyResult LowerBound_LayoutQuiescentFewFrags(const Case& c, const Runner& run) {
  if (MaxUnitFrags(c.layout) > kMaxSkbFrags) return Skipped("a flush unit may need more than 17 skb frags");
  return LowerBound_LayoutQuiescent(c, run);
}

PropertyResult LowerBound_LayoutQuiescent(const Case& c, const Runner& run) {
  if (std::string why = LayoutBoundPreconditionFailure(c); !why.empty()) return Skipped(why);
  PropertyResult res;
  Outcome o;
  if (!RunOrReport(c, run, RunDepth::kWire, &o, &res)) return res;
  if (o.async_during_write) return Skipped("an asynchronous event ran while a message was written");
  PropertyResult r = LayoutBoundBody(c, [&o](const Case&, RunDepth) -> absl::StatusOr<Outcome> { return o; });
  r.decisive = LayoutBoundDecisive(c.layout, o.mss);
  return r;
}

// ---------------------------------------------------------------- 4
std::vector<std::vector<PieceFlags>> AlternativeAssignments(const Layout& l, int samples, uint64_t seed) {
  std::vector<PieceFlags> base = NotlastAssignment(l);
  std::vector<size_t> free;
  {
    size_t idx = 0;
    for (const MessageLayout& m : l.messages) {
      uint32_t n = PieceCount(m);
      for (uint32_t i = 0; i + 1 < n; ++i) free.push_back(idx + i);
      idx += n;
    }
  }
  constexpr PieceFlags kChoices[3] = {PieceFlags::kMoreNotlast, PieceFlags::kMore, PieceFlags::kNone};
  std::vector<std::vector<PieceFlags>> out;
  if (free.size() <= kExhaustiveFreePieces) {
    uint64_t total = 1;
    for (size_t i = 0; i < free.size(); ++i) total *= 3;
    for (uint64_t code = 0; code < total; ++code) {
      std::vector<PieceFlags> a = base;
      uint64_t x = code;
      for (size_t f : free) {
        a[f] = kChoices[x % 3];
        x /= 3;
      }
      if (a != base) out.push_back(std::move(a));
    }
    return out;
  }
  // Structured alternatives first (all MORE, all none, legacy-like), then
  // uniform samples; duplicates and the candidate itself are dropped.
  auto add = [&](std::vector<PieceFlags> a) {
    if (a != base && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(std::move(a));
  };
  for (PieceFlags f : {PieceFlags::kMore, PieceFlags::kNone}) {
    std::vector<PieceFlags> a = base;
    for (size_t i : free) a[i] = f;
    add(a);
  }
  uint64_t state = seed ^ 0x5eed0f1a95ULL;
  for (int s = 0; s < samples; ++s) {
    std::vector<PieceFlags> a = base;
    for (size_t i : free) a[i] = kChoices[SplitMix64(&state) % 3];
    add(a);
  }
  return out;
}

PropertyResult AssignmentOptimalBody(const Case& c, const std::vector<PieceFlags>& candidate, const Runner& run,
                                     OptimalityOptions opt) {
  PropertyResult res;
  Outcome oc;
  if (!RunOrReport(WithAssignment(c, candidate), run, RunDepth::kWire, &oc, &res)) return res;
  res.runts = RuntSizes(oc);
  if (opt.require_no_async && oc.async_during_write) {
    return Skipped("an asynchronous event ran while the candidate wrote a message");
  }
  int64_t c_sub = static_cast<int64_t>(SubMss(oc)), c_pk = static_cast<int64_t>(DataPackets(oc));
  int64_t best_sub = c_sub, best_pk = c_pk;
  std::string best_sub_a = FormatAssignment(candidate), best_pk_a = best_sub_a;
  std::string violation;
  std::vector<std::vector<PieceFlags>> alts = AlternativeAssignments(c.layout, opt.samples, c.seed);
  // The candidate itself is excluded from the alternatives; when it is not
  // the v1-notlast assignment (negative controls), compare against that too.
  if (candidate != NotlastAssignment(c.layout)) alts.push_back(NotlastAssignment(c.layout));
  for (const std::vector<PieceFlags>& a : alts) {
    if (a == candidate) continue;
    Outcome oa;
    PropertyResult err;
    if (!RunOrReport(WithAssignment(c, a), run, RunDepth::kWire, &oa, &err)) return err;
    if (opt.require_no_async && oa.async_during_write) continue;
    int64_t sub = static_cast<int64_t>(SubMss(oa)), pk = static_cast<int64_t>(DataPackets(oa));
    res.decisive |= sub != c_sub || pk != c_pk;
    if (sub < best_sub) { best_sub = sub; best_sub_a = FormatAssignment(a); }
    if (pk < best_pk) { best_pk = pk; best_pk_a = FormatAssignment(a); }
    if (violation.empty() && (c_sub > sub + opt.slack_sub || c_pk > pk + opt.slack_packets)) {
      violation = absl::StrFormat("assignment %s beats %s: sub_mss %d vs %d, packets %d vs %d\n  candidate: %s\n  other:     %s",
                                  FormatAssignment(a), FormatAssignment(candidate), sub, c_sub, pk, c_pk,
                                  Summarize(oa), Summarize(oc));
    }
  }
  res.comparisons.push_back(Comparison{absl::StrFormat("%s vs best of %d assignments (sub: %s, packets: %s)",
                                                       FormatAssignment(candidate), alts.size(), best_sub_a,
                                                       best_pk_a),
                                       c_sub, best_sub, c_pk, best_pk});
  if (!violation.empty()) {
    res.verdict = Verdict::kFails;
    res.detail = violation;
  }
  return res;
}

PropertyResult Optimality_NotlastAmongAssignments(const Case& c, const Runner& run, OptimalityOptions opt) {
  if (!WriterRunsOn(HookWriter::kAssigned, c.net.kernel)) return Skipped("profile has no sendpage");
  if (PieceCount(c.layout) == 0) return Skipped("no data pieces");
  return AssignmentOptimalBody(c, NotlastAssignment(c.layout), run, opt);
}

uint32_t FreePieces(const Layout& l) {
  uint32_t n = 0;
  for (const MessageLayout& m : l.messages) n += std::max<uint32_t>(PieceCount(m), 1) - 1;
  return n;
}

PropertyResult Optimality_NotlastQuiescent(const Case& c, const Runner& run) {
  if (!IsQuiescentConfig(c.net, V1WireBytes(c.layout))) return Skipped("configuration is not quiescent");
  if (c.layout.revoke.has_value()) return Skipped("the layout has a revoke");
  if (FreePieces(c.layout) > kExhaustiveFreePieces) {
    return Skipped(absl::StrFormat("%u free pieces: beyond the exhaustive limit of %d, not judged",
                                   FreePieces(c.layout), kExhaustiveFreePieces));
  }
  return Optimality_NotlastAmongAssignments(c, run);
}

// ---------------------------------------------------------------- 5
PropertyResult DominatesBody(const Case& c, const Side& better, const Side& other, const Runner& run,
                             int64_t slack_sub, int64_t slack_packets, bool require_no_async) {
  Case cb = WithWriter(c, better.writer, better.profile);
  Case co = WithWriter(c, other.writer, other.profile);
  if (better.writer == HookWriter::kAssigned) cb.assignment = c.assignment;
  if (!WriterRunsOn(cb.writer, cb.net.kernel) || !WriterRunsOn(co.writer, co.net.kernel)) {
    return Skipped("a writer does not exist on its profile");
  }
  PropertyResult res;
  Outcome ob, oo;
  if (!RunOrReport(cb, run, RunDepth::kWire, &ob, &res)) return res;
  if (!RunOrReport(co, run, RunDepth::kWire, &oo, &res)) return res;
  if (require_no_async && (ob.async_during_write || oo.async_during_write)) {
    return Skipped("an asynchronous event ran while a message was written");
  }
  res.runts = RuntSizes(ob);
  Comparison cmp{absl::StrFormat("%s@%s vs %s@%s", WriterName(cb.writer), cb.net.kernel, WriterName(co.writer),
                                 co.net.kernel),
                 static_cast<int64_t>(SubMss(ob)), static_cast<int64_t>(SubMss(oo)),
                 static_cast<int64_t>(DataPackets(ob)), static_cast<int64_t>(DataPackets(oo))};
  res.comparisons.push_back(cmp);
  res.decisive = cmp.better_sub_mss != cmp.other_sub_mss || cmp.better_packets != cmp.other_packets;
  if (cmp.better_sub_mss > cmp.other_sub_mss + slack_sub || cmp.better_packets > cmp.other_packets + slack_packets) {
    res.verdict = Verdict::kFails;
    res.detail = absl::StrFormat("%s: sub_mss %d vs %d, packets %d vs %d\n  %s: %s\n  %s: %s", cmp.label,
                                 cmp.better_sub_mss, cmp.other_sub_mss, cmp.better_packets, cmp.other_packets,
                                 WriterName(cb.writer), Summarize(ob), WriterName(co.writer), Summarize(oo));
  }
  return res;
}

PropertyResult Dominance_NotlastOverLegacy_SameProfile(const Case& c, const Runner& run) {
  return DominatesBody(c, {WriterKind::kV1Notlast, ""}, {WriterKind::kV1Legacy, ""}, run);
}

PropertyResult Dominance_CorkOverNotlast_SameProfile(const Case& c, const Runner& run) {
  return DominatesBody(c, {WriterKind::kV1Cork, ""}, {WriterKind::kV1Notlast, ""}, run);
}

PropertyResult Dominance_Splice68OverNotlast50(const Case& c, const Runner& run) {
  return DominatesBody(c, {WriterKind::kV1Splice, "linux-6.8"}, {WriterKind::kV1Notlast, "linux-5.0"}, run);
}

PropertyResult DominatesQuiescent(const Case& c, const Side& better, const Side& other, const Runner& run,
                                  bool no_more_to_follow, bool equality_claim) {
  if (!IsQuiescentConfig(c.net, V1WireBytes(c.layout))) return Skipped("configuration is not quiescent");
  if (no_more_to_follow && c.layout.more_to_follow && c.layout.messages.size() > 1) {
    return Skipped("messages set more_to_follow");
  }
  PropertyResult r = DominatesBody(c, better, other, run);
  if (!equality_claim || r.verdict == Verdict::kSkipped) return r;
  r.decisive = RuleMatters(c, other.profile, run);
  const Comparison& cmp = r.comparisons.front();
  if (r.verdict == Verdict::kHolds &&
      (cmp.better_sub_mss != cmp.other_sub_mss || cmp.better_packets != cmp.other_packets)) {
    r.verdict = Verdict::kFails;
    r.detail = absl::StrFormat("%s differ (the claim is equality): sub_mss %d vs %d, packets %d vs %d", cmp.label,
                               cmp.better_sub_mss, cmp.other_sub_mss, cmp.better_packets, cmp.other_packets);
  }
  return r;
}

bool RuleMatters(const Case& c, const std::string& profile, const Runner& run) {
  absl::StatusOr<Outcome> a = run(WithWriter(c, WriterKind::kV1Notlast, profile), RunDepth::kWire);
  absl::StatusOr<Outcome> b = run(WithWriter(c, HookWriter::kMutantPushEveryPage, profile), RunDepth::kWire);
  if (!a.ok() || !b.ok()) return false;
  return SubMss(*a) != SubMss(*b) || DataPackets(*a) != DataPackets(*b);
}

PropertyResult CompareNotlastOutsideQuiescence(const Case& c, const Side& other, const Runner& run) {
  if (IsQuiescentConfig(c.net, V1WireBytes(c.layout))) return Skipped("configuration is quiescent");
  constexpr int64_t kNoLimit = int64_t{1} << 40;  // a measurement: no outcome fails it
  return DominatesBody(c, {WriterKind::kV1Notlast, ""}, other, run, kNoLimit, kNoLimit);
}

// ---------------------------------------------------------------- 6
PropertyResult Determinism_AndInvariants_Any(const Case& c, const Runner& run) {
  PropertyResult res;
  Outcome a, b;
  if (!RunOrReport(c, run, RunDepth::kFull, &a, &res)) return res;
  if (!RunOrReport(c, run, RunDepth::kFull, &b, &res)) return res;
  res.runts = RuntSizes(a);
  if (a.trace_hash != b.trace_hash || Summarize(a) != Summarize(b)) {
    return Fails(absl::StrCat("two runs differ:\n  ", Summarize(a), "\n  ", Summarize(b)));
  }
  if (!a.invariants.ok()) return Fails(absl::StrCat("model invariant: ", a.invariants.ToString()));
  // Wire-level invariants, checked here independently of the model.
  std::vector<PacketRecord> firsts;
  for (const PacketRecord& p : a.packets) {
    if (p.len > a.mss) return Fails(absl::StrFormat("segment of %u bytes > MSS %u at seq %u", p.len, a.mss, p.seq));
    if (!p.retransmit && p.len > 0) firsts.push_back(p);
  }
  std::stable_sort(firsts.begin(), firsts.end(),
                   [](const PacketRecord& x, const PacketRecord& y) { return x.seq < y.seq; });
  uint64_t next = 0;
  for (const PacketRecord& p : firsts) {
    if (p.seq != next) {
      return Fails(absl::StrFormat("first transmissions are not contiguous: expected seq %u, got %u", next, p.seq));
    }
    next += p.len;
  }
  if (next > a.bytes_written) {
    return Fails(absl::StrFormat("sent %u bytes but only %u were written", next, a.bytes_written));
  }
  if (a.completed && (next != a.bytes_written || a.bytes_delivered != a.bytes_written)) {
    return Fails(absl::StrFormat("completed but sent %u / delivered %u of %u written bytes", next,
                                 a.bytes_delivered, a.bytes_written));
  }
  return res;
}

}  // namespace sendsim::props
