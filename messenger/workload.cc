#include "messenger/workload.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::messenger {
namespace {

constexpr uint64_t kPage = model::kPageSize;

std::vector<uint8_t> Bytes(uint32_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  SplitMix64 rng(seed);
  for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(rng.Next());
  return v;
}

// Single-page segments covering `length` bytes starting at `alignment`.
std::vector<BioSeg> Segments(uint64_t length, uint32_t alignment, bool sendpage_ok, PagePool* pool) {
  std::vector<BioSeg> segs;
  uint32_t off = static_cast<uint32_t>(alignment % kPage);
  while (length > 0) {
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(length, kPage - off));
    segs.push_back(BioSeg{pool->Next(sendpage_ok), off, len});
    length -= len;
    off = 0;
  }
  return segs;
}

}  // namespace

absl::StatusOr<CephMsgRef> BuildMessage(const MessageSpec& spec, uint64_t index, uint64_t seed, PagePool* pool) {
  CephMsgRef m = ceph_msg_new(kMsgTypeOsdOp, Bytes(spec.front_len, seed ^ (index * 0x100000001B3ull)));
  m->index = index;
  m->hdr.tid = index + 1;
  m->hdr.priority = 63;  // CEPH_MSG_PRIO_DEFAULT
  m->hdr.version = 8;    // MOSDOp v8
  m->hdr.compat_version = 3;
  m->more_to_follow = spec.more_to_follow;
  if (spec.middle_len > 0) SetMiddle(m.get(), Bytes(spec.middle_len, ~seed ^ index));
  uint64_t total = 0;
  for (const DataItemSpec& is : spec.items) total += is.length;
  if (total > UINT32_MAX) {
    return absl::InvalidArgumentError(absl::StrFormat("data length %u does not fit le32 data_len", total));
  }
  for (const DataItemSpec& is : spec.items) {
    CephMsgData d;
    d.type = is.kind;
    d.length = is.length;
    switch (is.kind) {
      case DataKind::kPages: {
        d.alignment = is.alignment;
        const uint64_t n = (is.alignment % kPage + is.length + kPage - 1) / kPage;
        for (uint64_t i = 0; i < n; ++i) d.pages.push_back(pool->Next(is.sendpage_ok));
        break;
      }
      case DataKind::kPagelist: {
        const uint64_t n = (is.length + kPage - 1) / kPage;
        for (uint64_t i = 0; i < n; ++i) d.pages.push_back(pool->Next(is.sendpage_ok));
        break;
      }
      case DataKind::kBio: {
        std::vector<BioSeg> segs = Segments(is.length, is.alignment, is.sendpage_ok, pool);
        for (size_t i = 0; i < segs.size(); i += kSegsPerBio) {
          d.bios.emplace_back(segs.begin() + i, segs.begin() + std::min(segs.size(), i + kSegsPerBio));
        }
        break;
      }
      case DataKind::kBvecs:
        d.bvecs = Segments(is.length, is.alignment, is.sendpage_ok, pool);
        break;
    }
    if (absl::Status s = ceph_msg_data_add_item(m.get(), std::move(d)); !s.ok()) return s;
  }
  // data_off: the object offset's low bits (krbd sets the offset of the I/O).
  m->hdr.data_off = static_cast<uint16_t>(spec.items.empty() ? 0 : spec.items[0].alignment % kPage);
  return m;
}

std::vector<MessageSpec> KrbdWrites(uint64_t count, uint64_t data_len, uint32_t front_len, model::TimeNs interval_ns) {
  std::vector<MessageSpec> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    out[i].front_len = front_len;
    if (data_len > 0) out[i].items.push_back(DataItemSpec{DataKind::kBio, data_len, 0, true});
    out[i].submit_at = static_cast<model::TimeNs>(i) * interval_ns;
  }
  return out;
}

std::vector<MessageSpec> MixedWorkload(uint64_t count, uint64_t seed, model::TimeNs interval_ns) {
  static constexpr uint64_t kSizes[] = {0, 1, 512, 4095, 4096, 4097, 8192 + 13, 65536, 131072 - 7, 131072};
  static constexpr DataKind kKinds[] = {DataKind::kPages, DataKind::kPagelist, DataKind::kBio, DataKind::kBvecs};
  SplitMix64 rng(seed);
  std::vector<MessageSpec> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    MessageSpec& s = out[i];
    s.front_len = static_cast<uint32_t>(rng.Uniform(2) ? kKrbdFrontLen : rng.Uniform(400));
    s.middle_len = rng.Uniform(8) == 0 ? static_cast<uint32_t>(1 + rng.Uniform(100)) : 0;
    const uint64_t nitems = rng.Uniform(3);  // 0, 1 or 2 items
    for (uint64_t k = 0; k < nitems; ++k) {
      DataItemSpec is;
      is.kind = kKinds[rng.Uniform(4)];
      is.length = kSizes[rng.Uniform(std::size(kSizes))];
      is.alignment = rng.Uniform(3) == 0 ? static_cast<uint32_t>(rng.Uniform(kPage)) : 0;
      is.sendpage_ok = rng.Uniform(10) != 0;
      s.items.push_back(is);
    }
    s.submit_at = static_cast<model::TimeNs>(i) * interval_ns;
  }
  return out;
}

}  // namespace sendsim::messenger
