#include "tools/kernelcmp/model_replay.h"

#include <algorithm>
#include <cerrno>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/socket.h"
#include "model/types.h"
#include "tools/kernelcmp/traffic.h"

namespace sendsim::kernelcmp {

void CaptureCounter::OnWirePacket(const model::WirePacket& p) {
  if (p.dir == model::Direction::kAck) {
    if (p.len == 0 && (p.flags & (model::kTcpSyn | model::kTcpFin | model::kTcpRst)) == 0) {
      ++fig_.acks;
    }
    return;
  }
  if (p.len == 0) return;
  if (p.reason == model::PushReason::kRetransmit || p.reason == model::PushReason::kTlp ||
      p.reason == model::PushReason::kRto) {
    ++fig_.retransmitted;
    return;
  }
  ++fig_.packets;
  payload_bytes_ += p.len;
  if (first_data_ns_ < 0) first_data_ns_ = p.time;
  last_data_ns_ = p.time;
  if (p.len < mss_) {
    ++sub_mss_;
    ++fig_.sub_mss_by_reason[std::string(model::PushReasonName(p.reason))];
  }
  ++fig_.sizes[p.len];
}

DelaySummary ModelDelays(const std::vector<std::pair<model::TimeNs, model::TimeNs>>& timing) {
  std::vector<DelaySample> s;
  s.reserve(timing.size());
  for (const auto& [xmit, recv] : timing) s.push_back(DelaySample{xmit, recv});
  // The link keeps arrivals in order, so sending order is the order taken.
  return SummarizeDelays(s);
}

void CaptureCounter::OnDeliver(model::TimeNs, uint32_t, const uint8_t*, uint32_t len) {
  delivered_ += len;
}

ModelFigures CaptureCounter::Figures(uint64_t messages, const scenario::SimulationResult& run) const {
  ModelFigures f = fig_;
  f.sub_mss_per_msg = static_cast<double>(sub_mss_) / messages;
  f.autocorks = run.counters.autocorks;
  f.delayed_acks = run.peer_delayed_acks;
  f.snd_cwnd = run.info.snd_cwnd;
  f.rtt_us = run.info.rtt_us;
  f.delays = ModelDelays(run.data_timing);
  const model::TimeNs d = last_data_ns_ - first_data_ns_;
  f.bytes_per_sec = first_data_ns_ >= 0 && d > 0 ? payload_bytes_ * 1e9 / d : 0;
  return f;
}

namespace {

// One socket call of the replay.
struct Call {
  bool bvec = false;          // sendmsg_bvec with MSG_SPLICE_PAGES, else kvec copy
  std::vector<uint32_t> lens; // piece lengths (pages for bvec)
  int flags = 0;
  int cork = -1;              // >= 0: setsockopt(TCP_CORK, cork) instead of a send
};

Call Cork(int on) {
  Call c;
  c.cork = on;
  return c;
}

// The calls traffic.cc's Replayer makes per message (send() copies, so kvec).
std::vector<Call> MessageCalls(const Workload& w, Variant v) {
  const Framing f = FramingFor(w, v);
  std::vector<Call> calls;
  if (v == Variant::kV1Legacy || v == Variant::kV1Splice || v == Variant::kV1Cork ||
      v == Variant::kV2) {
    const bool v2 = v == Variant::kV2;
    if (v == Variant::kV1Cork || v2) calls.push_back(Cork(1));
    calls.push_back(Call{false, {f.prefix_bytes}, v2 ? 0 : model::kMsgMore});
    for (uint64_t off = 0; off < w.message_bytes; off += kPageBytes) {
      const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(kPageBytes, w.message_bytes - off));
      const bool last = off + len == w.message_bytes;
      int flags = model::kMsgMore;
      if (v2) flags = 0;
      if (last && (v == Variant::kV1Legacy || v == Variant::kV1Cork)) flags = model::kMsgEor;
      calls.push_back(Call{false, {len}, flags});
    }
    calls.push_back(Call{false, {f.footer_bytes}, v2 ? 0 : model::kMsgEor});
    // v2 here is the blocking form: the cork spans one message.
    if (v == Variant::kV1Cork || v2) calls.push_back(Cork(0));
    return calls;
  }
  if (v == Variant::kSendmsgAll) {
    Call c;
    c.lens.push_back(f.prefix_bytes);
    for (uint64_t off = 0; off < w.message_bytes; off += kPageBytes) {
      c.lens.push_back(static_cast<uint32_t>(std::min<uint64_t>(kPageBytes, w.message_bytes - off)));
    }
    c.lens.push_back(f.footer_bytes);
    calls.push_back(c);
    return calls;
  }
  calls.push_back(Call{false, {f.prefix_bytes}, model::kMsgMore});
  for (uint64_t off = 0; off < w.message_bytes; off += kSpliceChunkBytes) {
    const uint64_t chunk = std::min<uint64_t>(kSpliceChunkBytes, w.message_bytes - off);
    Call c;
    c.bvec = true;
    for (uint64_t p = 0; p < chunk; p += kPageBytes) {
      c.lens.push_back(static_cast<uint32_t>(std::min<uint64_t>(kPageBytes, chunk - p)));
    }
    const bool last = off + chunk == w.message_bytes;
    c.flags = model::kMsgSplicePages | (v == Variant::kSendfile && last ? 0 : model::kMsgMore);
    calls.push_back(c);
  }
  calls.push_back(Call{false, {f.footer_bytes}, model::kMsgEor});
  return calls;
}

// kernelcmp's calls as the run's application.
class Replay : public scenario::Application {
 public:
  Replay(std::vector<Call> per_message, uint64_t messages, model::TimeNs between_calls, bool blocking)
      : calls_(std::move(per_message)), messages_(messages), between_calls_(between_calls), blocking_(blocking),
        buf_(std::max<size_t>(64 * 1024, 1 << 20), 0x5a) {}

  absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile&,
                                           const model::ConnectionConfig& cfg) override {
    loop_ = loop;
    call_cost_ = cfg.call_cost_ns;
    return nullptr;
  }

  absl::Status Start(model::Connection* conn) override {
    sock_ = &conn->socket();
    sock_->set_write_space_callback([this] {
      if (waiting_) {
        waiting_ = false;
        Step();
      }
    });
    Step();
    return absl::OkStatus();
  }

  bool done() const { return msg_ == messages_; }
  int64_t error() const { return error_; }

 private:
  void Step() {
    while (!done() && error_ == 0) {
      if (sock_->owned()) {
        loop_->ScheduleAfter(std::max<model::TimeNs>(1, call_cost_), [this] { Step(); });
        return;
      }
      const int64_t r = IssueCall();
      if (r == model::Socket::kInProgress) return;  // parked: Done continues
      if (r == -EAGAIN) {
        waiting_ = true;
        return;
      }
      if (r < 0) {
        error_ = r;
        return;
      }
      Advance(static_cast<uint64_t>(r));
      const model::TimeNs cost = call_cost_ + sock_->last_call_xmit_ns() + between_calls_;
      if (cost > 0) {
        model::AfterCpu(loop_, sock_, cost, [this] { Step(); });
        return;
      }
    }
  }

  // A blocking call that waited in sk_stream_wait_memory has finished.
  void Done(int64_t r) {
    if (r < 0) {
      error_ = r;
      return;
    }
    Advance(static_cast<uint64_t>(r));
    model::AfterCpu(loop_, sock_, std::max<model::TimeNs>(1, call_cost_ + sock_->last_call_xmit_ns() + between_calls_),
                    [this] { Step(); });
  }

  int64_t IssueCall() {
    const Call& c = calls_[call_];
    if (c.cork >= 0) {
      const int r = sock_->setsockopt(model::SockOpt::kTcpCork, c.cork);
      return r < 0 ? r : 0;
    }
    const int flags = c.flags | (blocking_ ? 0 : model::kMsgDontwait) | model::kMsgNosignal;
    model::Socket::DoneFn done;
    if (blocking_) done = [this](int64_t r) { Done(r); };
    uint64_t skip = done_in_call_;
    if (c.bvec) {
      std::vector<model::BioVec> bv;
      uint64_t page_id = 1 + call_ * 64;  // same pages every message, like a page-cache file
      for (uint32_t len : c.lens) {
        const uint32_t take = skip >= len ? 0 : len - static_cast<uint32_t>(skip);
        if (take > 0) {
          bv.push_back(model::BioVec{model::Page{page_id, nullptr}, len - take, take});
        }
        skip = skip >= len ? skip - len : 0;
        ++page_id;
      }
      return sock_->sendmsg_bvec(bv, flags, std::move(done));
    }
    std::vector<model::Iovec> iov;
    for (uint32_t len : c.lens) {
      const uint32_t take = skip >= len ? 0 : len - static_cast<uint32_t>(skip);
      if (take > 0) iov.push_back(model::Iovec{buf_.data(), take});
      skip = skip >= len ? skip - len : 0;
    }
    return sock_->sendmsg(iov, flags, std::move(done));
  }

  void Advance(uint64_t n) {
    done_in_call_ += n;
    uint64_t total = 0;
    for (uint32_t len : calls_[call_].lens) total += len;
    if (done_in_call_ < total) return;  // short count: retried at once
    done_in_call_ = 0;
    if (++call_ == calls_.size()) {
      call_ = 0;
      ++msg_;
    }
  }

  model::EventLoop* loop_ = nullptr;
  model::Socket* sock_ = nullptr;
  std::vector<Call> calls_;
  uint64_t messages_;
  model::TimeNs call_cost_ = 0;
  model::TimeNs between_calls_;
  bool blocking_;
  std::vector<uint8_t> buf_;
  uint64_t msg_ = 0;
  size_t call_ = 0;
  uint64_t done_in_call_ = 0;
  bool waiting_ = false;
  int64_t error_ = 0;
};

}  // namespace

absl::StatusOr<ModelFigures> ReplayCallsOnModel(const Workload& w, Variant variant, const scenario::Scenario& sc,
                                                IoMode io, model::TimeNs between_calls_ns) {
  if (io == IoMode::kNonBlocking && variant == Variant::kV2) {
    // The non-blocking replay's cork follows EAGAIN (traffic.cc); the
    // messenger's msgr2 writer is the model of that.
    return absl::InvalidArgumentError("non-blocking v2 goes through the messenger's writer");
  }
  CaptureCounter counter(sc.mss);
  Replay replay(MessageCalls(w, variant), w.messages, between_calls_ns, io == IoMode::kBlocking);
  // Sizes only; no decoder on this path.
  scenario::Simulation sim;
  sim.scenario = sc;
  sim.outputs = {.track_payload = false, .full_trace = true, .record_data_timing = true};
  sim.observers = {&counter};
  absl::StatusOr<scenario::SimulationResult> run = sim.Run(replay);
  if (!run.ok()) return run.status();
  if (replay.error() != 0) {
    return absl::InternalError(absl::StrFormat("model socket call failed: %d", replay.error()));
  }
  const uint64_t expected = StreamBytesFor(w, variant);
  if (!replay.done() || counter.delivered_bytes() != expected) {
    return absl::DataLossError(absl::StrFormat("model delivered %u of %u bytes",
                                               counter.delivered_bytes(), expected));
  }
  return counter.Figures(w.messages, *run);
}

}  // namespace sendsim::kernelcmp
