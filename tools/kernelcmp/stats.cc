#include "tools/kernelcmp/stats.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace sendsim::kernelcmp {

Summary Summarize(const std::vector<double>& xs) {
  Summary s;
  s.n = xs.size();
  if (xs.empty()) return s;
  s.min = *std::min_element(xs.begin(), xs.end());
  s.max = *std::max_element(xs.begin(), xs.end());
  double sum = 0;
  for (double x : xs) sum += x;
  s.mean = sum / xs.size();
  return s;
}

double TotalVariationDistance(const SizeHistogram& a, const SizeHistogram& b) {
  uint64_t ta = 0, tb = 0;
  for (const auto& [size, n] : a) ta += n;
  for (const auto& [size, n] : b) tb += n;
  if (ta == 0 && tb == 0) return 0;
  if (ta == 0 || tb == 0) return 1;
  std::set<uint32_t> keys;
  for (const auto& [size, n] : a) keys.insert(size);
  for (const auto& [size, n] : b) keys.insert(size);
  double l1 = 0;
  for (uint32_t k : keys) {
    auto ia = a.find(k);
    auto ib = b.find(k);
    const double pa = ia == a.end() ? 0 : static_cast<double>(ia->second) / ta;
    const double pb = ib == b.end() ? 0 : static_cast<double>(ib->second) / tb;
    l1 += std::fabs(pa - pb);
  }
  return l1 / 2;
}

std::vector<std::pair<uint32_t, uint64_t>> TopSizes(const SizeHistogram& h, size_t k) {
  std::vector<std::pair<uint32_t, uint64_t>> v(h.begin(), h.end());
  std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  });
  if (v.size() > k) v.resize(k);
  return v;
}

}  // namespace sendsim::kernelcmp
