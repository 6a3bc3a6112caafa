#include "packetdrill/config.h"

#include <cctype>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::packetdrill {
namespace {

// Debian's Abseil has its own string_view type; these helpers keep this file
// on std::string_view.
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool ConsumePrefix(std::string_view* s, std::string_view prefix) {
  if (s->substr(0, prefix.size()) != prefix) return false;
  s->remove_prefix(prefix.size());
  return true;
}
std::string_view Strip(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}
std::vector<std::string_view> SplitSpace(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t b = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

// Splits one shell command into words, honouring '...' and "..." quoting.
// Returns false on an unterminated quote.
bool ShellWords(std::string_view cmd, std::vector<std::string>* out) {
  std::string cur;
  bool have = false;
  char quote = 0;
  for (char c : cmd) {
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else {
        cur += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (have) out->push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (quote) return false;
  if (have) out->push_back(cur);
  return true;
}

// Splits a command text into simple commands at newlines, ';' and '&&'
// (outside quotes). Shell comments are dropped.
std::vector<std::string> SimpleCommands(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  bool comment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (comment) {
      if (c == '\n') comment = false;
      else continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      cur += c;
      continue;
    }
    if (c == '#' && (cur.empty() || std::isspace(static_cast<unsigned char>(cur.back())))) {
      comment = true;
      continue;
    }
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;  // line continuation
      cur += ' ';
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    bool split = c == '\n' || c == ';' || (c == '&' && i + 1 < text.size() && text[i + 1] == '&');
    if (split) {
      if (c == '&') ++i;
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  std::vector<std::string> trimmed;
  for (std::string& s : out) {
    std::string_view v = Strip(s);
    if (!v.empty()) trimmed.emplace_back(v);
  }
  return trimmed;
}

absl::Status Unsupported(std::string_view what) {
  std::string w(what.substr(0, 120));
  for (char& c : w) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return absl::UnimplementedError(absl::StrFormat("unsupported command: %s", w));
}

// A sysctl number as the kernel's proc_dointvec reads it: decimal, or hex
// with 0x (upstream scripts write tcp_fastopen=0x202).
bool ParseU32(std::string_view v, uint32_t* out) {
  uint64_t x;
  if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
    if (v.size() > 10) return false;
    x = 0;
    for (char c : v.substr(2)) {
      const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                    : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                : -1;
      if (d < 0) return false;
      x = x * 16 + static_cast<uint64_t>(d);
    }
  } else if (!absl::SimpleAtoi(absl::string_view(v.data(), v.size()), &x)) {
    return false;
  }
  if (x > UINT32_MAX) return false;
  *out = static_cast<uint32_t>(x);
  return true;
}

// Sets one net.ipv4 sysctl by its short name (e.g. "tcp_wmem"). 80 lines:
// one line per sysctl the runner knows, kept in one list so that a reader
// finds every supported name in one place.
absl::Status SetSysctl(std::string_view name, std::string_view value, Settings* s) {
  value = Strip(value);
  auto bad = [&]() {
    return absl::InvalidArgumentError(absl::StrFormat("bad value '%s' for sysctl %s", value, name));
  };
  // The sysctls here are ints (proc_dointvec and its min/max forms), but
  // tcp_notsent_lowat (proc_douintvec): above INT_MAX the write is EINVAL
  // and the sysctl command fails.
  const uint32_t max = name == "tcp_notsent_lowat" ? UINT32_MAX : INT32_MAX;
  auto bad_int = [&](std::string_view v) {
    return absl::InvalidArgumentError(
        absl::StrFormat("sysctl %s=%s: Invalid argument (not an integer in [0, %u])", name, v, max));
  };
  auto triple = [&](uint32_t* dst) -> absl::Status {
    std::vector<std::string_view> parts = SplitSpace(value);
    if (parts.size() != 3) return bad();
    uint32_t v[3];
    for (int i = 0; i < 3; ++i) {
      if (!ParseU32(parts[i], &v[i]) || v[i] > max) return bad_int(parts[i]);
    }
    for (int i = 0; i < 3; ++i) dst[i] = v[i];
    return absl::OkStatus();
  };
  auto integer = [&](auto* dst) -> absl::Status {
    uint32_t v;
    if (!ParseU32(value, &v) || v > max) return bad_int(value);
    *dst = static_cast<std::remove_pointer_t<decltype(dst)>>(v);
    return absl::OkStatus();
  };
  if (name == "tcp_timestamps") return integer(&s->tcp_timestamps);
  if (name == "tcp_sack") return integer(&s->tcp_sack);
  if (name == "tcp_window_scaling") return integer(&s->tcp_window_scaling);
  if (name == "tcp_wmem") return triple(s->tcp_wmem);
  if (name == "tcp_rmem") return triple(s->tcp_rmem);
  if (name == "tcp_min_tso_segs") return integer(&s->tcp_min_tso_segs);
  if (name == "tcp_tso_win_divisor") return integer(&s->tcp_tso_win_divisor);
  if (name == "tcp_notsent_lowat") return integer(&s->tcp_notsent_lowat);
  if (name == "tcp_slow_start_after_idle") return integer(&s->tcp_slow_start_after_idle);
  if (name == "tcp_autocorking") return integer(&s->tcp_autocorking);
  if (name == "tcp_mtu_probing") return integer(&s->tcp_mtu_probing);
  if (name == "tcp_base_mss") return integer(&s->tcp_base_mss);
  if (name == "tcp_probe_threshold") return integer(&s->tcp_probe_threshold);
  if (name == "tcp_probe_interval") return integer(&s->ignored_int);  // the reprobe timer is not modelled
  if (name == "tcp_pacing_ss_ratio") return integer(&s->tcp_pacing_ss_ratio);
  if (name == "tcp_pacing_ca_ratio") return integer(&s->tcp_pacing_ca_ratio);
  if (name == "tcp_invalid_ratelimit") return integer(&s->tcp_invalid_ratelimit);
  if (name == "tcp_frto") return integer(&s->tcp_frto);
  if (name == "tcp_syn_retries") {
    // proc_dointvec_minmax: 1 .. MAX_TCP_SYNCNT (127).
    uint32_t v;
    if (!ParseU32(value, &v) || v < 1 || v > 127) {
      return absl::InvalidArgumentError(
          absl::StrFormat("sysctl %s=%s: Invalid argument (not an integer in [1, 127])", name, value));
    }
    s->tcp_syn_retries = v;
    return absl::OkStatus();
  }
  if (name == "tcp_syn_linear_timeouts") return integer(&s->tcp_syn_linear_timeouts);
  if (name == "tcp_synack_retries") return integer(&s->tcp_synack_retries);
  // keepalive.cc; read at each use. tcp_keepalive_time and _intvl are
  // seconds stored in jiffies (proc_dointvec_jiffies), _probes a u8.
  if (name == "tcp_keepalive_time") return integer(&s->tcp_keepalive_time);
  if (name == "tcp_keepalive_intvl") return integer(&s->tcp_keepalive_intvl);
  if (name == "tcp_keepalive_probes") return integer(&s->tcp_keepalive_probes);
  // Receiver-side or connection-setup knobs that cannot change what this
  // runner models (one connection per run, no syncookies or metrics cache).
  if (name == "tcp_dsack") return integer(&s->tcp_dsack);
  if (name == "tcp_syncookies" || name == "tcp_moderate_rcvbuf" || name == "tcp_no_metrics_save") {
    return integer(&s->ignored_int);
  }
  // tcp_fastopen: 0 or 1 (the default: clients may use cookies) change
  // nothing without MSG_FASTOPEN; server-side or cookie-less Fast Open is
  // not modelled.
  if (name == "tcp_fastopen") {
    uint32_t v;
    if (!ParseU32(value, &v)) return bad();
    if (v > 1) {
      return absl::UnimplementedError(
          absl::StrFormat("sysctl net.ipv4.tcp_fastopen=%s is not modelled (TCP Fast Open)", value));
    }
    return absl::OkStatus();
  }
  // tcp_ecn 0 off, 1 ask and accept, 2 accept only; 3 and up: Accurate ECN.
  if (name == "tcp_ecn") {
    uint32_t v;
    if (!ParseU32(value, &v)) return bad();
    if (v > 2) return absl::UnimplementedError(absl::StrFormat("sysctl net.ipv4.tcp_ecn=%s is not modelled (Accurate ECN)", value));
    return (s->tcp_ecn = static_cast<int>(v), absl::OkStatus());
  }
  if (name == "tcp_congestion_control") {
    if (value != "cubic" && value != "reno") {
      return absl::UnimplementedError(absl::StrFormat("congestion control '%s' is not modelled", value));
    }
    s->tcp_congestion_control = std::string(value);
    return absl::OkStatus();
  }
  return absl::UnimplementedError(absl::StrFormat("sysctl net.ipv4.%s is not modelled", name));
}

// "net.ipv4.tcp_x=V" or "/proc/sys/net/ipv4/tcp_x=V".
absl::Status SetSysctlAssignment(std::string_view assignment, Settings* s) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrFormat("expected name=value, got '%s'", assignment));
  }
  std::string_view key = assignment.substr(0, eq);
  std::string_view value = assignment.substr(eq + 1);
  std::string norm(key);
  if (ConsumePrefix(&key, "/proc/sys/")) {
    norm = std::string(key);
    for (char& c : norm) {
      if (c == '/') c = '.';
    }
  }
  std::string_view k = norm;
  if (k == "net.core.rmem_max") {
    if (!ParseU32(Strip(value), &s->rmem_max)) {
      return absl::InvalidArgumentError(absl::StrFormat("bad value '%s' for sysctl %s", value, k));
    }
    return absl::OkStatus();
  }
  if (k == "net.core.wmem_max") {
    if (!ParseU32(Strip(value), &s->wmem_max)) {
      return absl::InvalidArgumentError(absl::StrFormat("bad value '%s' for sysctl %s", value, k));
    }
    return absl::OkStatus();
  }
  if (!ConsumePrefix(&k, "net.ipv4.")) {
    return absl::UnimplementedError(absl::StrFormat("sysctl %s is not modelled", norm));
  }
  return SetSysctl(k, value, s);
}

absl::Status ApplySysctl(const std::vector<std::string>& w, Settings* s) {
  bool any = false;
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] == "-q" || w[i] == "-w" || w[i] == "-qw" || w[i] == "-wq") continue;
    if (!w[i].empty() && w[i][0] == '-') return Unsupported(absl::StrJoin(w, " "));
    if (absl::Status st = SetSysctlAssignment(w[i], s); !st.ok()) return st;
    any = true;
  }
  if (!any) return Unsupported(absl::StrJoin(w, " "));  // a read, not a setting
  return absl::OkStatus();
}

