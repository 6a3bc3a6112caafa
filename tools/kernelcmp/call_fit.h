#ifndef SENDSIM_TOOLS_KERNELCMP_CALL_FIT_H_
#define SENDSIM_TOOLS_KERNELCMP_CALL_FIT_H_

#include <cstdint>

namespace sendsim::kernelcmp {

// Splits the sender's CPU per socket call into a fixed part and a part per
// segment the call transmits, by least squares over sampled calls (x = data
// segments the socket sent during the call, y = thread CPU time of the
// call). The model takes them as ConnectionConfig::call_cost_ns and
// xmit_cost_ns. A measurement of the testbed, not a kernel rule.
class CallCostFit {
 public:
  void Add(uint32_t segments, int64_t cpu_ns);
  void Merge(const CallCostFit& other);

  uint64_t samples() const { return n_; }
  // Mean CPU of the samples, through which the fitted line passes (0 with none).
  double mean_cpu_ns() const { return n_ > 0 ? sy_ / static_cast<double>(n_) : 0; }
  // Needs at least kMinSamples samples with two distinct segment counts and
  // a non-negative slope and intercept; false otherwise (outputs untouched).
  bool Fit(double* base_ns, double* per_segment_ns) const;

  static constexpr uint64_t kMinSamples = 20;

 private:
  uint64_t n_ = 0;
  double sx_ = 0, sy_ = 0, sxx_ = 0, sxy_ = 0;
};

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_CALL_FIT_H_
