#include "messenger/cursor.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "messenger/message.h"

namespace sendsim::messenger {
namespace {

using ::testing::ElementsAre;
using ::testing::FieldsAre;

struct P {
  uint64_t page_id;
  uint32_t off;
  uint32_t len;
  bool last;
  bool operator==(const P&) const = default;
};
std::ostream& operator<<(std::ostream& os, const P& p) {
  return os << "{page " << p.page_id << " off " << p.off << " len " << p.len << (p.last ? " last}" : "}");
}

MsgPage Pg(uint64_t id) { return MsgPage{model::Page{id, nullptr}, true}; }

// Walks the cursor the way write_partial_message_data does, consuming each
// piece whole.
std::vector<P> Walk(const std::vector<CephMsgData>& items) {
  uint64_t total = 0;
  for (const auto& d : items) total += d.length;
  CephMsgDataCursor c;
  ceph_msg_data_cursor_init(&c, &items, total);
  std::vector<P> out;
  while (c.total_resid > 0) {
    if (c.resid == 0) {
      ceph_msg_data_advance(&c, 0);
      continue;
    }
    DataPiece d = ceph_msg_data_next(c);
    out.push_back(P{d.page.page.id, d.page_offset, d.length, d.last_piece});
    ceph_msg_data_advance(&c, d.length);
  }
  return out;
}

CephMsgData Pages(uint64_t len, uint32_t align, int npages, uint64_t first_id = 1) {
  CephMsgData d;
  d.type = DataKind::kPages;
  d.length = len;
  d.alignment = align;
  for (int i = 0; i < npages; ++i) d.pages.push_back(Pg(first_id + i));
  return d;
}

TEST(CursorTest, PagesUnalignedOddLength) {
  // alignment 100: first piece 4096-100 = 3996, then a full page, then
  // 10000-3996-4096 = 1908 with last_piece.
  EXPECT_THAT(Walk({Pages(10000, 100, 3)}),
              ElementsAre(P{1, 100, 3996, false}, P{2, 0, 4096, false}, P{3, 0, 1908, true}));
}

TEST(CursorTest, PagesAlignmentIsMaskedToThePage) {
  EXPECT_THAT(Walk({Pages(10000, 4096 + 100, 3)}),
              ElementsAre(P{1, 100, 3996, false}, P{2, 0, 4096, false}, P{3, 0, 1908, true}));
}

TEST(CursorTest, PagesWithinOnePageAndStraddlingOne) {
  EXPECT_THAT(Walk({Pages(50, 4000, 1)}), ElementsAre(P{1, 4000, 50, true}));
  // 4096-4000 = 96 in the first page, 200-96 = 104 in the second.
  EXPECT_THAT(Walk({Pages(200, 4000, 2)}), ElementsAre(P{1, 4000, 96, false}, P{2, 0, 104, true}));
  // Ends exactly on a page boundary: 96 + 4096.
  EXPECT_THAT(Walk({Pages(4192, 4000, 2)}), ElementsAre(P{1, 4000, 96, false}, P{2, 0, 4096, true}));
}

TEST(CursorTest, Pagelist) {
  CephMsgData d;
  d.type = DataKind::kPagelist;
  d.length = 9000;  // 4096 + 4096 + 808
  d.pages = {Pg(7), Pg(8), Pg(9)};
  EXPECT_THAT(Walk({d}), ElementsAre(P{7, 0, 4096, false}, P{8, 0, 4096, false}, P{9, 0, 808, true}));
}

TEST(CursorTest, BioChainWithArbitrarySegments) {
  CephMsgData d;
  d.type = DataKind::kBio;
  d.bios = {{BioSeg{Pg(1), 10, 100}, BioSeg{Pg(2), 0, 4096}}, {BioSeg{Pg(3), 4000, 96}}};
  d.length = 100 + 4096 + 96;
  EXPECT_THAT(Walk({d}), ElementsAre(P{1, 10, 100, false}, P{2, 0, 4096, false}, P{3, 4000, 96, true}));
  // Clipped to a shorter length: the second segment is cut at 50 bytes and is
  // the item's last piece.
  d.length = 150;
  EXPECT_THAT(Walk({d}), ElementsAre(P{1, 10, 100, false}, P{2, 0, 50, true}));
}

TEST(CursorTest, Bvecs) {
  CephMsgData d;
  d.type = DataKind::kBvecs;
  d.bvecs = {BioSeg{Pg(1), 1, 4095}, BioSeg{Pg(2), 0, 1}, BioSeg{Pg(3), 7, 33}};
  d.length = 4095 + 1 + 33;
  EXPECT_THAT(Walk({d}), ElementsAre(P{1, 1, 4095, false}, P{2, 0, 1, false}, P{3, 7, 33, true}));
}

TEST(CursorTest, LastPieceIsPerItem) {
  CephMsgData b;
  b.type = DataKind::kBvecs;
  b.bvecs = {BioSeg{Pg(9), 5, 300}};
  b.length = 300;
  // 5000 = 4096 + 904: the 904-byte piece ends item 1 and is flagged even
  // though item 2 follows.
  EXPECT_THAT(Walk({Pages(5000, 0, 2), b}),
              ElementsAre(P{1, 0, 4096, false}, P{2, 0, 904, true}, P{9, 5, 300, true}));
}

TEST(CursorTest, PartialAdvanceKeepsThePieceAndSkipsCrc) {
  std::vector<CephMsgData> items = {Pages(8192, 0, 2)};
  CephMsgDataCursor c;
  ceph_msg_data_cursor_init(&c, &items, 8192);
  EXPECT_TRUE(c.need_crc);
  ceph_msg_data_advance(&c, 1000);
  EXPECT_FALSE(c.need_crc);  // same piece: crc was computed over all of it
  DataPiece p = ceph_msg_data_next(c);
  EXPECT_EQ(p.page.page.id, 1u);
  EXPECT_EQ(p.page_offset, 1000u);
  EXPECT_EQ(p.length, 3096u);
  ceph_msg_data_advance(&c, 3096);
  EXPECT_TRUE(c.need_crc);
  p = ceph_msg_data_next(c);
  EXPECT_EQ(p.page.page.id, 2u);
  EXPECT_EQ(p.length, 4096u);
  EXPECT_TRUE(p.last_piece);
  ceph_msg_data_advance(&c, 0);  // zero progress (EAGAIN): nothing moves
  EXPECT_FALSE(c.need_crc);
  EXPECT_EQ(c.total_resid, 4096u);
}

TEST(CursorTest, PartialAdvanceInsideBvecSegment) {
  CephMsgData d;
  d.type = DataKind::kBvecs;
  d.bvecs = {BioSeg{Pg(1), 100, 900}, BioSeg{Pg(2), 0, 10}};
  d.length = 910;
  std::vector<CephMsgData> items = {d};
  CephMsgDataCursor c;
  ceph_msg_data_cursor_init(&c, &items, 910);
  ceph_msg_data_advance(&c, 899);
  DataPiece p = ceph_msg_data_next(c);
  EXPECT_EQ(p.page_offset, 999u);
  EXPECT_EQ(p.length, 1u);
  EXPECT_FALSE(p.last_piece);
  ceph_msg_data_advance(&c, 1);
  p = ceph_msg_data_next(c);
  EXPECT_EQ(p.page.page.id, 2u);
  EXPECT_EQ(p.length, 10u);
  EXPECT_TRUE(p.last_piece);
}

TEST(CursorTest, EmptyItemIsSkippedByZeroAdvance) {
  CephMsgData empty;
  empty.type = DataKind::kPagelist;
  empty.length = 0;
  CephMsgData b;
  b.type = DataKind::kBvecs;
  b.bvecs = {BioSeg{Pg(5), 0, 50}};
  b.length = 50;
  std::vector<CephMsgData> items = {Pages(100, 0, 1), empty, b};
  CephMsgDataCursor c;
  ceph_msg_data_cursor_init(&c, &items, 150);
  ceph_msg_data_advance(&c, 100);
  EXPECT_EQ(c.item, 1u);
  EXPECT_EQ(c.resid, 0u);
  EXPECT_EQ(c.total_resid, 50u);
  ceph_msg_data_advance(&c, 0);
  EXPECT_EQ(c.item, 2u);
  EXPECT_TRUE(c.need_crc);
  EXPECT_EQ(ceph_msg_data_next(c).length, 50u);
}

// Every alignment/length combination of a grid: pieces tile the item
// contiguously, never cross a page, and only the final one is last_piece.
TEST(CursorTest, PagesGridTilesTheRange) {
  for (uint32_t align : {0u, 1u, 511u, 4095u}) {
    for (uint64_t len : {1u, 2u, 4095u, 4096u, 4097u, 12289u}) {
      const int npages = static_cast<int>((align + len + 4095) / 4096);
      auto pieces = Walk({Pages(len, align, npages)});
      uint64_t pos = align;  // absolute byte position from the first page start
      for (size_t i = 0; i < pieces.size(); ++i) {
        const P& p = pieces[i];
        EXPECT_EQ(p.page_id, 1 + pos / 4096) << align << " " << len;
        EXPECT_EQ(p.off, pos % 4096);
        EXPECT_LE(p.off + p.len, 4096u);
        EXPECT_EQ(p.last, i + 1 == pieces.size());
        pos += p.len;
      }
      EXPECT_EQ(pos, align + len);
    }
  }
}

TEST(CursorTest, ValidationRejectsBadItems) {
  EXPECT_FALSE(ValidateDataItem(Pages(4097, 0, 1)).ok());
  EXPECT_FALSE(ValidateDataItem(Pages(100, 4000, 1)).ok());  // 96 + 4 needs two pages
  CephMsgData b;
  b.type = DataKind::kBvecs;
  b.bvecs = {BioSeg{Pg(1), 4000, 200}};
  b.length = 200;
  EXPECT_FALSE(ValidateDataItem(b).ok());  // crosses a page
  b.bvecs = {BioSeg{Pg(1), 0, 100}};
  EXPECT_FALSE(ValidateDataItem(b).ok());  // 100 < 200
  b.length = 100;
  EXPECT_TRUE(ValidateDataItem(b).ok());
}

}  // namespace
}  // namespace sendsim::messenger
