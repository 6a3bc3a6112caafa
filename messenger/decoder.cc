#include "messenger/decoder.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "messenger/crc32c.h"
#include "messenger/le.h"
#include "messenger/wire_v2.h"

namespace sendsim::messenger {

Decoder::Decoder(DecoderOptions options) : options_(options) {}

absl::Status Decoder::Fail(absl::Status s) {
  if (status_.ok()) {
    status_ = absl::Status(s.code(), absl::StrFormat("stream offset %u: %s", offset_, s.message()));
  }
  return status_;
}

bool Decoder::Gather(const uint8_t*& p, size_t& len, size_t n) {
  if (buf_.size() < n) buf_.resize(n);
  const size_t take = std::min(n - have_, len);
  std::copy(p, p + take, buf_.begin() + have_);
  have_ += take;
  p += take;
  len -= take;
  offset_ += take;
  if (have_ < n) return false;
  have_ = 0;
  return true;
}

absl::Status Decoder::Feed(model::TimeNs t, const uint8_t* p, size_t len) {
  if (!status_.ok()) return status_;
  const bool v2 = options_.protocol == Protocol::kV2;
  while (len > 0) {
    switch (state_) {
      case State::kStart:
        if (have_ == 0) {
          cur_ = DecodedMessage{};
          cur_.stream_begin = offset_;
        }
        if (!Gather(p, len, v2 ? kPreambleLen : 1)) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kV1AckSeq:
      case State::kV1Keepalive2:
        if (!Gather(p, len, 8)) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kV1Header:
        if (!Gather(p, len, kMsgHeaderLen)) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kV1Footer:
        if (!Gather(p, len, SizeofFooter(options_.old_footer))) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kV2Seg1:
        if (!Gather(p, len, seg_len_[0] + kCrcLen)) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kV2Epilogue:
        if (!Gather(p, len, kEpilogueCrcLen)) break;
        if (absl::Status s = OnFixed(t); !s.ok()) return s;
        break;
      case State::kFront:
      case State::kMiddle:
      case State::kData: {
        const size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, len));
        uint32_t* crc = state_ == State::kFront ? &front_crc_ : state_ == State::kMiddle ? &middle_crc_ : &data_crc_;
        *crc = ceph_crc32c(*crc, p, take);
        if (options_.keep_payload || state_ != State::kData) {
          auto& v = state_ == State::kFront ? cur_.front : state_ == State::kMiddle ? cur_.middle : cur_.data;
          v.insert(v.end(), p, p + take);
        }
        p += take;
        len -= take;
        offset_ += take;
        remaining_ -= take;
        if (remaining_ == 0) {
          if (absl::Status s = NextPayloadState(t); !s.ok()) return s;
        }
        break;
      }
    }
  }
  // Zero-length payload parts that follow a completed fixed part.
  while ((state_ == State::kFront || state_ == State::kMiddle || state_ == State::kData) && remaining_ == 0) {
    if (absl::Status s = NextPayloadState(t); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Moves past front -> middle -> data -> footer/epilogue, skipping empty parts.
absl::Status Decoder::NextPayloadState(model::TimeNs t) {
  const bool v2 = options_.protocol == Protocol::kV2;
  const uint32_t middle = v2 ? seg_len_[2] : cur_.hdr.middle_len;
  const uint32_t data = v2 ? seg_len_[3] : cur_.hdr.data_len;
  while (true) {
    if (state_ == State::kFront) {
      state_ = State::kMiddle;
      remaining_ = middle;
    } else if (state_ == State::kMiddle) {
      state_ = State::kData;
      remaining_ = data;
    } else if (state_ == State::kData) {
      if (!v2) {
        state_ = State::kV1Footer;
        return absl::OkStatus();
      }
      if (num_segments_ > 1) {
        state_ = State::kV2Epilogue;
        return absl::OkStatus();
      }
      return Complete(t);
    } else {
      return absl::OkStatus();
    }
    if (remaining_ > 0) return absl::OkStatus();
  }
}

// A fixed-size part is complete in buf_: act on it by the state it ends.
absl::Status Decoder::OnFixed(model::TimeNs t) {
  const uint8_t* b = buf_.data();
  switch (state_) {
    case State::kStart:
      return options_.protocol == Protocol::kV2 ? OnV2Preamble(b) : OnV1Tag(b);
    case State::kV1AckSeq:
      last_ack_ = GetLe64(b);
      ++acks_;
      if (on_ack) on_ack(last_ack_);
      state_ = State::kStart;
      return absl::OkStatus();
    case State::kV1Keepalive2:
      ++keepalives_;
      state_ = State::kStart;
      return absl::OkStatus();
    case State::kV1Header:
      return OnV1Header(t, b);
    case State::kV1Footer:
      return OnV1Footer(t, b);
    case State::kV2Seg1:
      return OnV2ControlSegment(t, b);
    case State::kV2Epilogue:
      return OnV2Epilogue(t, b);
    default:
      return Fail(absl::InternalError("decoder: bad state"));
  }
}

// read_partial's tag byte (v1).
absl::Status Decoder::OnV1Tag(const uint8_t* b) {
  switch (b[0]) {
    case kTagMsg:
      state_ = State::kV1Header;
      return absl::OkStatus();
    case kTagAck:
      state_ = State::kV1AckSeq;
      return absl::OkStatus();
    case kTagKeepalive2:
      state_ = State::kV1Keepalive2;
      return absl::OkStatus();
    case kTagKeepalive:
      ++keepalives_;
      return absl::OkStatus();
    default:
      return Fail(absl::DataLossError(absl::StrFormat("v1: unexpected tag %u", b[0])));
  }
}

// The v2 frame preamble: its crc, the segment lengths and the frame tag.
absl::Status Decoder::OnV2Preamble(const uint8_t* b) {
  const Preamble pre = DecodePreamble(b);
  if (pre.crc != PreambleCrc(b)) {
    return Fail(
        absl::DataLossError(absl::StrFormat("v2: preamble crc %08x, computed %08x", pre.crc, PreambleCrc(b))));
  }
  int expect_segments = 1;
  for (int i = 0; i < kFrameMaxSegments; ++i) {
    seg_len_[i] = pre.seg_len[i];
    if (pre.seg_len[i] > options_.max_segment_len) {
      return Fail(absl::DataLossError(absl::StrFormat("v2: segment %d length %u too large", i, pre.seg_len[i])));
    }
    if (pre.seg_len[i] > 0) expect_segments = i + 1;
  }
  if (pre.num_segments != expect_segments) {
    return Fail(absl::DataLossError(absl::StrFormat("v2: num_segments %u but segment lengths imply %d",
                                                    pre.num_segments, expect_segments)));
  }
  num_segments_ = pre.num_segments;
  frame_tag_ = pre.tag;
  const uint32_t want = frame_tag_ == kFrameTagMessage ? kMsgHeader2Len : 8;
  if (frame_tag_ != kFrameTagMessage && frame_tag_ != kFrameTagAck && frame_tag_ != kFrameTagKeepalive2) {
    return Fail(absl::DataLossError(absl::StrFormat("v2: unexpected frame tag %u", frame_tag_)));
  }
  if (seg_len_[0] != want || (frame_tag_ != kFrameTagMessage && num_segments_ != 1)) {
    return Fail(absl::DataLossError(
        absl::StrFormat("v2: frame tag %u with control segment length %u", frame_tag_, seg_len_[0])));
  }
  state_ = State::kV2Seg1;
  return absl::OkStatus();
}

absl::Status Decoder::OnV1Header(model::TimeNs t, const uint8_t* b) {
  cur_.hdr = DecodeMsgHeader(b);
  const uint32_t crc = ceph_crc32c(0, b, kMsgHeaderCrcOffset);
  if (crc != cur_.hdr.crc) {
    return Fail(absl::DataLossError(absl::StrFormat("v1: header crc %08x, computed %08x", cur_.hdr.crc, crc)));
  }
  for (uint32_t l : {cur_.hdr.front_len, cur_.hdr.middle_len, cur_.hdr.data_len}) {
    if (l > options_.max_segment_len) {
      return Fail(absl::DataLossError(absl::StrFormat("v1: header length %u too large", l)));
    }
  }
  front_crc_ = middle_crc_ = data_crc_ = 0;  // msgr1 crcs are seeded with 0
  state_ = State::kFront;
  remaining_ = cur_.hdr.front_len;
  if (remaining_ == 0) return NextPayloadState(t);
  return absl::OkStatus();
}

absl::Status Decoder::OnV1Footer(model::TimeNs t, const uint8_t* b) {
  const CephMsgFooter f = DecodeMsgFooter(b, options_.old_footer);
  cur_.data_crc = data_crc_;
  if ((f.flags & kFooterComplete) == 0) {
    cur_.aborted = true;  // read_partial_message drops it before checking crcs
    return Complete(t);
  }
  if (f.front_crc != front_crc_) {
    return Fail(absl::DataLossError(absl::StrFormat("v1: seq %u front crc %08x, computed %08x", cur_.hdr.seq,
                                                    f.front_crc, front_crc_)));
  }
  if (f.middle_crc != middle_crc_) {
    return Fail(absl::DataLossError(absl::StrFormat("v1: seq %u middle crc %08x, computed %08x", cur_.hdr.seq,
                                                    f.middle_crc, middle_crc_)));
  }
  if ((f.flags & kFooterNocrc) == 0 && f.data_crc != data_crc_) {
    return Fail(absl::DataLossError(absl::StrFormat("v1: seq %u data crc %08x, computed %08x", cur_.hdr.seq,
                                                    f.data_crc, data_crc_)));
  }
  return Complete(t);
}

absl::Status Decoder::OnV2ControlSegment(model::TimeNs t, const uint8_t* b) {
  const uint32_t crc = ceph_crc32c(~0u, b, seg_len_[0]);
  const uint32_t got = GetLe32(b + seg_len_[0]);
  if (crc != got) {
    return Fail(absl::DataLossError(absl::StrFormat("v2: control segment crc %08x, computed %08x", got, crc)));
  }
  if (frame_tag_ == kFrameTagAck) {
    last_ack_ = GetLe64(b);
    ++acks_;
    if (on_ack) on_ack(last_ack_);
    state_ = State::kStart;
    return absl::OkStatus();
  }
  if (frame_tag_ == kFrameTagKeepalive2) {
    ++keepalives_;
    state_ = State::kStart;
    return absl::OkStatus();
  }
  cur_.hdr = DecodeMsgHeader2(b, &cur_.ack_seq);
  cur_.hdr.front_len = seg_len_[1];
  cur_.hdr.middle_len = seg_len_[2];
  cur_.hdr.data_len = seg_len_[3];
  front_crc_ = middle_crc_ = data_crc_ = ~0u;  // msgr2 segment crcs are seeded with -1
  state_ = State::kFront;
  remaining_ = seg_len_[1];
  if (remaining_ == 0) return NextPayloadState(t);
  return absl::OkStatus();
}

absl::Status Decoder::OnV2Epilogue(model::TimeNs t, const uint8_t* b) {
  const EpiloguePlain e = DecodeEpiloguePlain(b);
  cur_.data_crc = data_crc_;
  if ((e.late_status & kLateStatusAbortedMask) != kLateStatusComplete) {
    cur_.aborted = true;
    return Complete(t);
  }
  if (e.front_crc != front_crc_ || e.middle_crc != middle_crc_ || e.data_crc != data_crc_) {
    return Fail(absl::DataLossError(absl::StrFormat(
        "v2: seq %u epilogue crcs %08x/%08x/%08x, computed %08x/%08x/%08x", cur_.hdr.seq, e.front_crc,
        e.middle_crc, e.data_crc, front_crc_, middle_crc_, data_crc_)));
  }
  return Complete(t);
}

absl::Status Decoder::Complete(model::TimeNs t) {
  cur_.data_crc = data_crc_;
  cur_.stream_end = offset_;
  cur_.completed_at = t;
  ++messages_;
  state_ = State::kStart;
  if (on_message) on_message(cur_);
  cur_ = DecodedMessage{};
  return absl::OkStatus();
}

}  // namespace sendsim::messenger
