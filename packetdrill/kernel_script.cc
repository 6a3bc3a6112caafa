// The event walk of the kernel target: times and tolerance as runner.cc,
// packets through the tun device, matching as match.cc.

#include "packetdrill/kernel_script.h"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <variant>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "packetdrill/asserts.h"
#include "packetdrill/config.h"
#include "packetdrill/icmp_names.h"

namespace sendsim::packetdrill {
namespace {

constexpr int64_t kNsPerUs = 1000;
constexpr int64_t kAnyTimeHorizonNs = 3600LL * 1000000000;

std::string TimeStr(int64_t t) { return absl::StrFormat("%.6f", static_cast<double>(t) / 1e9); }

// A sysctl's value as written back (the kernel separates a vector's
// numbers with tabs).
std::string ReadSysctl(const std::string& path) {
  std::ifstream in(path);
  std::string cur;
  std::getline(in, cur);
  std::replace(cur.begin(), cur.end(), '\t', ' ');
  return cur;
}

bool WriteSysctl(const std::string& path, const std::string& value) {
  std::ofstream f(path);
  return static_cast<bool>(f << value << "\n") && static_cast<bool>(f.flush());
}

// The arguments of rm, dd or truncate name only files under /tmp/ (no
// recursion, globs or parent directories).
bool TmpFilesOnly(const std::vector<std::string>& w) {
  for (size_t i = 1; i < w.size(); ++i) {
    std::string a = w[i];
    if (a.rfind("of=", 0) == 0) a = a.substr(3);
    if (a == "if=/dev/zero" || a == "-f" || a == "-s" || a.rfind("bs=", 0) == 0 || a.rfind("count=", 0) == 0 ||
        a.rfind("status=", 0) == 0 ||
        a.rfind("2>", 0) == 0 || (!a.empty() && std::isdigit(static_cast<unsigned char>(a[0])))) {
      continue;
    }
    if (a.rfind("/tmp/", 0) != 0 || a.size() <= 5 || a.find("..") != std::string::npos ||
        a.find_first_of("*?[ $`;|&<>") != std::string::npos) {
      return false;
    }
  }
  return true;
}

}  // namespace

KernelScript::~KernelScript() {
  // Blocked calls end with the child process; finished ones are joined.
  for (auto& c : finished_) {
    if (c->th.joinable()) c->th.join();
  }
  if (pending_ && pending_->th.joinable()) pending_->th.detach();
  // The commands' working directory (mkdtemp's, so ours alone).
  if (!tmpdir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(tmpdir_, ec);
  }
}

absl::Status KernelScript::Fail(int line, const std::string& msg) const {
  return absl::FailedPreconditionError(absl::StrFormat("%s:%d: %s", script_.path, line, msg));
}

absl::Status KernelScript::Skip(int line, const std::string& msg) const {
  return absl::UnimplementedError(absl::StrFormat("%s:%d: %s", script_.path, line, msg));
}

int64_t KernelScript::Tolerance(int64_t gap) const { return ToleranceNs(rules_, gap); }

void KernelScript::SleepUntil(int64_t t) const {
  for (int64_t now = Now(); now < t; now = Now()) {
    const int64_t d = t - now;
    timespec ts{static_cast<time_t>(d / 1000000000), static_cast<long>(d % 1000000000)};
    nanosleep(&ts, nullptr);
  }
}

absl::Status KernelScript::Run() {
  if (absl::Status st = ApplyMatchOptions(script_, &rules_); !st.ok()) {
    return absl::FailedPreconditionError(st.message());
  }
  for (const ScriptOption& o : script_.options) {
    if (o.name == "ip_version" && o.value && *o.value == "ipv6") return Skip(o.line, "IPv6 on the kernel target");
  }
  char tmpl[] = "/tmp/sendsim-pdk.XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return absl::InternalError("mkdtemp failed");
  tmpdir_ = tmpl;
  if (script_.init_command) {
    if (absl::Status st = Command(script_.init_line, *script_.init_command); !st.ok()) return st;
  }
  origin_ = tun_->Now();
  for (const Event& e : script_.events) {
    if (absl::Status st = FinishPending(false); !st.ok()) return st;
    if (absl::Status st = Step(e); !st.ok()) return st;
  }
  if (absl::Status st = FinishPending(true); !st.ok()) return st;
  if (script_.cleanup_command) return Command(script_.cleanup_line, *script_.cleanup_command);
  return absl::OkStatus();
}

absl::Status KernelScript::Step(const Event& e) {
  const PacketEvent* pkt = std::get_if<PacketEvent>(&e.body);
  const bool inbound = pkt != nullptr && pkt->inbound;
  const int64_t base = inbound && prev_inbound_ ? prev_script_ : prev_done_;
  const bool any = e.timing.start.kind == TimeKind::kAny;
  int64_t t = e.timing.start.usecs * kNsPerUs;
  if (e.timing.start.kind == TimeKind::kRelative) t += base;
  if (any) t = Now();
  const int64_t tol = Tolerance(t - base);
  if (opts_.rules.record) {
    DrainSent(Now());
    // --record: an outbound line is not checked; later times count from its own.
    if (pkt != nullptr && !pkt->inbound && !pkt->icmp) {
      prev_done_ = prev_script_ = t;
      prev_inbound_ = false;
      return absl::OkStatus();
    }
  }
  if (pkt != nullptr && !pkt->unsupported.empty()) return Skip(e.line, pkt->unsupported);
  if (pkt != nullptr && pkt->icmp) {
    if (absl::Status st = IcmpUnmodelled(*pkt); !st.ok()) return Skip(e.line, std::string(st.message()));
  }
  if (pkt != nullptr && !pkt->inbound) {
    const int64_t lo = any ? Now() : t - tol;
    int64_t hi = any ? Now() + kAnyTimeHorizonNs : t + tol;
    if (e.timing.range_end) {
      hi = e.timing.range_end->usecs * kNsPerUs + tol;
      if (e.timing.range_end->kind == TimeKind::kRelative) hi += base;
    }
    int64_t last = 0;
    if (absl::Status st = Outbound(e, *pkt, t, lo, hi, &last); !st.ok()) return st;
    prev_done_ = last;
    prev_script_ = any ? last : t;
    prev_inbound_ = false;
    return absl::OkStatus();
  }
  // An event due while a command or an assert block was still running runs
  // when it returns, unflagged: upstream runs commands in its one thread and
  // its assert blocks after the script, so the next relative time counts
  // from the command's start (route_change_ack.pkt's RTT depends on that)
  // yet a `+0` after a 3 ms `ip route` is not late (measured up to 3.2 ms).
  // An assert block only reads tcp_info (upstream evaluates them after the
  // script), so it is never late itself.
  const bool code = std::holds_alternative<CodeEvent>(e.body);
  if (!any && !code && t < Now() - tol && t >= busy_until_) {
    return Fail(e.line, absl::StrFormat("event time %s is before the current time %s", TimeStr(t), TimeStr(Now())));
  }
  SleepUntil(t);
  if (opts_.rules.record) DrainSent(Now());
  prev_script_ = t;
  prev_inbound_ = inbound;
  prev_done_ = Now();
  if (inbound) return pkt->icmp ? InboundIcmp(e, *pkt) : Inbound(e, *pkt);
  if (const auto* sc = std::get_if<SyscallEvent>(&e.body)) return Syscall(e, *sc, t, tol, &prev_done_);
  absl::Status st;
  if (const auto* cmd = std::get_if<CommandEvent>(&e.body)) st = Command(e.line, cmd->command);
  if (const auto* code = std::get_if<CodeEvent>(&e.body)) st = Code(e.line, code->code);
  busy_until_ = Now();
  return st;
}

// The peer's packet, numbered as packetdrill does: its SYN's sequence number
// is the peer's ISN (the origin of later script numbers), acks count from
// the kernel's ISN, a TS ecr echoes the kernel's latest TS val.
absl::Status KernelScript::Inbound(const Event& e, const PacketEvent& p) {
  if (p.flags & kFlagUrg) return Skip(e.line, "urgent data on the kernel target");
  const std::optional<uint8_t> ecn = InboundEcn(p.ecn);
  if (!ecn) return Skip(e.line, absl::StrFormat("ECN marking [%s] on an inbound packet is not modelled", p.ecn));
  const bool syn = p.flags & kFlagSyn;
  if (p.len > 65000) return Skip(e.line, "an inbound packet larger than an IPv4 datagram");
  if ((p.flags & kFlagAck) && !k_isn_) return Fail(e.line, "inbound ACK before the kernel sent its SYN or SYN-ACK");
  WireTcp w;
  w.sport = active_ ? kKernelPort : kRemotePassivePort;
  w.dport = active_ ? k_port_ : kKernelPort;
  // The first SYN (or SYN-ACK) is the origin of the peer's numbers and its
  // repeats are retransmissions; a SYN with another number comes later in
  // the same numbering (a new SYN to a timewait socket).
  if (syn && !peer_syn_seq_) peer_syn_seq_ = p.seq_start;
  w.seq = syn && p.seq_start == *peer_syn_seq_ ? kRemoteIsn : kRemoteIsn + p.seq_start;
  w.ack = (p.flags & kFlagAck) && p.ack ? *k_isn_ + *p.ack : 0;
  w.flags = p.flags;
  w.ecn = *ecn;
  w.win = static_cast<uint16_t>(p.win.value_or(65535));
  w.len = p.len;
  w.options = p.options;
  for (TcpOption& o : w.options) {
    if (o.kind == TcpOption::Kind::kTimestamp && o.ts_ecr != 0) o.ts_ecr = last_k_tsval_;
    if (o.kind == TcpOption::Kind::kSack) {
      for (auto& [a, b] : o.sack) {
        a += *k_isn_;
        b += *k_isn_;
      }
    }
    if (o.kind == TcpOption::Kind::kUnsupported) return Skip(e.line, "TCP option " + o.text + " on the kernel target");
  }
  if (absl::Status st = tun_->Write(w); !st.ok()) return Fail(e.line, std::string(st.message()));
  prev_done_ = Now();
  return absl::OkStatus();
}

// An ICMP error about one of our segments: its sequence number is the
// script's quoted start from the kernel's ISN, its ports the connection's.
absl::Status KernelScript::InboundIcmp(const Event& e, const PacketEvent& p) {
  const IcmpMessage& m = *p.icmp;
  const std::optional<uint8_t> type = IcmpV4Type(m.type);
  std::optional<uint8_t> code = m.code.empty() ? std::optional<uint8_t>(0) : std::nullopt;
  if (type == kIcmpDestUnreach) code = IcmpV4UnreachCode(m.code);
  if (!type || !code) {
    return Skip(e.line, absl::StrFormat("ICMP %s on the kernel target", IcmpName(m)));
  }
  if (!k_isn_) return Fail(e.line, "inbound ICMP before the kernel sent its SYN or SYN-ACK");
  WireTcp q;
  q.sport = active_ ? k_port_ : kKernelPort;
  q.dport = active_ ? kKernelPort : kRemotePassivePort;
  q.seq = *k_isn_ + m.seq_start;
  q.flags = kFlagAck;
  q.len = m.len;
  if (absl::Status st = tun_->WriteIcmp(*type, *code, m.mtu.value_or(0), q); !st.ok()) {
    return Fail(e.line, std::string(st.message()));
  }
  prev_done_ = Now();
  return absl::OkStatus();
}

// The next segment from tun0 in the script's numbers, waiting until
// `deadline`; the kernel's SYN or SYN-ACK gives its ISN and port.
std::optional<Capture> KernelScript::NextCapture(int64_t deadline) {
  std::optional<WireTcp> w = tun_->Peek(origin_ + deadline);
  if (!w) return std::nullopt;
  if (w->flags & kFlagSyn) {
    k_isn_ = w->seq;
    k_port_ = w->sport;
  }
  Capture c;
  c.t = w->t_ns - origin_;
  c.seq = k_isn_ ? w->seq - *k_isn_ : w->seq;
  c.len = w->len;
  c.flags = w->flags;
  c.ack = (w->flags & kFlagAck) ? w->ack - kRemoteIsn : 0;
  c.win = w->win;
  c.options = w->options;
  // Our SACK blocks (D-SACK of a retransmitted FIN, tcp_dsack_set) name the
  // peer's sequence numbers: script-relative like the ack.
  for (TcpOption& o : c.options) {
    if (o.kind != TcpOption::Kind::kSack) continue;
    for (auto& [a, b] : o.sack) {
      a -= kRemoteIsn;
      b -= kRemoteIsn;
    }
  }
  c.flow = static_cast<uint64_t>(w->sport) << 16 | w->dport;
  c.ecn = w->ecn;
  for (const TcpOption& o : w->options) {
    if (o.kind == TcpOption::Kind::kTimestamp) last_k_tsval_ = o.ts_val;
  }
  return c;
}

void KernelScript::DrainSent(int64_t until) {
  while (std::optional<Capture> c = NextCapture(until)) {
    tun_->Pop();
    sent_.push_back(CaptureLine(*c));
  }
}

std::vector<std::string> KernelScript::TakeSent() {
  // What the last event caused may still be on its way: wait one tolerance.
  if (opts_.rules.record) DrainSent(Now() + opts_.rules.tolerance_usecs * kNsPerUs);
  return std::move(sent_);
}

absl::Status KernelScript::Outbound(const Event& e, const PacketEvent& p, int64_t t, int64_t lo, int64_t hi,
                                    int64_t* last) {
  if (p.flags & kFlagUrg) return Skip(e.line, "urgent data on the kernel target");
  std::optional<Capture> first = NextCapture(hi);
  if (!first) {
    return Fail(e.line, absl::StrFormat("expected outbound %s at %s, but nothing was sent by %s", ExpectedText(p),
                                        TimeStr(t), TimeStr(hi)));
  }
  tun_->Pop();
  std::vector<Capture> group = {*first};
  // Without --strict_segments, later segments join up to the line's length
  // (outbound.h).
  for (uint64_t total = first->len; !rules_.strict_segments && total < p.len;) {
    std::optional<Capture> c = NextCapture(hi);
    if (!c || !JoinsGroup(rules_, group, *c, p.len)) break;
    tun_->Pop();
    total += c->len;
    group.push_back(*c);
  }
  const Capture joined = JoinCaptures(group);
  *last = joined.t;
  if (std::string what = OutboundDifference(p, group, joined); !what.empty()) {
    return Fail(e.line, OutboundMismatch(what, p, group, joined));
  }
  if (joined.t < lo || joined.t > hi) {
    return Fail(e.line, absl::StrFormat("timing: expected %s at %s (window %s..%s), sent at %s", ExpectedText(p),
                                        TimeStr(t), TimeStr(lo), TimeStr(hi), TimeStr(joined.t)));
  }
  return absl::OkStatus();
}

// Commands: what changes only this network namespace or the script's own
// files runs; anything else would reach the host and SKIPs.
absl::Status KernelScript::Command(int line, const std::string& text) {
  for (const std::string& cmd : SplitCommands(text)) {
    std::vector<std::string> w;
    if (!SplitShellWords(cmd, &w)) return Fail(line, "unterminated quote in a command");
    if (w.empty()) continue;
    std::string prog = w[0].substr(w[0].rfind('/') == std::string::npos ? 0 : w[0].rfind('/') + 1);
    if (IsDefaultsSh(w[0])) {
      for (const auto& [name, val] : DefaultsShSysctls()) {
        if (absl::Status st = SetSysctl(line, name, val, nullptr); !st.ok()) return st;
      }
      continue;
    }
    if (IsSetSysctlsPy(w[0])) {
      // Each /proc/sys/NAME=VALUE set, the old values kept for the restore
      // script (which each call writes anew).
      std::vector<std::pair<std::string, std::string>> restore;
      for (size_t i = 1; i < w.size(); ++i) {
        const size_t eq = w[i].find('=');
        if (w[i].rfind("/proc/sys/", 0) != 0 || eq == std::string::npos) {
          return Fail(line, "set_sysctls.py: expected /proc/sys/NAME=VALUE, got " + w[i]);
        }
        std::string name = w[i].substr(10, eq - 10);
        std::replace(name.begin(), name.end(), '/', '.');
        if (absl::Status st = SetSysctl(line, name, w[i].substr(eq + 1), &restore); !st.ok()) return st;
      }
      sysctl_restore_ = std::move(restore);
      continue;
    }
    if (IsSysctlRestore(w[0])) {
      if (!sysctl_restore_) {
        return Fail(line, "/tmp/sysctl_restore_${PPID}.sh does not exist: no ../common/set_sysctls.py ran before it");
      }
      for (const auto& [name, val] : *sysctl_restore_) {
        if (absl::Status st = SetSysctl(line, name, val, nullptr); !st.ok()) return st;
      }
      continue;
    }
    if (prog == "sysctl") {
      for (size_t i = 1; i < w.size(); ++i) {
        if (w[i][0] == '-') continue;
        const size_t eq = w[i].find('=');
        if (eq == std::string::npos) return Skip(line, "sysctl without a value on the kernel target");
        if (absl::Status st = SetSysctl(line, w[i].substr(0, eq), w[i].substr(eq + 1), nullptr); !st.ok()) return st;
      }
      continue;
    }
    // ip and ethtool only see this namespace's lo and tun0; file commands
    // may only touch plain paths under /tmp/.
    const bool netns_only = prog == "ethtool" || prog == "ip" || prog == "true" || prog == "echo";
    if (!netns_only && !((prog == "rm" || prog == "dd" || prog == "truncate") && TmpFilesOnly(w))) {
      return Skip(line, "command not run on the kernel target: " + cmd);
    }
    std::string c = cmd;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"192.168.0.2", kKernelGatewayAddr},
                                   {"192.168.0.1", kKernelLocalAddr}}) {
      for (size_t at = c.find(from); at != std::string::npos; at = c.find(from, at + to.size())) {
        c.replace(at, from.size(), to);
      }
    }
    const std::string sh = absl::StrFormat("cd '%s' && %s >/dev/null 2>&1", tmpdir_, c);
    if (std::system(sh.c_str()) != 0) return Fail(line, "command failed: " + cmd);
  }
  return absl::OkStatus();
}

