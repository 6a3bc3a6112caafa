#include "cli/run_result.h"

#include <algorithm>

namespace sendsim::cli {

std::vector<SizeCount> SortedHistogram(const RunResult& r) {
  std::vector<SizeCount> out;
  out.reserve(r.histogram.size());
  for (const auto& [size, count] : r.histogram) out.push_back({size, count});
  std::stable_sort(out.begin(), out.end(), [](const SizeCount& a, const SizeCount& b) {
    return a.count != b.count ? a.count > b.count : a.size < b.size;
  });
  return out;
}

absl::string_view ReasonLabel(model::PushReason r) {
  using R = model::PushReason;
  switch (r) {
    case R::kEndOfCall: return "end-of-call";
    case R::kPushOne: return "push-one";
    case R::kForcedPush: return "forced-push";
    case R::kFragLimit: return "frag-limit";
    case R::kSndbufFull: return "sndbuf-full";
    case R::kAck: return "ack";
    case R::kBacklog: return "backlog";
    case R::kTsq: return "tsq";
    case R::kTsqDeferred: return "tsq-deferred";
    case R::kSetsockopt: return "setsockopt";
    case R::kProbe0: return "probe0";
    case R::kTlp: return "tlp";
    case R::kRto: return "rto";
    case R::kRetransmit: return "retransmit";
    case R::kControl: return "control";
    case R::kCount: break;
  }
  return "unknown";
}

CompletionStats Completion(const RunResult& r) {
  CompletionStats s;
  if (r.completion_ns.empty()) return s;
  std::vector<model::TimeNs> v = r.completion_ns;
  std::sort(v.begin(), v.end());
  auto rank = [&](int pct) {
    // nearest rank: ceil(pct/100 * n), 1-based
    const size_t k = (v.size() * pct + 99) / 100;
    return v[k == 0 ? 0 : k - 1];
  };
  s.p50 = rank(50);
  s.p99 = rank(99);
  s.max = v.back();
  return s;
}

}  // namespace sendsim::cli
