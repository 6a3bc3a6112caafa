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
  EXPECT_THAT(WriterNames(), ::testing::ElementsAre("v1-legacy", "v1-notlast", "v1-cork", "v1-splice", "v2", "v1-more",
                                                 "v1-sendmsg"));
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
