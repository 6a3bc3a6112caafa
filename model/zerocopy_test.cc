#include "model/zerocopy.h"

#include <set>

#include "gtest/gtest.h"

namespace sendsim::model {
namespace {

// Expectations follow net/core/skbuff.c: msg_zerocopy_alloc takes id
// sk_zckey++, msg_zerocopy_realloc grows the tail's uarg while its ids end
// at sk_zckey, __msg_zerocopy_callback queues {id, id+len-1} and
// skb_zerocopy_notify_extend merges a continuing range into the tail.

auto HeldBy(const std::set<uint32_t>& skbs) {
  return [skbs](uint32_t u) { return skbs.count(u) > 0; };
}

TEST(ZerocopyStateTest, EachCallTakesTheNextIdAndCompletesWhenItsSkbsAreFreed) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(1000, 0);
  z.EndCall(a, false);
  const uint32_t b = z.Realloc(1000, 0);
  z.EndCall(b, false);
  z.Sweep(HeldBy({a, b}));
  EXPECT_FALSE(q.pending());  // both still referenced by skbs
  z.Sweep(HeldBy({b}));
  ASSERT_TRUE(q.pending());
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 0, false));
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(1, 1, false));
  EXPECT_EQ(q.Dequeue(), std::nullopt);
}

TEST(ZerocopyStateTest, ContinuingRangesMergeIntoTheTail) {
  ErrorQueue q;
  ZerocopyState z(&q);
  uint32_t h[3];
  for (uint32_t& x : h) {
    x = z.Realloc(100, 0);
    z.EndCall(x, false);
  }
  z.MarkCopied(h[0]);
  z.Sweep(HeldBy({}));
  // {0..0} copied, then 1 and 2 merge into it, keeping its code; each
  // completion is a report (sk_error_report) all the same.
  EXPECT_EQ(q.reports(), 3u);
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 2, true));
  EXPECT_FALSE(q.pending());
}

TEST(ZerocopyStateTest, TheCallsReferenceDelaysCompletion) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(100, 0);
  z.Sweep(HeldBy({}));
  EXPECT_FALSE(q.pending());
  z.EndCall(a, false);
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 0, false));
}

TEST(ZerocopyStateTest, AppendingToTheTailsUargExtendsIt) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(500, 0);
  z.EndCall(a, false);
  EXPECT_EQ(z.Realloc(500, a), a);  // ids 0..1
  z.EndCall(a, false);
  const uint32_t c = z.Realloc(500, 0);  // no zerocopy tail: id 2
  z.EndCall(c, false);
  z.MarkCopied(a);
  z.MarkCopied(c);
  z.Sweep(HeldBy({c}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 1, true));
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(2, 2, true));
}

TEST(ZerocopyStateTest, ByteLimitOrAGapInIdsTakesANewUarg) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(300 << 10, 0);
  z.EndCall(a, false);
  // 300 KiB + 300 KiB is over the 512 KiB limit: a new uarg, id 1.
  const uint32_t b = z.Realloc(300 << 10, a);
  EXPECT_NE(b, a);
  z.EndCall(b, false);
  // a's ids (0) no longer end at sk_zckey (2): not extended either.
  const uint32_t c = z.Realloc(10, a);
  EXPECT_NE(c, a);
  z.EndCall(c, false);
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 2, false));
}

TEST(ZerocopyStateTest, AnAbortedCallGivesItsIdBack) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(100, 0);
  z.EndCall(a, true);  // nothing copied: len 0, no notification
  z.Sweep(HeldBy({}));
  EXPECT_FALSE(q.pending());
  const uint32_t b = z.Realloc(100, 0);  // id 0 again
  z.EndCall(b, false);
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 0, false));
}

TEST(ZerocopyStateTest, AnAbortedExtensionKeepsTheRest) {
  ErrorQueue q;
  ZerocopyState z(&q);
  const uint32_t a = z.Realloc(100, 0);
  z.EndCall(a, false);
  EXPECT_EQ(z.Realloc(100, a), a);
  z.EndCall(a, true);  // back to ids 0..0, sk_zckey 1
  const uint32_t b = z.Realloc(100, a);  // extends again: 0..1
  EXPECT_EQ(b, a);
  z.EndCall(b, false);
  z.Sweep(HeldBy({}));
  EXPECT_EQ(q.Dequeue(), ZerocopyErr(0, 1, false));
}

}  // namespace
}  // namespace sendsim::model
