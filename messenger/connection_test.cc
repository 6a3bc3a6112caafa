#include "messenger/connection.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "messenger/testing/writer_params.h"
#include "messenger/testing/harness.h"

namespace sendsim::messenger {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using testing::DecodeAll;
using testing::DescribeAll;
using testing::FakeSocket;
using testing::Harness;

constexpr uint32_t kFront = 20;

// Message 1: two data items. Item 1 is a PAGES vector of two full pages
// (pieces 4096 + 4096, the second is the item's last piece); item 2 a bvec of
// 100 bytes (the payload's last piece). Message 2 has no data.
struct TwoMessages {
  explicit TwoMessages(uint64_t seed = 7, bool item1_sendpage_ok = true, uint64_t item1_len = 8192,
                       uint32_t item1_align = 0)
      : pool(16, seed) {
    m1 = ceph_msg_new(42, std::vector<uint8_t>(kFront, 0xA1));
    m1->index = 0;
    CephMsgData pages;
    pages.type = DataKind::kPages;
    pages.length = item1_len;
    pages.alignment = item1_align;
    pages.pages = {pool.Next(item1_sendpage_ok), pool.Next(item1_sendpage_ok)};
    EXPECT_TRUE(ceph_msg_data_add_item(m1.get(), pages).ok());
    CephMsgData bv;
    bv.type = DataKind::kBvecs;
    bv.length = 100;
    bv.bvecs = {BioSeg{pool.Next(), 17, 100}};
    EXPECT_TRUE(ceph_msg_data_add_item(m1.get(), bv).ok());
    m2 = ceph_msg_new(42, std::vector<uint8_t>(kFront, 0xB2));
    m2->index = 1;
  }
  PagePool pool;
  CephMsgRef m1, m2;
};

ConnectionOptions Opts(WriterKind k) {
  ConnectionOptions o;
  o.policy = MakeWriterPolicy(k);
  return o;
}

// Phase A: one incoming message read, then both messages sent in one run
// (the ack rides in front of message 1). Phase B: a keepalive and another
// incoming message (standalone ack). Phase C: a keepalive alone.
std::vector<std::vector<std::string>> RunPhases(ConnectionOptions o, bool item1_sendpage_ok = true) {
  Harness h(std::move(o));
  TwoMessages t(7, item1_sendpage_ok);
  h.conn.OnIncomingMessages(1);
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  std::vector<std::vector<std::string>> phases;
  size_t mark = h.sock.calls().size();
  phases.push_back(DescribeAll(h.sock.calls()));
  h.conn.ceph_con_keepalive();
  h.conn.OnIncomingMessages(1);
  h.loop.Run();
  phases.push_back(DescribeAll(h.sock.calls(), mark));
  mark = h.sock.calls().size();
  h.conn.ceph_con_keepalive();
  h.loop.Run();
  phases.push_back(DescribeAll(h.sock.calls(), mark));
  EXPECT_TRUE(h.conn.error().ok());
  EXPECT_TRUE(h.conn.idle());
  return phases;
}

// Byte counts: prefix = ack 9 + tag 1 + header 53 + front 20 = 83; footer 21;
// message 2 = 1 + 53 + 20 + 21 = 95; keepalive2 and ack 9 each.
// Flags per docs/libceph-write-path.md §9, row by row (DONTWAIT|NOSIGNAL are checked
// by FlagNames on every call).
TEST(FlagMatrixTest, V1Legacy) {
  auto p = RunPhases(Opts(WriterKind::kV1Legacy));
  EXPECT_THAT(p[0], ElementsAre("sendmsg 83 MORE",      // ack + tag + header + front, message with data
                                "sendpage 4096 MORE",   // not last of its item
                                "sendpage 4096 EOR",    // last of item 1, not of the payload: EOR, no MORE
                                "sendpage 100 EOR",     // last of the payload
                                "sendmsg 21 EOR",       // footer
                                "sendmsg 95 EOR"));     // message without data, footer in the batch
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR",        // keepalive2: leftover out_more = 0 after a footer
                                "sendmsg 9 MORE"));     // standalone ack: out_more = 1
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));     // keepalive2 after the ack: leftover out_more = 1
}

