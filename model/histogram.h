#ifndef SENDSIM_MODEL_HISTOGRAM_H_
#define SENDSIM_MODEL_HISTOGRAM_H_

#include <cstdint>
#include <vector>

namespace sendsim::model {

// Data packets on the wire by TCP payload length (one counter per length,
// cheap enough for 10^8 packets).
struct PacketHistogram {
  std::vector<uint64_t> counts;  // counts[len]
  uint64_t packets = 0;
  uint64_t bytes = 0;

  void Add(uint32_t len) {
    if (len >= counts.size()) counts.resize(len + 1, 0);
    ++counts[len];
    ++packets;
    bytes += len;
  }
  uint64_t at(uint32_t len) const { return len < counts.size() ? counts[len] : 0; }
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_HISTOGRAM_H_
