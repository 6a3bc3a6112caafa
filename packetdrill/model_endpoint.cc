#include "packetdrill/model_endpoint.h"

#include <memory>
#include <utility>

#include "model/config.h"
#include "model/tcp_sock.h"

namespace sendsim::packetdrill {
namespace {

class ModelEndpoint final : public Endpoint {
 public:
  ModelEndpoint(model::EventLoop* loop, const EndpointParams& p, XmitSink sink)
      : sock_(loop, p.config, p.profile,
              model::TcpSock::Options{.initial_window = p.initial_window,
                                      .handshake_rtt_ns = p.handshake_rtt_ns,
                                      .passive_open = p.passive_open,
                                      .peer_dropped_timestamps = p.peer_dropped_timestamps,
                                      .syn_retransmits = p.syn_retransmits,
                                      .syn_backoff = p.syn_backoff,
                                      .synack_answers = p.synack_answers,
                                      .snd_wl1 = p.snd_wl1},
              [sink = std::move(sink)](model::XmitSkb&& skb) { sink(skb); }) {}

  model::Socket& socket() override { return sock_; }
  void OnSegment(const model::Segment& seg) override { sock_.OnAckSegment(seg); }
  void OnTxCompletion(uint32_t truesize) override { sock_.OnTxCompletion(truesize); }
  int Shutdown() override { return sock_.Shutdown(); }
  bool PollOut() override { return sock_.PollOut(); }
  void Abort(int err) override { sock_.Abort(err); }
  int TakeSockError() override { return sock_.TakeSockError(); }
  bool HasSockError() const override { return sock_.has_sock_error(); }
  void UpdateSysctls(const model::ConnectionConfig& c) override {
    sock_.UpdateSysctls(c.sysctl, c.autocorking, c.slow_start_after_idle);
  }
  void RouteChange(uint32_t mtu, bool mtu_metric) override { sock_.RouteChange(mtu, mtu_metric); }
  void IcmpFragNeeded(uint32_t seq, uint32_t mtu) override { sock_.IcmpFragNeeded(seq, mtu); }
  void SetTimeoutHandler(std::function<void(int err)> fn) override { sock_.set_timeout_callback(std::move(fn)); }

 private:
  model::TcpSock sock_;
};

}  // namespace

EndpointFactory ModelEndpointFactory() {
  return [](model::EventLoop* loop, const EndpointParams& p,
            XmitSink sink) -> absl::StatusOr<std::unique_ptr<Endpoint>> {
    if (absl::Status st = model::ValidateConfig(p.config); !st.ok()) return st;
    return std::unique_ptr<Endpoint>(new ModelEndpoint(loop, p, std::move(sink)));
  };
}

}  // namespace sendsim::packetdrill
