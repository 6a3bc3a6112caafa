#ifndef SENDSIM_MESSENGER_CURSOR_H_
#define SENDSIM_MESSENGER_CURSOR_H_

// struct ceph_msg_data_cursor and its three entry points, as in v4.19
// net/ceph/messenger.c. A piece never crosses a page boundary; `last_piece`
// is per data item, not per message.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "messenger/msg_data.h"

namespace sendsim::messenger {

struct CephMsgDataCursor {
  const std::vector<CephMsgData>* data = nullptr;  // the message's items
  size_t item = 0;           // index of the current item (cursor->data)
  uint64_t total_resid = 0;  // bytes left across all items
  uint64_t resid = 0;        // bytes left in the current item
  bool last_piece = false;   // current piece is the item's last
  bool need_crc = false;     // the current piece has not been crc'ed yet
  // PAGES: page_index/page_offset. PAGELIST: page_index + offset (offset is
  // absolute within the list). BIO: bio_index/seg_index/seg_done.
  // BVECS: seg_index/seg_done.
  size_t page_index = 0;
  uint32_t page_offset = 0;
  uint64_t offset = 0;
  size_t bio_index = 0;
  size_t seg_index = 0;
  uint32_t seg_done = 0;
};

// A piece as ceph_msg_data_next() returns it.
struct DataPiece {
  MsgPage page;
  uint32_t page_offset = 0;
  uint32_t length = 0;
  bool last_piece = false;
};

void ceph_msg_data_cursor_init(CephMsgDataCursor* cursor, const std::vector<CephMsgData>* data, uint64_t length);
DataPiece ceph_msg_data_next(const CephMsgDataCursor& cursor);
void ceph_msg_data_advance(CephMsgDataCursor* cursor, uint64_t bytes);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_CURSOR_H_