absl::Status ApplyEthtool(const std::vector<std::string>& w, Settings* s) {
  // ethtool -K <dev> feature on|off ...
  if (w.size() < 5 || (w[1] != "-K" && w[1] != "--features" && w[1] != "--offload") || (w.size() - 3) % 2 != 0) {
    return Unsupported(absl::StrJoin(w, " "));
  }
  for (size_t i = 3; i + 1 < w.size(); i += 2) {
    bool on;
    if (w[i + 1] == "on") on = true;
    else if (w[i + 1] == "off") on = false;
    else return absl::InvalidArgumentError(absl::StrFormat("ethtool: expected on/off after %s", w[i]));
    if (w[i] == "tso") s->tso = on;
    else if (w[i] == "gso") s->gso = on;
    else if (w[i] == "gro" || w[i] == "lro" || w[i] == "rx" || w[i] == "tx-checksumming" || w[i] == "tx") continue;
    else return Unsupported(absl::StrFormat("ethtool feature %s", w[i]));
  }
  return absl::OkStatus();
}

// ip link set [dev] X mtu N  (other link changes: unsupported)
absl::Status ApplyIpLink(const std::vector<std::string>& w, Settings* s) {
  if (w.size() < 5 || w[2] != "set") return Unsupported(absl::StrJoin(w, " "));
  bool mtu = false;
  for (size_t i = 3; i < w.size(); ++i) {
    if (w[i] == "dev") {
      ++i;
    } else if (w[i] == "mtu") {
      uint32_t v;
      if (i + 1 >= w.size() || !ParseU32(w[i + 1], &v) || v < 68) {
        return absl::InvalidArgumentError("ip link: expected an MTU after mtu");
      }
      if (!s->route_mtu_lock) s->route_mtu = v;
      s->link_mtu = v;
      mtu = true;
      ++i;
    } else if (i != 3) {
      return Unsupported(absl::StrJoin(w, " "));
    }
  }
  return mtu ? absl::OkStatus() : Unsupported(absl::StrJoin(w, " "));
}

