#include "props/generators.h"

#include <algorithm>
#include <ostream>

namespace sendsim::props {
namespace {

using rc::Gen;
namespace gen = rc::gen;

// Like gen::weightedOneOf, but the choice itself shrinks toward the first
// alternative (RapidCheck's weighted choice does not shrink), so that
// counterexamples shrink to the defaults listed first.
// An index in [0, n) drawn over the full range whatever RapidCheck's size
// is (gen::inRange scales with size), shrinking toward 0.
Gen<uint32_t> Index(uint32_t n) { return gen::resize(rc::kNominalSize, gen::inRange<uint32_t>(0, n)); }

// gen::element that shrinks toward the first element (RapidCheck's does not
// shrink at all).
template <typename T>
Gen<T> Choice(std::vector<T> v) {
  uint32_t n = static_cast<uint32_t>(v.size());
  return gen::map(Index(n), [v = std::move(v)](uint32_t i) { return v[i]; });
}

template <typename T>
Gen<T> Weighted(std::vector<std::pair<uint32_t, Gen<T>>> choices) {
  uint32_t total = 0;
  for (const auto& c : choices) total += c.first;
  return gen::exec([choices, total] {
    uint32_t r = *Index(total);
    for (const auto& c : choices) {
      if (r < c.first) return *c.second;
      r -= c.first;
    }
    return *choices.back().second;
  });
}

Gen<bool> Mostly(bool usual, uint32_t usual_weight, uint32_t other_weight) {
  return Weighted<bool>({{usual_weight, gen::just(usual)}, {other_weight, gen::just(!usual)}});
}

Gen<uint32_t> GenPageOffset() {
  return Weighted<uint32_t>({
      {4, gen::just<uint32_t>(0)},
      {2, Choice<uint32_t>({1, 19, 512, 2048, 4095})},
      {4, gen::inRange<uint32_t>(0, kPage)},
  });
}

// 1 byte .. max_len, with weight on short, sub-page and whole-page lengths.
Gen<uint64_t> GenLength(uint64_t max_len) {
  Gen<uint64_t> tiny = gen::inRange<uint64_t>(1, std::min<uint64_t>(max_len, 64) + 1);
  Gen<uint64_t> sub_page = gen::inRange<uint64_t>(1, std::min<uint64_t>(max_len, kPage) + 1);
  Gen<uint64_t> any = gen::inRange<uint64_t>(1, max_len + 1);
  if (max_len < kPage) return Weighted<uint64_t>({{1, tiny}, {2, sub_page}, {4, any}});
  Gen<uint64_t> whole_pages =
      gen::map(gen::inRange<uint64_t>(1, max_len / kPage + 1), [](uint64_t k) { return k * kPage; });
  return Weighted<uint64_t>({{1, tiny}, {2, sub_page}, {3, whole_pages}, {4, any}});
}

Gen<Extent> GenExtent() {
  return gen::exec([] {
    uint32_t off = *GenPageOffset();
    uint32_t room = kPage - off;
    uint32_t len = *Weighted<uint32_t>({
        {3, gen::inRange<uint32_t>(1, room + 1)},
        {2, gen::just(room)},
        {1, gen::inRange<uint32_t>(1, std::min<uint32_t>(room, 64) + 1)},
    });
    return Extent{off, len};
  });
}

Gen<uint32_t> GenKvecLength(uint32_t max) {
  return Weighted<uint32_t>({
      {2, gen::just<uint32_t>(0)},
      {3, gen::inRange<uint32_t>(0, 512)},
      {2, gen::inRange<uint32_t>(0, max + 1)},
  });
}

}  // namespace

Gen<DataItem> GenDataItem(uint32_t max_pieces) {
  max_pieces = std::max<uint32_t>(max_pieces, 1);
  return gen::exec([max_pieces] {
    DataItem it;
    it.kind = *Choice<ItemKind>({ItemKind::kPages, ItemKind::kPagelist, ItemKind::kBio, ItemKind::kBvecs});
    switch (it.kind) {
      case ItemKind::kPages:
        it.offset = *GenPageOffset();
        it.length = *GenLength(uint64_t{max_pieces} * kPage - it.offset);
        break;
      case ItemKind::kPagelist:
        it.length = *GenLength(uint64_t{max_pieces} * kPage);
        break;
      case ItemKind::kBio:
      case ItemKind::kBvecs: {
        uint32_t n = *gen::inRange<uint32_t>(1, max_pieces + 1);
        it.extents = *gen::container<std::vector<Extent>>(n, GenExtent());
        break;
      }
    }
    return it;
  });
}

Gen<Layout> GenLayout(const LayoutLimits& limits) {
  Gen<Layout> g = gen::exec([limits] {
    Layout l;
    uint32_t n_msgs = *gen::inRange<uint32_t>(1, limits.max_messages + 1);
    uint32_t budget = limits.max_pieces;
    for (uint32_t i = 0; i < n_msgs; ++i) {
      MessageLayout m;
      m.front_len = *Weighted<uint32_t>({
          {3, Choice<uint32_t>({196, 0, 331, 19})},
          {2, GenKvecLength(8192)},
      });
      m.middle_len = *GenKvecLength(4096);
      bool dataless = limits.allow_dataless_messages && budget > 0 &&
                      *Mostly(false, 7, 1);
      if (!dataless && budget > 0) {
        uint32_t n_items = *gen::inRange<uint32_t>(1, limits.max_items_per_message + 1);
        for (uint32_t k = 0; k < n_items && budget > 0; ++k) {
          DataItem it = *GenDataItem(budget);
          budget -= std::min(budget, PieceCount(it));
          m.items.push_back(std::move(it));
        }
      }
      l.messages.push_back(std::move(m));
    }
    l.more_to_follow = limits.allow_more_to_follow && *gen::arbitrary<bool>();
    if (limits.allow_revoke && *Mostly(false, 5, 1)) {
      Revoke r;
      r.message = *gen::inRange<uint32_t>(0, n_msgs);
      r.after_bytes = *gen::inRange<uint64_t>(0, V1WireBytes(l.messages[r.message]) + 1);
      l.revoke = r;
    }
    return l;
  });
  uint32_t min_pieces = limits.min_pieces;
  return gen::suchThat(g, [min_pieces](const Layout& l) { return PieceCount(l) >= min_pieces; });
}

void MakeQuiescent(NetConfig* n, uint64_t wire) {
  n->call_cost_ns = 0;
  n->crc_ns_per_page = 0;
  // Room for every skb's overhead too (truesize ~ 2x payload for small skbs).
  n->sndbuf = static_cast<uint32_t>(std::max<uint64_t>(n->sndbuf, 8 * wire + (4u << 20)));
  n->rcvbuf = static_cast<uint32_t>(std::max<uint64_t>(n->rcvbuf, 4 * wire + (1u << 20)));
  n->init_rcv_wnd_segs = static_cast<uint32_t>(std::max<uint64_t>(n->init_rcv_wnd_segs, wire / n->mss + 2));
}

uint64_t InitialWindow(const NetConfig& n) {
  uint64_t segs = n.init_rcv_wnd_segs;
  // tcp_default_init_rwnd, as the peer applies it (model/peer.cc): the
  // default 20 segments are 1460-byte segments, so fewer with a jumbo MSS
  // (at least 2). Without this a jumbo-MSS layout looked as if it fit.
  if (segs == 20 && n.mss > 1460) segs = std::max<uint64_t>(1460 * segs / n.mss, 2);
  return std::min<uint64_t>(65535, segs * n.mss);
}

bool IsQuiescentConfig(const NetConfig& n, uint64_t wire) {
  NetConfig q = n;
  MakeQuiescent(&q, wire);
  return q == n && wire <= InitialWindow(n);
}

void showValue(const Case& c, std::ostream& os) { os << "\n" << FormatCase(c); }

Gen<NetConfig> GenNetConfig(const ConfigLimits& limits, uint64_t wire) {
  return gen::exec([limits, wire] {
    NetConfig n;
    n.mss = *Weighted<uint32_t>({
        {3, Choice<uint32_t>({1448, 536, 1460, 8948, 9000, 1000})},
        {2, gen::inRange<uint32_t>(536, 9001)},
    });
    n.tso = *Mostly(true, 3, 1);
    n.nodelay = *Mostly(true, 3, 1);
    n.autocorking = *Mostly(true, 4, 1);
    n.sndbuf = *Weighted<uint32_t>({
        {2, Choice<uint32_t>({4u << 20, 4096, 16384, 65536, 212992, 1u << 20})},
        {1, gen::inRange<uint32_t>(4096, 8u << 20)},
    });
    n.initcwnd = *Choice<uint32_t>({10, 1, 2, 4, 32, 100});
    n.cwnd_clamp = *Weighted<uint32_t>({
        {3, gen::just<uint32_t>(0)},
        {1, gen::inRange<uint32_t>(1, 65)},
    });
    n.init_rcv_wnd_segs = *Choice<uint32_t>({20, 2, 4, 10, 45, 1000});
    n.rcvbuf = *Choice<uint32_t>({6u << 20, 65536, 262144, 16u << 20});
    n.delayed_ack = *Mostly(true, 3, 1);
    n.ack_every_segs = *Choice<uint32_t>({2, 1, 4});
    n.gro = *Choice<GroModeP>({GroModeP::kOff, GroModeP::kBatch});
    n.gro_flush_ns = n.gro == GroModeP::kOff ? 0 : *Choice<int64_t>({0, 10'000, 100'000});
    n.one_way_delay_ns = *Weighted<int64_t>({
        {3, Choice<int64_t>({25'000, 1'000, 100'000, 1'000'000, 10'000'000})},
        {1, gen::inRange<int64_t>(1'000, 50'000'000)},
    });
    n.link_bps = *Choice<uint64_t>({10'000'000'000, 1'000'000'000, 100'000'000, 25'000'000'000,
                                         100'000'000'000});
    n.tx_completion_ns = *Choice<int64_t>({0, 1'000, 10'000, 50'000});
    n.call_cost_ns = *Weighted<int64_t>({
        {3, Choice<int64_t>({0, 200, 1'000, 5'000})},
        {1, gen::inRange<int64_t>(0, 20'000)},
    });
    n.crc_ns_per_page = *Choice<int64_t>({0, 300, 1'000, 3'000});
    n.hz = *Choice<int>({250, 1000});
    if (limits.quiescent) MakeQuiescent(&n, wire);
    return n;
  });
}

Gen<Case> GenCase(const CaseLimits& limits) {
  Gen<Case> g = gen::exec([limits] {
    Case c;
    c.layout = *GenLayout(limits.layout);
    // Draw (profile, writer) among the pairs that can run.
    std::vector<std::pair<std::string, Writer>> pairs;
    for (Writer w : limits.writers) {
      for (const std::string& p : limits.profiles) {
        if (WriterRunsOn(w, p)) pairs.emplace_back(p, w);
      }
    }
    RC_PRE(!pairs.empty());
    std::tie(c.profile, c.writer) = *Choice(pairs);
    c.net = *GenNetConfig(limits.config, V1WireBytes(c.layout));
    c.seed = *gen::inRange<uint64_t>(1, 1'000'000);
    return c;
  });
  if (!limits.config.fits_initial_window) return g;
  return gen::suchThat(g, [](const Case& c) { return V1WireBytes(c.layout) <= InitialWindow(c.net); });
}

}  // namespace sendsim::props
