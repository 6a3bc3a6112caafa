#include "tools/kernelcmp/call_fit.h"

namespace sendsim::kernelcmp {

void CallCostFit::Add(uint32_t segments, int64_t cpu_ns) {
  const double x = segments;
  const double y = static_cast<double>(cpu_ns);
  ++n_;
  sx_ += x;
  sy_ += y;
  sxx_ += x * x;
  sxy_ += x * y;
}

void CallCostFit::Merge(const CallCostFit& o) {
  n_ += o.n_;
  sx_ += o.sx_;
  sy_ += o.sy_;
  sxx_ += o.sxx_;
  sxy_ += o.sxy_;
}

bool CallCostFit::Fit(double* base_ns, double* per_segment_ns) const {
  if (n_ < kMinSamples) return false;
  const double n = static_cast<double>(n_);
  const double den = n * sxx_ - sx_ * sx_;
  // Relative test: one distinct x leaves only rounding in den.
  if (den <= 1e-9 * n * sxx_) return false;
  const double slope = (n * sxy_ - sx_ * sy_) / den;
  const double intercept = (sy_ - slope * sx_) / n;
  if (slope < 0 || intercept < 0) return false;
  *base_ns = intercept;
  *per_segment_ns = slope;
  return true;
}

}  // namespace sendsim::kernelcmp
