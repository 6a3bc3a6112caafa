#ifndef SENDSIM_MODEL_EXP_DRAW_H_
#define SENDSIM_MODEL_EXP_DRAW_H_

#include <cmath>
#include <cstdint>

#include "model/event_loop.h"

namespace sendsim::model {

// Exponential draws from a splitmix64 stream (Steele, Lea, Flood 2014): the
// uniform draw inverted into an exponential of the given mean.
// Deterministic for a given seed; no global state.
class ExpDraw {
 public:
  explicit ExpDraw(uint64_t seed) : state_(seed) {}
  TimeNs Draw(TimeNs mean_ns) {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const double u = (static_cast<double>(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);  // (0, 1)
    return static_cast<TimeNs>(-std::log(u) * static_cast<double>(mean_ns));
  }

 private:
  uint64_t state_;
};

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_EXP_DRAW_H_
