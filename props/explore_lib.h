#ifndef SENDSIM_PROPS_EXPLORE_LIB_H_
#define SENDSIM_PROPS_EXPLORE_LIB_H_

// Case i of an exploration: a pure function of (limits, seed, i), so any
// process, shard or machine draws the same case for the same index.

#include <cstdint>
#include <optional>
#include <vector>

#include "props/case.h"
#include "props/draws.h"
#include "props/generators.h"

namespace sendsim::props {

uint64_t CaseKey(uint64_t seed, uint64_t i);
// RapidCheck-style size of case i: 0..100, cycling, so that every stretch of
// cases has small and large ones.
int CaseSize(uint64_t i);

class CaseGenerator {
 public:
  explicit CaseGenerator(CaseLimits limits);
  // nullopt when the draw is discarded; `choices` (optional) gets the draw's
  // recorded choices, for ShrinkChoices.
  std::optional<Case> Draw(uint64_t seed, uint64_t i, std::vector<uint64_t>* choices = nullptr) const;
  // The case a (shrunk) choice sequence gives at `size`.
  std::optional<Case> Replay(const std::vector<uint64_t>& choices, int size) const;

 private:
  CaseLimits limits_;
};

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_EXPLORE_LIB_H_
