#include "cli/pcap_writer.h"

#include <algorithm>

#include "model/types.h"

namespace sendsim::cli {
namespace {

// 2018-01-01T00:00:00Z: captures of a 2018 cluster look like one.
constexpr int64_t kEpochNs = int64_t{1514764800} * 1'000'000'000;
constexpr uint8_t kSenderIp[4] = {10, 0, 0, 1};
constexpr uint8_t kPeerIp[4] = {10, 0, 0, 2};
constexpr uint8_t kSenderMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
constexpr uint8_t kPeerMac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
// TSval offsets (Linux randomises per connection; fixed here).
constexpr uint32_t kTsOffset[2] = {3000000000u, 1000000u};  // [from_sender]

void Put16(std::string* b, uint16_t v) {
  b->push_back(static_cast<char>(v >> 8));
  b->push_back(static_cast<char>(v & 0xff));
}
void Put32(std::string* b, uint32_t v) {
  Put16(b, static_cast<uint16_t>(v >> 16));
  Put16(b, static_cast<uint16_t>(v & 0xffff));
}
void PutLe32(std::ostream* o, uint32_t v) {
  char b[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
               static_cast<char>(v >> 24)};
  o->write(b, 4);
}
void PutLe16(std::ostream* o, uint16_t v) {
  char b[2] = {static_cast<char>(v), static_cast<char>(v >> 8)};
  o->write(b, 2);
}

// RFC 1071 one's-complement sum, continued over several buffers.
uint32_t SumBytes(uint32_t sum, const uint8_t* p, size_t n, bool* odd) {
  for (size_t i = 0; i < n; ++i) {
    sum += *odd ? p[i] : static_cast<uint32_t>(p[i]) << 8;
    *odd = !*odd;
  }
  return sum;
}
uint16_t Fold(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xffff);
}

}  // namespace

