// The send-side chronographs behind tcp_info's tcpi_busy_time,
// tcpi_rwnd_limited and tcpi_sndbuf_limited (tcp_output.c's tcp_chrono_*,
// tcp.c's tcp_get_info_chrono_stats; the same in 6.1 and 6.12). One
// chronograph runs at a time, in jiffies: the most interesting condition
// (sndbuf-limited > rwnd-limited > busy) wins, and ending it falls back to
// busy while either queue holds data, to none when both are empty.

#include "model/tcp_sock.h"

namespace sendsim::model {

// tcp_chrono_set: charge the running type with the time since its start.
void TcpSock::ChronoSet(Chrono type) {
  const uint32_t now = Jiffies();
  if (chrono_type_ != Chrono::kUnspec) chrono_stat_[static_cast<int>(chrono_type_) - 1] += now - chrono_start_;
  chrono_start_ = now;
  chrono_type_ = type;
}

// tcp_chrono_start: only a higher-priority type replaces the running one.
void TcpSock::ChronoStart(Chrono type) {
  if (type > chrono_type_) ChronoSet(type);
}

// tcp_chrono_stop: both queues empty stops the clock; otherwise ending the
// running type goes back to busy (ending another type changes nothing).
void TcpSock::ChronoStop(Chrono type) {
  if (write_queue_.empty() && rtx_queue_.empty()) {
    ChronoSet(Chrono::kUnspec);
  } else if (type == chrono_type_) {
    ChronoSet(Chrono::kBusy);
  }
}

// tcp_get_info_chrono_stats: each type's jiffies (the running one up to
// now) times USEC_PER_SEC / HZ; busy_time is the sum of all three.
void TcpSock::ChronoStats(TcpInfo* info) const {
  uint64_t us[3];
  uint64_t total = 0;
  for (int t = 0; t < 3; ++t) {
    uint64_t j = chrono_stat_[t];
    if (static_cast<int>(chrono_type_) == t + 1) j += static_cast<uint32_t>(Jiffies() - chrono_start_);
    us[t] = j * jiffy_us_;
    total += us[t];
  }
  info->busy_time_us = total;
  info->rwnd_limited_us = us[static_cast<int>(Chrono::kRwndLimited) - 1];
  info->sndbuf_limited_us = us[static_cast<int>(Chrono::kSndbufLimited) - 1];
}

}  // namespace sendsim::model
