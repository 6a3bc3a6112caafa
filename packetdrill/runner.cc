// The runner proper: packetdrill's run.c. It walks the script's events in
// order, turns each one's time into the model clock (relative times,
// ranges, "*", the tolerance) and hands the event to its part: inbound
// packets to inject.cc, outbound packets to match.cc, system calls to the
// syscall driver, %{ }% blocks to code.cc; commands it applies itself. The
// verdict is PASS unless a part FAILs or SKIPs (see runner.h).

#include "packetdrill/runner.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "model/types.h"
#include "packetdrill/code.h"
#include "packetdrill/config.h"
#include "packetdrill/icmp.h"
#include "packetdrill/inject.h"
#include "packetdrill/match.h"
#include "packetdrill/parser.h"
#include "packetdrill/run_state.h"
#include "packetdrill/socket_config.h"
#include "packetdrill/syscalls.h"

namespace sendsim::packetdrill {
namespace {

using model::TimeNs;

constexpr TimeNs kAnyTimeHorizonNs = 3600 * model::kNsPerSec;  // "*" waits at most this long
constexpr uint32_t kDefaultDeviceMtu = 1500;  // tun0's MTU (handshake.cc's default pmtu)

class ScriptRun {
 public:
  ScriptRun(const Script& s, const model::Profile& p, const EndpointFactory& f, const MatchRules& r)
      : run_(s, p, f, r), syscalls_(run_) {}

  Result Run() {
    absl::Status st = RunAll();
    if (st.ok() && run_.failure) st = *run_.failure;
    Result r;
    if (!st.ok()) {
      r.verdict = st.code() == absl::StatusCode::kUnimplemented ? Verdict::kSkip : Verdict::kFail;
      r.reason = std::string(st.message());
    }
    // --record: no outbound line consumed a capture, so all are still here.
    if (run_.rules.record) {
      for (const Capture& c : run_.out) r.sent.push_back(CaptureLine(c));
    }
    return r;
  }

 private:
  // Options such as addresses and ports do not change the model.
  absl::Status ApplyOptions() {
    if (absl::Status st = ApplyMatchOptions(run_.script, &run_.rules); !st.ok()) {
      return absl::FailedPreconditionError(st.message());
    }
    for (const ScriptOption& o : run_.script.options) {
      if (o.name == "ip_version") {
        // ipv4-mapped-ipv6 keeps IPv4 on the wire.
        run_.settings.ipv6 = o.value && *o.value == "ipv6";
      }
    }
    return absl::OkStatus();
  }

  absl::Status RunAll() {
    if (absl::Status st = ApplyOptions(); !st.ok()) return st;
    const Script& s = run_.script;
    if (s.init_command) {
      if (absl::Status st = ApplyCommand(*s.init_command, &run_.settings); !st.ok()) return run_.At(s.init_line, st);
    }
    for (const Event& e : s.events) {
      if (absl::Status st = Step(e); !st.ok()) return st;
      if (run_.failure) return *run_.failure;
      if (run_.sock.rcv.sack_shrinks_mss) {
        return run_.Skip(e.line, "a full-sized segment while our SACK blocks shrink the MSS (tcp_current_mss) is not modelled");
      }
      // tcp_mtu_probing=1 enables probing only when tcp_write_timeout's
      // black-hole detection fires (retransmits_timed_out with
      // tcp_retries1 = 3), which then clamps the MSS to tcp_base_mss.
      // (Conservative: retransmits >= 3 stands for the time-based test.)
      if (run_.settings.tcp_mtu_probing != 0 && run_.sock.ep && run_.sock.ep->socket().info().retransmits >= 3) {
        return run_.Skip(e.line, "tcp_mtu_probing after repeated RTOs: black-hole MTU probing is not modelled");
      }
    }
    if (const std::optional<Pending>& p = run_.pending; p && !p->done) {
      return run_.Fail(p->line, absl::StrFormat("blocking %s() had not returned by the end of the script (expected at %s)",
                                                p->name, p->expected_end));
    }
    if (s.cleanup_command) {
      if (absl::Status st = ApplyCommand(*s.cleanup_command, &run_.settings); !st.ok()) {
        return run_.At(s.cleanup_line, st);
      }
    }
    return absl::OkStatus();
  }

