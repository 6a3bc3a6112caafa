#include "props/draws.h"

#include <algorithm>

namespace sendsim::props {
namespace {

constexpr int kNominalSize = 100;  // rc::kNominalSize

}  // namespace

uint64_t ChoiceDraws::InRange(uint64_t lo, uint64_t hi) {
  if (hi <= lo) return lo;
  // rc::gen::detail::scaleInteger: (hi - lo - 1) * min(size, 100) / 100 + 1.
  const unsigned __int128 span = hi - lo - 1;
  const uint64_t range =
      static_cast<uint64_t>(span * static_cast<unsigned>(std::clamp(size_, 0, kNominalSize)) / kNominalSize) + 1;
  return lo + Choose(range);
}

uint64_t ChoiceDraws::Choose(uint64_t range) {
  uint64_t offset;
  if (replaying_) {
    const size_t i = recorded_.size();
    offset = i < replay_.size() ? replay_[i] % range : 0;
  } else {
    // splitmix64
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    offset = (z ^ (z >> 31)) % range;
  }
  recorded_.push_back(offset);
  return offset;
}

std::vector<uint64_t> ShrinkChoices(std::vector<uint64_t> best,
                                    const std::function<bool(const std::vector<uint64_t>&)>& still_fails,
                                    int max_tries, int* tries_used) {
  int tries = 0;
  auto attempt = [&](const std::vector<uint64_t>& x) {
    if (tries >= max_tries) return false;
    ++tries;
    if (!still_fails(x)) return false;
    best = x;
    return true;
  };
  bool progressed = true;
  while (progressed && tries < max_tries) {
    progressed = false;
    // Drop blocks (a message, an item, a run of extents), largest first.
    for (size_t block : {32u, 16u, 8u, 4u, 2u, 1u}) {
      for (size_t i = 0; i + block <= best.size() && tries < max_tries;) {
        std::vector<uint64_t> x = best;
        x.erase(x.begin() + static_cast<std::ptrdiff_t>(i), x.begin() + static_cast<std::ptrdiff_t>(i + block));
        if (attempt(x)) {
          progressed = true;
        } else {
          ++i;
        }
      }
    }
    // Lower each choice: to 0, else to half, else by one.
    for (size_t i = 0; i < best.size() && tries < max_tries; ++i) {
      for (uint64_t v : {uint64_t{0}, best[i] / 2, best[i] > 0 ? best[i] - 1 : 0}) {
        if (v >= best[i]) continue;
        std::vector<uint64_t> x = best;
        x[i] = v;
        if (attempt(x)) {
          progressed = true;
          break;
        }
      }
    }
  }
  if (tries_used != nullptr) *tries_used = tries;
  return best;
}

}  // namespace sendsim::props
