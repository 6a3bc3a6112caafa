#ifndef SENDSIM_MODEL_TESTING_TRACE_HASH_H_
#define SENDSIM_MODEL_TESTING_TRACE_HASH_H_

#include <cstdint>

#include "model/observer.h"
#include "model/types.h"

namespace sendsim::model::testing {

// FNV-1a over every field of every wire packet (both directions, tag and
// time included) and every in-order delivery: two runs with equal hashes
// produced the same trace. Used by determinism tests and by the golden
// trace check that guards performance work.
class TraceHashObserver : public Observer {
 public:
  void OnWirePacket(const WirePacket& p) override {
    Mix(static_cast<uint64_t>(p.time));
    Mix(static_cast<uint64_t>(p.dir));
    Mix(p.seq);
    Mix(p.ack);
    Mix(p.len);
    Mix(p.flags);
    Mix(p.win);
    Mix(static_cast<uint64_t>(p.reason));
    Mix(p.tag);
    ++packets;
  }
  void OnDeliver(TimeNs t, uint32_t seq, const uint8_t* /*data*/, uint32_t len) override {
    Mix(static_cast<uint64_t>(t));
    Mix(seq);
    Mix(len);
  }

  uint64_t hash = 1469598103934665603ULL;  // FNV-1a offset basis
  uint64_t packets = 0;

 private:
  void Mix(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      hash ^= (v >> (8 * i)) & 0xff;
      hash *= 1099511628211ULL;  // FNV-1a prime
    }
  }
};

}  // namespace sendsim::model::testing

#endif  // SENDSIM_MODEL_TESTING_TRACE_HASH_H_
