#include "realsock/live.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "messenger/writer_policy.h"
#include "model/profile.h"
#include "realsock/run.h"
#include "scenario/build.h"

namespace sendsim::realsock {
namespace {

bool Known(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

// ->sendpage (and MSG_SENDPAGE_NOTLAST) left the kernel in 6.5.
bool HasSendpage(int version) { return version < 6005; }

}  // namespace

int KernelVersion(const std::string& release) {
  std::vector<std::string> parts = absl::StrSplit(release, absl::MaxSplits('.', 2));
  if (parts.size() < 2) return 0;
  int major = 0;
  int minor = 0;
  const std::string minor_digits = parts[1].substr(0, parts[1].find_first_not_of("0123456789"));
  if (!absl::SimpleAtoi(parts[0], &major) || !absl::SimpleAtoi(minor_digits, &minor)) return 0;
  return major * 1000 + minor;
}

std::string ProfileForKernel(const std::string& release) {
  const int v = KernelVersion(release);
  const std::string own = absl::StrFormat("linux-%d.%d", v / 1000, v % 1000);
  if (Known(scenario::KnownKernels(), own)) return own;
  // Newest profile not newer than the kernel, on the same side of 6.5.
  std::string best;
  int best_v = 0;
  for (const std::string& k : scenario::KnownKernels()) {
    const int kv = KernelVersion(k.substr(k.find('-') + 1));
    if (kv <= v && kv > best_v && HasSendpage(kv) == HasSendpage(v)) {
      best = k;
      best_v = kv;
    }
  }
  return best.empty() ? "linux-6.18" : best;
}

absl::Status ValidateLive(const LiveOptions& o) {
  for (const std::string& w : o.writers) {
    if (!Known(scenario::KnownWriters(), w)) return absl::InvalidArgumentError(absl::StrFormat("unknown writer '%s'", w));
  }
  if (!Known(scenario::KnownKernels(), o.profile)) {
    return absl::InvalidArgumentError(absl::StrFormat("unknown profile '%s'", o.profile));
  }
  const int v = KernelVersion(o.kernel);
  if (v == 0) return absl::FailedPreconditionError(absl::StrFormat("cannot read the kernel version '%s'", o.kernel));
  absl::StatusOr<model::Profile> p = model::ProfileByName(o.profile);
  if (!p.ok()) return p.status();
  if (p->has_sendpage != HasSendpage(v)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "profile %s %s ->sendpage but kernel %s %s", o.profile, p->has_sendpage ? "has" : "lacks", o.kernel,
        HasSendpage(v) ? "has it" : "does not"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Recording> RunLive(const LiveOptions& o, kernelcmp::CleanupStack* cleanup) {
  absl::StatusOr<std::unique_ptr<Testbed>> tb = Testbed::Create(o.testbed, cleanup);
  if (!tb.ok()) return tb.status();
  const scenario::Scenario s = ComparisonScenario(o.profile, o.messages, o.writers);
  absl::StatusOr<model::Profile> profile = model::ProfileByName(o.profile);
  if (!profile.ok()) return profile.status();
  const model::ConnectionConfig cfg = scenario::BuildConnectionConfig(s);
  Recording rec;
  rec.kernel = o.kernel;
  rec.profile = o.profile;
  rec.messages = o.messages;
  rec.shaped = o.testbed.shape;
  uint16_t port = 6800;
  for (const std::string& w : o.writers) {
    absl::StatusOr<messenger::WriterKind> kind = messenger::ParseWriterKind(w);
    if (!kind.ok()) return kind.status();
    RunSpec spec;
    spec.connection = scenario::BuildConnectionOptions(s, cfg, *kind, *profile);
    spec.messages = scenario::BuildWorkload(s);
    spec.driver = scenario::BuildDriverOptions(s, cfg);
    spec.driver.verify_payload = true;  // every byte, not only the crcs
    spec.mss = s.mss;
    spec.nodelay = s.nodelay;
    spec.port = port++;
    // A kernel running in real time inside user-mode Linux moves ~100 KB/s.
    spec.deadline_ns = std::max<model::TimeNs>(120, 3 * static_cast<model::TimeNs>(o.messages)) * model::kNsPerSec;
    std::fprintf(stderr, "realsock: %s on %s ...\n", w.c_str(), o.kernel.c_str());
    absl::StatusOr<RunOutcome> r = RunWriter(**tb, spec);
    if (!r.ok()) return absl::Status(r.status().code(), absl::StrFormat("%s: %s", w, r.status().message()));
    Figures k;
    k.writer = w;
    k.messages = r->messages;
    k.packets = r->figures.packets;
    k.sub_mss = r->figures.sub_mss_packets;
    k.retransmitted = r->figures.retransmitted_packets;
    k.sizes = r->figures.sizes;
    k.notlast_buffers = r->socket.notlast_buffers;
    k.spliced_buffers = r->socket.spliced_buffers;
    k.eagains = r->socket.eagains;
    rec.kernel_runs.push_back(k);
    absl::StatusOr<Figures> m = ModelFigures(s, w);
    if (!m.ok()) return absl::Status(m.status().code(), absl::StrFormat("model, %s: %s", w, m.status().message()));
    rec.model_runs.push_back(*m);
  }
  return rec;
}

}  // namespace sendsim::realsock
