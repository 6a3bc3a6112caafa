#ifndef SENDSIM_MESSENGER_DECODER_H_
#define SENDSIM_MESSENGER_DECODER_H_

// The peer's side: rebuilds msgr1 or msgr2 (crc mode) messages from the
// in-order byte stream it received, verifying every length and crc, the way
// read_partial_message (v1) / the msgr2 frame reader would. The stream starts
// on an open session (no banner or handshake).

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "messenger/wire_v1.h"
#include "model/event_loop.h"

namespace sendsim::messenger {

enum class Protocol : uint8_t { kV1, kV2 };

struct DecodedMessage {
  CephMsgHeader hdr;
  uint64_t ack_seq = 0;      // v2: header2.ack_seq
  bool aborted = false;      // v1: footer COMPLETE clear (revoked); crcs not checked then
  uint32_t data_crc = 0;     // as computed by the decoder
  std::vector<uint8_t> front;
  std::vector<uint8_t> middle;
  std::vector<uint8_t> data;  // filled only with keep_payload
  uint64_t stream_begin = 0;  // offset of the message's first byte (tag / preamble)
  uint64_t stream_end = 0;    // offset just past its last byte
  model::TimeNs completed_at = 0;
};

struct DecoderOptions {
  Protocol protocol = Protocol::kV1;
  bool old_footer = false;    // v1: 13-byte footer
  bool keep_payload = true;   // keep front/middle/data bytes in DecodedMessage
  uint32_t max_segment_len = 1u << 30;  // lengths above this are framing errors
};

class Decoder {
 public:
  explicit Decoder(DecoderOptions options);

  // Consumes the next bytes of the stream. The first error is sticky.
  absl::Status Feed(model::TimeNs t, const uint8_t* data, size_t len);

  std::function<void(const DecodedMessage&)> on_message;
  std::function<void(uint64_t seq)> on_ack;  // standalone ack (v1 tag / v2 ACK frame)

  const absl::Status& status() const { return status_; }
  uint64_t offset() const { return offset_; }
  // True when no frame is partially received.
  bool at_boundary() const { return state_ == State::kStart && have_ == 0; }
  uint64_t messages() const { return messages_; }
  uint64_t acks() const { return acks_; }
  uint64_t keepalives() const { return keepalives_; }
  uint64_t last_ack() const { return last_ack_; }

 private:
  enum class State : uint8_t {
    kStart,       // v1: tag byte; v2: preamble
    kV1AckSeq,
    kV1Keepalive2,
    kV1Header,
    kFront,
    kMiddle,
    kData,
    kV1Footer,
    kV2Seg1,      // control segment + inline crc
    kV2Epilogue,
  };

  // Collects `n` bytes of a fixed-size part; true when complete.
  bool Gather(const uint8_t*& p, size_t& len, size_t n);
  absl::Status Fail(absl::Status s);
  absl::Status OnFixed(model::TimeNs t);
  absl::Status OnV1Tag(const uint8_t* b);
  absl::Status OnV2Preamble(const uint8_t* b);
  absl::Status OnV1Header(model::TimeNs t, const uint8_t* b);
  absl::Status OnV1Footer(model::TimeNs t, const uint8_t* b);
  absl::Status OnV2ControlSegment(model::TimeNs t, const uint8_t* b);
  absl::Status OnV2Epilogue(model::TimeNs t, const uint8_t* b);
  absl::Status AfterSegments(model::TimeNs t);
  absl::Status Complete(model::TimeNs t);
  absl::Status NextPayloadState(model::TimeNs t);

  DecoderOptions options_;
  absl::Status status_;
  State state_ = State::kStart;
  std::vector<uint8_t> buf_;
  size_t have_ = 0;
  uint64_t offset_ = 0;

  DecodedMessage cur_;
  uint32_t seg_len_[4] = {};
  uint8_t num_segments_ = 0;
  uint8_t frame_tag_ = 0;
  uint64_t remaining_ = 0;  // bytes left in the current payload part
  uint32_t front_crc_ = 0, middle_crc_ = 0, data_crc_ = 0;

  uint64_t messages_ = 0;
  uint64_t acks_ = 0;
  uint64_t keepalives_ = 0;
  uint64_t last_ack_ = 0;
};

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_DECODER_H_
