#ifndef SENDSIM_PROPS_PAYLOAD_H_
#define SENDSIM_PROPS_PAYLOAD_H_

// The messages a props case queues: fronts, middles and data pages with
// content derived from the case seed alone.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "messenger/message.h"
#include "props/case.h"

namespace sendsim::props {

// Pages handed to data items: fresh page ids from 1 per run, bytes from one
// process-wide messenger::PagePool of 64 buffers, starting at buffer
// seed mod 64. A per-run PagePool filled and crc'd all 64 buffers (256 KiB)
// for every run, 2/3 of a small case's time (perf, 2026-12-04); the shared
// pool is built once, read-only after, and a pure function of a constant, so
// it changes no result between runs, processes or threads.
class CasePages {
 public:
  explicit CasePages(uint64_t seed) : first_(seed) {}
  messenger::MsgPage Next();

 private:
  uint64_t first_;
  uint64_t next_id_ = 1;
};

// Every message of the layout (ceph_msg_new + data items), `more_to_follow`
// per Layout::more_to_follow.
absl::StatusOr<std::vector<messenger::CephMsgRef>> BuildMessages(const Case& c);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_PAYLOAD_H_
