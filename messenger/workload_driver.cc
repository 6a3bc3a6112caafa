#include "messenger/workload_driver.h"

#include <utility>

#include "absl/strings/str_format.h"

namespace sendsim::messenger {

WorkloadDriver::WorkloadDriver(model::EventLoop* loop, std::vector<MessageSpec> specs, DriverOptions options,
                               model::Observer* downstream)
    : loop_(loop),
      specs_(std::move(specs)),
      options_(options),
      reply_rng_(options.seed ^ 0x5245'504c'594a'4954ull),  // "REPLYJIT"
      downstream_(downstream),
      pool_(options.pool_pages, options.seed),
      records_(specs_.size()),
      inflight_(specs_.size()) {
  for (size_t i = 0; i < records_.size(); ++i) records_[i].index = i;
}

absl::Status WorkloadDriver::Attach(model::Socket* socket, ConnectionOptions conn_options) {
  DecoderOptions d;
  d.protocol = conn_options.policy.v2() ? Protocol::kV2 : Protocol::kV1;
  d.old_footer = conn_options.old_footer;
  d.keep_payload = options_.verify_payload;
  decoder_ = std::make_unique<Decoder>(d);
  decoder_->on_message = [this](const DecodedMessage& m) { OnDecoded(m); };
  conn_ = std::make_unique<CephConnection>(loop_, socket, std::move(conn_options), this);
  return absl::OkStatus();
}

void WorkloadDriver::Start() {
  if (options_.queue_depth == 0) {
    for (uint64_t i = 0; i < specs_.size(); ++i) {
      loop_->ScheduleAt(specs_[i].submit_at, [this, i] { Submit(i); });
    }
    next_submit_ = specs_.size();
  } else {
    while (next_submit_ < specs_.size() && outstanding_ < options_.queue_depth) {
      const uint64_t i = next_submit_++;
      ++outstanding_;
      loop_->ScheduleAt(specs_[i].submit_at, [this, i] { Submit(i); });
    }
  }
}

void WorkloadDriver::Fail(absl::Status s) {
  if (status_.ok()) status_ = std::move(s);
}

void WorkloadDriver::Submit(uint64_t index) {
  absl::StatusOr<CephMsgRef> m = BuildMessage(specs_[index], index, options_.seed, &pool_);
  if (!m.ok()) {
    Fail(absl::InvalidArgumentError(absl::StrFormat("message %u: %s", index, m.status().message())));
    return;
  }
  records_[index].submitted = loop_->now();
  if (options_.verify_payload) inflight_[index] = *m;
  conn_->ceph_con_send(*std::move(m));
}

void WorkloadDriver::OnMessagePrepared(const CephMsg& msg, model::TimeNs /*t*/) {
  records_[msg.index].seq = msg.hdr.seq;
  if (seq_to_index_.size() < msg.hdr.seq) seq_to_index_.resize(msg.hdr.seq, UINT64_MAX);
  seq_to_index_[msg.hdr.seq - 1] = msg.index;
}

void WorkloadDriver::OnMessageWritten(const CephMsg& msg, uint64_t /*stream_end*/, model::TimeNs t) {
  records_[msg.index].written = t;
}

void WorkloadDriver::OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) {
  if (downstream_ != nullptr) downstream_->OnDeliver(t, seq, data, len);
  if (!have_base_) {
    have_base_ = true;
    base_seq_ = seq;
  }
  if (seq != static_cast<uint32_t>(base_seq_ + delivered_bytes_)) {
    Fail(absl::DataLossError(absl::StrFormat("delivery at seq %u, expected %u", seq,
                                             static_cast<uint32_t>(base_seq_ + delivered_bytes_))));
    return;
  }
  delivered_bytes_ += len;
  if (data == nullptr) {
    Fail(absl::FailedPreconditionError("payload not tracked (track_payload=false): the decoder needs bytes"));
    return;
  }
  if (absl::Status s = decoder_->Feed(t, data, len); !s.ok()) Fail(s);
}

void WorkloadDriver::OnDecoded(const DecodedMessage& m) {
  if (m.hdr.seq == 0 || m.hdr.seq > seq_to_index_.size() || seq_to_index_[m.hdr.seq - 1] == UINT64_MAX) {
    Fail(absl::DataLossError(absl::StrFormat("decoded seq %u that was never sent", m.hdr.seq)));
    return;
  }
  const uint64_t index = seq_to_index_[m.hdr.seq - 1];
  MessageRecord& r = records_[index];
  r.delivered = m.completed_at;
  r.stream_begin = m.stream_begin;
  r.stream_end = m.stream_end;
  r.aborted = m.aborted;
  if (options_.verify_payload && !m.aborted) {
    const CephMsg& sent = *inflight_[index];
    const std::vector<uint8_t> middle = sent.middle ? *sent.middle : std::vector<uint8_t>{};
    if (m.front != sent.front || m.middle != middle || m.data != FlattenData(sent) || m.hdr.tid != sent.hdr.tid) {
      Fail(absl::DataLossError(absl::StrFormat("message %u (seq %u): payload differs from what was sent", index,
                                               m.hdr.seq)));
    }
  }
  inflight_[index].reset();
  if (!options_.replies || m.aborted) return;
  const uint64_t seq = m.hdr.seq;
  model::TimeNs delay = options_.reply_delay_ns;
  if (options_.reply_jitter_ns > 0) {
    delay += static_cast<model::TimeNs>(reply_rng_.Uniform(static_cast<uint64_t>(options_.reply_jitter_ns) + 1));
  }
  loop_->ScheduleAt(m.completed_at + delay, [this, index, seq] {
    records_[index].replied = loop_->now();
    conn_->OnPeerAck(seq);
    conn_->OnIncomingMessages(1);
    if (options_.queue_depth > 0) {
      --outstanding_;
      Start();
    }
  });
}

void WorkloadDriver::OnWirePacket(const model::WirePacket& pkt) {
  if (downstream_ != nullptr) downstream_->OnWirePacket(pkt);
  if (pkt.dir != model::Direction::kAck || !have_base_) return;
  // Messages complete in stream order: walk the written ones the ACK covers.
  const uint64_t acked_off = static_cast<uint32_t>(pkt.ack - base_seq_);
  while (next_to_ack_ < seq_to_index_.size()) {
    const uint64_t index = seq_to_index_[next_to_ack_];
    if (index == UINT64_MAX) break;
    MessageRecord& r = records_[index];
    if (r.delivered < 0 || r.stream_end > acked_off) break;
    r.acked = pkt.time + options_.ack_arrival_delay_ns;
    ++next_to_ack_;
  }
}

absl::Status WorkloadDriver::Finish() const {
  if (!status_.ok()) return status_;
  if (conn_ && !conn_->error().ok()) return conn_->error();
  if (decoder_ && !decoder_->status().ok()) return decoder_->status();
  if (decoder_ && !decoder_->at_boundary()) {
    return absl::DataLossError(absl::StrFormat("stream ends inside a frame at offset %u", decoder_->offset()));
  }
  for (const MessageRecord& r : records_) {
    if (r.delivered < 0) return absl::DataLossError(absl::StrFormat("message %u never delivered", r.index));
  }
  return absl::OkStatus();
}

}  // namespace sendsim::messenger
