#ifndef SENDSIM_CLI_PROGRESS_H_
#define SENDSIM_CLI_PROGRESS_H_

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace sendsim::cli {

// Called by a run as messages complete.
using ProgressFn = std::function<void(uint64_t messages_done, uint64_t messages_total)>;

// A single self-overwriting status line on stderr. Shown only when enabled
// (stderr is a terminal) and once the whole invocation has taken more than
// kDelayMs of real time; redrawn at most every kIntervalMs. Wall-clock time
// decides only whether to draw, never anything in the results.
class ProgressLine {
 public:
  static constexpr int64_t kDelayMs = 1000;
  static constexpr int64_t kIntervalMs = 100;
  using ClockMs = std::function<int64_t()>;

  // `clock` defaults to a monotonic clock.
  ProgressLine(std::ostream* err, bool enabled, ClockMs clock = nullptr);
  ~ProgressLine() { Clear(); }

  // `label`: e.g. "v1-legacy (linux-4.19) 2/5".
  void Update(const std::string& label, uint64_t done, uint64_t total);
  // Erases the line if one was drawn.
  void Clear();

 private:
  std::ostream* err_;
  bool enabled_;
  ClockMs clock_;
  int64_t start_ms_;
  int64_t last_draw_ms_ = -1;
  size_t drawn_width_ = 0;
};

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_PROGRESS_H_
