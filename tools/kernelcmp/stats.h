#ifndef SENDSIM_TOOLS_KERNELCMP_STATS_H_
#define SENDSIM_TOOLS_KERNELCMP_STATS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "tools/kernelcmp/analysis.h"

namespace sendsim::kernelcmp {

struct Summary {
  double mean = 0;
  double min = 0;
  double max = 0;
  size_t n = 0;
};
Summary Summarize(const std::vector<double>& xs);

// Total variation distance of the two normalised size distributions:
// half the L1 distance, in [0, 1]. Empty histograms are at distance 1 from
// any non-empty one (0 from each other).
double TotalVariationDistance(const SizeHistogram& a, const SizeHistogram& b);

// The k most frequent sizes, by count descending then size ascending.
std::vector<std::pair<uint32_t, uint64_t>> TopSizes(const SizeHistogram& h, size_t k);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_STATS_H_
