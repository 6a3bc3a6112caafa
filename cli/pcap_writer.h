#ifndef SENDSIM_CLI_PCAP_WRITER_H_
#define SENDSIM_CLI_PCAP_WRITER_H_

// --pcap: a standard capture file (nanosecond pcap, LINKTYPE_ETHERNET) of
// one run, both directions, that tcpdump/tshark/Wireshark open. Frames are
// Ethernet/IPv4/TCP with correct lengths and checksums; the connection is
// 10.0.0.1:40000 (client, the sender) -> 10.0.0.2:6800 (OSD).
//
// Deliberate simplifications (see README "Model limits"):
// * every frame is stamped when it leaves its sender's NIC (WirePacket.time),
//   so the file merges two capture points; ACKs are not shifted by the
//   one-way delay a capture on the client would add;
// * TSecr echoes the last TSval the other side emitted, not the last one it
//   received; SACK blocks are not written (WirePacket does not carry them);
// * payload bytes are the bytes the peer received for that sequence range
//   (real bytes when the run tracks payload), zero-filled otherwise;
// * a three-way handshake is synthesised before t = 0 so that tools learn
//   the window scale and show relative sequence numbers.

#include <cstdint>
#include <deque>
#include <ostream>
#include <string>

#include "model/observer.h"

namespace sendsim::cli {

struct PcapOptions {
  uint32_t mss = 1448;
  bool timestamps = true;
  uint8_t sender_wscale = 7;  // window scale the sender announces
  uint8_t peer_wscale = 7;    // window scale the peer announces
  // Relative sequence number of the first payload byte of either side (the
  // SYN takes the one before); wire seq = ISN + 1 + (relative - first_data_seq).
  uint32_t first_data_seq = 0;
  // Keep this many delivered bytes for retransmissions of older data.
  uint64_t payload_history_bytes = 16 << 20;
};

inline constexpr uint32_t kPcapSenderIsn = 1000000000;
inline constexpr uint32_t kPcapPeerIsn = 2000000000;
inline constexpr uint16_t kPcapSenderPort = 40000;
inline constexpr uint16_t kPcapPeerPort = 6800;  // first OSD port (ms_bind_port_min)

class PcapWriter : public model::Observer {
 public:
  // `out` must outlive the writer; the file header and the handshake are
  // written at once. Call Finish() after the run.
  PcapWriter(std::ostream* out, const PcapOptions& options);

  void OnWirePacket(const model::WirePacket& pkt) override;
  void OnDeliver(model::TimeNs t, uint32_t seq, const uint8_t* data, uint32_t len) override;

  // Writes every buffered packet (zero-filling payload never delivered).
  void Finish();

  uint64_t frames_written() const { return frames_; }

 private:
  uint64_t Unwrap(uint32_t seq) const;
  void Flush(bool force);
  void WriteFrame(model::TimeNs t, bool from_sender, uint32_t seq, uint32_t ack, uint8_t flags, uint32_t win_field,
                  const std::string& options, const uint8_t* payload, uint32_t len);
  std::string TimestampOption(model::TimeNs t, bool from_sender);

  std::ostream* out_;
  PcapOptions opt_;
  std::deque<model::WirePacket> pending_;
  std::string stream_;          // delivered bytes [stream_base_, delivered_end_)
  uint64_t stream_base_ = 0;    // unwrapped relative sequence numbers
  uint64_t delivered_end_ = 0;
  uint16_t ip_id_[2] = {1, 1};  // [from_sender]
  uint32_t last_tsval_[2] = {0, 0};
  uint64_t frames_ = 0;
  std::string zeros_;
};

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_PCAP_WRITER_H_
