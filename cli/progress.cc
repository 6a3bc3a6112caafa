#include "cli/progress.h"

#include <chrono>

#include "absl/strings/str_format.h"

namespace sendsim::cli {

ProgressLine::ProgressLine(std::ostream* err, bool enabled, ClockMs clock)
    : err_(err), enabled_(enabled), clock_(std::move(clock)) {
  if (!clock_) {
    clock_ = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  }
  start_ms_ = clock_();
}

void ProgressLine::Update(const std::string& label, uint64_t done, uint64_t total) {
  if (!enabled_) return;
  const int64_t now = clock_();
  if (now - start_ms_ < kDelayMs) return;
  if (last_draw_ms_ >= 0 && now - last_draw_ms_ < kIntervalMs && done != total) return;
  last_draw_ms_ = now;
  const int pct = total ? static_cast<int>(done * 100 / total) : 100;
  std::string line = absl::StrFormat("sendsim: %s: %d/%d messages (%d%%)", label, done, total, pct);
  // The rate so far, extrapolated: shown only on the terminal line.
  if (done > 0 && done < total) {
    const double left_s = static_cast<double>(now - start_ms_) / 1000.0 * static_cast<double>(total - done) /
                          static_cast<double>(done);
    const int64_t secs = static_cast<int64_t>(left_s + 0.5);
    if (secs >= 3600) {
      absl::StrAppendFormat(&line, ", ETA %dh%02dm", secs / 3600, secs / 60 % 60);
    } else {
      absl::StrAppendFormat(&line, ", ETA %dm%02ds", secs / 60, secs % 60);
    }
  }
  const size_t width = line.size();
  if (width < drawn_width_) line.append(drawn_width_ - width, ' ');
  *err_ << '\r' << line << std::flush;
  drawn_width_ = width;
}

void ProgressLine::Clear() {
  if (drawn_width_ == 0) return;
  *err_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
  drawn_width_ = 0;
}

}  // namespace sendsim::cli
