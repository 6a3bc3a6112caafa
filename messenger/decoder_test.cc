#include "messenger/decoder.h"

#include <vector>

#include "gtest/gtest.h"
#include "messenger/crc32c.h"
#include "messenger/le.h"
#include "messenger/testing/harness.h"
#include "messenger/wire_v1.h"

namespace sendsim::messenger {
namespace {

using testing::DecodeAll;

void Append(std::vector<uint8_t>* s, const uint8_t* p, size_t n) { s->insert(s->end(), p, p + n); }

// A v1 stream built by hand from the wire rules (independent of the
// connection): ack 9, then a message with front "hello" and 3 data bytes.
std::vector<uint8_t> HandStream(uint8_t footer_flags = kFooterComplete) {
  std::vector<uint8_t> s;
  const uint8_t ack[9] = {kTagAck, 41, 0, 0, 0, 0, 0, 0, 0};
  Append(&s, ack, 9);
  const std::vector<uint8_t> front = {'h', 'e', 'l', 'l', 'o'};
  const std::vector<uint8_t> data = {1, 2, 3};
  CephMsgHeader h;
  h.seq = 9;
  h.tid = 10;
  h.front_len = 5;
  h.data_len = 3;
  auto hb = EncodeMsgHeader(h);
  PutLe32(&hb[49], ceph_crc32c(0, hb.data(), 49));
  s.push_back(kTagMsg);
  Append(&s, hb.data(), hb.size());
  Append(&s, front.data(), front.size());
  Append(&s, data.data(), data.size());
  CephMsgFooter f;
  f.front_crc = ceph_crc32c(0, front.data(), 5);
  f.data_crc = ceph_crc32c(0, data.data(), 3);
  f.flags = footer_flags;
  uint8_t fb[21];
  EncodeMsgFooter(f, false, fb);
  Append(&s, fb, 21);
  return s;
}

TEST(DecoderV1Test, DecodesAHandBuiltStreamInAnyChunking) {
  const auto s = HandStream();
  ASSERT_EQ(s.size(), 9u + 1 + 53 + 5 + 3 + 21);
  for (size_t chunk : {size_t{1}, size_t{7}, s.size()}) {
    Decoder d(DecoderOptions{});
    std::vector<DecodedMessage> msgs;
    d.on_message = [&](const DecodedMessage& m) { msgs.push_back(m); };
    for (size_t i = 0; i < s.size(); i += chunk) {
      ASSERT_TRUE(d.Feed(0, s.data() + i, std::min(chunk, s.size() - i)).ok());
    }
    EXPECT_TRUE(d.at_boundary());
    EXPECT_EQ(d.acks(), 1u);
    EXPECT_EQ(d.last_ack(), 41u);
    ASSERT_EQ(msgs.size(), 1u);
    EXPECT_EQ(msgs[0].hdr.seq, 9u);
    EXPECT_EQ(msgs[0].front, std::vector<uint8_t>({'h', 'e', 'l', 'l', 'o'}));
    EXPECT_EQ(msgs[0].data, std::vector<uint8_t>({1, 2, 3}));
    EXPECT_EQ(msgs[0].stream_begin, 9u);
    EXPECT_EQ(msgs[0].stream_end, s.size());
  }
}

TEST(DecoderV1Test, EveryCorruptedByteIsCaught) {
  // Flipping any byte of the message (tag through footer crcs) must be
  // detected: header crc, a length/tag change that breaks framing, or a
  // payload/footer crc mismatch. The footer's sig (8) and flags (1) are not
  // covered by a crc, so they are left out.
  const auto good = HandStream();
  for (size_t i = 9; i < good.size() - 9; ++i) {
    auto s = good;
    s[i] ^= 0x01;
    absl::Status st;
    auto msgs = DecodeAll(s, DecoderOptions{}, &st);
    EXPECT_FALSE(st.ok() && msgs.size() == 1 && msgs[0].front == std::vector<uint8_t>({'h', 'e', 'l', 'l', 'o'}) &&
                 !msgs[0].aborted)
        << "flip at " << i;
  }
}

TEST(DecoderV1Test, ReportsWhichCrcFailed) {
  auto s = HandStream();
  s[9 + 1 + 53] ^= 0xFF;  // first front byte
  absl::Status st;
  DecodeAll(s, DecoderOptions{}, &st);
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("front crc"), std::string::npos) << st;
  s = HandStream();
  s[9 + 5] ^= 0xFF;  // inside the header
  DecodeAll(s, DecoderOptions{}, &st);
  EXPECT_NE(st.message().find("header crc"), std::string::npos) << st;
  s = HandStream();
  s[0] = 99;
  DecodeAll(s, DecoderOptions{}, &st);
  EXPECT_NE(st.message().find("unexpected tag 99"), std::string::npos) << st;
}

TEST(DecoderV1Test, IncompleteFooterMeansAborted) {
  auto s = HandStream(0);
  absl::Status st;
  auto msgs = DecodeAll(s, DecoderOptions{}, &st);
  ASSERT_TRUE(st.ok()) << st;
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_TRUE(msgs[0].aborted);
}

TEST(DecoderV1Test, TruncatedStreamIsNotAtBoundary) {
  auto s = HandStream();
  s.pop_back();
  absl::Status st;
  DecodeAll(s, DecoderOptions{}, &st);
  EXPECT_FALSE(st.ok());
}

// v2 streams come from the connection writer; corruption anywhere in a
// crc-covered field must be caught.
std::vector<uint8_t> V2Stream() {
  ConnectionOptions o;
  o.policy = MakeWriterPolicy(WriterKind::kV2);
  testing::Harness h(o);
  PagePool pool(4, 3);
  CephMsgRef m = ceph_msg_new(42, std::vector<uint8_t>(10, 0x5A));
  CephMsgData d;
  d.type = DataKind::kPages;
  d.length = 30;
  d.alignment = 4080;  // 16 + 14 across two pages
  d.pages = {pool.Next(), pool.Next()};
  EXPECT_TRUE(ceph_msg_data_add_item(m.get(), d).ok());
  h.conn.OnIncomingMessages(3);
  h.conn.ceph_con_send(m);
  h.loop.Run();
  h.conn.ceph_con_keepalive();
  h.conn.OnIncomingMessages(1);
  h.loop.Run();
  return h.sock.stream();
}

TEST(DecoderV2Test, DecodesMessageAckAndKeepalive) {
  const auto s = V2Stream();
  ASSERT_EQ(s.size(), 77u + 10 + 30 + 13 + 44 + 44);
  Decoder d(DecoderOptions{Protocol::kV2});
  std::vector<DecodedMessage> msgs;
  d.on_message = [&](const DecodedMessage& m) { msgs.push_back(m); };
  for (size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(d.Feed(0, &s[i], 1).ok()) << i;
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].ack_seq, 3u);  // msgr2 piggybacks in header2
  EXPECT_EQ(msgs[0].data.size(), 30u);
  EXPECT_EQ(d.keepalives(), 1u);
  EXPECT_EQ(d.acks(), 1u);
  EXPECT_EQ(d.last_ack(), 4u);
}

TEST(DecoderV2Test, EveryCorruptedByteIsCaught) {
  const auto good = V2Stream();
  // Message frame: preamble (crc'd except... all 28 + crc), header2 + crc,
  // front, data, epilogue crcs (late status flips read as aborted or bad).
  for (size_t i = 0; i < 77u + 10 + 30 + 13; ++i) {
    auto s = good;
    s[i] ^= 0x01;
    absl::Status st;
    auto msgs = DecodeAll(s, DecoderOptions{Protocol::kV2}, &st);
    EXPECT_FALSE(st.ok() && msgs.size() == 1 && !msgs[0].aborted) << "flip at " << i;
  }
}

}  // namespace
}  // namespace sendsim::messenger
