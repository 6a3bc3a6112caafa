#include "tools/kernelcmp/delay_trace.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "tools/kernelcmp/ftrace_text.h"
#include "tools/kernelcmp/sysfile.h"

namespace sendsim::kernelcmp {
namespace {

constexpr absl::string_view kXmitEvent = "net_dev_start_xmit";
constexpr absl::string_view kRecvEvent = "netif_receive_skb";
// Data-sized packets only: pure ACKs are 66 bytes on the wire (52 at
// netif_receive_skb, after the Ethernet header is pulled).
constexpr absl::string_view kFilter = "len > 100";
constexpr absl::string_view kRingKb = "16384";  // per CPU: ~100k events
// The sender's socket calls (call_trace.h); no filter: the parser keeps the
// sender thread's calls on its socket.
constexpr absl::string_view kSyscallEvents[] = {
    "sys_enter_sendto",     "sys_exit_sendto",  "sys_enter_sendmsg",    "sys_exit_sendmsg",
    "sys_enter_sendfile64", "sys_exit_sendfile64", "sys_enter_splice",  "sys_exit_splice",
    "sys_enter_setsockopt", "sys_exit_setsockopt",
};

// "key=value" from an event's fields; empty if absent.
absl::string_view Field(absl::string_view fields, absl::string_view key) {
  for (absl::string_view kv : absl::StrSplit(fields, ' ', absl::SkipEmpty())) {
    if (kv.size() > key.size() && kv.substr(0, key.size()) == key && kv[key.size()] == '=') {
      return kv.substr(key.size() + 1);
    }
  }
  return {};
}

std::string EventDir(const std::string& root, absl::string_view event) {
  return absl::StrFormat("%s/events/net/%s", root, event);
}

std::string SyscallEventDir(const std::string& root, absl::string_view event) {
  return absl::StrFormat("%s/events/syscalls/%s", root, event);
}

// Everything Start changed, back to the defaults it found (event off,
// filter cleared, the ring's old size, the trace emptied).
void Restore(const std::string& root, const std::string& ring_kb) {
  for (absl::string_view e : {kXmitEvent, kRecvEvent}) {
    (void)WriteSysFile(EventDir(root, e) + "/enable", "0");
    (void)WriteSysFile(EventDir(root, e) + "/filter", "0");
  }
  for (absl::string_view e : kSyscallEvents) (void)WriteSysFile(SyscallEventDir(root, e) + "/enable", "0");
  (void)WriteSysFile(root + "/buffer_size_kb", ring_kb);
  (void)WriteSysFile(root + "/trace", "");
}

}  // namespace

absl::StatusOr<std::vector<DelaySample>> ParseDelayTrace(absl::string_view trace, absl::string_view send_dev,
                                                         absl::string_view recv_dev) {
  std::map<std::string, int64_t> sent;  // skbaddr -> xmit time
  std::vector<DelaySample> samples;
  for (absl::string_view line : absl::StrSplit(trace, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    // "<task>-<pid> [cpu] flags SECONDS.MICROS: EVENT: fields"
    absl::string_view event;
    size_t at = absl::string_view::npos;
    for (absl::string_view e : {kXmitEvent, kRecvEvent}) {
      at = line.find(absl::StrCat(": ", e, ": "));
      if (at != absl::string_view::npos) {
        event = e;
        break;
      }
    }
    if (event.empty()) continue;
    const size_t ts_start = line.rfind(' ', at);
    int64_t t = 0;
    if (ts_start == absl::string_view::npos || !ParseTraceTimestamp(line.substr(ts_start + 1, at - ts_start - 1), &t)) {
      return absl::InvalidArgumentError(absl::StrFormat("trace line without a timestamp: %s", line));
    }
    const size_t name_end = at + 2 + event.size();
    const absl::string_view fields = line.substr(name_end + 2);
    const absl::string_view dev = Field(fields, "dev");
    const absl::string_view addr = Field(fields, "skbaddr");
    if (dev.empty() || addr.empty()) {
      return absl::InvalidArgumentError(absl::StrFormat("trace line without dev/skbaddr: %s", line));
    }
    if (event == kXmitEvent && dev == send_dev) {
      sent[std::string(addr)] = t;
    } else if (event == kRecvEvent && dev == recv_dev) {
      auto it = sent.find(std::string(addr));
      if (it == sent.end()) continue;
      samples.push_back(DelaySample{it->second, t});
      sent.erase(it);
    }
  }
  return samples;
}

DelaySummary SummarizeDelays(const std::vector<DelaySample>& samples) {
  DelaySummary s;
  if (samples.empty()) return s;
  std::vector<int64_t> d;
  d.reserve(samples.size());
  for (const DelaySample& x : samples) d.push_back(x.recv_ns - x.xmit_ns);
  std::sort(d.begin(), d.end());
  s.packets = d.size();
  s.p5_ns = d[d.size() * 5 / 100];
  s.median_ns = d[d.size() / 2];
  long double sum = 0;
  for (int64_t x : d) sum += x;
  s.mean_ns = static_cast<int64_t>(sum / d.size());

  std::vector<int64_t> gaps;
  for (size_t i = 1; i < samples.size(); ++i) {
    if (samples[i].xmit_ns < samples[i - 1].recv_ns) gaps.push_back(samples[i].recv_ns - samples[i - 1].recv_ns);
  }
  if (!gaps.empty()) {
    // The trace prints microseconds and a packet takes about one, so a
    // median would be 0 or 1 us: the mean of the lowest 95 % (the top 5 %
    // are interruptions) averages the rounding out.
    std::sort(gaps.begin(), gaps.end());
    const size_t keep = gaps.size() - gaps.size() * 5 / 100;
    long double sum = 0;
    for (size_t i = 0; i < keep; ++i) sum += gaps[i];
    s.rx_service_ns = static_cast<int64_t>(sum / keep + 0.5);
  }
  long double idle_sum = 0, deferred_sum = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (i == 0 || samples[i].xmit_ns > samples[i - 1].recv_ns + s.rx_service_ns) {
      ++s.idle_packets;
      const int64_t d = samples[i].recv_ns - samples[i].xmit_ns;
      idle_sum += d;
      if (d > s.p5_ns + DelaySummary::kInlineNs) {
        ++s.deferred_packets;
        deferred_sum += d - s.p5_ns;
      }
    }
  }
  if (s.deferred_packets > 0) s.rx_deferred_ns = static_cast<int64_t>(deferred_sum / s.deferred_packets + 0.5);
  s.rx_wakeup_ns = std::max<int64_t>(0, static_cast<int64_t>(idle_sum / s.idle_packets) - s.p5_ns);
  return s;
}

absl::StatusOr<DelayTrace> DelayTrace::Start(const std::string& root, CleanupStack* cleanup) {
  absl::StatusOr<std::string> ring = ReadSysFile(root + "/buffer_size_kb");
  if (!ring.ok()) return ring.status();
  std::string ring_kb = std::string(absl::StripAsciiWhitespace(*ring));
  // "7 (expanded: 1408)" before the ring is first used: the expanded size.
  if (const size_t p = ring_kb.find("expanded: "); p != std::string::npos) {
    ring_kb = ring_kb.substr(p + 10);
    ring_kb = ring_kb.substr(0, ring_kb.find(')'));
  }
  const CleanupStack::Id undo =
      cleanup->Push("restore tracefs", [root, ring_kb] { Restore(root, ring_kb); });
  absl::Status s = WriteSysFile(root + "/buffer_size_kb", kRingKb);
  if (s.ok()) s = WriteSysFile(root + "/trace", "");
  for (absl::string_view e : {kXmitEvent, kRecvEvent}) {
    if (s.ok()) s = WriteSysFile(EventDir(root, e) + "/filter", kFilter);
    if (s.ok()) s = WriteSysFile(EventDir(root, e) + "/enable", "1");
  }
  if (!s.ok()) {
    cleanup->Run(undo);
    return s;
  }
  // Best effort: without CONFIG_FTRACE_SYSCALLS the holds stay unmeasured.
  bool syscalls = true;
  for (absl::string_view e : kSyscallEvents) {
    if (syscalls && !WriteSysFile(SyscallEventDir(root, e) + "/enable", "1").ok()) syscalls = false;
  }
  if (!syscalls) {
    for (absl::string_view e : kSyscallEvents) (void)WriteSysFile(SyscallEventDir(root, e) + "/enable", "0");
  }
  return DelayTrace(root, cleanup, undo, syscalls);
}

absl::StatusOr<DelaySummary> DelayTrace::Stop(absl::string_view send_dev, absl::string_view recv_dev, int64_t tid,
                                              int fd, HoldSummary* holds) {
  for (absl::string_view e : {kXmitEvent, kRecvEvent}) (void)WriteSysFile(EventDir(root_, e) + "/enable", "0");
  for (absl::string_view e : kSyscallEvents) (void)WriteSysFile(SyscallEventDir(root_, e) + "/enable", "0");
  absl::StatusOr<std::string> text = ReadSysFile(root_ + "/trace");
  cleanup_->Run(undo_);
  if (!text.ok()) return text.status();
  absl::StatusOr<std::vector<DelaySample>> d = ParseDelayTrace(*text, send_dev, recv_dev);
  if (!d.ok()) return d.status();
  if (holds != nullptr && syscalls_) {
    absl::StatusOr<std::vector<CallHold>> h = ParseCallHolds(*text, tid, fd, send_dev, recv_dev);
    if (!h.ok()) return h.status();
    *holds = SummarizeHolds(*h);
  }
  return SummarizeDelays(*d);
}

}  // namespace sendsim::kernelcmp
