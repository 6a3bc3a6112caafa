#ifndef SENDSIM_MODEL_TESTING_SENDER_CONTEXT_H_
#define SENDSIM_MODEL_TESTING_SENDER_CONTEXT_H_

// Test context for the sending socket alone (in the spirit of gVisor's tcp
// testing context): the test plays the application, the NIC (TX completions)
// and the peer (ACKs), and reads back what would be on the wire.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/config.h"
#include "model/event_loop.h"
#include "model/tcp_sock.h"
#include "model/wire.h"

namespace sendsim::model::testing {

// One wire segment: an XmitSkb cut at gso_size, PSH/FIN on the last piece
// (what the NIC contract promises).
struct WireSeg {
  TimeNs time = 0;
  uint32_t seq = 0;
  uint32_t len = 0;
  uint8_t flags = 0;
  PushReason reason = PushReason::kControl;
  bool retransmit = false;
  bool psh_forced = false;  // the PSH is __tcp_transmit_skb's, not a push's
  bool psh() const { return (flags & kTcpPsh) != 0; }
};

class SenderContext {
 public:
  struct Options {
    ConnectionConfig config = DefaultConfig();
    std::string profile = "linux-4.19";
    uint32_t peer_window = 4 * 1024 * 1024;  // initial snd_wnd and max_window
    TimeNs handshake_rtt_ns = 100 * kNsPerUs;
    // TcpSock::Options: handshake retransmissions and the backoff they left.
    uint32_t syn_retransmits = 0;
    uint32_t syn_backoff = 0;
    bool passive_open = false;  // accepted from a listener
    uint32_t synack_answers = 0;
  };
  // MSS 1448, TCP_NODELAY, autocorking, Reno, HZ 250, zero call cost,
  // payload not tracked.
  static ConnectionConfig DefaultConfig();
  // The defaults without SACK on `profile`: no tail loss probe, so the RTO
  // is the first timer to fire after a loss.
  static Options NoSack(const std::string& profile) {
    Options o;
    o.profile = profile;
    o.config.sack = false;
    return o;
  }

  explicit SenderContext(const Options& opts);
  SenderContext() : SenderContext(Options()) {}

  EventLoop& loop() { return loop_; }
  TcpSock& sock() { return *sock_; }
  TimeNs now() const { return loop_.now(); }

  // Runs everything due up to `t` and moves the clock there.
  void At(TimeNs t) { loop_.AdvanceTo(t); }
  void AtUs(int64_t us) { At(us * kNsPerUs); }

  // Application calls (at now()). Each sendpage uses a new page id.
  int64_t SendPage(uint32_t len, int flags, uint32_t offset = 0);
  int64_t SendMsg(uint32_t len, int flags);

  // Peer: an ACK (cumulative, 32-bit wire seq) with window `win` (none:
  // the initial peer window; 0 is a zero window) and TCP flags `flags`.
  void Ack(uint64_t ack, std::optional<uint32_t> win = std::nullopt, uint8_t flags = kTcpAck);
  // Peer: an ACK of `ack` with SACK blocks [start, end) (model sequence
  // numbers) and the initial peer window.
  void AckSack(uint64_t ack, const std::vector<std::pair<uint64_t, uint64_t>>& blocks);
  // Peer: any segment, as built by the test (sent_at and win filled in
  // when zero).
  void AckSegment(Segment seg);
  // NIC: TX completion of the `n` oldest clones not yet completed.
  void CompleteTx(size_t n = 1);
  void CompleteAllTx() { CompleteTx(pending_tx_.size()); }
  size_t pending_tx() const { return pending_tx_.size(); }
  // Completes TX until no clone is pending: a completion can release TSQ and
  // send more, so it repeats (at most 64 rounds), moving the clock `step`
  // after each round so the TSQ tasklet runs (0: the tasklet's events run
  // at now(), for tests whose next event is at the same instant).
  void DrainTx(TimeNs step = kNsPerUs);

  // Wire segments since the last Take (in transmission order).
  std::vector<WireSeg> TakeWire();
  // Payload lengths of TakeWire().
  std::vector<uint32_t> TakeLens();
  // All segments ever sent.
  const std::vector<WireSeg>& wire() const { return wire_; }
  // Skbs handed to the NIC (clones).
  const std::vector<XmitSkb>& skbs() const { return skbs_; }

 private:
  void OnXmit(XmitSkb&& skb);

  Options opts_;
  EventLoop loop_;
  std::unique_ptr<TcpSock> sock_;
  uint64_t next_page_ = 1;
  std::vector<uint8_t> zeros_;
  std::deque<uint32_t> pending_tx_;  // truesize of clones awaiting completion
  std::vector<WireSeg> wire_;
  size_t taken_ = 0;
  std::vector<XmitSkb> skbs_;
};

// "1448x3 1200" style rendering of segment lengths (runs collapsed), for
// readable failure messages.
std::string RenderLens(const std::vector<uint32_t>& lens);

}  // namespace sendsim::model::testing

#endif  // SENDSIM_MODEL_TESTING_SENDER_CONTEXT_H_
