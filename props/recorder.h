#ifndef SENDSIM_PROPS_RECORDER_H_
#define SENDSIM_PROPS_RECORDER_H_

// What RunCase watches during a run: the wire (packets, ACK arrivals, trace
// hash), the delivered stream (fed to the messenger's decoder), each
// message's write span, and the revoke trigger.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "messenger/connection.h"
#include "messenger/decoder.h"
#include "messenger/message.h"
#include "model/event_loop.h"
#include "model/observer.h"
#include "props/case.h"
#include "props/outcome.h"

namespace sendsim::props {

uint64_t MixHash(uint64_t h, uint64_t v);

class Recorder : public model::Observer, public messenger::ConnectionListener {
 public:
  // `decode`: feed the delivered stream to the decoder (RunDepth::kFull).
  Recorder(const Case& c, model::EventLoop* loop, messenger::Protocol protocol, bool decode);

  void set_connection(messenger::CephConnection* conn, const std::vector<messenger::CephMsgRef>* msgs) {
    conn_ = conn;
    msgs_ = msgs;
  }

  // model::Observer
  void OnWirePacket(const model::WirePacket& p) override;
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override;
  // messenger::ConnectionListener
  void OnMessageWritten(const messenger::CephMsg& msg, uint64_t stream_end, model::TimeNs t) override;
  void OnSocketCall(messenger::CallPart part, uint64_t tag, int flags, int64_t ret) override;

  // (first socket call, footer written) per message; -1 when not reached.
  const std::vector<std::pair<model::TimeNs, model::TimeNs>>& spans() const { return spans_; }
  const std::vector<PacketRecord>& packets() const { return packets_; }
  std::vector<PacketRecord> take_packets() { return std::move(packets_); }
  // (arrival at the sender, cumulative ack offset from the first data byte)
  const std::vector<std::pair<model::TimeNs, uint64_t>>& acks() const { return acks_; }
  const std::vector<messenger::DecodedMessage>& decoded() const { return decoded_; }
  const messenger::Decoder& decoder() const { return decoder_; }
  const std::string& delivery_error() const { return delivery_error_; }
  const absl::Status& revoke_error() const { return revoke_error_; }
  uint64_t hash() const { return hash_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t eagains() const { return eagains_; }

 private:
  void MaybeRevoke(uint64_t index);

  const Case& case_;
  model::EventLoop* loop_;
  messenger::Decoder decoder_;
  messenger::CephConnection* conn_ = nullptr;
  const std::vector<messenger::CephMsgRef>* msgs_ = nullptr;
  std::vector<messenger::DecodedMessage> decoded_;
  std::vector<std::pair<model::TimeNs, model::TimeNs>> spans_;
  std::vector<uint64_t> accepted_;
  std::vector<PacketRecord> packets_;
  std::vector<std::pair<model::TimeNs, uint64_t>> acks_;
  std::string delivery_error_;
  absl::Status revoke_error_;
  uint64_t hash_ = 0xcbf29ce484222325ULL;
  uint64_t delivered_ = 0;
  uint64_t snd_max_ = 0;
  uint64_t eagains_ = 0;
  uint32_t base_ = 0;
  bool have_base_ = false;
  bool revoked_ = false;
  bool decode_;
};

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_RECORDER_H_
