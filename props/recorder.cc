#include "props/recorder.h"

#include <algorithm>

#include "messenger/call_tag.h"
#include "model/constants.h"

namespace sendsim::props {

namespace msgr = ::sendsim::messenger;
using model::TimeNs;

uint64_t MixHash(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0x100000001b3ULL;
}

Recorder::Recorder(const Case& c, model::EventLoop* loop, msgr::Protocol protocol, bool decode)
    : case_(c),
      loop_(loop),
      decoder_(msgr::DecoderOptions{protocol, false, true, 1u << 30}),
      spans_(c.layout.messages.size(), {-1, -1}),
      accepted_(c.layout.messages.size(), 0),
      decode_(decode) {
  decoder_.on_message = [this](const msgr::DecodedMessage& m) { decoded_.push_back(m); };
}

void Recorder::OnWirePacket(const model::WirePacket& p) {
  hash_ = MixHash(hash_, static_cast<uint64_t>(p.time));
  hash_ = MixHash(hash_, (uint64_t{p.seq} << 32) | p.ack);
  hash_ = MixHash(hash_, (uint64_t{p.len} << 32) | (uint64_t{p.flags} << 16) |
                             (uint64_t{static_cast<uint8_t>(p.dir)} << 8) | static_cast<uint8_t>(p.reason));
  hash_ = MixHash(hash_, (uint64_t{p.win} << 1) ^ p.tag);
  if (p.dir == model::Direction::kAck) {
    // Reported at departure from the peer; reaches the sender one way later.
    const uint64_t off = have_base_ ? static_cast<uint32_t>(p.ack - base_) : 0;
    acks_.emplace_back(p.time + static_cast<model::TimeNs>(case_.net.rtt_ns / 2), off);
    return;
  }
  if (p.len == 0) return;
  if (!have_base_) {
    have_base_ = true;
    base_ = p.seq;
  }
  const uint32_t off = p.seq - base_;
  // A flush point is a push of the sender (pushed_seq), not the PSH that
  // __tcp_transmit_skb forces on every multi-segment TSO packet.
  const uint8_t flags = p.psh_forced ? static_cast<uint8_t>(p.flags & ~model::kTcpPsh) : p.flags;
  packets_.push_back(PacketRecord{p.time, off, p.len, flags, static_cast<uint8_t>(p.reason), off < snd_max_});
  snd_max_ = std::max<uint64_t>(snd_max_, uint64_t{off} + p.len);
}

void Recorder::OnDeliver(TimeNs t, uint32_t /*seq*/, const uint8_t* data, uint32_t len) {
  if (!decode_) {
    delivered_ += len;
    return;
  }
  if (data == nullptr) {
    delivery_error_ = "payload not tracked";
    return;
  }
  const int64_t drop = case_.mutation.decoder_drop_byte;
  if (drop >= 0 && static_cast<uint64_t>(drop) >= delivered_ && static_cast<uint64_t>(drop) < delivered_ + len) {
    // Negative control: the decoder sees the stream with one byte missing.
    const uint64_t k = static_cast<uint64_t>(drop) - delivered_;
    (void)decoder_.Feed(t, data, k);
    (void)decoder_.Feed(t, data + k + 1, len - k - 1);
  } else {
    (void)decoder_.Feed(t, data, len);
  }
  delivered_ += len;
}

void Recorder::OnMessageWritten(const msgr::CephMsg& msg, uint64_t /*stream_end*/, TimeNs t) {
  if (msg.index < spans_.size()) spans_[msg.index].second = t;
}

void Recorder::OnSocketCall(msgr::CallPart part, uint64_t tag, int /*flags*/, int64_t ret) {
  const TimeNs now = loop_->now();
  if (ret == 0 || ret == -model::kEagain) ++eagains_;
  const msgr::CallTag ct = msgr::DecodeCallTag(tag);
  if (ct.msg_index >= spans_.size()) return;
  std::pair<TimeNs, TimeNs>& span = spans_[ct.msg_index];
  if (span.first < 0) span.first = now;
  if (part == msgr::CallPart::kFooter || part == msgr::CallPart::kPrefix || part == msgr::CallPart::kData) {
    if (ret > 0) accepted_[ct.msg_index] += static_cast<uint64_t>(ret);
  }
  MaybeRevoke(ct.msg_index);
}

void Recorder::MaybeRevoke(uint64_t index) {
  if (revoked_ || !case_.layout.revoke.has_value() || case_.layout.revoke->message != index) return;
  if (accepted_[index] < case_.layout.revoke->after_bytes) return;
  revoked_ = true;
  // ceph_msg_revoke runs from another context (the OSD client's timeout
  // path): after the current socket call returned, at the same instant.
  msgr::CephMsgRef m = (*msgs_)[index];
  loop_->ScheduleAfter(0, [this, m] {
    absl::Status s = conn_->ceph_msg_revoke(m);
    if (!s.ok() && revoke_error_.ok()) revoke_error_ = s;
  });
}

}  // namespace sendsim::props
