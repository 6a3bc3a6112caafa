#ifndef SENDSIM_TOOLS_KERNELCMP_ANALYSIS_H_
#define SENDSIM_TOOLS_KERNELCMP_ANALYSIS_H_

#include <cstdint>
#include <map>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "tools/kernelcmp/pcap.h"

namespace sendsim::kernelcmp {

// Payload size -> packet count.
using SizeHistogram = std::map<uint32_t, uint64_t>;

// One direction of one connection: packets from src to dst.
struct Flow {
  uint32_t src_ip = 0;
  uint16_t src_port = 0;
  uint32_t dst_ip = 0;
  uint16_t dst_port = 0;
};

// What one captured run shows in the data direction.
struct RunFigures {
  uint64_t packets = 0;              // first-transmission data packets (wire segments)
  uint64_t sub_mss_packets = 0;      // of those, payload < MSS
  uint64_t unique_payload_bytes = 0; // union of the sequence ranges carried
  uint64_t retransmitted_packets = 0;  // data packets overlapping bytes seen before (not counted above)
  uint64_t oversized_skbs = 0;       // captured packets > MSS (TSO on: split before counting)
  SizeHistogram sizes;               // first transmissions only
  // Pure ACKs the receiver sent back (reverse direction, no payload, no
  // SYN/FIN/RST): how often the sender's ACK processing could push a held tail.
  uint64_t acks = 0;
  int64_t first_data_ns = 0;         // capture times of the first and last data packet
  int64_t last_data_ns = 0;
  // Payload bytes per second between the first and last data packet (0 if undefined).
  double BytesPerSecond() const {
    const int64_t d = last_data_ns - first_data_ns;
    return d > 0 ? unique_payload_bytes * 1e9 / d : 0;
  }
};

// Counts the data direction of `flow` in a capture, and the pure ACKs of the
// reverse direction (the capture may hold both). The flow's SYN must be in
// the capture (it gives the ISN). With `split_tso`, a captured packet longer
// than `mss` counts as the wire segments a TSO NIC would emit from it
// (floor(len/mss) of mss plus the remainder; docs/kernel-send-path.md §7);
// without it such a packet is an error (TSO was supposed to be off).
absl::StatusOr<RunFigures> AnalyzeFlow(const std::vector<TcpSegment>& segments, const Flow& flow,
                                       uint32_t mss, bool split_tso);

// tcpdump's end-of-run statistics (its stderr).
struct CaptureStats {
  uint64_t captured = 0;
  uint64_t received_by_filter = 0;
  uint64_t dropped_by_kernel = 0;
  uint64_t dropped_by_interface = 0;
};
absl::StatusOr<CaptureStats> ParseTcpdumpStats(absl::string_view stderr_text);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_ANALYSIS_H_