// Writes sysctl `name` (dotted) in this network namespace, first appending
// its old value to `*old` if given. The congestion control is the script's
// per socket: a namespace other than the host's may not choose one outside
// net.ipv4.tcp_allowed_congestion_control, and cubic is not in it on every
// host. A sysctl that is not per network namespace (absent or read-only
// here, e.g. net.core.wmem_max) would change the host: skipped.
absl::Status KernelScript::SetSysctl(int line, const std::string& name, const std::string& value,
                                     std::vector<std::pair<std::string, std::string>>* old) {
  if (name == "net.ipv4.tcp_congestion_control") {
    if (old != nullptr) old->emplace_back(name, cc_);
    cc_ = value;
    return absl::OkStatus();
  }
  std::string path = "/proc/sys/" + name;
  std::replace(path.begin() + 10, path.end(), '.', '/');
  if (name.find("..") != std::string::npos || name.find('/') != std::string::npos || name.empty()) {
    return Fail(line, "bad sysctl name " + name);
  }
  if (access(path.c_str(), W_OK) != 0) return SetHostSysctl(line, name, path, value, old);
  if (old != nullptr) old->emplace_back(name, ReadSysctl(path));
  if (!WriteSysctl(path, value)) return Fail(line, absl::StrFormat("cannot set %s to %s", name, value));
  return absl::OkStatus();
}

