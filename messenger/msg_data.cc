#include "messenger/msg_data.h"

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::messenger {
namespace {

constexpr uint64_t kPage = model::kPageSize;

absl::Status ValidateSegs(const std::vector<BioSeg>& segs, uint64_t* sum) {
  for (const BioSeg& s : segs) {
    if (s.len == 0) return absl::InvalidArgumentError("data item: empty bvec segment");
    if (static_cast<uint64_t>(s.offset) + s.len > kPage) {
      return absl::InvalidArgumentError(
          absl::StrFormat("data item: bvec segment (offset %u, len %u) crosses a page boundary", s.offset, s.len));
    }
    *sum += s.len;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateDataItem(const CephMsgData& d) {
  switch (d.type) {
    case DataKind::kPages: {
      const uint64_t a = d.alignment % kPage;
      const uint64_t need = (a + d.length + kPage - 1) / kPage;
      if (d.length > 0 && d.pages.size() < need) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "pages item: %u pages cannot hold %u bytes at alignment %u", d.pages.size(), d.length, a));
      }
      return absl::OkStatus();
    }
    case DataKind::kPagelist:
      if (d.pages.size() * kPage < d.length) {
        return absl::InvalidArgumentError(
            absl::StrFormat("pagelist item: %u pages cannot hold %u bytes", d.pages.size(), d.length));
      }
      return absl::OkStatus();
    case DataKind::kBio: {
      uint64_t sum = 0;
      for (const auto& bio : d.bios) {
        if (bio.empty()) return absl::InvalidArgumentError("bio item: empty bio in the chain");
        if (absl::Status s = ValidateSegs(bio, &sum); !s.ok()) return s;
      }
      if (sum < d.length) {
        return absl::InvalidArgumentError(absl::StrFormat("bio item: segments hold %u < %u bytes", sum, d.length));
      }
      return absl::OkStatus();
    }
    case DataKind::kBvecs: {
      uint64_t sum = 0;
      if (absl::Status s = ValidateSegs(d.bvecs, &sum); !s.ok()) return s;
      if (sum < d.length) {
        return absl::InvalidArgumentError(absl::StrFormat("bvecs item: segments hold %u < %u bytes", sum, d.length));
      }
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError("data item: unknown kind");
}

}  // namespace sendsim::messenger