absl::Status ApplyIpRoute(const std::vector<std::string>& w, Settings* s) {
  // ip route change|replace|add <dst> [via X] [dev X] ... advmss N mtu [lock] N initcwnd N
  if (w.size() < 3 || w[1] != "route" || (w[2] != "change" && w[2] != "replace" && w[2] != "add")) {
    return Unsupported(absl::StrJoin(w, " "));
  }
  auto number = [&](size_t i, std::string_view what, uint32_t* out) -> absl::Status {
    if (i >= w.size() || !ParseU32(w[i], out)) {
      return absl::InvalidArgumentError(absl::StrFormat("ip route: expected a number after %s", what));
    }
    return absl::OkStatus();
  };
  if (w[2] == "add") {
    ++s->route_adds;
  } else {
    // change/replace: the new route has only the metrics named here; its
    // MTU is the device's unless it names one.
    s->route_advmss.reset();
    s->route_mtu = s->link_mtu;
    s->route_mtu_metric = false;
    s->route_mtu_lock = false;
    s->route_initcwnd.reset();
  }
  for (size_t i = 3; i < w.size(); ++i) {
    const std::string& k = w[i];
    uint32_t v = 0;
    if (k == "advmss") {
      if (absl::Status st = number(++i, k, &v); !st.ok()) return st;
      s->route_advmss = v;
    } else if (k == "mtu") {
      bool lock = i + 1 < w.size() && w[i + 1] == "lock";
      if (lock) ++i;
      if (absl::Status st = number(++i, k, &v); !st.ok()) return st;
      s->route_mtu = v;
      s->route_mtu_metric = true;
      s->route_mtu_lock = lock;
    } else if (k == "initcwnd") {
      if (absl::Status st = number(++i, k, &v); !st.ok()) return st;
      s->route_initcwnd = v;
    } else if (k == "via" || k == "dev" || k == "src" || k == "proto" || k == "scope" || k == "table" ||
               k == "metric") {
      ++i;  // addressing, irrelevant to the model
    } else if (k == "lock" || k == "window" || k == "rtt" || k == "rttvar" || k == "ssthresh" || k == "cwnd" ||
               k == "initrwnd" || k == "quickack" || k == "congctl" || k == "rto_min" || k == "features" ||
               k == "reordering" || k == "hoplimit" || k == "fastopen_no_cookie") {
      return Unsupported(absl::StrFormat("route metric %s", k));
    }
    // Anything else is the destination prefix or a shell variable.
  }
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> DdSize(std::string_view v) {
  uint64_t mult = 1;
  if (!v.empty()) {
    switch (v.back()) {
      case 'K': case 'k': mult = 1024; break;
      case 'M': mult = 1024 * 1024; break;
      case 'G': mult = 1024ull * 1024 * 1024; break;
      default: break;
    }
    if (mult != 1) v.remove_suffix(1);
  }
  uint64_t n;
  if (!absl::SimpleAtoi(absl::string_view(v.data(), v.size()), &n) || n > (1ull << 34)) {
    return absl::InvalidArgumentError(absl::StrFormat("dd: bad size '%s'", v));
  }
  return n * mult;
}

absl::Status ApplyDd(const std::vector<std::string>& w, Settings* s) {
  std::string in, of;
  uint64_t bs = 512, count = 0;
  bool have_count = false;
  for (size_t i = 1; i < w.size(); ++i) {
    std::string_view a = w[i];
    if (a.rfind("2>", 0) == 0 || a == ">" || a == "/dev/null") continue;  // redirections
    size_t eq = a.find('=');
    if (eq == std::string_view::npos) return Unsupported(absl::StrJoin(w, " "));
    std::string_view k = a.substr(0, eq), v = a.substr(eq + 1);
    if (k == "if") {
      in = std::string(v);
    } else if (k == "of") {
      of = std::string(v);
    } else if (k == "bs") {
      absl::StatusOr<uint64_t> n = DdSize(v);
      if (!n.ok()) return n.status();
      bs = *n;
    } else if (k == "count") {
      absl::StatusOr<uint64_t> n = DdSize(v);
      if (!n.ok()) return n.status();
      count = *n;
      have_count = true;
    } else if (k != "status" && k != "conv" && k != "iflag" && k != "oflag") {
      return Unsupported(absl::StrJoin(w, " "));
    }
  }
  if (in != "/dev/zero" || of.empty() || !have_count) return Unsupported(absl::StrJoin(w, " "));
  if (bs * count > (1ull << 34)) return absl::InvalidArgumentError("dd: file too large");
  s->files[of] = bs * count;
  return absl::OkStatus();
}

// The program of a command given by path, for the programs modelled here.
std::string_view ProgramName(std::string_view w0) {
  static constexpr std::string_view kKnown[] = {"rm", "dd", "sysctl", "ethtool", "ip", "true", "echo", "truncate"};
  const size_t slash = w0.rfind('/');
  if (slash == std::string_view::npos || w0 == "/" || EndsWith(w0, "/")) return w0;
  std::string_view base = w0.substr(slash + 1);
  for (std::string_view k : kKnown) {
    if (base == k) return base;
  }
  return w0;
}

// rm: the files this model knows are the ones scripts create (dd, truncate,
// open with O_CREAT), so removing one drops it; `-f` on any other plain path
// removes nothing (a missing file is not an error with -f). Recursive
// removal of anything the script did not create is refused.
absl::Status ApplyRm(const std::vector<std::string>& w, const std::string& cmd, Settings* s) {
  bool force = false, recursive = false;
  std::vector<std::string> paths;
  for (size_t i = 1; i < w.size(); ++i) {
    const std::string& a = w[i];
    if (a.size() > 1 && a[0] == '-') {
      for (char c : a.substr(1)) {
        if (c == 'f') force = true;
        else if (c == 'r' || c == 'R') recursive = true;
        else return Unsupported(cmd);
      }
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) return Unsupported(cmd);
  for (const std::string& p : paths) {
    if (s->files.erase(p) != 0) continue;
    if (!force || recursive || p.empty() || p[0] != '/' || EndsWith(p, "/") || p.find('*') != std::string::npos) {
      return Unsupported(cmd);
    }
  }
  return absl::OkStatus();
}

// truncate -s N PATH: a zero-filled file of N bytes, as dd makes.
absl::Status ApplyTruncate(const std::vector<std::string>& w, const std::string& cmd, Settings* s) {
  if (w.size() != 4 || w[1] != "-s") return Unsupported(cmd);
  absl::StatusOr<uint64_t> n = DdSize(w[2]);
  if (!n.ok()) return n.status();
  s->files[w[3]] = *n;
  return absl::OkStatus();
}

// Copies sysctl `key` (net.ipv4.NAME or net.core.NAME) from `from` to `to`;
// false for a name without a field here.
bool CopySysctl(std::string_view key, const Settings& from, Settings* to) {
  struct IntField {
    std::string_view name;
    int Settings::*field;
  };
  struct U32Field {
    std::string_view name;
    uint32_t Settings::*field;
  };
  static constexpr IntField kInts[] = {
      {"net.ipv4.tcp_timestamps", &Settings::tcp_timestamps},
      {"net.ipv4.tcp_sack", &Settings::tcp_sack},
      {"net.ipv4.tcp_window_scaling", &Settings::tcp_window_scaling},
      {"net.ipv4.tcp_slow_start_after_idle", &Settings::tcp_slow_start_after_idle},
      {"net.ipv4.tcp_autocorking", &Settings::tcp_autocorking},
      {"net.ipv4.tcp_mtu_probing", &Settings::tcp_mtu_probing},
      {"net.ipv4.tcp_ecn", &Settings::tcp_ecn},
  };
  static constexpr U32Field kU32s[] = {
      {"net.ipv4.tcp_min_tso_segs", &Settings::tcp_min_tso_segs},
      {"net.ipv4.tcp_tso_win_divisor", &Settings::tcp_tso_win_divisor},
      {"net.ipv4.tcp_notsent_lowat", &Settings::tcp_notsent_lowat},
      {"net.ipv4.tcp_base_mss", &Settings::tcp_base_mss},
      {"net.ipv4.tcp_probe_threshold", &Settings::tcp_probe_threshold},
      {"net.ipv4.tcp_pacing_ss_ratio", &Settings::tcp_pacing_ss_ratio},
      {"net.ipv4.tcp_pacing_ca_ratio", &Settings::tcp_pacing_ca_ratio},
      {"net.ipv4.tcp_invalid_ratelimit", &Settings::tcp_invalid_ratelimit},
      {"net.ipv4.tcp_frto", &Settings::tcp_frto},
      {"net.ipv4.tcp_syn_retries", &Settings::tcp_syn_retries},
      {"net.ipv4.tcp_syn_linear_timeouts", &Settings::tcp_syn_linear_timeouts},
      {"net.ipv4.tcp_synack_retries", &Settings::tcp_synack_retries},
      {"net.ipv4.tcp_keepalive_time", &Settings::tcp_keepalive_time},
      {"net.ipv4.tcp_keepalive_intvl", &Settings::tcp_keepalive_intvl},
      {"net.ipv4.tcp_keepalive_probes", &Settings::tcp_keepalive_probes},
      {"net.core.rmem_max", &Settings::rmem_max},
      {"net.core.wmem_max", &Settings::wmem_max},
  };
  for (const IntField& f : kInts) {
    if (f.name == key) return (to->*f.field = from.*f.field, true);
  }
  for (const U32Field& f : kU32s) {
    if (f.name == key) return (to->*f.field = from.*f.field, true);
  }
  if (key == "net.ipv4.tcp_wmem" || key == "net.ipv4.tcp_rmem") {
    const bool w = key == "net.ipv4.tcp_wmem";
    for (int i = 0; i < 3; ++i) (w ? to->tcp_wmem : to->tcp_rmem)[i] = (w ? from.tcp_wmem : from.tcp_rmem)[i];
    return true;
  }
  if (key == "net.ipv4.tcp_congestion_control") {
    to->tcp_congestion_control = from.tcp_congestion_control;
    return true;
  }
  return false;  // accepted without effect (tcp_syncookies, ...): nothing to put back
}

// ../common/set_sysctls.py PATH=VALUE...: each value set, the old ones kept
// for the restore script it writes.
absl::Status ApplySetSysctls(const std::vector<std::string>& w, const std::string& cmd, Settings* s) {
  if (w.size() < 2) return Unsupported(cmd);
  auto before = std::make_shared<Settings>(*s);
  before->before_set_sysctls.reset();  // one level of restore, as the script file
  std::vector<std::string> names;
  for (size_t i = 1; i < w.size(); ++i) {
    const std::string& a = w[i];
    std::string_view path = std::string_view(a).substr(0, a.find('='));
    if (!ConsumePrefix(&path, "/proc/sys/")) {
      return absl::InvalidArgumentError(absl::StrFormat("set_sysctls.py: expected /proc/sys/NAME=VALUE, got '%s'", a));
    }
    std::string name(path);
    for (char& c : name) {
      if (c == '/') c = '.';
    }
    if (absl::Status st = SetSysctlAssignment(a, s); !st.ok()) return st;
    names.push_back(name);
  }
  s->before_set_sysctls = std::move(before);
  s->set_sysctls_names = std::move(names);
  return absl::OkStatus();
}

// /tmp/sysctl_restore_${PPID}.sh: the values before the latest
// set_sysctls.py call. Without one the script file does not exist and the
// command fails, as upstream's shell would.
absl::Status RestoreSetSysctls(Settings* s) {
  if (!s->before_set_sysctls) {
    return absl::FailedPreconditionError(
        "/tmp/sysctl_restore_${PPID}.sh does not exist: no ../common/set_sysctls.py ran before it");
  }
  const std::shared_ptr<const Settings> before = s->before_set_sysctls;
  for (const std::string& n : s->set_sysctls_names) CopySysctl(n, *before, s);
  return absl::OkStatus();
}

absl::Status ApplySimple(const std::string& cmd, Settings* s) {
  std::vector<std::string> w;
  if (!ShellWords(cmd, &w)) return absl::InvalidArgumentError(absl::StrFormat("unterminated quote in '%s'", cmd));
  // Trailing output redirections do not change what the command does.
  while (w.size() > 1 && (w.back() == "/dev/null" || w.back() == ">/dev/null" || w.back() == "2>/dev/null" ||
                          w.back() == "2>&1" || w.back() == ">" || w.back() == "2>")) {
    w.pop_back();
  }
  if (w.empty()) return absl::OkStatus();
  // Scripts name programs by path as often as by name (`/bin/rm -f ...`).
  std::string_view prog = ProgramName(w[0]);
  if (prog == "true" || prog == ":" || prog == "echo") return absl::OkStatus();
  if (IsDefaultsSh(prog)) {
    if (w.size() != 1) return Unsupported(cmd);
    ApplyDefaultsSh(s);
    return absl::OkStatus();
  }
  if (prog == "sysctl") return ApplySysctl(w, s);
  if (IsSetSysctlsPy(prog)) return ApplySetSysctls(w, cmd, s);
  if (IsSysctlRestore(prog)) {
    if (w.size() != 1) return Unsupported(cmd);
    return RestoreSetSysctls(s);
  }
  if (prog == "ethtool") return ApplyEthtool(w, s);
  if (prog == "ip" && w.size() > 1 && w[1] == "link") return ApplyIpLink(w, s);
  if (prog == "ip") return ApplyIpRoute(w, s);
  if (prog == "dd") return ApplyDd(w, s);
  if (prog == "rm" && w.size() >= 2) return ApplyRm(w, cmd, s);
  if (prog == "truncate") return ApplyTruncate(w, cmd, s);
  return Unsupported(cmd);
}

}  // namespace

std::vector<std::string> SplitCommands(std::string_view text) { return SimpleCommands(text); }

bool SplitShellWords(std::string_view cmd, std::vector<std::string>* out) { return ShellWords(cmd, out); }

const std::vector<std::pair<std::string, std::string>>& DefaultsShSysctls() {
  // The handshake and send-path sysctls our scripts depend on. Buffer sizes
  // are the ones upstream's scripts are written against (a 540000-byte
  // tcp_rmem[1] gives their SYN-ACK windows, a 262144-byte tcp_wmem[1] their
  // initial send buffer); idle restart is off so pauses in a script do not
  // shrink cwnd; the rest are Linux's own defaults (tcp_min_tso_segs 2,
  // tcp_tso_win_divisor 3, tcp_notsent_lowat unlimited, pacing at 200 % in
  // slow start and 120 % after, autocorking on, MTU probing off from a base
  // MSS of 1024), and cubic. net.core.rmem_max and wmem_max are host-wide
  // (read-only in a network namespace): left alone.
  static const auto* kList = new std::vector<std::pair<std::string, std::string>>{
      {"net.ipv4.tcp_timestamps", "1"},
      {"net.ipv4.tcp_sack", "1"},
      {"net.ipv4.tcp_window_scaling", "1"},
      {"net.ipv4.tcp_wmem", "4096 262144 4194304"},
      {"net.ipv4.tcp_rmem", "4096 540000 15728640"},
      {"net.ipv4.tcp_slow_start_after_idle", "0"},
      {"net.ipv4.tcp_min_tso_segs", "2"},
      {"net.ipv4.tcp_tso_win_divisor", "3"},
      {"net.ipv4.tcp_notsent_lowat", "4294967295"},
      {"net.ipv4.tcp_pacing_ss_ratio", "200"},
      {"net.ipv4.tcp_pacing_ca_ratio", "120"},
      {"net.ipv4.tcp_autocorking", "1"},
      {"net.ipv4.tcp_mtu_probing", "0"},
      {"net.ipv4.tcp_base_mss", "1024"},
      {"net.ipv4.tcp_frto", "2"},
      {"net.ipv4.tcp_congestion_control", "cubic"},
  };
  return *kList;
}

void ApplyDefaultsSh(Settings* s) {
  for (const auto& [name, value] : DefaultsShSysctls()) {
    // Every name and value in the list is one SetSysctlAssignment accepts.
    (void)SetSysctlAssignment(name + "=" + value, s);
  }
  s->qdisc = "pfifo";
}

bool IsDefaultsSh(std::string_view word) { return word == "defaults.sh" || EndsWith(word, "/defaults.sh"); }

bool IsSetSysctlsPy(std::string_view word) { return word == "set_sysctls.py" || EndsWith(word, "/set_sysctls.py"); }

bool IsSysctlRestore(std::string_view word) {
  return word.substr(0, 20) == "/tmp/sysctl_restore_" && EndsWith(word, ".sh") && word.size() > 23;
}

absl::Status ApplyCommand(std::string_view command, Settings* s) {
  for (const std::string& c : SimpleCommands(command)) {
    if (absl::Status st = ApplySimple(c, s); !st.ok()) return st;
  }
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