// A sysctl that is not per network namespace (absent or read-only in ours,
// e.g. net.core.wmem_max): written in the host's namespace, which changes
// the whole machine, so its old value goes to the parent process first; the
// parent puts it back when this run ends, however it ends.
absl::Status KernelScript::SetHostSysctl(int line, const std::string& name, const std::string& path,
                                         const std::string& value,
                                         std::vector<std::pair<std::string, std::string>>* old) {
  if (host_netns_ < 0 || own_netns_ < 0 || restore_out_ < 0) {
    return Skip(line, absl::StrFormat("sysctl %s is not per network namespace: not changed on the kernel target",
                                      name));
  }
  if (setns(host_netns_, CLONE_NEWNET) != 0) return Fail(line, "setns to the host's network namespace failed");
  std::string cur;
  bool ok = access(path.c_str(), W_OK) == 0;
  if (ok) {
    cur = ReadSysctl(path);
    const std::string rec = absl::StrFormat("%s\t%s\n", path, cur);
    ok = write(restore_out_, rec.data(), rec.size()) == static_cast<ssize_t>(rec.size()) && WriteSysctl(path, value);
  }
  if (setns(own_netns_, CLONE_NEWNET) != 0) return Fail(line, "setns back to the script's network namespace failed");
  if (!ok) return Fail(line, absl::StrFormat("cannot set %s to %s", name, value));
  if (old != nullptr) old->emplace_back(name, cur);
  return absl::OkStatus();
}

absl::Status KernelScript::Code(int line, const std::string& code) {
  if (conn_fd_ < 0) return Skip(line, "%{ }% before the connection is established");
  std::map<std::string, std::string> absent;
  absl::StatusOr<std::map<std::string, int64_t>> vars = KernelTcpiValues(conn_fd_, &absent);
  if (!vars.ok()) return Fail(line, std::string(vars.status().message()));
  absl::StatusOr<std::optional<std::string>> r = EvalAssertBlock(code, *vars, absent);
  if (!r.ok()) return Skip(line, std::string(r.status().message()));
  if (*r) return Fail(line, **r);
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
