#include "model/connection.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "model/host/host_cpu.h"
#include "model/host/host_stage.h"
#include "model/host/rps_backlog.h"
#include "model/link.h"
#include "model/nic.h"
#include "model/peer.h"
#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

// sender -> Nic -> forward Link -> host stage -> Peer -> reverse Link -> host
// stage -> sender, with a tap on both links that keeps the histogram,
// per-reason packet counts and the wire-level invariants, and forwards to the
// user's observer.
class ConnectionImpl final : public Connection, public Observer {
 public:
  ConnectionImpl(EventLoop* loop, const ConnectionConfig& config, const Profile& profile, Observer* observer)
      : loop_(loop), config_(config), user_(observer) {
    rev_ = std::make_unique<Link>(loop, config.link_bps, config.one_way_delay_ns, Direction::kAck, SegmentSinkFn(),
                                  this, LinkOptionsFor(config, Direction::kAck));
    fwd_ = std::make_unique<Link>(loop, config.link_bps, config.one_way_delay_ns, Direction::kData, SegmentSinkFn(),
                                  this, LinkOptionsFor(config, Direction::kData));
    peer_ = std::make_unique<Peer>(loop, config, profile, rev_.get(), this);
    nic_ = std::make_unique<Nic>(loop, config, fwd_.get(), [this](uint32_t truesize) { sock_->OnTxCompletion(truesize); });
    TcpSock::Options opts;
    opts.initial_window = peer_->initial_window();
    opts.handshake_rtt_ns = 2 * config.one_way_delay_ns;
    sock_ = std::make_unique<TcpSock>(loop, config, profile, opts,
                                      [this](XmitSkb&& skb) { nic_->Transmit(skb); });
    PlaceOnHosts();
#ifndef NDEBUG
    // Debug builds check the invariants after every event.
    loop_->set_post_event_hook([this] {
      if (absl::Status s = CheckInvariants(); !s.ok()) {
        std::fprintf(stderr, "sendsim invariant violated at t=%lld ns: %s\n", static_cast<long long>(loop_->now()),
                     std::string(s.message()).c_str());
        std::abort();
      }
    });
#endif
  }

  ~ConnectionImpl() override {
#ifndef NDEBUG
    loop_->set_post_event_hook(nullptr);
#endif
  }

  // The host stages between the links and the receivers, and the sender's
  // CPU they and the socket charge (model/host/).
  void PlaceOnHosts() {
    const HostConfig& host = config_.host;
    for (Direction dir : {Direction::kData, Direction::kAck}) {
      std::unique_ptr<HostStage>& stage = dir == Direction::kData ? fwd_host_ : rev_host_;
      stage = std::make_unique<HostStage>(
          loop_, dir, HostStage::OptionsFor(host, config_.link_seed, config_.record_data_timing, dir));
      stage->Attach(dir == Direction::kData ? fwd_.get() : rev_.get());
      stage->set_host_cpu(&cpu_);
    }
    fwd_host_->set_lookahead_sink(
        [](void* peer, TimeNs at, const Segment& seg) { static_cast<Peer*>(peer)->OnSegmentAt(at, seg); },
        peer_.get());
    rev_host_->set_deliver_sink(
        [](void* sock, const Segment& seg) { static_cast<TcpSock*>(sock)->OnAckSegment(seg); }, sock_.get());
    sock_->set_host_cpu(&cpu_);
    if (host.tx_completion_at_arrival) nic_->CompleteWhenTaken(fwd_host_.get());
    if (host.rps_backlog_on_sender_cpu) {
      rps_ = std::make_unique<RpsBacklog>(host.rx_cpu_service_ns, host.rx_cpu_wakeup_ns, config_.link_seed);
      fwd_host_->set_rps_backlog(rps_.get());
      rev_host_->set_rps_backlog(rps_.get());
    }
  }

  Socket& socket() override { return *sock_; }
  uint64_t unacked_bytes() const override { return sock_->write_seq() - sock_->snd_una(); }
  const PacketHistogram& histogram() const override { return histogram_; }
  uint64_t delivered_bytes() const override { return delivered_; }
  uint64_t peer_delayed_acks() const override { return peer_->stats().delayed_acks; }
  const std::vector<std::pair<TimeNs, TimeNs>>& data_timing() const override { return fwd_host_->timing(); }

  absl::Status CheckInvariants() const override {
    if (wire_violation_ != nullptr) return absl::InternalError(wire_violation_);
    return sock_->CheckInvariants();
  }

 private:
  void OnWirePacket(const WirePacket& pkt) override {
    if (pkt.dir == Direction::kData && pkt.len > 0) {
      histogram_.Add(pkt.len);
      ++sock_->mutable_counters().packets_by_reason[static_cast<int>(pkt.reason)];
      if (pkt.len > config_.mss) Violation("wire packet larger than MSS");
      // Every byte leaves exactly once as new data, in order.
      if (pkt.reason != PushReason::kRto && pkt.reason != PushReason::kRetransmit &&
          !(pkt.reason == PushReason::kTlp && pkt.seq != next_new_seq_)) {
        if (pkt.seq != next_new_seq_) Violation("new data on the wire out of sequence (gap or duplicate)");
        next_new_seq_ = pkt.seq + pkt.len;
      }
    }
    if (config_.full_trace && user_ != nullptr) user_->OnWirePacket(pkt);
  }

  void OnDeliver(TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override {
    delivered_ += len;
    if (user_ != nullptr) user_->OnDeliver(t, seq, data, len);
  }

  void Violation(const char* what) {
    if (wire_violation_ == nullptr) wire_violation_ = what;
  }

  EventLoop* loop_;
  ConnectionConfig config_;
  Observer* user_;
  HostCpu cpu_{config_.host};  // before the socket and stages that charge it
  std::unique_ptr<RpsBacklog> rps_;  // before the stages that point to it
  std::unique_ptr<HostStage> rev_host_;  // before the links that hand to them
  std::unique_ptr<HostStage> fwd_host_;
  std::unique_ptr<Link> rev_;
  std::unique_ptr<Link> fwd_;
  std::unique_ptr<Peer> peer_;
  std::unique_ptr<Nic> nic_;
  std::unique_ptr<TcpSock> sock_;
  PacketHistogram histogram_;
  uint32_t next_new_seq_ = 0;
  uint64_t delivered_ = 0;
  const char* wire_violation_ = nullptr;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Connection>> Connection::Create(EventLoop* loop, const ConnectionConfig& config,
                                                               const Profile& profile, Observer* observer) {
  if (loop == nullptr) return absl::InvalidArgumentError("Connection::Create: null event loop");
  if (absl::Status s = ValidateConfig(config); !s.ok()) return s;
  return std::unique_ptr<Connection>(new ConnectionImpl(loop, config, profile, observer));
}

}  // namespace sendsim::model
