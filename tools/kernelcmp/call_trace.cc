#include "tools/kernelcmp/call_trace.h"

#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "tools/kernelcmp/ftrace_text.h"

namespace sendsim::kernelcmp {
namespace {

// The traced calls and the argument that names their socket.
struct Traced {
  absl::string_view name;
  absl::string_view fd_arg;
};
constexpr Traced kCalls[] = {
    {"sys_sendto", "fd"},       {"sys_sendmsg", "fd"},     {"sys_sendfile64", "out_fd"},
    {"sys_splice", "fd_out"},   {"sys_setsockopt", "fd"},
};

// ftrace prints syscall arguments in hex ("0x5") or, for file descriptors
// on newer kernels, in decimal ("5").
bool ParseArg(absl::string_view v, int64_t* out) {
  if (v.size() > 2 && v[0] == '0' && v[1] == 'x') return absl::SimpleHexAtoi(v.substr(2), out);
  return absl::SimpleAtoi(v, out);
}

// The value of "name: value" in a syscall's argument list "(a: 1, b: 2)".
std::optional<int64_t> Arg(absl::string_view args, absl::string_view name) {
  for (absl::string_view kv : absl::StrSplit(args, ", ")) {
    if (!absl::StartsWith(kv, name) || !absl::StartsWith(kv.substr(name.size()), ": ")) continue;
    int64_t v = 0;
    if (ParseArg(kv.substr(name.size() + 2), &v)) return v;
    return std::nullopt;
  }
  return std::nullopt;
}

// "<task>-<pid> [cpu] flags SECONDS.MICROS: rest": pid, time, rest. The
// task name may itself contain '-'.
bool SplitLine(absl::string_view line, int64_t* pid, int64_t* t, absl::string_view* rest) {
  const size_t bracket = line.find(" [");
  if (bracket == absl::string_view::npos) return false;
  absl::string_view head = line.substr(0, bracket);
  while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
  const size_t dash = head.rfind('-');
  if (dash == absl::string_view::npos || !absl::SimpleAtoi(head.substr(dash + 1), pid)) return false;
  const size_t colon = line.find(": ", bracket);
  if (colon == absl::string_view::npos) return false;
  const size_t ts = line.rfind(' ', colon);
  if (ts == absl::string_view::npos || !ParseTraceTimestamp(line.substr(ts + 1, colon - ts - 1), t)) return false;
  *rest = line.substr(colon + 2);
  return true;
}

}  // namespace

absl::StatusOr<std::vector<CallHold>> ParseCallHolds(absl::string_view trace, int64_t tid, int fd,
                                                     absl::string_view send_dev, absl::string_view recv_dev) {
  std::vector<CallHold> holds;
  bool open = false;
  int64_t open_at = 0;
  CallHold cur;
  const std::string xmit = absl::StrCat("net_dev_start_xmit: dev=", send_dev, " ");
  const std::string recv = absl::StrCat("netif_receive_skb: dev=", recv_dev, " ");
  for (absl::string_view line : absl::StrSplit(trace, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const Traced* call = nullptr;
    bool enter = false;
    for (const Traced& c : kCalls) {
      const size_t at = line.find(absl::StrCat(": ", c.name));
      if (at == absl::string_view::npos) continue;
      const absl::string_view after = line.substr(at + 2 + c.name.size());
      if (absl::StartsWith(after, "(")) {
        call = &c;
        enter = true;
      } else if (absl::StartsWith(after, " -> ")) {
        call = &c;
      }
      if (call != nullptr) break;
    }
    const bool is_xmit = call == nullptr && line.find(xmit) != absl::string_view::npos;
    const bool is_recv = call == nullptr && !is_xmit && line.find(recv) != absl::string_view::npos;
    if (call == nullptr && !is_xmit && !is_recv) continue;
    int64_t pid = 0, t = 0;
    absl::string_view rest;
    if (!SplitLine(line, &pid, &t, &rest)) {
      return absl::InvalidArgumentError(absl::StrFormat("malformed trace line: %s", line));
    }
    if (pid != tid) continue;
    if (call != nullptr && enter) {
      const size_t lp = rest.find('(');
      const size_t rp = rest.rfind(')');
      if (lp == absl::string_view::npos || rp == absl::string_view::npos || rp < lp) {
        return absl::InvalidArgumentError(absl::StrFormat("malformed syscall line: %s", line));
      }
      const std::optional<int64_t> f = Arg(rest.substr(lp + 1, rp - lp - 1), call->fd_arg);
      if (!f.has_value()) {
        return absl::InvalidArgumentError(absl::StrFormat("syscall line without %s: %s", call->fd_arg, line));
      }
      open = *f == fd;
      open_at = t;
      cur = CallHold{};
    } else if (call != nullptr) {
      if (open) holds.push_back(CallHold{t - open_at, cur.segments, cur.received});
      open = false;
    } else if (open) {
      if (is_xmit) ++cur.segments;
      if (is_recv) ++cur.received;
    }
  }
  return holds;
}

HoldSummary SummarizeHolds(const std::vector<CallHold>& holds) {
  HoldSummary s;
  long double sum = 0;
  for (const CallHold& h : holds) {
    ++s.calls;
    sum += h.ns;
    if (h.received > 0) {
      ++s.calls_with_receive;
    } else {
      s.fit.Add(h.segments, h.ns);
    }
  }
  if (s.calls > 0) s.mean_ns = static_cast<double>(sum / s.calls);
  return s;
}

}  // namespace sendsim::kernelcmp
