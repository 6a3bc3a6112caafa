#ifndef SENDSIM_MESSENGER_TESTING_FAKE_SOCKET_H_
#define SENDSIM_MESSENGER_TESTING_FAKE_SOCKET_H_

// A model::Socket for messenger tests: records every call with its flags,
// accepts bytes up to a budget and then returns -EAGAIN (as a full sndbuf
// does under MSG_DONTWAIT), and keeps the accepted byte stream.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "model/constants.h"
#include "model/host/cpu_steal.h"
#include "model/event_loop.h"
#include "model/socket.h"

namespace sendsim::messenger::testing {

enum class CallKind { kSendmsg, kSendpage, kSendmsgBvec, kSetCork };

struct RecordedCall {
  CallKind kind;
  int flags = 0;        // full flags as passed
  uint64_t len = 0;     // bytes offered
  int64_t ret = 0;
  uint64_t tag = 0;
  int64_t value = 0;    // setsockopt value
  model::TimeNs time = 0;
};

class FakeSocket : public model::Socket {
 public:
  static constexpr uint64_t kUnlimited = UINT64_MAX;

  explicit FakeSocket(uint64_t budget = kUnlimited, const model::EventLoop* loop = nullptr)
      : budget_(budget), loop_(loop) {}

  // Grants `n` more bytes and fires the write-space callback, as ACKs
  // freeing memory would.
  void Grant(uint64_t n) {
    budget_ = (budget_ == kUnlimited || n == kUnlimited) ? kUnlimited : budget_ + n;
    if (write_space_) write_space_();
  }
  void set_budget(uint64_t b) { budget_ = b; }
  // Softirq work of `ns` on the caller's CPU at time `at` (cpu_stolen_ns).
  void Steal(model::TimeNs at, model::TimeNs ns) { steal_.Charge(at, ns); }
  // Called with every run of accepted bytes (loopback tests).
  std::function<void(const uint8_t* data, uint64_t len)> on_bytes;

  int64_t sendpage(model::Page page, uint32_t offset, uint32_t size, int flags, DoneFn) override {
    return Accept(CallKind::kSendpage, flags, {{page.data ? page.data + offset : nullptr, size}});
  }
  int64_t sendmsg(absl::Span<const model::Iovec> iov, int flags, DoneFn) override {
    std::vector<model::Iovec> v(iov.begin(), iov.end());
    return Accept(CallKind::kSendmsg, flags, v);
  }
  int64_t sendmsg_bvec(absl::Span<const model::BioVec> bvec, int flags, DoneFn) override {
    std::vector<model::Iovec> v;
    for (const auto& b : bvec) v.push_back({b.page.data ? b.page.data + b.offset : nullptr, b.len});
    return Accept(CallKind::kSendmsgBvec, flags, v);
  }
  int setsockopt(model::SockOpt opt, int64_t value) override {
    if (opt == model::SockOpt::kTcpCork) calls_.push_back({CallKind::kSetCork, 0, 0, 0, tag_, value, Now()});
    return 0;
  }
  void set_write_space_callback(WriteSpaceFn fn) override { write_space_ = std::move(fn); }
  void set_call_tag(uint64_t tag) override { tag_ = tag; }
  bool owned() const override { return false; }
  model::TimeNs cpu_stolen_ns() override { return steal_.StolenUpTo(Now()); }
  model::TcpInfo info() const override { return {}; }
  const model::Counters& counters() const override { return counters_; }

  const std::vector<RecordedCall>& calls() const { return calls_; }
  const std::vector<uint8_t>& stream() const { return stream_; }

 private:
  int64_t Accept(CallKind kind, int flags, const std::vector<model::Iovec>& v) {
    uint64_t offered = 0;
    for (const auto& e : v) offered += e.len;
    int64_t ret;
    if (budget_ == 0) {
      ret = -model::kEagain;
    } else {
      uint64_t n = std::min(offered, budget_);
      ret = static_cast<int64_t>(n);
      if (budget_ != kUnlimited) budget_ -= n;
      for (const auto& e : v) {
        const uint64_t take = std::min<uint64_t>(n, e.len);
        if (e.base != nullptr) {
          stream_.insert(stream_.end(), e.base, e.base + take);
        } else {
          stream_.insert(stream_.end(), take, 0);
        }
        if (on_bytes && take > 0) on_bytes(stream_.data() + stream_.size() - take, take);
        n -= take;
        if (n == 0) break;
      }
    }
    calls_.push_back({kind, flags, offered, ret, tag_, 0, Now()});
    return ret;
  }

  model::TimeNs Now() const { return loop_ != nullptr ? loop_->now() : 0; }

  uint64_t budget_;
  const model::EventLoop* loop_;
  uint64_t tag_ = 0;
  WriteSpaceFn write_space_;
  std::vector<RecordedCall> calls_;
  std::vector<uint8_t> stream_;
  model::Counters counters_;
  model::CpuSteal steal_;
};

}  // namespace sendsim::messenger::testing

#endif  // SENDSIM_MESSENGER_TESTING_FAKE_SOCKET_H_
