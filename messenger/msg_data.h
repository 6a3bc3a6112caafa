#ifndef SENDSIM_MESSENGER_MSG_DATA_H_
#define SENDSIM_MESSENGER_MSG_DATA_H_

// Message data items (struct ceph_msg_data, v4.19 kinds).

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "model/types.h"

namespace sendsim::messenger {

// A page as libceph holds it. `sendpage_ok` is what sendpage_ok() (v5.x
// spelling; v4.19: page_count >= 1, v4.20: also not slab) would answer; when
// false the write path copies the page through sendmsg instead.
struct MsgPage {
  model::Page page;
  bool sendpage_ok = true;
  // ceph_crc32c(0, the page's 4096 bytes), when the page's owner knows it
  // (PagePool); lets a whole-page piece's crc skip the bytes.
  bool has_crc0 = false;
  uint32_t crc0 = 0;
};

// One (page, offset, len) bvec of a bio or bvec array; never crosses a page.
struct BioSeg {
  MsgPage page;
  uint32_t offset = 0;
  uint32_t len = 0;
};

// enum ceph_msg_data_type (without NONE).
enum class DataKind : uint8_t { kPages, kPagelist, kBio, kBvecs };

// One item; only the members of its kind are used.
struct CephMsgData {
  DataKind type = DataKind::kPages;
  uint64_t length = 0;               // PAGES: length; PAGELIST: pagelist->length; BIO: bio_length; BVECS: iter size
  uint32_t alignment = 0;            // PAGES: offset of the first byte in the first page
  std::vector<MsgPage> pages;        // PAGES, PAGELIST (pagelist pages are filled from offset 0)
  std::vector<std::vector<BioSeg>> bios;  // BIO: bio chain, each bio a list of single-page segments
  std::vector<BioSeg> bvecs;         // BVECS
};

// Checks that the item's pages/segments cover `length` bytes and that no
// segment crosses a page boundary or is empty.
absl::Status ValidateDataItem(const CephMsgData& d);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_MSG_DATA_H_
