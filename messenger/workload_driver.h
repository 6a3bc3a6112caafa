#ifndef SENDSIM_MESSENGER_WORKLOAD_DRIVER_H_
#define SENDSIM_MESSENGER_WORKLOAD_DRIVER_H_

// Pushes a workload through one CephConnection on the model's event loop and
// plays the peer: a Decoder fed from Observer::OnDeliver, replies (in_seq
// increments, piggybacked/standalone acks flowing back) after a processing
// delay, and per-message completion times.
//
// Usage: scenario::MessengerWorkload runs it in a scenario::Simulation
// (the driver is the connection's first observer; Attach, Start, run).
//
// The model may call OnDeliver early (Link lookahead mode: loop time < t,
// even from inside a socket call), so everything the peer does in response
// is scheduled at absolute times derived from `t`.

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "messenger/connection.h"
#include "messenger/decoder.h"
#include "messenger/page_pool.h"
#include "messenger/workload.h"
#include "model/event_loop.h"
#include "model/observer.h"
#include "model/socket.h"

namespace sendsim::messenger {

struct DriverOptions {
  uint64_t seed = 1;
  size_t pool_pages = 256;  // 1 MiB of distinct page content
  // The OSD replies this long after it has the whole message; the reply is
  // what moves our in_seq (and acks our message).
  bool replies = true;
  model::TimeNs reply_delay_ns = 50 * model::kNsPerUs;
  // Each reply takes reply_delay_ns plus a uniform draw from
  // [0, reply_jitter_ns] (a seeded stream of its own). OSD service times vary;
  // without spread a queue-depth workload locks into a cycle whose phases,
  // not the send path, decide which message ends see an ACK.
  model::TimeNs reply_jitter_ns = 0;
  // 0: submit at each spec's submit_at. N > 0: keep at most N requests
  // outstanding (submitted, no reply yet), like a queue depth.
  uint32_t queue_depth = 0;
  // ACK packets are reported at their departure from the peer; they reach
  // the sender this much later (set to the link's one-way delay).
  model::TimeNs ack_arrival_delay_ns = 0;
  // Compare every delivered message byte for byte with what was sent.
  bool verify_payload = true;
};

struct MessageRecord {
  uint64_t index = 0;
  uint64_t seq = 0;
  uint64_t stream_begin = 0;  // decoder offsets
  uint64_t stream_end = 0;
  model::TimeNs submitted = -1;
  model::TimeNs written = -1;    // footer accepted by the socket
  model::TimeNs delivered = -1;  // peer decoded the whole message
  model::TimeNs acked = -1;      // TCP ACK covering its last byte reached the sender
  model::TimeNs replied = -1;    // reply read by our worker's try_read (approx.: reply arrival)
  bool aborted = false;
  // Completion latency: footer fully sent and acknowledged.
  model::TimeNs completion_ns() const { return acked < 0 ? -1 : acked - submitted; }
};

class WorkloadDriver : public model::Observer, public ConnectionListener {
 public:
  // `downstream` (may be null) receives every observer call too.
  WorkloadDriver(model::EventLoop* loop, std::vector<MessageSpec> specs, DriverOptions options,
                 model::Observer* downstream = nullptr);

  // Creates the CephConnection on `socket` (writer, footer, costs from
  // `conn_options`) and the matching decoder.
  absl::Status Attach(model::Socket* socket, ConnectionOptions conn_options);
  // Schedules the submissions.
  void Start();

  // After the loop ran: every message delivered and acked, decoder clean,
  // no connection error; the first problem otherwise.
  absl::Status Finish() const;

  const std::vector<MessageRecord>& records() const { return records_; }
  const Decoder& decoder() const { return *decoder_; }
  CephConnection& connection() { return *conn_; }
  uint64_t delivered_bytes() const { return delivered_bytes_; }

  // model::Observer
  void OnWirePacket(const model::WirePacket& pkt) override;
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override;
  // ConnectionListener
  void OnMessagePrepared(const CephMsg& msg, model::TimeNs t) override;
  void OnMessageWritten(const CephMsg& msg, uint64_t stream_end, model::TimeNs t) override;

 private:
  void Submit(uint64_t index);
  void OnDecoded(const DecodedMessage& m);
  void Fail(absl::Status s);

  model::EventLoop* loop_;
  std::vector<MessageSpec> specs_;
  DriverOptions options_;
  SplitMix64 reply_rng_;
  model::Observer* downstream_;
  PagePool pool_;
  std::unique_ptr<CephConnection> conn_;
  std::unique_ptr<Decoder> decoder_;
  std::vector<MessageRecord> records_;
  std::vector<CephMsgRef> inflight_;  // by index, until delivered (for payload checks)
  std::vector<uint64_t> seq_to_index_;
  absl::Status status_;

  bool have_base_ = false;
  uint32_t base_seq_ = 0;  // TCP sequence number of stream offset 0
  uint64_t delivered_bytes_ = 0;
  uint64_t next_to_ack_ = 0;  // index into seq_to_index_ of the first unacked message
  uint64_t next_submit_ = 0;
  uint64_t outstanding_ = 0;
};

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_WORKLOAD_DRIVER_H_
