#ifndef SENDSIM_MESSENGER_PAGE_POOL_H_
#define SENDSIM_MESSENGER_PAGE_POOL_H_

// A bounded set of page buffers with deterministic content, so that long
// workloads (10,000 x 128 KiB) need only a few MiB. Every page handed out
// gets a fresh identity (as distinct block-layer pages would, so TCP never
// coalesces frags across unrelated pages) while its bytes come from the pool
// buffer (id mod size). Buffers are never rewritten, so page data stays valid
// for as long as the pool lives, however long the model holds references.
// Each buffer's crc32c (seed 0) is computed once, here, and handed out with
// the page, so the sender's data crc chains whole pages without rereading
// them (exact: see ceph_crc32c_page_from_crc0).

#include <cstdint>
#include <vector>

#include "messenger/msg_data.h"

namespace sendsim::messenger {

class PagePool {
 public:
  // `num_pages` >= 1; content from a splitmix64 stream seeded with `seed`.
  PagePool(size_t num_pages, uint64_t seed);
  PagePool(const PagePool&) = delete;
  PagePool& operator=(const PagePool&) = delete;

  MsgPage Next(bool sendpage_ok = true);
  size_t size() const { return num_pages_; }
  uint64_t pages_handed_out() const { return next_id_ - 1; }

 private:
  size_t num_pages_;
  std::vector<uint8_t> storage_;
  std::vector<uint32_t> crc0_;  // per buffer
  uint64_t next_id_ = 1;
};

// splitmix64: the seeded PRNG used for all workload content and choices.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0 (modulo bias is irrelevant here).
  uint64_t Uniform(uint64_t n) { return Next() % n; }

 private:
  uint64_t state_;
};

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_PAGE_POOL_H_
