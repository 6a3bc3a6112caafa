#include "packetdrill/fake_endpoint.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/constants.h"

namespace sendsim::packetdrill {
namespace {

class FakeSocket final : public model::Socket, public Endpoint {
 public:
  FakeSocket(const EndpointParams& p, XmitSink sink, FakeOptions o) : params_(p), sink_(std::move(sink)), opts_(o) {}

  model::Socket& socket() override { return *this; }
  void OnSegment(const model::Segment& seg) override {
    if (seg.ack > acked_) acked_ = seg.ack;
    if (pending_) Resume();
  }
  void OnTxCompletion(uint32_t) override {}
  // Flushes, then a data-less FIN skb (one sequence number).
  int Shutdown() override {
    if (fin_) return 0;
    Flush();
    model::XmitSkb x;
    x.seq = static_cast<uint32_t>(sent_);
    x.tcp_flags = model::kTcpAck | model::kTcpFin;
    fin_ = true;
    sink_(x);
    return 0;
  }
  bool PollOut() override { return written_ - acked_ < opts_.limit && written_ - sent_ < lowat_; }
  void UpdateSysctls(const model::ConnectionConfig&) override {}
  void RouteChange(uint32_t, bool) override {}
  void IcmpFragNeeded(uint32_t, uint32_t) override {}
  void Abort(int err) override {
    err_ = err;
    fin_ = true;
  }
  int TakeSockError() override { return std::exchange(err_, 0); }
  bool HasSockError() const override { return err_ != 0; }

  int64_t sendpage(model::Page, uint32_t, uint32_t size, int flags, DoneFn done) override {
    return Send(size, flags, std::move(done));
  }
  int64_t sendmsg(absl::Span<const model::Iovec> iov, int flags, DoneFn done) override {
    uint64_t n = 0;
    for (const model::Iovec& v : iov) n += v.len;
    return Send(n, flags, std::move(done));
  }
  int64_t sendmsg_bvec(absl::Span<const model::BioVec> bvec, int flags, DoneFn done) override {
    uint64_t n = 0;
    for (const model::BioVec& v : bvec) n += v.len;
    return Send(n, flags, std::move(done));
  }
  int setsockopt(model::SockOpt opt, int64_t v) override {
    if (opt == model::SockOpt::kTcpNotsentLowat) lowat_ = v == 0 ? UINT64_MAX : static_cast<uint64_t>(v);
    return 0;
  }
  void set_write_space_callback(WriteSpaceFn) override {}
  void set_call_tag(uint64_t) override {}
  bool owned() const override { return false; }
  model::TcpInfo info() const override {
    model::TcpInfo i;
    i.snd_cwnd = 10;
    i.snd_mss = params_.config.mss;
    i.sndbuf = static_cast<uint32_t>(opts_.limit);
    i.wmem_queued = static_cast<uint32_t>(written_ - acked_);
    i.notsent_bytes = static_cast<uint32_t>(written_ - sent_);
    i.bytes_sent = sent_;  // the FIN's sequence number (SendFin) comes from it
    i.segs_out = i.data_segs_out = skbs_sent_;  // one segment per skb, as the fake counts them
    return i;
  }
  const model::Counters& counters() const override { return counters_; }

 private:
  uint64_t Room() const { return opts_.limit - (written_ - acked_); }

  int64_t Send(uint64_t n, int flags, DoneFn done) {
    uint64_t take = std::min(n, Room());
    written_ += take;
    if (!(flags & model::kMsgMore)) Flush();
    if (take == n) return static_cast<int64_t>(n);
    if (flags & model::kMsgDontwait) return take > 0 ? static_cast<int64_t>(take) : -model::kEagain;
    pending_ = true;
    left_ = n - take;
    copied_ = take;
    done_ = std::move(done);
    more_ = flags & model::kMsgMore;
    return kInProgress;
  }

  void Resume() {
    uint64_t take = std::min(left_, Room());
    written_ += take;
    left_ -= take;
    copied_ += take;
    if (left_ == 0) {
      pending_ = false;
      if (!more_) Flush();
      done_(static_cast<int64_t>(copied_));
    }
  }

  void Flush() {
    if (written_ == sent_) return;
    model::XmitSkb x;
    x.seq = static_cast<uint32_t>(sent_);
    x.len = static_cast<uint32_t>(written_ - sent_);
    x.gso_size = x.len > params_.config.mss ? params_.config.mss : 0;
    x.tcp_flags = model::kTcpAck | model::kTcpPsh;
    x.truesize = x.len + 1000;
    sent_ = written_;
    ++skbs_sent_;
    sink_(x);
  }

  EndpointParams params_;
  XmitSink sink_;
  FakeOptions opts_;
  model::Counters counters_;
  uint64_t written_ = 0, sent_ = 0, acked_ = 0;
  uint64_t skbs_sent_ = 0;
  bool pending_ = false;
  bool more_ = false;
  bool fin_ = false;
  int err_ = 0;
  uint64_t lowat_ = UINT64_MAX;
  uint64_t left_ = 0, copied_ = 0;
  DoneFn done_;
};

}  // namespace

EndpointFactory FakeEndpointFactory(FakeOptions opts) {
  return [opts](model::EventLoop*, const EndpointParams& p,
                XmitSink sink) -> absl::StatusOr<std::unique_ptr<Endpoint>> {
    return std::unique_ptr<Endpoint>(new FakeSocket(p, std::move(sink), opts));
  };
}

}  // namespace sendsim::packetdrill