  TimeNs Resolve(const TimeSpec& t, TimeNs rel_base) const {
    switch (t.kind) {
      case TimeKind::kAbsolute: return t.usecs * model::kNsPerUs;
      case TimeKind::kRelative: return rel_base + t.usecs * model::kNsPerUs;
      case TimeKind::kAny: return run_.loop.now();
    }
    return rel_base;
  }

  absl::Status Step(const Event& e) {
    const PacketEvent* pkt = std::get_if<PacketEvent>(&e.body);
    const bool inbound = pkt != nullptr && pkt->inbound;
    const TimeNs base = inbound && prev_inbound_ ? prev_script_ : prev_done_;
    const TimeNs t = Resolve(e.timing.start, base);
    const TimeNs tol = run_.Tolerance(t - base);
    const bool any_time = e.timing.start.kind == TimeKind::kAny;
    // Outbound packets may be expected in the past: they were captured then.
    if (!any_time && t < run_.loop.now() - tol && !(pkt != nullptr && !pkt->inbound)) {
      return run_.Fail(e.line, absl::StrFormat("event time %s is before the current time %s", TimeText(t),
                                               TimeText(run_.loop.now())));
    }
    if (pkt != nullptr) return StepPacket(e, *pkt, t, tol, base);
    return StepAt(e, t, tol);
  }

  absl::Status StepPacket(const Event& e, const PacketEvent& p, TimeNs t, TimeNs tol, TimeNs base) {
    if (!p.unsupported.empty()) return run_.Skip(e.line, p.unsupported);
    const bool any_time = e.timing.start.kind == TimeKind::kAny;
    // Every ICMP line goes to InjectIcmp, which skips the forms it does not
    // run (outbound ICMP among them).
    const bool inbound = p.inbound || p.icmp.has_value();
    if (inbound) {
      run_.AdvanceTo(std::max(t, run_.loop.now()));
      if (run_.failure) return *run_.failure;
      if (absl::Status st = p.icmp ? InjectIcmp(run_, e, p) : InjectPacket(run_, e, p); !st.ok()) return st;
      // A blocking call the packet released (accept, connect, read) returns now.
      run_.AdvanceTo(run_.loop.now());
      if (run_.failure) return *run_.failure;
      prev_done_ = run_.loop.now();
    } else if (run_.rules.record) {
      // --record: the line is not checked; later times count from its own.
      prev_done_ = any_time ? run_.loop.now() : t;
    } else {
      const TimeNs now = run_.loop.now();
      const TimeNs lo = any_time ? now : t - tol;
      TimeNs hi = any_time ? now + kAnyTimeHorizonNs : t + tol;
      if (e.timing.range_end) hi = Resolve(*e.timing.range_end, base) + tol;
      TimeNs last = 0;
      if (absl::Status st = MatchOutbound(run_, e, p, t, lo, hi, &last); !st.ok()) return st;
      prev_done_ = last;
    }
    prev_script_ = any_time ? prev_done_ : t;
    prev_inbound_ = inbound;
    return absl::OkStatus();
  }

  // A system call, command or code block at `t`.
  absl::Status StepAt(const Event& e, TimeNs t, TimeNs tol) {
    run_.AdvanceTo(std::max(t, run_.loop.now()));
    if (run_.failure) return *run_.failure;
    prev_script_ = t;
    prev_inbound_ = false;
    prev_done_ = run_.loop.now();
    if (const auto* sc = std::get_if<SyscallEvent>(&e.body)) {
      TimeNs done = run_.loop.now();
      if (absl::Status st = syscalls_.Syscall(e, *sc, tol, &done); !st.ok()) return st;
      prev_done_ = done;
      return absl::OkStatus();
    }
    if (const auto* cmd = std::get_if<CommandEvent>(&e.body)) return MidScriptCommand(e.line, cmd->command);
    if (const auto* code = std::get_if<CodeEvent>(&e.body)) return RunCode(run_, e.line, code->code);
    return absl::OkStatus();
  }

