#include "messenger/cursor.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

#include "model/constants.h"

namespace sendsim::messenger {
namespace {

constexpr uint64_t kPage = model::kPageSize;

// The kernel BUG_ON()s these; a broken cursor here is a programming error.
void Check(bool ok) {
  if (!ok) std::abort();
}

const CephMsgData& Item(const CephMsgDataCursor& c) { return (*c.data)[c.item]; }

// BIO/BVECS: the current segment, what bio_iter_iovec()/bvec_iter_bvec()
// would yield (clipped to resid, as the iterator's size is).
const BioSeg& CurSeg(const CephMsgDataCursor& c) {
  const CephMsgData& d = Item(c);
  return d.type == DataKind::kBio ? d.bios[c.bio_index][c.seg_index] : d.bvecs[c.seg_index];
}
uint64_t CurSegLen(const CephMsgDataCursor& c) {
  return std::min<uint64_t>(CurSeg(c).len - c.seg_done, c.resid);
}

// __ceph_msg_data_cursor_init: per-kind *_cursor_init on the current item.
void ItemInit(CephMsgDataCursor* c) {
  const CephMsgData& d = Item(*c);
  c->resid = std::min(c->total_resid, d.length);
  switch (d.type) {
    case DataKind::kPages:  // ceph_msg_data_pages_cursor_init
      c->page_offset = static_cast<uint32_t>(d.alignment % kPage);
      c->page_index = 0;
      c->last_piece = c->page_offset + c->resid <= kPage;
      break;
    case DataKind::kPagelist:  // ceph_msg_data_pagelist_cursor_init
      c->page_index = 0;
      c->offset = 0;
      c->last_piece = c->resid <= kPage;
      break;
    case DataKind::kBio:  // ceph_msg_data_bio_cursor_init
    case DataKind::kBvecs:  // ceph_msg_data_bvecs_cursor_init
      c->bio_index = 0;
      c->seg_index = 0;
      c->seg_done = 0;
      c->last_piece = c->resid > 0 && c->resid == CurSegLen(*c);
      break;
  }
  c->need_crc = true;
}

// Returns new_piece, as the per-kind *_advance functions do.
bool PagesAdvance(CephMsgDataCursor* c, uint64_t n) {
  c->resid -= n;
  c->page_offset = static_cast<uint32_t>((c->page_offset + n) % kPage);
  if (n == 0 || c->page_offset != 0) return false;  // more of this page to send
  if (c->resid == 0) return false;                   // item done
  ++c->page_index;
  c->last_piece = c->resid <= kPage;
  return true;
}

bool PagelistAdvance(CephMsgDataCursor* c, uint64_t n) {
  c->resid -= n;
  c->offset += n;
  if (n == 0 || c->offset % kPage != 0) return false;
  if (c->resid == 0) return false;
  ++c->page_index;
  c->last_piece = c->resid <= kPage;
  return true;
}

bool SegsAdvance(CephMsgDataCursor* c, uint64_t n) {
  const CephMsgData& d = Item(*c);
  c->resid -= n;
  c->seg_done += static_cast<uint32_t>(n);
  if (n > 0 && c->seg_done == CurSeg(*c).len) {  // bio_advance_iter / bvec_iter_advance step over it
    c->seg_done = 0;
    ++c->seg_index;
    if (d.type == DataKind::kBio && c->seg_index == d.bios[c->bio_index].size()) {
      // The bio is exhausted: it->bio = bio->bi_next.
      ++c->bio_index;
      c->seg_index = 0;
    }
  }
  if (c->resid == 0) return false;
  if (n == 0 || c->seg_done != 0) return false;  // more of this segment to send
  c->last_piece = c->resid == CurSegLen(*c);
  return true;
}

}  // namespace

void ceph_msg_data_cursor_init(CephMsgDataCursor* cursor, const std::vector<CephMsgData>* data, uint64_t length) {
  *cursor = CephMsgDataCursor{};
  cursor->data = data;
  cursor->total_resid = length;
  cursor->item = 0;
  if (!data->empty()) ItemInit(cursor);
}

DataPiece ceph_msg_data_next(const CephMsgDataCursor& c) {
  const CephMsgData& d = Item(c);
  DataPiece p;
  switch (d.type) {
    case DataKind::kPages:
      p.page = d.pages[c.page_index];
      p.page_offset = c.page_offset;
      p.length = static_cast<uint32_t>(c.last_piece ? c.resid : kPage - c.page_offset);
      break;
    case DataKind::kPagelist:
      p.page = d.pages[c.page_index];
      p.page_offset = static_cast<uint32_t>(c.offset % kPage);
      p.length = static_cast<uint32_t>(c.last_piece ? c.resid : kPage - p.page_offset);
      break;
    case DataKind::kBio:
    case DataKind::kBvecs: {
      const BioSeg& s = CurSeg(c);
      p.page = s.page;
      p.page_offset = s.offset + c.seg_done;
      p.length = static_cast<uint32_t>(CurSegLen(c));
      break;
    }
  }
  p.last_piece = c.last_piece;
  // The BUG_ON()s of ceph_msg_data_next.
  Check(p.length > 0);
  Check(p.page_offset + p.length <= kPage);
  Check(p.length <= c.resid);
  return p;
}

void ceph_msg_data_advance(CephMsgDataCursor* c, uint64_t bytes) {
  Check(bytes <= c->resid);
  bool new_piece = false;
  switch (Item(*c).type) {
    case DataKind::kPages:
      new_piece = PagesAdvance(c, bytes);
      break;
    case DataKind::kPagelist:
      new_piece = PagelistAdvance(c, bytes);
      break;
    case DataKind::kBio:
    case DataKind::kBvecs:
      new_piece = SegsAdvance(c, bytes);
      break;
  }
  c->total_resid -= bytes;
  if (c->resid == 0 && c->total_resid > 0) {
    ++c->item;
    Check(c->item < c->data->size());
    ItemInit(c);
    new_piece = true;
  }
  c->need_crc = new_piece;
}

}  // namespace sendsim::messenger
