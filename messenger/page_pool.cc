#include "messenger/page_pool.h"

#include <algorithm>

#include "model/constants.h"

namespace sendsim::messenger {

PagePool::PagePool(size_t num_pages, uint64_t seed)
    : num_pages_(std::max<size_t>(1, num_pages)), storage_(num_pages_ * model::kPageSize) {
  SplitMix64 rng(seed);
  for (size_t i = 0; i < storage_.size(); i += 8) {
    const uint64_t v = rng.Next();
    for (int b = 0; b < 8; ++b) storage_[i + b] = static_cast<uint8_t>(v >> (8 * b));
  }
}

MsgPage PagePool::Next(bool sendpage_ok) {
  const uint64_t id = next_id_++;
  const uint8_t* data = storage_.data() + ((id - 1) % num_pages_) * model::kPageSize;
  return MsgPage{model::Page{id, data}, sendpage_ok};
}

}  // namespace sendsim::messenger
