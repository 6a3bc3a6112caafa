#include "messenger/page_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "messenger/crc32c.h"
#include "model/constants.h"

namespace sendsim::messenger {

PagePool::PagePool(size_t num_pages, uint64_t seed)
    : num_pages_(std::max<size_t>(1, num_pages)), storage_(num_pages_ * model::kPageSize) {
  SplitMix64 rng(seed);
  // Each draw's bytes go in little-endian order, on any host.
  for (size_t i = 0; i < storage_.size(); i += 8) {
    const uint64_t v = rng.Next();
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(&storage_[i], &v, 8);
    } else {
      for (int b = 0; b < 8; ++b) storage_[i + b] = static_cast<uint8_t>(v >> (8 * b));
    }
  }
  crc0_.reserve(num_pages_);
  for (size_t i = 0; i < num_pages_; ++i) {
    crc0_.push_back(ceph_crc32c(0, storage_.data() + i * model::kPageSize, model::kPageSize));
  }
}

MsgPage PagePool::Next(bool sendpage_ok) {
  const uint64_t id = next_id_++;
  const size_t buffer = (id - 1) % num_pages_;
  const uint8_t* data = storage_.data() + buffer * model::kPageSize;
  return MsgPage{model::Page{id, data}, sendpage_ok, /*has_crc0=*/true, crc0_[buffer]};
}

}  // namespace sendsim::messenger
