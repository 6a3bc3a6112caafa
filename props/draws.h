#ifndef SENDSIM_PROPS_DRAWS_H_
#define SENDSIM_PROPS_DRAWS_H_

// A stream of choices for the case generator, without RapidCheck: the
// explorer draws millions of cases, and RapidCheck's gen::exec machinery
// (recipes, type-erased shrinkables) cost more than running a small case
// (perf, 2026-12-04). The generator (generators.cc) is written once over a
// draw source; RapidCheck's source serves props_test, this one the explorer.
//
// Every choice is recorded as its offset inside its range, so a draw can be
// replayed from the recorded offsets and shrunk by lowering them (offset 0 is
// the first alternative, the lowest value): see ShrinkChoices.

#include <cstdint>
#include <functional>
#include <vector>

namespace sendsim::props {

class ChoiceDraws {
 public:
  // Fresh choices from splitmix64(key); `size` (0..100) scales InRange as
  // RapidCheck's gen::inRange does.
  ChoiceDraws(uint64_t key, int size) : state_(key), size_(size) {}
  // Replays `offsets`; past their end every choice is 0.
  ChoiceDraws(std::vector<uint64_t> offsets, int size) : replay_(std::move(offsets)), size_(size), replaying_(true) {}

  // In [0, n), over the whole range whatever the size.
  uint32_t Index(uint32_t n) { return static_cast<uint32_t>(Choose(n == 0 ? 1 : n)); }
  // In [lo, hi), the range scaled by size (rc::gen::detail::scaleInteger).
  uint64_t InRange(uint64_t lo, uint64_t hi);
  bool Bool() { return Index(2) == 1; }

  const std::vector<uint64_t>& recorded() const { return recorded_; }
  int size() const { return size_; }

 private:
  uint64_t Choose(uint64_t range);

  uint64_t state_ = 0;
  std::vector<uint64_t> replay_;
  std::vector<uint64_t> recorded_;
  int size_;
  bool replaying_ = false;
};

// Greedy shrinking of a recorded choice sequence: drop blocks of choices,
// then lower each one (to 0, to half), keeping every change after which
// `still_fails` holds on the replayed sequence. Returns the smallest failing
// sequence found within `max_tries` evaluations.
std::vector<uint64_t> ShrinkChoices(std::vector<uint64_t> offsets,
                                    const std::function<bool(const std::vector<uint64_t>&)>& still_fails,
                                    int max_tries, int* tries_used = nullptr);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_DRAWS_H_
