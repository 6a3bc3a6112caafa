#include "props/payload.h"

#include "messenger/page_pool.h"
#include "model/constants.h"

namespace sendsim::props {
namespace {

namespace msgr = ::sendsim::messenger;

constexpr uint16_t kMsgTypeOsdOp = 42;  // CEPH_MSG_OSD_OP
// Distinct page contents per run (messenger::PagePool's size in RunCase
// before the cache); pages get fresh identities anyway.
constexpr size_t kPoolPages = 64;
constexpr uint64_t kContentSeed = 0x9a9e5;

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0x100000001b3ULL;
}

// Deterministic filler bytes for fronts and middles, eight per draw
// (little-endian, so the bytes are the same on any host).
std::vector<uint8_t> Bytes(uint32_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  msgr::SplitMix64 rng(seed);
  for (uint32_t i = 0; i < n; i += 8) {
    const uint64_t x = rng.Next();
    for (uint32_t b = 0; b < 8 && i + b < n; ++b) v[i + b] = static_cast<uint8_t>(x >> (8 * b));
  }
  return v;
}

}  // namespace

msgr::MsgPage CasePages::Next() {
  struct Shared {
    Shared() : pool(kPoolPages, kContentSeed) {
      for (msgr::MsgPage& p : pages) p = pool.Next();
    }
    msgr::PagePool pool;
    msgr::MsgPage pages[kPoolPages];
  };
  static const Shared* const shared = new Shared();
  const uint64_t id = next_id_++;
  msgr::MsgPage p = shared->pages[(id - 1 + first_) % kPoolPages];
  p.page.id = id;
  return p;
}

namespace {

absl::StatusOr<msgr::CephMsgRef> BuildMessage(const MessageLayout& ml, uint64_t index, uint64_t seed,
                                             bool more_to_follow, CasePages* pages) {
  msgr::CephMsgRef m = msgr::ceph_msg_new(kMsgTypeOsdOp, Bytes(ml.front_len, Mix(seed, index * 2 + 1)));
  m->index = index;
  m->hdr.tid = index + 1;
  m->hdr.priority = 63;
  m->hdr.version = 8;
  m->hdr.compat_version = 3;
  m->more_to_follow = more_to_follow;
  if (ml.middle_len > 0) msgr::SetMiddle(m.get(), Bytes(ml.middle_len, Mix(seed, index * 2 + 2)));
  for (const DataItem& it : ml.items) {
    msgr::CephMsgData d;
    d.length = DataBytes(it);
    switch (it.kind) {
      case DataLayout::kPages:
      case DataLayout::kPagelist: {
        d.type = it.kind == DataLayout::kPages ? msgr::DataKind::kPages : msgr::DataKind::kPagelist;
        d.alignment = it.kind == DataLayout::kPages ? it.offset : 0;
        for (uint32_t i = 0; i < PieceCount(it); ++i) d.pages.push_back(pages->Next());
        break;
      }
      case DataLayout::kBio:
      case DataLayout::kBvecs: {
        std::vector<msgr::BioSeg> segs;
        for (const Extent& e : it.extents) segs.push_back(msgr::BioSeg{pages->Next(), e.offset, e.len});
        if (it.kind == DataLayout::kBio) {
          d.type = msgr::DataKind::kBio;
          d.bios.push_back(std::move(segs));
        } else {
          d.type = msgr::DataKind::kBvecs;
          d.bvecs = std::move(segs);
        }
        break;
      }
    }
    if (absl::Status s = msgr::ceph_msg_data_add_item(m.get(), std::move(d)); !s.ok()) return s;
  }
  return m;
}

}  // namespace

absl::StatusOr<std::vector<msgr::CephMsgRef>> BuildMessages(const Case& c) {
  CasePages pages(c.seed);
  std::vector<msgr::CephMsgRef> msgs;
  for (size_t i = 0; i < c.layout.messages.size(); ++i) {
    const bool more = c.layout.more_to_follow && i + 1 < c.layout.messages.size();
    absl::StatusOr<msgr::CephMsgRef> m = BuildMessage(c.layout.messages[i], i, c.seed, more, &pages);
    if (!m.ok()) return m.status();
    msgs.push_back(*std::move(m));
  }
  return msgs;
}

}  // namespace sendsim::props
