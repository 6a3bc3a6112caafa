#include "props/generators.h"

#include <algorithm>
#include <initializer_list>
#include <ostream>

namespace sendsim::props {
namespace {

namespace gen = rc::gen;

// Draws retried before a suchThat-style condition gives up (rc::gen::suchThat
// tries 100 times too).
constexpr int kRetries = 100;

// RapidCheck's draw source; only valid inside gen::exec.
struct RcDraws {
  // An index in [0, n) over the full range whatever RapidCheck's size is
  // (gen::inRange scales with size), shrinking toward 0 (gen::element does
  // not shrink at all).
  uint32_t Index(uint32_t n) {
    if (n <= 1) return 0;
    return *gen::resize(rc::kNominalSize, gen::inRange<uint32_t>(0, n));
  }
  uint64_t InRange(uint64_t lo, uint64_t hi) { return hi <= lo ? lo : *gen::inRange<uint64_t>(lo, hi); }
  bool Bool() { return Index(2) == 1; }
};

// The index of a weighted alternative; shrinks toward the first one.
template <typename D>
uint32_t Pick(D& d, std::initializer_list<uint32_t> weights) {
  uint32_t total = 0;
  for (uint32_t w : weights) total += w;
  uint32_t r = d.Index(total), i = 0;
  for (uint32_t w : weights) {
    if (r < w) return i;
    r -= w;
    ++i;
  }
  return i - 1;
}

template <typename D, typename T>
T Choice(D& d, const std::vector<T>& v) {
  return v[d.Index(static_cast<uint32_t>(v.size()))];
}

template <typename D>
bool Mostly(D& d, bool usual, uint32_t usual_weight, uint32_t other_weight) {
  return Pick(d, {usual_weight, other_weight}) == 0 ? usual : !usual;
}

template <typename D>
uint32_t PageOffset(D& d) {
  switch (Pick(d, {4, 2, 4})) {
    case 0: return 0;
    case 1: return Choice<D, uint32_t>(d, {1, 19, 512, 2048, 4095});
    default: return static_cast<uint32_t>(d.InRange(0, kPageSize));
  }
}

// 1 byte .. max_len, with weight on short, sub-page and whole-page lengths.
template <typename D>
uint64_t Length(D& d, uint64_t max_len) {
  const uint64_t tiny = std::min<uint64_t>(max_len, 64), sub_page = std::min<uint64_t>(max_len, kPageSize);
  if (max_len < kPageSize) {
    switch (Pick(d, {1, 2, 4})) {
      case 0: return d.InRange(1, tiny + 1);
      case 1: return d.InRange(1, sub_page + 1);
      default: return d.InRange(1, max_len + 1);
    }
  }
  switch (Pick(d, {1, 2, 3, 4})) {
    case 0: return d.InRange(1, tiny + 1);
    case 1: return d.InRange(1, sub_page + 1);
    case 2: return d.InRange(1, max_len / kPageSize + 1) * kPageSize;
    default: return d.InRange(1, max_len + 1);
  }
}

template <typename D>
Extent DrawExtent(D& d) {
  const uint32_t off = PageOffset(d);
  const uint32_t room = kPageSize - off;
  switch (Pick(d, {3, 2, 1})) {
    case 0: return Extent{off, static_cast<uint32_t>(d.InRange(1, room + 1))};
    case 1: return Extent{off, room};
    default: return Extent{off, static_cast<uint32_t>(d.InRange(1, std::min<uint32_t>(room, 64) + 1))};
  }
}

template <typename D>
uint32_t KvecLength(D& d, uint32_t max) {
  switch (Pick(d, {2, 3, 2})) {
    case 0: return 0;
    case 1: return static_cast<uint32_t>(d.InRange(0, 512));
    default: return static_cast<uint32_t>(d.InRange(0, max + 1));
  }
}

template <typename D>
DataItem DrawDataItem(D& d, uint32_t max_pieces) {
  max_pieces = std::max<uint32_t>(max_pieces, 1);
  DataItem it;
  it.kind =
      Choice<D, DataLayout>(d, {DataLayout::kPages, DataLayout::kPagelist, DataLayout::kBio, DataLayout::kBvecs});
  switch (it.kind) {
    case DataLayout::kPages:
      it.offset = PageOffset(d);
      it.length = Length(d, uint64_t{max_pieces} * kPageSize - it.offset);
      break;
    case DataLayout::kPagelist:
      it.length = Length(d, uint64_t{max_pieces} * kPageSize);
      break;
    case DataLayout::kBio:
    case DataLayout::kBvecs: {
      const uint64_t n = d.InRange(1, max_pieces + 1);
      for (uint64_t i = 0; i < n; ++i) it.extents.push_back(DrawExtent(d));
      break;
    }
  }
  return it;
}

template <typename D>
Layout DrawLayoutOnce(D& d, const LayoutLimits& limits) {
  Layout l;
  const uint32_t n_msgs = static_cast<uint32_t>(d.InRange(1, limits.max_messages + 1));
  uint32_t budget = limits.max_pieces;
  for (uint32_t i = 0; i < n_msgs; ++i) {
    MessageLayout m;
    m.front_len = Pick(d, {3, 2}) == 0 ? Choice<D, uint32_t>(d, {196, 0, 331, 19}) : KvecLength(d, 8192);
    m.middle_len = KvecLength(d, 4096);
    const bool dataless = limits.allow_dataless_messages && budget > 0 && Mostly(d, false, 7, 1);
    if (!dataless && budget > 0) {
      const uint64_t n_items = d.InRange(1, limits.max_items_per_message + 1);
      for (uint64_t k = 0; k < n_items && budget > 0; ++k) {
        DataItem it = DrawDataItem(d, budget);
        budget -= std::min(budget, PieceCount(it));
        m.items.push_back(std::move(it));
      }
    }
    l.messages.push_back(std::move(m));
  }
  l.more_to_follow = limits.allow_more_to_follow && d.Bool();
  if (limits.allow_revoke && Mostly(d, false, 5, 1)) {
    Revoke r;
    r.message = static_cast<uint32_t>(d.InRange(0, n_msgs));
    r.after_bytes = d.InRange(0, V1WireBytes(l.messages[r.message]) + 1);
    l.revoke = r;
  }
  return l;
}

// 4..8 krbd-style writes of 128 KiB (32 pieces each), all queued before
// the writer starts (more_to_follow), fronts of the OSD op sizes.
template <typename D>
Layout DrawOsdWritesLayout(D& d) {
  Layout l;
  const uint32_t n_msgs = static_cast<uint32_t>(4 + d.Index(5));
  for (uint32_t i = 0; i < n_msgs; ++i) {
    MessageLayout m;
    m.front_len = Choice<D, uint32_t>(d, {192, 196, 331, 250});
    DataItem it;
    if (Pick(d, {3, 1}) == 0) {
      it.kind = DataLayout::kBio;
      for (int p = 0; p < 32; ++p) it.extents.push_back(Extent{0, kPageSize});
    } else {
      it.kind = DataLayout::kPages;
      it.offset = PageOffset(d);
      it.length = 32 * kPageSize - it.offset;  // 32 pieces, the first short
    }
    m.items.push_back(std::move(it));
    l.messages.push_back(std::move(m));
  }
  l.more_to_follow = Mostly(d, true, 4, 1);
  return l;
}

template <typename D>
std::optional<Layout> DrawLayout(D& d, const LayoutLimits& limits) {
  if (limits.osd_writes) return DrawOsdWritesLayout(d);
  for (int i = 0; i < kRetries; ++i) {
    Layout l = DrawLayoutOnce(d, limits);
    if (PieceCount(l) >= limits.min_pieces) return l;
  }
  return std::nullopt;
}

// The network of a case, drawn into the case's scenario (its kernel is
// drawn with the writer).
template <typename D>
void DrawNetwork(D& d, const ConfigLimits& limits, uint64_t wire, scenario::Scenario* n) {
  SetMss(n, Pick(d, {3, 2}) == 0 ? Choice<D, uint32_t>(d, {1448, 536, 1460, 8948, 9000, 1000})
                                 : static_cast<uint32_t>(d.InRange(536, 9001)));
  n->tso = Mostly(d, true, 3, 1);
  n->nodelay = Mostly(d, true, 3, 1);
  n->autocorking = Mostly(d, true, 4, 1);
  n->sndbuf = Pick(d, {2, 1}) == 0 ? Choice<D, uint32_t>(d, {4u << 20, 4096, 16384, 65536, 212992, 1u << 20})
                                   : static_cast<uint32_t>(d.InRange(4096, 8u << 20));
  n->tcp.initcwnd = Choice<D, uint32_t>(d, {10, 1, 2, 4, 32, 100});
  n->tcp.cwnd_clamp = Pick(d, {3, 1}) == 0 ? 0 : static_cast<uint32_t>(d.InRange(1, 65));
  n->receiver.init_rcv_wnd_segs = Choice<D, uint32_t>(d, {20, 2, 4, 10, 45, 1000});
  n->receiver.rcvbuf = Choice<D, uint32_t>(d, {6u << 20, 65536, 262144, 16u << 20});
  n->delayed_ack = Mostly(d, true, 3, 1);
  n->ack_every = Choice<D, uint32_t>(d, {2, 1, 4});
  n->gro = Choice<D, scenario::GroMode>(d, {scenario::GroMode::kOff, scenario::GroMode::kBatch});
  n->gro_flush_ns = n->gro == scenario::GroMode::kOff ? 0 : Choice<D, uint64_t>(d, {0, 10'000, 100'000});
  // A one-way delay: the RTT is twice it.
  n->rtt_ns = 2 * (Pick(d, {3, 1}) == 0 ? Choice<D, uint64_t>(d, {25'000, 1'000, 100'000, 1'000'000, 10'000'000})
                                        : d.InRange(1'000, 50'000'000));
  n->link_mbps = Choice<D, uint64_t>(d, {10'000, 1'000, 100, 25'000, 100'000});
  n->tx_completion_ns = Choice<D, uint64_t>(d, {0, 1'000, 10'000, 50'000});
  n->call_cost_ns = Pick(d, {3, 1}) == 0 ? Choice<D, uint64_t>(d, {0, 200, 1'000, 5'000}) : d.InRange(0, 20'000);
  n->crc_ns_per_page = Choice<D, uint64_t>(d, {0, 300, 1'000, 3'000});
  n->hz = Choice<D, uint32_t>(d, {250, 1000});
  if (limits.nodelay) n->nodelay = true;
  if (limits.quiescent) MakeQuiescent(n, wire);
}

template <typename D>
std::optional<Case> DrawCaseOnce(D& d, const CaseLimits& limits) {
  Case c;
  std::optional<Layout> l = DrawLayout(d, limits.layout);
  if (!l.has_value()) return std::nullopt;
  c.layout = *std::move(l);
  // Draw (profile, writer) among the pairs that can run.
  std::vector<std::pair<std::string, Writer>> pairs;
  for (Writer w : limits.writers) {
    for (const std::string& p : limits.profiles) {
      if (WriterRunsOn(w, p)) pairs.emplace_back(p, w);
    }
  }
  if (pairs.empty()) return std::nullopt;
  std::tie(c.net.kernel, c.writer) = Choice(d, pairs);
  DrawNetwork(d, limits.config, V1WireBytes(c.layout), &c.net);
  c.seed = d.InRange(1, 1'000'000);
  return c;
}

template <typename D>
std::optional<Case> DrawCaseT(D& d, const CaseLimits& limits) {
  for (int i = 0; i < kRetries; ++i) {
    std::optional<Case> c = DrawCaseOnce(d, limits);
    if (!c.has_value()) return std::nullopt;
    if (!limits.config.fits_initial_window || V1WireBytes(c->layout) <= InitialWindow(c->net)) return c;
  }
  return std::nullopt;
}

}  // namespace

void MakeQuiescent(scenario::Scenario* n, uint64_t wire) {
  n->call_cost_ns = 0;
  n->crc_ns_per_page = 0;
  // Room for every skb's overhead too (truesize ~ 2x payload for small skbs).
  n->sndbuf = static_cast<uint32_t>(std::max<uint64_t>(n->sndbuf, 8 * wire + (4u << 20)));
  n->receiver.rcvbuf = static_cast<uint32_t>(std::max<uint64_t>(n->receiver.rcvbuf, 4 * wire + (1u << 20)));
  n->receiver.init_rcv_wnd_segs =
      static_cast<uint32_t>(std::max<uint64_t>(n->receiver.init_rcv_wnd_segs, wire / n->mss + 2));
}

uint64_t InitialWindow(const scenario::Scenario& n) {
  uint64_t segs = n.receiver.init_rcv_wnd_segs;
  // tcp_default_init_rwnd, as the peer applies it (model/peer.cc): the
  // default 20 segments are 1460-byte segments, so fewer with a jumbo MSS
  // (at least 2). Without this a jumbo-MSS layout looked as if it fit.
  if (segs == 20 && n.mss > 1460) segs = std::max<uint64_t>(1460 * segs / n.mss, 2);
  return std::min<uint64_t>(65535, segs * n.mss);
}

bool IsQuiescentConfig(const scenario::Scenario& n, uint64_t wire) {
  scenario::Scenario q = n;
  MakeQuiescent(&q, wire);
  return q == n && wire <= InitialWindow(n);
}

void showValue(const Case& c, std::ostream& os) { os << "\n" << FormatCase(c); }

rc::Gen<Case> GenCase(const CaseLimits& limits) {
  return gen::exec([limits] {
    RcDraws d;
    std::optional<Case> c = DrawCaseT(d, limits);
    if (!c.has_value()) throw rc::GenerationFailure("no case meets the limits in 100 draws");
    return *std::move(c);
  });
}

std::optional<Case> DrawCase(const CaseLimits& limits, ChoiceDraws& draws) { return DrawCaseT(draws, limits); }

}  // namespace sendsim::props
