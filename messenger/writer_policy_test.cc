#include "messenger/writer_policy.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sendsim::messenger {
namespace {

TEST(WriterPolicyTest, NamesRoundTrip) {
  for (const std::string& n : WriterNames()) {
    absl::StatusOr<WriterKind> k = ParseWriterKind(n);
    ASSERT_TRUE(k.ok()) << n;
    EXPECT_EQ(WriterKindName(*k), n);
  }
  EXPECT_THAT(WriterNames(), ::testing::ElementsAre("v1-legacy", "v1-notlast", "v1-cork", "v1-splice", "v2",
                                                   "v1-more", "v1-sendmsg", "v1-cork-batch"));
}

// props' comparison writers are selectable by name like libceph's; the
// hook writer is not (it needs code).
TEST(WriterPolicyTest, ComparisonWritersAreSelectable) {
  EXPECT_EQ(*ParseWriterKind("v1-more"), WriterKind::kV1More);
  EXPECT_EQ(*ParseWriterKind("v1-sendmsg"), WriterKind::kV1Sendmsg);
  EXPECT_EQ(*ParseWriterKind("v1-cork-batch"), WriterKind::kV1CorkBatch);
  EXPECT_FALSE(ParseWriterKind("hook").ok());
}

TEST(WriterPolicyTest, ComparisonWritersFlagsAndCork) {
  CallContext mid;
  mid.part = CallPart::kData;
  CallContext last = mid;
  last.last_of_payload = true;
  last.last_piece_of_item = true;
  const int more = 0x8000, notlast = 0x20000;  // MSG_MORE, MSG_SENDPAGE_NOTLAST
  // v1-more: MORE on every piece, never NOTLAST.
  EXPECT_EQ(PolicyFlags(MakeWriterPolicy(WriterKind::kV1More), mid), more);
  EXPECT_EQ(PolicyFlags(MakeWriterPolicy(WriterKind::kV1More), last), more);
  // v1-cork-batch: v5.0's flags, and TCP_CORK held across a batch.
  const WriterPolicy batch = MakeWriterPolicy(WriterKind::kV1CorkBatch);
  EXPECT_EQ(PolicyFlags(batch, mid), more | notlast);
  EXPECT_EQ(PolicyFlags(batch, last), more);
  EXPECT_EQ(batch.cork, CorkMode::kBatch);
  EXPECT_EQ(MakeWriterPolicy(WriterKind::kV1Cork).cork, CorkMode::kPerMessage);
  EXPECT_EQ(MakeWriterPolicy(WriterKind::kV1Notlast).cork, CorkMode::kNone);
  EXPECT_TRUE(MakeWriterPolicy(WriterKind::kV1Sendmsg).sendmsg_per_message());
  EXPECT_FALSE(MakeWriterPolicy(WriterKind::kV1Notlast).sendmsg_per_message());
}

TEST(WriterPolicyTest, UnknownNameIsAClearError) {
  absl::StatusOr<WriterKind> k = ParseWriterKind("v3");
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(k.status().message()), ::testing::HasSubstr("unknown writer 'v3'"));
  EXPECT_THAT(std::string(k.status().message()), ::testing::HasSubstr("v1-legacy"));
  EXPECT_FALSE(ParseWriterKind("").ok());
  EXPECT_FALSE(ParseWriterKind("hook").ok());  // needs code, not a name
}

}  // namespace
}  // namespace sendsim::messenger