PcapWriter::PcapWriter(std::ostream* out, const PcapOptions& options) : out_(out), opt_(options) {
  stream_base_ = delivered_end_ = opt_.first_data_seq;
  // pcap global header, nanosecond variant.
  PutLe32(out_, 0xa1b23c4d);
  PutLe16(out_, 2);
  PutLe16(out_, 4);
  PutLe32(out_, 0);       // thiszone
  PutLe32(out_, 0);       // sigfigs
  PutLe32(out_, 262144);  // snaplen
  PutLe32(out_, 1);       // LINKTYPE_ETHERNET

  // Handshake before t = 0: SYN, SYN-ACK, ACK with the options Linux sends
  // (MSS, SACK_PERM, TS, NOP, WS).
  auto syn_options = [&](bool from_sender, model::TimeNs t) {
    std::string o;
    o += {2, 4};
    Put16(&o, static_cast<uint16_t>(opt_.mss));
    o += {4, 2};
    if (opt_.timestamps) {
      o += TimestampOption(t, from_sender).substr(2);  // drop the NOP NOP padding
    } else {
      o += {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    }
    o += {1, 3, 3, static_cast<char>(from_sender ? opt_.sender_wscale : opt_.peer_wscale)};
    return o;
  };
  const uint32_t syn_seq = kPcapSenderIsn;
  const uint32_t peer_syn_seq = kPcapPeerIsn;
  WriteFrame(-100000, true, syn_seq, 0, model::kTcpSyn, 64240, syn_options(true, -100000), nullptr, 0);
  WriteFrame(-50000, false, peer_syn_seq, syn_seq + 1, model::kTcpSyn | model::kTcpAck, 65160,
             syn_options(false, -50000), nullptr, 0);
  WriteFrame(-1000, true, syn_seq + 1, peer_syn_seq + 1, model::kTcpAck, 502,
             opt_.timestamps ? TimestampOption(-1000, true) : "", nullptr, 0);
}

std::string PcapWriter::TimestampOption(model::TimeNs t, bool from_sender) {
  // Linux TSval ticks in milliseconds (tcp_time_stamp since v4.13 uses the
  // ms clock); TSecr echoes the other side's latest TSval.
  const int64_t ms = (t >= 0 ? t : t - 999999) / 1'000'000;
  const uint32_t tsval = kTsOffset[from_sender] + static_cast<uint32_t>(ms);
  last_tsval_[from_sender] = tsval;
  std::string o = {1, 1, 8, 10};
  Put32(&o, tsval);
  Put32(&o, last_tsval_[!from_sender]);
  return o;
}

uint64_t PcapWriter::Unwrap(uint32_t seq) const {
  const uint32_t ref = static_cast<uint32_t>(delivered_end_);
  const int64_t diff = static_cast<int32_t>(seq - ref);
  const int64_t v = static_cast<int64_t>(delivered_end_) + diff;
  return v < 0 ? 0 : static_cast<uint64_t>(v);
}

void PcapWriter::OnWirePacket(const model::WirePacket& pkt) {
  pending_.push_back(pkt);
  Flush(false);
}

void PcapWriter::OnDeliver(model::TimeNs /*t*/, uint32_t seq, const uint8_t* data, uint32_t len) {
  const uint64_t s = Unwrap(seq);
  if (s + len <= delivered_end_) return;  // already known
  const uint64_t skip = s < delivered_end_ ? delivered_end_ - s : 0;
  if (s > delivered_end_) stream_.append(s - delivered_end_, '\0');  // a gap: should not happen in order
  if (data != nullptr) {
    stream_.append(reinterpret_cast<const char*>(data) + skip, len - skip);
  } else {
    stream_.append(len - skip, '\0');
  }
  delivered_end_ = s + len;
  Flush(false);
  // Trim history no pending packet can need.
  uint64_t keep_from = delivered_end_ > opt_.payload_history_bytes ? delivered_end_ - opt_.payload_history_bytes : 0;
  for (const model::WirePacket& p : pending_) {
    if (p.dir == model::Direction::kData && p.len > 0) keep_from = std::min(keep_from, Unwrap(p.seq));
  }
  if (keep_from > stream_base_ + (1 << 20)) {
    stream_.erase(0, keep_from - stream_base_);
    stream_base_ = keep_from;
  }
}

void PcapWriter::Flush(bool force) {
  while (!pending_.empty()) {
    const model::WirePacket& p = pending_.front();
    const bool from_sender = p.dir == model::Direction::kData;
    const uint8_t* payload = nullptr;
    if (from_sender && p.len > 0) {
      const uint64_t s = Unwrap(p.seq);
      if (s >= stream_base_ && s + p.len <= delivered_end_) {
        payload = reinterpret_cast<const uint8_t*>(stream_.data()) + (s - stream_base_);
      } else if (!force && s + p.len > delivered_end_) {
        return;  // bytes not delivered yet: keep order, wait
      }
      // else: older than the kept history (or forced): zero-filled
    }
    const uint32_t first = opt_.first_data_seq;
    uint32_t seq, ack, win_field;
    if (from_sender) {
      seq = kPcapSenderIsn + 1 + (p.seq - first);
      ack = kPcapPeerIsn + 1 + (p.ack - first);
      win_field = std::min<uint32_t>(p.win >> opt_.sender_wscale, 65535);
    } else {
      seq = kPcapPeerIsn + 1 + (p.seq - first);
      ack = kPcapSenderIsn + 1 + (p.ack - first);
      win_field = std::min<uint32_t>(p.win >> opt_.peer_wscale, 65535);
    }
    const std::string options = opt_.timestamps ? TimestampOption(p.time, from_sender) : "";
    WriteFrame(p.time, from_sender, seq, ack, p.flags, win_field, options, payload, p.len);
    pending_.pop_front();
  }
}

void PcapWriter::Finish() {
  Flush(true);
  out_->flush();
}

void PcapWriter::WriteFrame(model::TimeNs t, bool from_sender, uint32_t seq, uint32_t ack, uint8_t flags,
                            uint32_t win_field, const std::string& options, const uint8_t* payload, uint32_t len) {
  if (payload == nullptr && len > 0) {
    if (zeros_.size() < len) zeros_.assign(len, '\0');
    payload = reinterpret_cast<const uint8_t*>(zeros_.data());
  }
  const uint32_t tcp_hdr = 20 + static_cast<uint32_t>(options.size());
  const uint32_t ip_total = 20 + tcp_hdr + len;
  const uint8_t* src_ip = from_sender ? kSenderIp : kPeerIp;
  const uint8_t* dst_ip = from_sender ? kPeerIp : kSenderIp;

  std::string f;
  f.reserve(14 + 20 + tcp_hdr);
  f.append(reinterpret_cast<const char*>(from_sender ? kPeerMac : kSenderMac), 6);
  f.append(reinterpret_cast<const char*>(from_sender ? kSenderMac : kPeerMac), 6);
  Put16(&f, 0x0800);
  // IPv4 header
  const size_t ip_at = f.size();
  f.push_back(0x45);
  f.push_back(0);
  Put16(&f, static_cast<uint16_t>(ip_total));
  Put16(&f, ip_id_[from_sender]++);
  Put16(&f, 0x4000);  // DF
  f.push_back(64);    // TTL
  f.push_back(6);     // TCP
  Put16(&f, 0);       // checksum, below
  f.append(reinterpret_cast<const char*>(src_ip), 4);
  f.append(reinterpret_cast<const char*>(dst_ip), 4);
  bool odd = false;
  const uint16_t ip_sum = Fold(SumBytes(0, reinterpret_cast<const uint8_t*>(f.data()) + ip_at, 20, &odd));
  f[ip_at + 10] = static_cast<char>(ip_sum >> 8);
  f[ip_at + 11] = static_cast<char>(ip_sum & 0xff);
  // TCP header
  const size_t tcp_at = f.size();
  Put16(&f, from_sender ? kPcapSenderPort : kPcapPeerPort);
  Put16(&f, from_sender ? kPcapPeerPort : kPcapSenderPort);
  Put32(&f, seq);
  Put32(&f, (flags & model::kTcpAck) ? ack : 0);
  f.push_back(static_cast<char>((tcp_hdr / 4) << 4));
  f.push_back(static_cast<char>(flags));
  Put16(&f, static_cast<uint16_t>(win_field));
  Put16(&f, 0);  // checksum, below
  Put16(&f, 0);  // urgent pointer
  f += options;
  // TCP checksum: pseudo-header + header + payload.
  std::string pseudo;
  pseudo.append(reinterpret_cast<const char*>(src_ip), 4);
  pseudo.append(reinterpret_cast<const char*>(dst_ip), 4);
  pseudo.push_back(0);
  pseudo.push_back(6);
  Put16(&pseudo, static_cast<uint16_t>(tcp_hdr + len));
  odd = false;
  uint32_t sum = SumBytes(0, reinterpret_cast<const uint8_t*>(pseudo.data()), pseudo.size(), &odd);
  sum = SumBytes(sum, reinterpret_cast<const uint8_t*>(f.data()) + tcp_at, tcp_hdr, &odd);
  sum = SumBytes(sum, payload, len, &odd);
  const uint16_t tcp_sum = Fold(sum);
  f[tcp_at + 16] = static_cast<char>(tcp_sum >> 8);
  f[tcp_at + 17] = static_cast<char>(tcp_sum & 0xff);

  const int64_t abs_ns = kEpochNs + t;
  const uint32_t frame_len = static_cast<uint32_t>(f.size()) + len;
  PutLe32(out_, static_cast<uint32_t>(abs_ns / 1'000'000'000));
  PutLe32(out_, static_cast<uint32_t>(abs_ns % 1'000'000'000));
  PutLe32(out_, frame_len);
  PutLe32(out_, frame_len);
  out_->write(f.data(), static_cast<std::streamsize>(f.size()));
  if (len > 0) out_->write(reinterpret_cast<const char*>(payload), len);
  ++frames_;
}

}  // namespace sendsim::cli