  // A command after the connection exists. Linux reads the send-path sysctls
  // on every use, so they reach the live socket; the handshake sysctls
  // (timestamps, SACK, window scaling, tcp_rmem, tcp_wmem[1], the default
  // congestion control) only shape later connections, so changing them has
  // no effect here. `ip route change|replace` of the connection's route
  // reaches the socket's cached dst (model::TcpSock::RouteChange); offload
  // and qdisc changes, other route changes, and MTU probing (decided by
  // tcp_mtup_init at connect time) are not modelled mid-connection.
  absl::Status MidScriptCommand(int line, const std::string& cmd) {
    const Settings before = run_.settings;
    if (absl::Status st = ApplyCommand(cmd, &run_.settings); !st.ok()) return run_.At(line, st);
    if (!run_.sock.ep) return absl::OkStatus();
    const Settings& a = before;
    const Settings& b = run_.settings;
    if (a.qdisc != b.qdisc || a.tso != b.tso || a.gso != b.gso) {
      return run_.Skip(line, "changing offloads or the qdisc after the connection is set up is not modelled");
    }
    if (absl::Status st = MidScriptRouteChange(line, a, b); !st.ok()) return st;
    // tcp_mtu_probing: the connection's icsk_mtup.enabled was fixed by
    // tcp_mtup_init; a later value only matters to black-hole detection after
    // repeated RTOs, which RunAll turns into a skip.
    if (absl::Status st = UnmodelledSysctls(b); !st.ok()) return run_.At(line, st);
    run_.sock.ep->UpdateSysctls(SocketConfigFor(b, run_.sock.neg, run_.sock.listen_opts));
    return absl::OkStatus();
  }

  // A route command after the connection exists. A change or replace that
  // alters the route's metrics gives it a new fib_info, whose old one's
  // cached dst (the socket's) dies; one that alters nothing leaves the route
  // as it was (fib_table_insert finds the same fib_info). Adding a route
  // leaves the old dst alive but expired, a device MTU change alters the
  // live dst, and a route's initcwnd is read again at idle restart: those,
  // locked MTUs and IPv6's routes (fib6) are not modelled.
  absl::Status MidScriptRouteChange(int line, const Settings& a, const Settings& b) {
    if (a.route_adds != b.route_adds) {
      return run_.Skip(line, "adding a route after the connection is set up is not modelled");
    }
    if (a.route_advmss == b.route_advmss && a.route_mtu == b.route_mtu && a.route_mtu_metric == b.route_mtu_metric &&
        a.route_initcwnd == b.route_initcwnd && a.route_mtu_lock == b.route_mtu_lock && a.link_mtu == b.link_mtu) {
      return absl::OkStatus();
    }
    if (a.link_mtu != b.link_mtu || a.route_initcwnd != b.route_initcwnd || a.route_mtu_lock || b.route_mtu_lock) {
      return run_.Skip(line, "changing a device MTU, a route's initcwnd or a locked MTU mid-connection is not modelled");
    }
    if (b.ipv6) return run_.Skip(line, "a route change over IPv6 after the connection is set up is not modelled");
    if (!run_.profile.dead_dst_on_blackhole) {
      return run_.Skip(line, "a route change before v5.3 (a dead dst moved to the loopback device) is not modelled");
    }
    run_.sock.ep->RouteChange(b.route_mtu.value_or(kDefaultDeviceMtu), b.route_mtu_metric);
    return absl::OkStatus();
  }

  RunState run_;
  SyscallDriver syscalls_;
  // When the previous event completed, when the script said it would, and
  // whether it was an inbound packet: the bases of relative times.
  TimeNs prev_done_ = 0;
  TimeNs prev_script_ = 0;
  bool prev_inbound_ = false;
};

}  // namespace

Result RunParsedScript(const Script& script, const model::Profile& profile, const EndpointFactory& factory,
                       const MatchRules& rules) {
  return ScriptRun(script, profile, factory, rules).Run();
}

Result RunScript(const std::string& path, const model::Profile& profile, const EndpointFactory& factory,
                 const MatchRules& rules) {
  absl::StatusOr<Script> s = ParseScriptFile(path);
  if (!s.ok()) return {Verdict::kFail, std::string(s.status().message())};
  return RunParsedScript(*s, profile, factory, rules);
}

}  // namespace sendsim::packetdrill