TEST(FlagMatrixTest, V1Notlast) {
  auto p = RunPhases(Opts(WriterKind::kV1Notlast));
  EXPECT_THAT(p[0], ElementsAre("sendmsg 83 MORE", "sendpage 4096 MORE|NOTLAST",
                                "sendpage 4096 MORE|NOTLAST",  // last of item, not of payload
                                "sendpage 100 MORE",           // last of the payload
                                "sendmsg 21 EOR", "sendmsg 95 EOR"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

TEST(FlagMatrixTest, V1Splice) {
  auto p = RunPhases(Opts(WriterKind::kV1Splice));
  EXPECT_THAT(p[0], ElementsAre("sendmsg 83 MORE", "bvec 4096 MORE|SPLICE", "bvec 4096 MORE|SPLICE",
                                "bvec 100 MORE|SPLICE",  // MORE on the last piece too
                                "sendmsg 21 EOR", "sendmsg 95 EOR"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

TEST(FlagMatrixTest, V1Cork) {
  auto p = RunPhases(Opts(WriterKind::kV1Cork));
  EXPECT_THAT(p[0], ElementsAre("cork 1", "sendmsg 83 MORE", "sendpage 4096 MORE", "sendpage 4096 EOR",
                                "sendpage 100 EOR", "sendmsg 21 EOR", "cork 0",  // corked header..footer
                                "cork 1", "sendmsg 95 EOR", "cork 0"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

// props' comparison writers (not shipped by libceph).
TEST(FlagMatrixTest, V1More) {
  auto p = RunPhases(Opts(WriterKind::kV1More));
  EXPECT_THAT(p[0], ElementsAre("sendmsg 83 MORE", "sendpage 4096 MORE", "sendpage 4096 MORE",
                                "sendpage 100 MORE",  // v5.0 without NOTLAST: MORE everywhere
                                "sendmsg 21 EOR", "sendmsg 95 EOR"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

TEST(FlagMatrixTest, V1Sendmsg) {
  // Message 1 whole: 83 + 4096 + 4096 + 100 + 21 = 8396 bytes, one call;
  // no more_to_follow, so EOR as libceph's footer call.
  auto p = RunPhases(Opts(WriterKind::kV1Sendmsg));
  EXPECT_THAT(p[0], ElementsAre("sendmsg 8396 EOR", "sendmsg 95 EOR"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

TEST(FlagMatrixTest, V1CorkBatch) {
  // Without more_to_follow a batch is one message: corked like v1-cork,
  // with v5.0's flags.
  auto p = RunPhases(Opts(WriterKind::kV1CorkBatch));
  EXPECT_THAT(p[0], ElementsAre("cork 1", "sendmsg 83 MORE", "sendpage 4096 MORE|NOTLAST",
                                "sendpage 4096 MORE|NOTLAST", "sendpage 100 MORE", "sendmsg 21 EOR", "cork 0",
                                "cork 1", "sendmsg 95 EOR", "cork 0"));
  EXPECT_THAT(p[1], ElementsAre("sendmsg 9 EOR", "sendmsg 9 MORE"));
  EXPECT_THAT(p[2], ElementsAre("sendmsg 9 MORE"));
}

TEST(FlagMatrixTest, V1CorkBatchHoldsTheCorkAcrossMoreToFollow) {
  // Message 1 sets more_to_follow: its footer goes with MORE and the cork
  // stays until message 2's footer (EOR). Prefix 1 + 53 + 20 = 74 (no ack).
  Harness h(Opts(WriterKind::kV1CorkBatch));
  TwoMessages t;
  t.m1->more_to_follow = true;
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  EXPECT_THAT(DescribeAll(h.sock.calls()),
              ElementsAre("cork 1", "sendmsg 74 MORE", "sendpage 4096 MORE|NOTLAST", "sendpage 4096 MORE|NOTLAST",
                          "sendpage 100 MORE", "sendmsg 21 MORE", "sendmsg 95 EOR", "cork 0"));
  EXPECT_TRUE(h.conn.idle());
}

// msgr2 crc mode: head = preamble 32 + header2 41 + crc 4 = 77 (+ front 20 =
// 97); epilogue 13; message 2 = 77 + 20 + 13 = 110; ACK and KEEPALIVE2 frames
// = 32 + 8 + 4 = 44. Corked around each worker run, no MORE/EOR anywhere.
TEST(FlagMatrixTest, V2) {
  auto p = RunPhases(Opts(WriterKind::kV2));
  EXPECT_THAT(p[0], ElementsAre("cork 1", "sendmsg 97 -", "sendpage 4096 -", "sendpage 4096 -", "sendpage 100 -",
                                "sendmsg 13 -", "sendmsg 110 -", "cork 0"));
  EXPECT_THAT(p[1], ElementsAre("cork 1", "sendmsg 44 -", "sendmsg 44 -", "cork 0"));
  EXPECT_THAT(p[2], ElementsAre("cork 1", "sendmsg 44 -", "cork 0"));
}

// Pages sendpage cannot take are copied through sendmsg with the same flags
// (v4.19 bvec sendmsg, v5.0 sock_no_sendpage, v6.5 without SPLICE_PAGES).
TEST(FlagMatrixTest, SendpageFallbackCopies) {
  EXPECT_THAT(RunPhases(Opts(WriterKind::kV1Legacy), false)[0],
              ElementsAre("sendmsg 83 MORE", "bvec 4096 MORE", "bvec 4096 EOR", "sendpage 100 EOR", "sendmsg 21 EOR",
                          "sendmsg 95 EOR"));
  EXPECT_THAT(RunPhases(Opts(WriterKind::kV1Notlast), false)[0],
              ElementsAre("sendmsg 83 MORE", "bvec 4096 MORE|NOTLAST", "bvec 4096 MORE|NOTLAST", "sendpage 100 MORE",
                          "sendmsg 21 EOR", "sendmsg 95 EOR"));
  EXPECT_THAT(RunPhases(Opts(WriterKind::kV1Splice), false)[0],
              ElementsAre("sendmsg 83 MORE", "bvec 4096 MORE", "bvec 4096 MORE", "bvec 100 MORE|SPLICE",
                          "sendmsg 21 EOR", "sendmsg 95 EOR"));
}

TEST(FlagMatrixTest, NoSendpageKernelUsesSplice) {
  ConnectionOptions o = Opts(WriterKind::kV1Legacy);
  o.has_sendpage = false;
  EXPECT_THAT(RunPhases(o)[0], ElementsAre("sendmsg 83 MORE", "bvec 4096 MORE|SPLICE", "bvec 4096 EOR|SPLICE",
                                           "bvec 100 EOR|SPLICE", "sendmsg 21 EOR", "sendmsg 95 EOR"));
}

TEST(FlagMatrixTest, HookSeesEveryCallAndItsFlagsAreUsed) {
  std::vector<CallContext> seen;
  ConnectionOptions o;
  o.policy = MakeHookPolicy([&seen](const CallContext& c) {
    seen.push_back(c);
    return c.part == CallPart::kData ? (c.piece_index == 1 ? model::kMsgSendpageNotlast : model::kMsgEor)
                                     : model::kMsgMore;
  });
  auto p = RunPhases(o);
  EXPECT_THAT(p[0], ElementsAre("sendmsg 83 MORE", "sendpage 4096 EOR", "sendpage 4096 NOTLAST", "sendpage 100 EOR",
                                "sendmsg 21 MORE", "sendmsg 95 MORE"));
  ASSERT_GE(seen.size(), 6u);
  // Data contexts: last_piece per item F,T,T; last of payload F,F,T.
  EXPECT_EQ(seen[1].part, CallPart::kData);
  EXPECT_FALSE(seen[1].last_piece_of_item);
  EXPECT_TRUE(seen[2].last_piece_of_item);
  EXPECT_FALSE(seen[2].last_of_payload);
  EXPECT_TRUE(seen[3].last_of_payload);
  EXPECT_EQ(seen[3].piece_index, 2u);
  EXPECT_EQ(seen[4].part, CallPart::kFooter);
  EXPECT_FALSE(seen[4].out_more);  // the hook may emulate ceph_tcp_sendmsg with it
  EXPECT_EQ(seen[0].msg_index, 0u);
  EXPECT_EQ(seen[5].msg_index, 1u);
}

// --- resume after -EAGAIN at every byte boundary ---------------------------

// A small two-item message: PAGES at alignment 4000 (96 + 54 bytes) and a
// 100-byte bvec, then a data-less message; ack piggybacked.
std::vector<uint8_t> RunWithBudget(WriterKind k, uint64_t first_budget, uint64_t step, size_t* wakeups) {
  Harness h(Opts(k), first_budget);
  TwoMessages t(7, true, 150, 4000);
  h.conn.OnIncomingMessages(1);
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  size_t n = 0;
  while (!h.conn.idle() && n < 100000) {
    EXPECT_TRUE(h.conn.write_pending());  // a blocked run keeps WRITE_PENDING
    h.sock.Grant(step);                    // write space -> ceph_sock_write_space -> queue_con
    h.loop.Run();
    ++n;
  }
  EXPECT_TRUE(h.conn.error().ok());
  if (wakeups != nullptr) *wakeups = n;
  return h.sock.stream();
}

class ResumeTest : public ::testing::TestWithParam<WriterKind> {};

TEST_P(ResumeTest, EveryCutPointGivesTheSameStream) {
  const WriterKind k = GetParam();
  const std::vector<uint8_t> ref = RunWithBudget(k, FakeSocket::kUnlimited, 0, nullptr);
  // v1: 83 + 150 + 100 + 21 + 95; v2: 97 + 150 + 100 + 13 + 110.
  EXPECT_EQ(ref.size(), k == WriterKind::kV2 ? 470u : 449u);
  DecoderOptions d;
  d.protocol = k == WriterKind::kV2 ? Protocol::kV2 : Protocol::kV1;
  absl::Status st;
  auto msgs = DecodeAll(ref, d, &st);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].hdr.seq, 1u);
  EXPECT_EQ(msgs[0].data.size(), 250u);
  EXPECT_EQ(msgs[1].hdr.seq, 2u);
  for (uint64_t cut = 0; cut < ref.size(); ++cut) {
    size_t wakeups = 0;
    const std::vector<uint8_t> s = RunWithBudget(k, cut, FakeSocket::kUnlimited, &wakeups);
    ASSERT_EQ(s, ref) << "cut at byte " << cut;
    EXPECT_EQ(wakeups, 1u) << cut;
  }
}

TEST_P(ResumeTest, OneByteAtATime) {
  const WriterKind k = GetParam();
  const std::vector<uint8_t> ref = RunWithBudget(k, FakeSocket::kUnlimited, 0, nullptr);
  size_t wakeups = 0;
  EXPECT_EQ(RunWithBudget(k, 1, 1, &wakeups), ref);
  EXPECT_EQ(wakeups, ref.size() - 1);  // one byte per write-space wakeup
}

INSTANTIATE_TEST_SUITE_P(Writers, ResumeTest,
                         ::testing::ValuesIn(testing::SelectableWriters()), testing::WriterParamName());

// A partial send of a piece retries its remainder with the same flags rule:
// under v1-notlast the remainder of the payload's last piece is MORE again.
TEST(ResumeFlagsTest, NotlastRemainderOfLastPieceKeepsMore) {
  Harness h(Opts(WriterKind::kV1Notlast), 74 + 4096 + 4096 + 9);
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);  // no ack: prefix 1 + 53 + 20 = 74
  h.loop.Run();
  h.sock.Grant(FakeSocket::kUnlimited);
  h.loop.Run();
  // The 100-byte piece is cut after 9 bytes; the loop retries the 91-byte
  // remainder at once (EAGAIN), and again after the write-space wakeup.
  EXPECT_THAT(DescribeAll(h.sock.calls()),
              ElementsAre("sendmsg 74 MORE", "sendpage 4096 MORE|NOTLAST", "sendpage 4096 MORE|NOTLAST",
                          "sendpage 100 MORE", "sendpage 91 MORE", "sendpage 91 MORE", "sendmsg 21 EOR"));
  EXPECT_EQ(h.sock.calls()[3].ret, 9);
  EXPECT_EQ(h.sock.calls()[4].ret, -model::kEagain);
  EXPECT_EQ(h.sock.calls()[5].ret, 91);
}

// --- sizes and timing ------------------------------------------------------

// Reference §11.3: krbd 128 KiB write with F = 277 is P + N + 21 = 331 +
// 131072 + 21 = 131424 bytes on the stream; 340 + ... with an ack.
TEST(ConnectionTest, KrbdMessageIsP_plus_N_plus_21) {
  for (bool ack : {false, true}) {
    Harness h(Opts(WriterKind::kV1Legacy));
    PagePool pool(40, 1);
    CephMsgRef m = ceph_msg_new(42, std::vector<uint8_t>(277, 1));
    CephMsgData bio;
    bio.type = DataKind::kBio;
    bio.length = 131072;
    bio.bios.emplace_back();
    for (int i = 0; i < 32; ++i) bio.bios[0].push_back(BioSeg{pool.Next(), 0, 4096});
    ASSERT_TRUE(ceph_msg_data_add_item(m.get(), bio).ok());
    if (ack) h.conn.OnIncomingMessages(1);
    h.conn.ceph_con_send(m);
    h.loop.Run();
    EXPECT_EQ(h.sock.stream().size(), ack ? 131433u : 131424u);
    EXPECT_EQ(h.sock.calls().size(), 1u + 32u + 1u);  // prefix, one sendpage per page, footer
    EXPECT_EQ(h.sock.calls().front().len, ack ? 340u : 331u);
  }
}

TEST(ConnectionTest, OldFooterIs13Bytes) {
  ConnectionOptions o = Opts(WriterKind::kV1Legacy);
  o.old_footer = true;
  Harness h(o);
  TwoMessages t;
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  EXPECT_EQ(h.sock.stream().size(), 1u + 53u + kFront + 13u);
  DecoderOptions d;
  d.old_footer = true;
  absl::Status st;
  EXPECT_EQ(DecodeAll(h.sock.stream(), d, &st).size(), 1u);
  EXPECT_TRUE(st.ok()) << st;
}

// CPU work between calls is simulated time: with crc at 1 ns/byte, 100 ns of
// bookkeeping per call and 1000 ns per prepare_write_message:
//   t=0      worker starts; prepare: 1000 + crc(49 + 20) = 1069
//   1069     sendmsg prefix;            +100            -> 1169
//   1169     sendpage 4096;             +100 + 4096     -> 5365
//   5365     sendpage 4096;             +100 + 4096     -> 9561
//   9561     sendpage 100;              +100 + 100      -> 9761
//   9761     sendmsg footer.
ConnectionOptions CpuCostOpts() {
  ConnectionOptions o = Opts(WriterKind::kV1Notlast);
  o.costs.crc_ns_per_4k = 4096;
  o.costs.per_call_ns = 100;
  o.costs.prepare_message_ns = 1000;
  return o;
}

std::vector<model::TimeNs> CallTimes(Harness& h) {
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  h.loop.Run();
  std::vector<model::TimeNs> times;
  for (const auto& c : h.sock.calls()) times.push_back(c.time);
  return times;
}

TEST(ConnectionTest, CallsAreSpacedByCpuWork) {
  Harness h(CpuCostOpts());
  EXPECT_THAT(CallTimes(h), ElementsAre(1069, 1169, 5365, 9561, 9761));
}

// Softirq work on the worker's CPU delays its next call by as much, including
// work that arrives while it is already catching up; the costs are those of
// CallsAreSpacedByCpuWork. Steals: 300 ns at t=2000, 100 at 5500, 50 at 9900.
//   1069, 1169   as there
//   1169 + 4196 = 5365: 300 stolen since 1169 -> on to 5665; 100 more (at
//                 5500) -> 5765: sendpage 4096
//   5765 + 4196 = 9961: 50 stolen (9900) -> 10011: sendpage 100
//   10011 + 200 = 10211: footer.
TEST(ConnectionTest, SoftirqTimeStolenFromTheWorkerDelaysItsCalls) {
  Harness h(CpuCostOpts());
  h.sock.Steal(2000, 300);
  h.sock.Steal(5500, 100);
  h.sock.Steal(9900, 50);
  EXPECT_THAT(CallTimes(h), ElementsAre(1069, 1169, 5765, 10011, 10211));
}

TEST(ConnectionTest, CallTagsNameMessageAndPiece) {
  Harness h(Opts(WriterKind::kV1Legacy));
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  std::vector<std::string> tags;
  for (const auto& c : h.sock.calls()) {
    const CallTag tag = DecodeCallTag(c.tag);
    tags.push_back(absl::StrFormat("%u/%s/%u", tag.msg_index, CallPartName(tag.part), tag.piece));
  }
  EXPECT_THAT(tags, ElementsAre("0/prefix/0", "0/data/0", "0/data/1", "0/data/2", "0/footer/0", "1/prefix/0"));
}

// New messages do not wake a run that is blocked on a full socket
// (WRITE_PENDING already set); the write-space callback does.
TEST(ConnectionTest, BlockedRunWaitsForWriteSpace) {
  Harness h(Opts(WriterKind::kV1Legacy), 50);
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  h.loop.Run();
  const size_t calls = h.sock.calls().size();
  const uint64_t runs = h.conn.worker_runs();
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  EXPECT_EQ(h.sock.calls().size(), calls);
  EXPECT_EQ(h.conn.worker_runs(), runs);
  h.sock.Grant(FakeSocket::kUnlimited);
  h.loop.Run();
  EXPECT_TRUE(h.conn.idle());
  EXPECT_EQ(h.sock.stream().size(), 74u + 8292u + 21u + 95u);
}

// --- revoke ---------------------------------------------------------------

TEST(RevokeTest, MidDataZeroFillsTheRestOfTheMessage) {
  const std::vector<uint8_t> ref = RunWithBudget(WriterKind::kV1Legacy, FakeSocket::kUnlimited, 0, nullptr);
  // Stop after ack+prefix (83) and the first 96-byte piece.
  Harness h(Opts(WriterKind::kV1Legacy), 83 + 96);
  TwoMessages t(7, true, 150, 4000);
  h.conn.OnIncomingMessages(1);
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  ASSERT_TRUE(h.conn.ceph_msg_revoke(t.m1).ok());
  h.sock.Grant(FakeSocket::kUnlimited);
  h.loop.Run();
  const auto& s = h.sock.stream();
  ASSERT_EQ(s.size(), ref.size());  // byte-consistent: owed = 54 + 100 + 21 zeros
  for (size_t i = 83 + 96; i < 83 + 150 + 100 + 21; ++i) ASSERT_EQ(s[i], 0) << i;
  // Zero fill uses the policy's skip flags: v4.19 MORE.
  EXPECT_EQ(testing::Describe(h.sock.calls()[3]), "sendpage 175 MORE");
  absl::Status st;
  auto msgs = DecodeAll(s, DecoderOptions{}, &st);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_TRUE(msgs[0].aborted);  // COMPLETE clear in the zeroed footer
  EXPECT_FALSE(msgs[1].aborted);
  EXPECT_EQ(msgs[1].hdr.seq, 2u);
}

TEST(RevokeTest, QueuedMessageIsDroppedBeforeItGetsASeq) {
  Harness h(Opts(WriterKind::kV1Legacy));
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  h.conn.ceph_con_send(t.m2);
  ASSERT_TRUE(h.conn.ceph_msg_revoke(t.m1).ok());
  h.loop.Run();
  absl::Status st;
  auto msgs = DecodeAll(h.sock.stream(), DecoderOptions{}, &st);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].hdr.seq, 1u);
  EXPECT_EQ(msgs[0].front, std::vector<uint8_t>(kFront, 0xB2));
}

TEST(RevokeTest, V2IsUnimplemented) {
  Harness h(Opts(WriterKind::kV2));
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  EXPECT_EQ(h.conn.ceph_msg_revoke(t.m1).code(), absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace sendsim::messenger

namespace sendsim::messenger {
namespace {

// A worker run with nothing to send (data_ready with no new message) makes
// no socket calls, in v2 not even the cork pair.
TEST(ConnectionTest, IdleRunMakesNoCalls) {
  for (WriterKind k : {WriterKind::kV1Legacy, WriterKind::kV2}) {
    testing::Harness h(Opts(k));
    h.conn.OnIncomingMessages(0);
    h.loop.Run();
    EXPECT_EQ(h.conn.worker_runs(), 1u);
    EXPECT_TRUE(h.sock.calls().empty());
    EXPECT_TRUE(h.conn.idle());
  }
}

}  // namespace
}  // namespace sendsim::messenger

namespace sendsim::messenger {
namespace {

// ceph_sock_write_space queues the work only while WRITE_PENDING is set.
TEST(ConnectionTest, WriteSpaceWithoutPendingWriteDoesNotRun) {
  testing::Harness h(Opts(WriterKind::kV1Legacy));
  TwoMessages t;
  h.conn.ceph_con_send(t.m2);
  h.loop.Run();
  ASSERT_TRUE(h.conn.idle());
  const uint64_t runs = h.conn.worker_runs();
  h.sock.Grant(100);  // fires the write-space callback
  h.loop.Run();
  EXPECT_EQ(h.conn.worker_runs(), runs);
}

}  // namespace
}  // namespace sendsim::messenger

namespace sendsim::messenger {
namespace {

TEST(ConnectionTest, HookWriterWithoutFunctionIsAnError) {
  ConnectionOptions o;
  o.policy.kind = WriterKind::kHook;
  testing::Harness h(o);
  TwoMessages t;
  h.conn.ceph_con_send(t.m1);
  h.loop.Run();
  EXPECT_EQ(h.conn.error().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(h.sock.calls().empty());
}

}  // namespace
}  // namespace sendsim::messenger
