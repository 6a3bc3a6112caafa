#ifndef SENDSIM_MODEL_TESTING_PEER_HARNESS_H_
#define SENDSIM_MODEL_TESTING_PEER_HARNESS_H_

// A Peer on its own: data segments fed at chosen arrival times, its ACKs
// recorded as they leave on the reverse link.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/event_loop.h"
#include "model/link.h"
#include "model/observer.h"
#include "model/peer.h"
#include "model/profile.h"

namespace sendsim::model::testing {

inline constexpr uint32_t kMss = 1448;
inline constexpr TimeNs kJiffy = 4 * kNsPerMs;  // HZ 250

struct Delivery {
  TimeNs t;
  uint32_t seq;
  const uint8_t* data;
  uint32_t len;
};

struct Recorder : Observer {
  std::vector<WirePacket> acks;
  std::vector<WirePacket> data;
  std::vector<Delivery> deliveries;
  void OnWirePacket(const WirePacket& p) override { (p.dir == Direction::kAck ? acks : data).push_back(p); }
  void OnDeliver(TimeNs t, uint32_t seq, const uint8_t* d, uint32_t len) override {
    deliveries.push_back({t, seq, d, len});
  }
};

inline Segment Data(uint32_t seq, uint32_t len, uint8_t flags = kTcpAck) {
  Segment s;
  s.seq = seq;
  s.len = len;
  s.flags = flags;
  return s;
}

// A peer whose ACKs go out on a 10 Gb/s reverse link (an ACK frame takes
// 72 ns, so with inputs >= 1 us apart an ACK's first bit is the time the peer
// decided to send it).
// The receiver's rules come from `profile` (linux-4.19: none of the later
// receive-side changes).
struct Harness {
  explicit Harness(ConnectionConfig c, const char* profile = "linux-4.19")
      : Harness(std::move(c), *ProfileByName(profile)) {}
  Harness(ConnectionConfig c, const Profile& profile) : cfg(std::move(c)) {
    reverse = std::make_unique<Link>(&loop, cfg.link_bps, cfg.one_way_delay_ns, Direction::kAck, nullptr, &rec);
    peer = std::make_unique<Peer>(&loop, cfg, profile, reverse.get(), &rec);
  }
  // Feeds n full segments starting at byte `seq`, `gap` ns apart from `t`.
  void Full(TimeNs t, uint32_t seq, int n, TimeNs gap) {
    for (int i = 0; i < n; ++i) peer->OnSegmentAt(t + i * gap, Data(seq + i * kMss, kMss));
  }
  ConnectionConfig cfg;
  EventLoop loop;
  Recorder rec;
  std::unique_ptr<Link> reverse;
  std::unique_ptr<Peer> peer;
};

// rcvbuf 131072 -> tcp_full_space 65536 = window_clamp (wscale 7). Initial
// window tcp_select_initial_window: min(65536 rounded down to 45*1448, 20*1448)
// = 28960, rcv_ssthresh 28960, rcv_mss min(1460,1448,14480,536) = 536.
inline ConnectionConfig SmallBuf() {
  ConnectionConfig c;
  c.peer.rcvbuf = 131072;
  return c;
}

}  // namespace sendsim::model::testing

#endif  // SENDSIM_MODEL_TESTING_PEER_HARNESS_H_
