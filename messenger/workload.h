#ifndef SENDSIM_MESSENGER_WORKLOAD_H_
#define SENDSIM_MESSENGER_WORKLOAD_H_

// What the application sends: message shapes, and builders turning them
// into ceph_msgs over a PagePool.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "messenger/message.h"
#include "messenger/page_pool.h"
#include "model/event_loop.h"

namespace sendsim::messenger {

// krbd OSD write front length (docs/libceph-write-path.md §11.2): 163 + L + 38 n + 8 s with
// n = 2 ops, s = 0 snaps, L = 38 (object name) = 277 bytes.
inline constexpr uint32_t kKrbdFrontLen = 277;
inline constexpr uint16_t kMsgTypeOsdOp = 42;  // CEPH_MSG_OSD_OP

struct DataItemSpec {
  DataKind kind = DataKind::kBio;
  uint64_t length = 0;
  // Offset of the first byte in the first page (PAGES alignment; first
  // segment offset for BIO/BVECS; ignored for PAGELIST).
  uint32_t alignment = 0;
  // Pages that sendpage cannot take (slab / refcount 0): copied via sendmsg.
  bool sendpage_ok = true;
};

struct MessageSpec {
  uint32_t front_len = kKrbdFrontLen;
  uint32_t middle_len = 0;
  std::vector<DataItemSpec> items;
  model::TimeNs submit_at = 0;
  bool more_to_follow = false;
};

// Segments per bio when a BIO item is built (each segment one page piece).
inline constexpr size_t kSegsPerBio = 16;

// Builds message `index` (front/middle content derived from seed and index;
// data from `pool`).
absl::StatusOr<CephMsgRef> BuildMessage(const MessageSpec& spec, uint64_t index, uint64_t seed, PagePool* pool);

// `count` krbd writes of `data_len` bytes (one page-aligned BIO item),
// submitted every `interval_ns` starting at 0.
std::vector<MessageSpec> KrbdWrites(uint64_t count, uint64_t data_len, uint32_t front_len, model::TimeNs interval_ns);

// A seeded mix: sizes from 0 to 128 KiB (odd ones included), every data
// kind, unaligned buffers, messages without data, a middle now and then,
// some pages that need the sendmsg fallback.
std::vector<MessageSpec> MixedWorkload(uint64_t count, uint64_t seed, model::TimeNs interval_ns);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_WORKLOAD_H_
