#include "model/testing/sender_context.h"

#include <cstdlib>
#include <cstdio>
#include <utility>

#include "absl/strings/str_format.h"
#include "model/profile.h"

namespace sendsim::model::testing {

ConnectionConfig SenderContext::DefaultConfig() {
  ConnectionConfig c;
  c.mss = 1448;
  c.nodelay = true;
  c.autocorking = true;
  c.cc = CongestionControl::kReno;
  c.hz = 250;
  c.call_cost_ns = 0;
  c.track_payload = false;
  c.full_trace = true;
  return c;
}

SenderContext::SenderContext(const Options& opts) : opts_(opts), zeros_(1 << 20, 0) {
  absl::StatusOr<Profile> profile = ProfileByName(opts.profile);
  if (!profile.ok()) {
    std::fprintf(stderr, "SenderContext: %s\n", std::string(profile.status().message()).c_str());
    std::abort();
  }
  TcpSock::Options so;
  so.initial_window = opts.peer_window;
  so.handshake_rtt_ns = opts.handshake_rtt_ns;
  so.syn_retransmits = opts.syn_retransmits;
  so.syn_backoff = opts.syn_backoff;
  so.passive_open = opts.passive_open;
  so.synack_answers = opts.synack_answers;
  sock_ = std::make_unique<TcpSock>(&loop_, opts.config, *profile, so, [this](XmitSkb&& skb) { OnXmit(std::move(skb)); });
}

int64_t SenderContext::SendPage(uint32_t len, int flags, uint32_t offset) {
  Page page;
  page.id = next_page_++;
  return sock_->sendpage(page, offset, len, flags);
}

int64_t SenderContext::SendMsg(uint32_t len, int flags) {
  std::vector<Iovec> iov;
  uint32_t left = len;
  while (left > 0) {
    const uint32_t n = std::min<uint32_t>(left, static_cast<uint32_t>(zeros_.size()));
    iov.push_back(Iovec{zeros_.data(), n});
    left -= n;
  }
  return sock_->sendmsg(iov, flags);
}

void SenderContext::Ack(uint64_t ack, std::optional<uint32_t> win, uint8_t flags) {
  Segment seg;
  seg.sent_at = loop_.now();
  seg.ack = static_cast<uint32_t>(ack);
  seg.win = win.value_or(opts_.peer_window);
  seg.flags = flags;
  sock_->OnAckSegment(seg);
}

void SenderContext::AckSack(uint64_t ack, const std::vector<std::pair<uint64_t, uint64_t>>& blocks) {
  Segment seg;
  seg.sent_at = loop_.now();
  seg.ack = static_cast<uint32_t>(ack);
  seg.win = opts_.peer_window;
  for (const auto& [a, b] : blocks) seg.sack.emplace_back(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  sock_->OnAckSegment(seg);
}

void SenderContext::AckSegment(Segment seg) {
  if (seg.sent_at == 0) seg.sent_at = loop_.now();
  if (seg.win == 0) seg.win = opts_.peer_window;
  sock_->OnAckSegment(seg);
}

void SenderContext::CompleteTx(size_t n) {
  for (size_t i = 0; i < n && !pending_tx_.empty(); ++i) {
    const uint32_t ts = pending_tx_.front();
    pending_tx_.pop_front();
    sock_->OnTxCompletion(ts);
  }
  // The TSQ tasklet runs as an event at the same instant.
  loop_.AdvanceTo(loop_.now());
}

void SenderContext::OnXmit(XmitSkb&& skb) {
  pending_tx_.push_back(skb.truesize);
  const uint32_t mss = (skb.gso_size == 0 || skb.len <= skb.gso_size) ? skb.len : skb.gso_size;
  uint32_t off = 0;
  while (off < skb.len) {
    const uint32_t len = std::min(mss, skb.len - off);
    const bool last = off + len == skb.len;
    WireSeg w;
    w.time = loop_.now();
    w.seq = skb.seq + off;
    w.len = len;
    w.flags = last ? skb.tcp_flags : static_cast<uint8_t>(skb.tcp_flags & ~(kTcpPsh | kTcpFin));
    w.reason = skb.reason;
    w.retransmit = skb.retransmit;
    w.psh_forced = last && skb.psh_forced;
    wire_.push_back(w);
    off += len;
  }
  skbs_.push_back(std::move(skb));
}

std::vector<WireSeg> SenderContext::TakeWire() {
  std::vector<WireSeg> out(wire_.begin() + static_cast<std::ptrdiff_t>(taken_), wire_.end());
  taken_ = wire_.size();
  return out;
}

std::vector<uint32_t> SenderContext::TakeLens() {
  std::vector<uint32_t> out;
  for (const WireSeg& w : TakeWire()) out.push_back(w.len);
  return out;
}

void SenderContext::DrainTx(TimeNs step) {
  for (int i = 0; i < 64 && pending_tx() > 0; ++i) {
    CompleteAllTx();
    At(now() + step);
  }
}

std::string RenderLens(const std::vector<uint32_t>& lens) {
  std::string out;
  for (size_t i = 0; i < lens.size();) {
    size_t j = i;
    while (j < lens.size() && lens[j] == lens[i]) ++j;
    if (!out.empty()) out += " ";
    out += j - i > 1 ? absl::StrFormat("%dx%d", lens[i], j - i) : absl::StrFormat("%d", lens[i]);
    i = j;
  }
  return out;
}

}  // namespace sendsim::model::testing
