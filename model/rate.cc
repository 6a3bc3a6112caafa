// Delivery rate samples (tcp_rate.c): each skb remembers, when sent, how
// much the socket had delivered and when; the ACK that delivers it turns
// the difference into a rate sample, and tcp_rate_gen keeps the last one
// that is not application-limited (or beats the recorded rate), which
// tcp_get_info reports as tcpi_delivery_rate. Times are the socket's
// microsecond clock (tcp_mstamp) read from the event loop.

#include <algorithm>
#include <cstdint>

#include "model/tcp_sock.h"

namespace sendsim::model {
namespace {

// SKB_TRUESIZE(1) on x86_64: 1 byte plus the aligned sk_buff (256) and
// skb_shared_info (320).
constexpr uint32_t kSkbTruesizeOneByte = 1 + 256 + 320;

int64_t Us(TimeNs t) { return t / kNsPerUs; }

}  // namespace

// tcp_rate_skb_sent: a send after an idle period (nothing in flight)
// starts a new send phase and delivery clock.
void TcpSock::RateSkbSent(Skb& skb) {
  if (packets_out_ == 0) {
    first_tx_ns_ = skb.sent_ns;
    delivered_ns_ = skb.sent_ns;
  }
  skb.tx_first_ns = first_tx_ns_;
  skb.tx_delivered_ns = delivered_ns_;
  skb.tx_delivered = delivered_;
  skb.tx_app_limited = app_limited_ != 0;
}

// tcp_rate_skb_delivered: the most recently sent of the skbs this ACK
// delivers gives the sample's starting point.
void TcpSock::RateSkbDelivered(Skb& skb, RateSample* rs) {
  if (skb.tx_delivered_ns < 0) return;
  // tcp_skb_sent_after: later, or at the same time but further on.
  const bool sent_after = Us(skb.sent_ns) > Us(first_tx_ns_) ||
                          (Us(skb.sent_ns) == Us(first_tx_ns_) && skb.end_seq > rs->last_end_seq);
  if (!rs->have_prior || sent_after) {
    rs->have_prior = true;
    rs->prior_delivered = skb.tx_delivered;
    rs->prior_ns = skb.tx_delivered_ns;
    rs->is_app_limited = skb.tx_app_limited;
    rs->is_retrans = skb.retrans || skb.ever_retrans;
    rs->last_end_seq = skb.end_seq;
    first_tx_ns_ = skb.sent_ns;
    rs->interval_us = Us(first_tx_ns_) - Us(skb.tx_first_ns);  // the send phase
  }
  // A SACKed skb is not used again when it is cumulatively acked.
  if (skb.sacked) skb.tx_delivered_ns = -1;
}

// tcp_rate_gen: the sample spans the longer of the send and ACK phases; one
// shorter than min_rtt is invalid. The recorded rate changes unless the
// sample is app-limited and slower than it.
void TcpSock::RateGen(uint32_t delivered, RateSample* rs) {
  if (app_limited_ != 0 && static_cast<int32_t>(delivered_ - app_limited_) > 0) app_limited_ = 0;
  if (delivered != 0) delivered_ns_ = loop_->now();
  if (!rs->have_prior || rs->prior_ns < 0) return;
  const uint32_t sample_delivered = delivered_ - rs->prior_delivered;
  const int64_t ack_us = Us(loop_->now()) - Us(rs->prior_ns);
  const int64_t interval_us = std::max(rs->interval_us, ack_us);
  if (interval_us < static_cast<int64_t>(min_rtt_us_)) return;
  if (!rs->is_app_limited || static_cast<uint64_t>(sample_delivered) * static_cast<uint64_t>(rate_interval_us_) >=
                                 static_cast<uint64_t>(rate_delivered_) * static_cast<uint64_t>(interval_us)) {
    rate_delivered_ = sample_delivered;
    rate_interval_us_ = interval_us;
    rate_app_limited_ = rs->is_app_limited;
  }
}

// tcp_rate_check_app_limited, at the start of a send call: less than a
// segment unsent, nothing in the host's queues, cwnd not full and every
// lost segment resent mark a bubble (wmem_alloc_ counts the socket's own
// reference, 1, as sk_wmem_alloc does) that ends once what is in flight now
// has been delivered.
void TcpSock::RateCheckAppLimited() {
  if (write_seq_ - snd_nxt_ < mss_cache_ && wmem_alloc_ - 1 < kSkbTruesizeOneByte && PacketsInFlight() < snd_cwnd_ &&
      lost_out_ <= retrans_out_) {
    const uint32_t bubble = delivered_ + PacketsInFlight();
    app_limited_ = bubble != 0 ? bubble : 1;
  }
}

// tcp_compute_delivery_rate: segments per interval at mss_cache.
uint64_t TcpSock::DeliveryRate() const {
  if (rate_delivered_ == 0 || rate_interval_us_ <= 0) return 0;
  return static_cast<uint64_t>(rate_delivered_) * mss_cache_ * 1000000 / static_cast<uint64_t>(rate_interval_us_);
}

}  // namespace sendsim::model
