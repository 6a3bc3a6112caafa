#include "props/case.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "messenger/writer_policy.h"
#include "model/profile.h"
#include "scenario/scenario.h"

namespace sendsim::props {
namespace {

// libceph-write-path.md §1: tag byte, 53-byte header, 21-byte footer.
constexpr uint64_t kTagBytes = 1;
constexpr uint64_t kHeaderBytes = 53;
constexpr uint64_t kFooterBytes = 21;

// The hook writers' names (messenger's writers go by messenger's table).
struct HookWriterName {
  HookWriter hook;
  absl::string_view name;
};
constexpr HookWriterName kHookWriterNames[] = {
    {HookWriter::kAssigned, "assigned"},
    {HookWriter::kRule, "rule"},
    {HookWriter::kMutantNotlastStuck, "mutant-notlast-stuck"},
    {HookWriter::kMutantPushEveryPage, "mutant-push-every-page"},
    {HookWriter::kMutantDropNotlast, "mutant-drop-notlast"},
    {HookWriter::kMutantDropMore, "mutant-drop-more"},
    {HookWriter::kMutantPushRandom, "mutant-push-random"},
    {HookWriter::kControlNoEor, "control-no-eor"},
};

absl::Status Bad(absl::string_view what, absl::string_view text) {
  return absl::InvalidArgumentError(absl::StrFormat("case: bad %s: '%s'", what, text));
}

template <typename T>
absl::Status ParseNum(absl::string_view key, absl::string_view v, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (v == "1" || v == "true") { *out = true; return absl::OkStatus(); }
    if (v == "0" || v == "false") { *out = false; return absl::OkStatus(); }
    return Bad(key, v);
  } else if constexpr (std::is_signed_v<T>) {
    int64_t x;
    if (!absl::SimpleAtoi(v, &x)) return Bad(key, v);
    *out = static_cast<T>(x);
    if (static_cast<int64_t>(*out) != x) return Bad(key, v);
    return absl::OkStatus();
  } else {
    uint64_t x;
    if (!absl::SimpleAtoi(v, &x)) return Bad(key, v);
    *out = static_cast<T>(x);
    if (static_cast<uint64_t>(*out) != x) return Bad(key, v);
    return absl::OkStatus();
  }
}

absl::Status ParseExtent(absl::string_view s, Extent* e) {
  std::pair<absl::string_view, absl::string_view> p = absl::StrSplit(s, absl::MaxSplits('+', 1));
  if (!absl::SimpleAtoi(p.first, &e->offset) || !absl::SimpleAtoi(p.second, &e->len)) {
    return Bad("extent", s);
  }
  return absl::OkStatus();
}

std::string FormatItem(const DataItem& it) {
  switch (it.kind) {
    case DataLayout::kPages:
      return absl::StrFormat("pages:%u+%u", it.offset, it.length);
    case DataLayout::kPagelist:
      return absl::StrFormat("pagelist:%u", it.length);
    case DataLayout::kBio:
    case DataLayout::kBvecs: {
      std::vector<std::string> ex;
      for (const Extent& e : it.extents) ex.push_back(absl::StrFormat("%u+%u", e.offset, e.len));
      return absl::StrCat(scenario::DataLayoutName(it.kind), ":", absl::StrJoin(ex, "/"));
    }
  }
  return "?";
}

absl::Status ParseItem(absl::string_view s, DataItem* it) {
  std::pair<absl::string_view, absl::string_view> p = absl::StrSplit(s, absl::MaxSplits(':', 1));
  const absl::StatusOr<scenario::DataLayout> kind = scenario::DataLayoutByName(p.first);
  if (!kind.ok()) return Bad("data item", s);
  it->kind = *kind;
  switch (*kind) {
    case DataLayout::kPages: {
      Extent e;
      if (absl::Status st = ParseExtent(p.second, &e); !st.ok()) return st;
      it->offset = e.offset;
      it->length = e.len;
      break;
    }
    case DataLayout::kPagelist:
      if (!absl::SimpleAtoi(p.second, &it->length)) return Bad("pagelist length", s);
      break;
    case DataLayout::kBio:
    case DataLayout::kBvecs:
      for (absl::string_view x : absl::StrSplit(p.second, '/', absl::SkipEmpty())) {
        Extent e;
        if (absl::Status st = ParseExtent(x, &e); !st.ok()) return st;
        it->extents.push_back(e);
      }
      break;
  }
  return absl::OkStatus();
}

// Splits "k=v k=v" into pairs.
absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> KeyValues(absl::string_view s) {
  std::vector<std::pair<absl::string_view, absl::string_view>> out;
  for (absl::string_view kv : absl::StrSplit(s, ' ', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
    if (!absl::StrContains(kv, '=')) return Bad("key=value", kv);
    out.push_back(p);
  }
  return out;
}

// A time in ns: the text allows a sign, a case no negative time.
absl::Status ParseNs(absl::string_view key, absl::string_view v, uint64_t* out) {
  int64_t ns = 0;
  if (absl::Status st = ParseNum(key, v, &ns); !st.ok()) return st;
  if (ns < 0) return Bad("net time (must not be negative)", absl::StrCat(ns));
  *out = static_cast<uint64_t>(ns);
  return absl::OkStatus();
}

// One "net" key into the case's scenario. The text keeps props' units: the
// one-way delay (the scenario has the RTT) and the link rate in bit/s (the
// scenario has whole Mbit/s).
absl::Status ParseNetKey(absl::string_view k, absl::string_view v, scenario::Scenario* n) {
  if (k == "mss") return ParseNum(k, v, &n->mss);
  if (k == "tso") return ParseNum(k, v, &n->tso);
  if (k == "nodelay") return ParseNum(k, v, &n->nodelay);
  if (k == "autocork") return ParseNum(k, v, &n->autocorking);
  if (k == "sndbuf") return ParseNum(k, v, &n->sndbuf);
  if (k == "initcwnd") return ParseNum(k, v, &n->tcp.initcwnd);
  if (k == "cwnd_clamp") return ParseNum(k, v, &n->tcp.cwnd_clamp);
  if (k == "rcvbuf") return ParseNum(k, v, &n->receiver.rcvbuf);
  if (k == "rcv_wnd_segs") return ParseNum(k, v, &n->receiver.init_rcv_wnd_segs);
  if (k == "delack") return ParseNum(k, v, &n->delayed_ack);
  if (k == "ack_every") return ParseNum(k, v, &n->ack_every);
  if (k == "gro") {
    const absl::StatusOr<scenario::GroMode> g = scenario::GroModeByName(v);
    if (!g.ok()) return Bad(k, v);
    n->gro = *g;
    return absl::OkStatus();
  }
  if (k == "gro_flush_ns") return ParseNs(k, v, &n->gro_flush_ns);
  if (k == "owd_ns") {
    uint64_t owd = 0;
    if (absl::Status st = ParseNs(k, v, &owd); !st.ok()) return st;
    n->rtt_ns = 2 * owd;
    return absl::OkStatus();
  }
  if (k == "link_bps") {
    uint64_t bps = 0;
    if (absl::Status st = ParseNum(k, v, &bps); !st.ok()) return st;
    if (bps % 1'000'000 != 0) return Bad("link_bps (a whole number of Mbit/s)", absl::StrCat(bps));
    n->link_mbps = bps / 1'000'000;
    return absl::OkStatus();
  }
  if (k == "txc_ns") return ParseNs(k, v, &n->tx_completion_ns);
  if (k == "call_ns") return ParseNs(k, v, &n->call_cost_ns);
  if (k == "crc_ns") return ParseNs(k, v, &n->crc_ns_per_page);
  if (k == "hz") return ParseNum(k, v, &n->hz);
  if (k == "tun") return ParseNum(k, v, &n->host.tx_orphan_at_xmit);
  return Bad("net key", k);
}

absl::Status ParseNet(absl::string_view s, scenario::Scenario* n) {
  absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(s);
  if (!kvs.ok()) return kvs.status();
  for (const auto& [k, v] : *kvs) {
    if (absl::Status st = ParseNetKey(k, v, n); !st.ok()) return st;
  }
  SetMss(n, n->mss);
  return absl::OkStatus();
}

std::string FormatNet(const scenario::Scenario& n) {
  // tun=1 only when set, so every case text written before it stays as it was.
  return absl::StrCat(absl::StrFormat(
      "mss=%u tso=%d nodelay=%d autocork=%d sndbuf=%u initcwnd=%u cwnd_clamp=%u rcvbuf=%u "
      "rcv_wnd_segs=%u delack=%d ack_every=%u gro=%s gro_flush_ns=%d owd_ns=%d link_bps=%u "
      "txc_ns=%d call_ns=%d crc_ns=%d hz=%d",
      n.mss, n.tso, n.nodelay, n.autocorking, n.sndbuf, n.tcp.initcwnd, n.tcp.cwnd_clamp, n.receiver.rcvbuf,
      n.receiver.init_rcv_wnd_segs, n.delayed_ack, n.ack_every, scenario::GroModeName(n.gro), n.gro_flush_ns,
      n.rtt_ns / 2, n.link_mbps * 1'000'000, n.tx_completion_ns, n.call_cost_ns, n.crc_ns_per_page, n.hz),
      n.host.tx_orphan_at_xmit ? " tun=1" : "");
}

// The lines of a case text other than profile, writer, seed and net.
absl::Status ParseMessage(absl::string_view rest, Layout* l) {
  MessageLayout m;
  absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
  if (!kvs.ok()) return kvs.status();
  for (const auto& [k, v] : *kvs) {
    absl::Status st;
    if (k == "front") {
      st = ParseNum(k, v, &m.front_len);
    } else if (k == "middle") {
      st = ParseNum(k, v, &m.middle_len);
    } else if (k == "items") {
      for (absl::string_view is : absl::StrSplit(v, ',', absl::SkipEmpty())) {
        DataItem it;
        st = ParseItem(is, &it);
        if (!st.ok()) break;
        m.items.push_back(std::move(it));
      }
    } else {
      st = Bad("message key", k);
    }
    if (!st.ok()) return st;
  }
  l->messages.push_back(std::move(m));
  return absl::OkStatus();
}

absl::Status ParseRevoke(absl::string_view rest, Layout* l) {
  Revoke r;
  absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
  if (!kvs.ok()) return kvs.status();
  for (const auto& [k, v] : *kvs) {
    absl::Status st;
    if (k == "message") st = ParseNum(k, v, &r.message);
    else if (k == "after") st = ParseNum(k, v, &r.after_bytes);
    else st = Bad("revoke key", k);
    if (!st.ok()) return st;
  }
  l->revoke = r;
  return absl::OkStatus();
}

absl::Status ParseMutation(absl::string_view rest, Mutation* mu) {
  absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
  if (!kvs.ok()) return kvs.status();
  for (const auto& [k, v] : *kvs) {
    absl::Status st;
    if (k == "decoder_drop_byte") st = ParseNum(k, v, &mu->decoder_drop_byte);
    else if (k == "perturb_trace") st = ParseNum(k, v, &mu->perturb_trace);
    else st = Bad("mutation key", k);
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

// One line "key rest" of a case text into `c`; notes the required lines.
absl::Status ParseCaseLine(absl::string_view line, Case* c, bool* have_profile, bool* have_writer) {
  std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(line, absl::MaxSplits(' ', 1));
  const absl::string_view key = kv.first, rest = absl::StripAsciiWhitespace(kv.second);
  if (key == "profile") {
    c->net.kernel = std::string(rest);
    *have_profile = true;
    return absl::OkStatus();
  }
  if (key == "writer") {
    absl::StatusOr<Writer> w = WriterByName(rest);
    if (!w.ok()) return w.status();
    c->writer = *w;
    *have_writer = true;
    return absl::OkStatus();
  }
  if (key == "seed") return ParseNum(key, rest, &c->seed);
  if (key == "net") return ParseNet(rest, &c->net);
  if (key == "more_to_follow") return ParseNum(key, rest, &c->layout.more_to_follow);
  if (key == "message") return ParseMessage(rest, &c->layout);
  if (key == "revoke") return ParseRevoke(rest, &c->layout);
  if (key == "assignment") {
    absl::StatusOr<std::vector<PieceFlags>> a = ParseAssignment(rest);
    if (!a.ok()) return a.status();
    c->assignment = *a;
    return absl::OkStatus();
  }
  if (key == "rule") {
    absl::StatusOr<FlagRule> r = ParseRule(rest);
    if (!r.ok()) return r.status();
    c->rule = *r;
    return absl::OkStatus();
  }
  if (key == "mutation") return ParseMutation(rest, &c->mutation);
  return Bad("line", line);
}

}  // namespace

scenario::Scenario CaseNetworkDefaults() {
  // Where a case differs from scenario::Scenario's defaults (MSS 1448 with a
  // 1500-byte MTU and timestamps, TSO, TCP_NODELAY, autocorking, 10
  // GbE, 50 us RTT, HZ 250, delayed ACKs every 2 segments, the peer's 6 MiB
  // buffer and 20-segment initial window are the same).
  static const scenario::Scenario* const kDefaults = [] {
    auto* s = new scenario::Scenario;
    // The layout and Case::writer say what runs: no size mix, no writer list.
    s->sizes.clear();
    s->writers.clear();
    s->kernel = "linux-4.19";
    s->sndbuf = 4 * 1024 * 1024;
    s->gro = scenario::GroMode::kOff;
    s->gro_flush_ns = 0;
    s->tx_completion_ns = 0;
    s->call_cost_ns = 0;
    s->crc_ns_per_page = 0;
    // The model's own receiver latency: none (the CLI's default is 5 us).
    s->ack_proc_ns = 0;
    return s;
  }();
  return *kDefaults;
}

void SetMss(scenario::Scenario* s, uint32_t mss) {
  s->mss = mss;
  s->mtu = mss + scenario::HeaderOverhead(*s);
}

absl::string_view WriterName(Writer w) {
  if (w.hook == HookWriter::kNone) return messenger::WriterKindAbslName(w.kind);
  for (const HookWriterName& e : kHookWriterNames) {
    if (e.hook == w.hook) return e.name;
  }
  return "?";
}

absl::StatusOr<Writer> WriterByName(absl::string_view name) {
  for (const HookWriterName& e : kHookWriterNames) {
    if (e.name == name) return Writer(e.hook);
  }
  // Messenger's selectable writers only (not its bare hook writer).
  if (absl::StatusOr<WriterKind> k = messenger::ParseWriterKind(std::string_view(name.data(), name.size())); k.ok()) {
    return Writer(*k);
  }
  return absl::InvalidArgumentError(absl::StrFormat("unknown writer '%s'", name));
}

std::vector<Writer> AllWriters() {
  std::vector<Writer> out;
  for (const messenger::WriterEntry& e : messenger::kWriterTable) {
    if (e.selectable) out.push_back(e.kind);
  }
  return out;
}

std::vector<Writer> MutantWriters() {
  return {HookWriter::kMutantPushEveryPage, HookWriter::kMutantDropNotlast, HookWriter::kMutantDropMore,
          HookWriter::kMutantPushRandom};
}

bool WriterRunsOn(Writer w, absl::string_view profile) {
  // The profile says whether sendpage exists (linux-6.1 has it, 6.8+ not).
  const absl::StatusOr<model::Profile> p = model::ProfileByName(std::string(profile));
  const bool has_sendpage = p.ok() && p->has_sendpage;
  // The hook writers are the v1 skeleton: sendpage.
  switch (w.kind) {
    case WriterKind::kV1Splice:
      return !has_sendpage;
    case WriterKind::kV2:
    case WriterKind::kV1Sendmsg:
      return true;
    default:
      return has_sendpage;
  }
}

uint32_t PieceCount(const DataItem& item) {
  switch (item.kind) {
    case DataLayout::kPages:
      if (item.length == 0) return 0;
      return static_cast<uint32_t>((item.offset % kPageSize + item.length + kPageSize - 1) / kPageSize);
    case DataLayout::kPagelist:
      return static_cast<uint32_t>((item.length + kPageSize - 1) / kPageSize);
    case DataLayout::kBio:
    case DataLayout::kBvecs: {
      uint32_t n = 0;
      for (const Extent& e : item.extents) n += e.len > 0 ? 1 : 0;
      return n;
    }
  }
  return 0;
}

uint32_t PieceCount(const MessageLayout& m) {
  uint32_t n = 0;
  for (const DataItem& it : m.items) n += PieceCount(it);
  return n;
}

uint32_t PieceCount(const Layout& l) {
  uint32_t n = 0;
  for (const MessageLayout& m : l.messages) n += PieceCount(m);
  return n;
}

uint64_t DataBytes(const DataItem& item) {
  if (item.kind == DataLayout::kPages || item.kind == DataLayout::kPagelist) return item.length;
  uint64_t n = 0;
  for (const Extent& e : item.extents) n += e.len;
  return n;
}

uint64_t DataBytes(const MessageLayout& m) {
  uint64_t n = 0;
  for (const DataItem& it : m.items) n += DataBytes(it);
  return n;
}

uint64_t V1WireBytes(const MessageLayout& m) {
  return kTagBytes + kHeaderBytes + m.front_len + m.middle_len + DataBytes(m) + kFooterBytes;
}

uint64_t V1WireBytes(const Layout& l) {
  uint64_t n = 0;
  for (const MessageLayout& m : l.messages) n += V1WireBytes(m);
  return n;
}

std::vector<PieceFlags> NotlastAssignment(const Layout& l) {
  // libceph-write-path.md §8.2: MORE|NOTLAST until the piece whose length
  // equals the payload's remaining bytes, which gets MORE only.
  std::vector<PieceFlags> a;
  for (const MessageLayout& m : l.messages) {
    uint32_t n = PieceCount(m);
    for (uint32_t i = 0; i < n; ++i) a.push_back(i + 1 == n ? PieceFlags::kMore : PieceFlags::kMoreNotlast);
  }
  return a;
}

std::vector<PieceFlags> LegacyAssignment(const Layout& l) {
  // §8.1: MORE except the last piece of each data item (no MORE).
  std::vector<PieceFlags> a;
  for (const MessageLayout& m : l.messages) {
    for (const DataItem& it : m.items) {
      uint32_t n = PieceCount(it);
      for (uint32_t i = 0; i < n; ++i) a.push_back(i + 1 == n ? PieceFlags::kNone : PieceFlags::kMore);
    }
  }
  return a;
}

std::string FormatAssignment(const std::vector<PieceFlags>& a) {
  std::string s;
  for (PieceFlags f : a) s.push_back(f == PieceFlags::kNone ? '-' : f == PieceFlags::kMore ? 'M' : 'N');
  return s;
}

absl::StatusOr<std::vector<PieceFlags>> ParseAssignment(absl::string_view s) {
  std::vector<PieceFlags> a;
  for (char ch : s) {
    if (ch == '-') a.push_back(PieceFlags::kNone);
    else if (ch == 'M') a.push_back(PieceFlags::kMore);
    else if (ch == 'N') a.push_back(PieceFlags::kMoreNotlast);
    else return Bad("assignment (use -, M, N)", s);
  }
  return a;
}

std::string FormatRule(const FlagRule& r) {
  const std::string flags = FormatAssignment({r.nonlast, r.last});
  switch (r.cork) {
    case messenger::CorkMode::kNone: return flags + " none";
    case messenger::CorkMode::kPerMessage: return flags + " message";
    case messenger::CorkMode::kBatch: return flags + " batch";
  }
  return flags + " ?";
}

absl::StatusOr<FlagRule> ParseRule(absl::string_view s) {
  std::pair<absl::string_view, absl::string_view> p = absl::StrSplit(s, absl::MaxSplits(' ', 1));
  absl::StatusOr<std::vector<PieceFlags>> f = ParseAssignment(p.first);
  if (!f.ok() || f->size() != 2) return Bad("rule (two flag letters and none|message|batch)", s);
  FlagRule r{(*f)[0], (*f)[1], messenger::CorkMode::kNone};
  const absl::string_view cork = absl::StripAsciiWhitespace(p.second);
  if (cork == "message") {
    r.cork = messenger::CorkMode::kPerMessage;
  } else if (cork == "batch") {
    r.cork = messenger::CorkMode::kBatch;
  } else if (cork != "none") {
    return Bad("rule cork mode (none|message|batch)", s);
  }
  return r;
}

std::string FormatCase(const Case& c) {
  std::string out;
  absl::StrAppend(&out, "profile ", c.net.kernel, "\n");
  absl::StrAppend(&out, "writer ", WriterName(c.writer), "\n");
  absl::StrAppend(&out, "seed ", c.seed, "\n");
  absl::StrAppend(&out, "net ", FormatNet(c.net), "\n");
  absl::StrAppend(&out, "more_to_follow ", c.layout.more_to_follow ? 1 : 0, "\n");
  for (const MessageLayout& m : c.layout.messages) {
    std::vector<std::string> items;
    for (const DataItem& it : m.items) items.push_back(FormatItem(it));
    absl::StrAppend(&out, absl::StrFormat("message front=%u middle=%u items=%s\n", m.front_len, m.middle_len,
                                          absl::StrJoin(items, ",")));
  }
  if (c.layout.revoke.has_value()) {
    absl::StrAppend(&out, absl::StrFormat("revoke message=%u after=%u\n", c.layout.revoke->message,
                                          c.layout.revoke->after_bytes));
  }
  if (!c.assignment.empty()) absl::StrAppend(&out, "assignment ", FormatAssignment(c.assignment), "\n");
  if (c.writer == HookWriter::kRule) absl::StrAppend(&out, "rule ", FormatRule(c.rule), "\n");
  if (c.mutation != Mutation{}) {
    absl::StrAppend(&out, absl::StrFormat("mutation decoder_drop_byte=%d perturb_trace=%d\n",
                                          c.mutation.decoder_drop_byte, c.mutation.perturb_trace));
  }
  return out;
}

absl::StatusOr<Case> ParseCase(absl::string_view text) {
  Case c;
  bool have_profile = false, have_writer = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    line = absl::StripAsciiWhitespace(line);
    if (absl::StartsWith(line, "#")) continue;
    if (absl::Status st = ParseCaseLine(line, &c, &have_profile, &have_writer); !st.ok()) return st;
  }
  if (!have_profile || !have_writer) {
    return absl::InvalidArgumentError("case: 'profile' and 'writer' lines are required");
  }
  if (absl::Status st = ValidateCase(c); !st.ok()) return st;
  return c;
}

absl::Status ValidateCase(const Case& c) {
  if (c.layout.messages.empty()) return absl::InvalidArgumentError("case: no messages");
  // A case is a few messages (the generators draw at most a handful); the
  // payload is held whole, so bound it before a run allocates it.
  if (c.layout.messages.size() > kMaxCaseMessages) {
    return absl::InvalidArgumentError(
        absl::StrFormat("case: %d messages (at most %d)", c.layout.messages.size(), kMaxCaseMessages));
  }
  uint64_t total = 0;
  for (const MessageLayout& m : c.layout.messages) {
    total += m.front_len + m.middle_len;
    for (const DataItem& it : m.items) total += DataBytes(it);
  }
  if (total > kMaxCaseBytes) {
    return absl::InvalidArgumentError(absl::StrFormat("case: %d bytes of messages (at most %d)", total, kMaxCaseBytes));
  }
  for (const MessageLayout& m : c.layout.messages) {
    for (const DataItem& it : m.items) {
      if (it.kind == DataLayout::kPages && it.offset >= kPageSize) {
        return absl::InvalidArgumentError(absl::StrFormat("case: page offset %u >= %u", it.offset, kPageSize));
      }
      for (const Extent& e : it.extents) {
        if (e.len == 0 || e.offset + e.len > kPageSize) {
          return absl::InvalidArgumentError(
              absl::StrFormat("case: extent %u+%u is empty or crosses a page", e.offset, e.len));
        }
      }
      if (DataBytes(it) == 0) return absl::InvalidArgumentError("case: empty data item");
    }
  }
  if (c.layout.revoke.has_value() && c.layout.revoke->message >= c.layout.messages.size()) {
    return absl::InvalidArgumentError("case: revoke names a message that does not exist");
  }
  if (c.writer == HookWriter::kAssigned && c.assignment.size() != PieceCount(c.layout)) {
    return absl::InvalidArgumentError(absl::StrFormat("case: assignment has %d flags for %d pieces",
                                                      c.assignment.size(), PieceCount(c.layout)));
  }
  if (c.net.sndbuf < 4096) return absl::InvalidArgumentError("case: sndbuf < 4 KiB");
  if (c.net.mss < 536 || c.net.mss > 9000) return absl::InvalidArgumentError("case: mss outside 536..9000");
  // What the case text cannot say: an MTU other than the MSS's, an odd RTT.
  if (c.net.mtu != c.net.mss + scenario::HeaderOverhead(c.net)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("case: mtu %u does not just fit mss %u (set both with SetMss)", c.net.mtu, c.net.mss));
  }
  if (c.net.rtt_ns % 2 != 0) {
    return absl::InvalidArgumentError(absl::StrFormat("case: rtt_ns %u is odd (twice a one-way delay)", c.net.rtt_ns));
  }
  return absl::OkStatus();
}

}  // namespace sendsim::props
