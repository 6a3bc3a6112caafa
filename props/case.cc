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

namespace sendsim::props {
namespace {

// libceph-write-path.md §1: tag byte, 53-byte header, 21-byte footer.
constexpr uint64_t kTagBytes = 1;
constexpr uint64_t kHeaderBytes = 53;
constexpr uint64_t kFooterBytes = 21;

// libceph's writers by messenger's names (the one writer table); the
// property-only writers after them.
struct WriterEntry {
  Writer w;
  absl::string_view name;
};
constexpr WriterEntry kWriters[] = {
    {Writer::kV1Legacy, messenger::WriterKindAbslName(messenger::WriterKind::kV1Legacy)},
    {Writer::kV1Notlast, messenger::WriterKindAbslName(messenger::WriterKind::kV1Notlast)},
    {Writer::kV1Cork, messenger::WriterKindAbslName(messenger::WriterKind::kV1Cork)},
    {Writer::kV1Splice, messenger::WriterKindAbslName(messenger::WriterKind::kV1Splice)},
    {Writer::kV2, messenger::WriterKindAbslName(messenger::WriterKind::kV2)},
    {Writer::kV1More, messenger::WriterKindAbslName(messenger::WriterKind::kV1More)},
    {Writer::kV1Sendmsg, messenger::WriterKindAbslName(messenger::WriterKind::kV1Sendmsg)},
    {Writer::kV1CorkBatch, messenger::WriterKindAbslName(messenger::WriterKind::kV1CorkBatch)},
    {Writer::kAssigned, "assigned"},
    {Writer::kRule, "rule"},
    {Writer::kMutantNotlastStuck, "mutant-notlast-stuck"},
    {Writer::kMutantPushEveryPage, "mutant-push-every-page"},
    {Writer::kMutantDropNotlast, "mutant-drop-notlast"},
    {Writer::kMutantDropMore, "mutant-drop-more"},
    {Writer::kMutantPushRandom, "mutant-push-random"},
    {Writer::kControlNoEor, "control-no-eor"},
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
    case ItemKind::kPages:
      return absl::StrFormat("pages:%u+%u", it.offset, it.length);
    case ItemKind::kPagelist:
      return absl::StrFormat("pagelist:%u", it.length);
    case ItemKind::kBio:
    case ItemKind::kBvecs: {
      std::vector<std::string> ex;
      for (const Extent& e : it.extents) ex.push_back(absl::StrFormat("%u+%u", e.offset, e.len));
      return absl::StrCat(ItemKindName(it.kind), ":", absl::StrJoin(ex, "/"));
    }
  }
  return "?";
}

absl::Status ParseItem(absl::string_view s, DataItem* it) {
  std::pair<absl::string_view, absl::string_view> p = absl::StrSplit(s, absl::MaxSplits(':', 1));
  if (p.first == "pages") {
    it->kind = ItemKind::kPages;
    Extent e;
    if (absl::Status st = ParseExtent(p.second, &e); !st.ok()) return st;
    it->offset = e.offset;
    it->length = e.len;
  } else if (p.first == "pagelist") {
    it->kind = ItemKind::kPagelist;
    if (!absl::SimpleAtoi(p.second, &it->length)) return Bad("pagelist length", s);
  } else if (p.first == "bio" || p.first == "bvecs") {
    it->kind = p.first == "bio" ? ItemKind::kBio : ItemKind::kBvecs;
    for (absl::string_view x : absl::StrSplit(p.second, '/', absl::SkipEmpty())) {
      Extent e;
      if (absl::Status st = ParseExtent(x, &e); !st.ok()) return st;
      it->extents.push_back(e);
    }
  } else {
    return Bad("data item", s);
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

absl::Status ParseNet(absl::string_view s, NetConfig* n) {
  absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(s);
  if (!kvs.ok()) return kvs.status();
  for (const auto& [k, v] : *kvs) {
    absl::Status st;
    if (k == "mss") st = ParseNum(k, v, &n->mss);
    else if (k == "tso") st = ParseNum(k, v, &n->tso);
    else if (k == "nodelay") st = ParseNum(k, v, &n->nodelay);
    else if (k == "autocork") st = ParseNum(k, v, &n->autocorking);
    else if (k == "sndbuf") st = ParseNum(k, v, &n->sndbuf);
    else if (k == "initcwnd") st = ParseNum(k, v, &n->initcwnd);
    else if (k == "cwnd_clamp") st = ParseNum(k, v, &n->cwnd_clamp);
    else if (k == "rcvbuf") st = ParseNum(k, v, &n->rcvbuf);
    else if (k == "rcv_wnd_segs") st = ParseNum(k, v, &n->init_rcv_wnd_segs);
    else if (k == "delack") st = ParseNum(k, v, &n->delayed_ack);
    else if (k == "ack_every") st = ParseNum(k, v, &n->ack_every_segs);
    else if (k == "gro") {
      if (v == "off") n->gro = GroModeP::kOff;
      else if (v == "batch") n->gro = GroModeP::kBatch;
      else st = Bad(k, v);
    } else if (k == "gro_flush_ns") st = ParseNum(k, v, &n->gro_flush_ns);
    else if (k == "owd_ns") st = ParseNum(k, v, &n->one_way_delay_ns);
    else if (k == "link_bps") st = ParseNum(k, v, &n->link_bps);
    else if (k == "txc_ns") st = ParseNum(k, v, &n->tx_completion_ns);
    else if (k == "call_ns") st = ParseNum(k, v, &n->call_cost_ns);
    else if (k == "crc_ns") st = ParseNum(k, v, &n->crc_ns_per_page);
    else if (k == "hz") st = ParseNum(k, v, &n->hz);
    else if (k == "tun") st = ParseNum(k, v, &n->tun);
    else st = Bad("net key", k);
    if (!st.ok()) return st;
  }
  // The model is built through scenario::Scenario, whose link rate is whole
  // Mbit/s and whose RTT is twice the one-way delay.
  if (n->link_bps % 1'000'000 != 0) {
    return Bad("link_bps (a whole number of Mbit/s)", absl::StrCat(n->link_bps));
  }
  for (const int64_t ns : {n->one_way_delay_ns, n->gro_flush_ns, n->tx_completion_ns, n->call_cost_ns}) {
    if (ns < 0) return Bad("net time (must not be negative)", absl::StrCat(ns));
  }
  return absl::OkStatus();
}

std::string FormatNet(const NetConfig& n) {
  // tun=1 only when set, so every case text written before it stays as it was.
  return absl::StrCat(absl::StrFormat(
      "mss=%u tso=%d nodelay=%d autocork=%d sndbuf=%u initcwnd=%u cwnd_clamp=%u rcvbuf=%u "
      "rcv_wnd_segs=%u delack=%d ack_every=%u gro=%s gro_flush_ns=%d owd_ns=%d link_bps=%u "
      "txc_ns=%d call_ns=%d crc_ns=%d hz=%d",
      n.mss, n.tso, n.nodelay, n.autocorking, n.sndbuf, n.initcwnd, n.cwnd_clamp, n.rcvbuf,
      n.init_rcv_wnd_segs, n.delayed_ack, n.ack_every_segs, n.gro == GroModeP::kOff ? "off" : "batch",
      n.gro_flush_ns, n.one_way_delay_ns, n.link_bps, n.tx_completion_ns, n.call_cost_ns,
      n.crc_ns_per_page, n.hz), n.tun ? " tun=1" : "");
}

}  // namespace

absl::string_view WriterName(Writer w) {
  for (const WriterEntry& e : kWriters) {
    if (e.w == w) return e.name;
  }
  return "?";
}

absl::StatusOr<Writer> WriterByName(absl::string_view name) {
  for (const WriterEntry& e : kWriters) {
    if (e.name == name) return e.w;
  }
  return absl::InvalidArgumentError(absl::StrFormat("unknown writer '%s'", name));
}

std::vector<Writer> AllWriters() {
  return {Writer::kV1Legacy, Writer::kV1Notlast, Writer::kV1Cork, Writer::kV1Splice,
          Writer::kV2,       Writer::kV1More,    Writer::kV1Sendmsg, Writer::kV1CorkBatch};
}

std::vector<Writer> MutantWriters() {
  return {Writer::kMutantPushEveryPage, Writer::kMutantDropNotlast, Writer::kMutantDropMore,
          Writer::kMutantPushRandom};
}

bool WriterRunsOn(Writer w, absl::string_view profile) {
  // The profile says whether sendpage exists (linux-6.1 has it, 6.8+ not).
  const absl::StatusOr<model::Profile> p = model::ProfileByName(std::string(profile));
  const bool has_sendpage = p.ok() && p->has_sendpage;
  switch (w) {
    case Writer::kV1Splice:
      return !has_sendpage;
    case Writer::kV2:
    case Writer::kV1Sendmsg:
      return true;
    default:
      return has_sendpage;
  }
}

absl::string_view ItemKindName(ItemKind k) {
  switch (k) {
    case ItemKind::kPages: return "pages";
    case ItemKind::kPagelist: return "pagelist";
    case ItemKind::kBio: return "bio";
    case ItemKind::kBvecs: return "bvecs";
  }
  return "?";
}

uint32_t PieceCount(const DataItem& item) {
  switch (item.kind) {
    case ItemKind::kPages:
      if (item.length == 0) return 0;
      return static_cast<uint32_t>((item.offset % kPage + item.length + kPage - 1) / kPage);
    case ItemKind::kPagelist:
      return static_cast<uint32_t>((item.length + kPage - 1) / kPage);
    case ItemKind::kBio:
    case ItemKind::kBvecs: {
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
  if (item.kind == ItemKind::kPages || item.kind == ItemKind::kPagelist) return item.length;
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
  absl::StrAppend(&out, "profile ", c.profile, "\n");
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
  if (c.writer == Writer::kRule) absl::StrAppend(&out, "rule ", FormatRule(c.rule), "\n");
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
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    absl::string_view key = kv.first, rest = absl::StripAsciiWhitespace(kv.second);
    absl::Status st;
    if (key == "profile") {
      c.profile = std::string(rest);
      have_profile = true;
    } else if (key == "writer") {
      absl::StatusOr<Writer> w = WriterByName(rest);
      if (!w.ok()) return w.status();
      c.writer = *w;
      have_writer = true;
    } else if (key == "seed") {
      st = ParseNum(key, rest, &c.seed);
    } else if (key == "net") {
      st = ParseNet(rest, &c.net);
    } else if (key == "more_to_follow") {
      st = ParseNum(key, rest, &c.layout.more_to_follow);
    } else if (key == "message") {
      MessageLayout m;
      absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
      if (!kvs.ok()) return kvs.status();
      for (const auto& [k, v] : *kvs) {
        if (k == "front") st = ParseNum(k, v, &m.front_len);
        else if (k == "middle") st = ParseNum(k, v, &m.middle_len);
        else if (k == "items") {
          absl::string_view items_text = v;
          for (absl::string_view is : absl::StrSplit(items_text, ',', absl::SkipEmpty())) {
            DataItem it;
            st = ParseItem(is, &it);
            if (!st.ok()) break;
            m.items.push_back(std::move(it));
          }
        } else st = Bad("message key", k);
        if (!st.ok()) return st;
      }
      c.layout.messages.push_back(std::move(m));
    } else if (key == "revoke") {
      Revoke r;
      absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
      if (!kvs.ok()) return kvs.status();
      for (const auto& [k, v] : *kvs) {
        if (k == "message") st = ParseNum(k, v, &r.message);
        else if (k == "after") st = ParseNum(k, v, &r.after_bytes);
        else st = Bad("revoke key", k);
        if (!st.ok()) return st;
      }
      c.layout.revoke = r;
    } else if (key == "assignment") {
      absl::StatusOr<std::vector<PieceFlags>> a = ParseAssignment(rest);
      if (!a.ok()) return a.status();
      c.assignment = *a;
    } else if (key == "rule") {
      absl::StatusOr<FlagRule> r = ParseRule(rest);
      if (!r.ok()) return r.status();
      c.rule = *r;
    } else if (key == "mutation") {
      absl::StatusOr<std::vector<std::pair<absl::string_view, absl::string_view>>> kvs = KeyValues(rest);
      if (!kvs.ok()) return kvs.status();
      for (const auto& [k, v] : *kvs) {
        if (k == "decoder_drop_byte") st = ParseNum(k, v, &c.mutation.decoder_drop_byte);
        else if (k == "perturb_trace") st = ParseNum(k, v, &c.mutation.perturb_trace);
        else st = Bad("mutation key", k);
        if (!st.ok()) return st;
      }
    } else {
      return Bad("line", line);
    }
    if (!st.ok()) return st;
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
      if (it.kind == ItemKind::kPages && it.offset >= kPage) {
        return absl::InvalidArgumentError(absl::StrFormat("case: page offset %u >= 4096", it.offset));
      }
      for (const Extent& e : it.extents) {
        if (e.len == 0 || e.offset + e.len > kPage) {
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
  if (c.writer == Writer::kAssigned && c.assignment.size() != PieceCount(c.layout)) {
    return absl::InvalidArgumentError(absl::StrFormat("case: assignment has %d flags for %d pieces",
                                                      c.assignment.size(), PieceCount(c.layout)));
  }
  if (c.net.sndbuf < 4096) return absl::InvalidArgumentError("case: sndbuf < 4 KiB");
  if (c.net.mss < 536 || c.net.mss > 9000) return absl::InvalidArgumentError("case: mss outside 536..9000");
  return absl::OkStatus();
}

}  // namespace sendsim::props
