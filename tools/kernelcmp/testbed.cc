#include "tools/kernelcmp/testbed.h"

#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tools/kernelcmp/subprocess.h"
#include "tools/kernelcmp/sysfile.h"

namespace sendsim::kernelcmp {
namespace {

constexpr const char* kBacklogSysctl = "/proc/sys/net/core/netdev_max_backlog";

// Legacy per-feature ethtool commands (still served by dev_ethtool through
// ethtool_set_one_feature), so no ethtool binary is needed.
absl::Status EthtoolValue(int fd, const std::string& dev, uint32_t cmd, uint32_t* data) {
  ethtool_value ev = {};
  ev.cmd = cmd;
  ev.data = *data;
  ifreq ifr = {};
  std::strncpy(ifr.ifr_name, dev.c_str(), IFNAMSIZ - 1);
  ifr.ifr_data = reinterpret_cast<char*>(&ev);
  if (ioctl(fd, SIOCETHTOOL, &ifr) != 0) {
    return absl::InternalError(
        absl::StrFormat("ethtool cmd 0x%x on %s: %s", cmd, dev, strerror(errno)));
  }
  *data = ev.data;
  return absl::OkStatus();
}

std::string CpuMask(int cpu) { return absl::StrFormat("%x", 1u << cpu); }

}  // namespace

absl::Status CheckCanRun(const TestbedOptions& opts) {
  if (geteuid() != 0) {
    return absl::FailedPreconditionError("kernelcmp needs root (network namespaces, sysctls)");
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    return absl::FailedPreconditionError("sched_getaffinity failed");
  }
  if (opts.sender_cpu == opts.receiver_cpu || opts.sender_cpu < 0 || opts.receiver_cpu < 0 ||
      opts.sender_cpu >= 32 || opts.receiver_cpu >= 32 || !CPU_ISSET(opts.sender_cpu, &set) ||
      !CPU_ISSET(opts.receiver_cpu, &set)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "needs two distinct usable CPUs (sender %d, receiver %d)", opts.sender_cpu,
        opts.receiver_cpu));
  }
  if (access("/proc/self/ns/net", R_OK) != 0) {
    return absl::FailedPreconditionError("kernel has no network namespaces (/proc/self/ns/net)");
  }
  absl::StatusOr<CommandResult> ip = RunCommand({"ip", "-V"});
  if (!ip.ok() || ip->exit_code != 0) {
    return absl::FailedPreconditionError("`ip` (iproute2) is not installed");
  }
  absl::StatusOr<CommandResult> td = RunCommand({"tcpdump", "--version"});
  if (!td.ok() || td->exit_code != 0) {
    return absl::FailedPreconditionError("`tcpdump` is not installed");
  }
  if (access("/sys/class/net/lo/queues/rx-0/rps_cpus", R_OK) != 0) {
    return absl::FailedPreconditionError("kernel has no RPS (CONFIG_RPS) to steer receive CPUs");
  }
  absl::StatusOr<std::string> cc = ReadSysFile("/proc/sys/net/ipv4/tcp_available_congestion_control");
  if (!cc.ok() || cc->find("cubic") == std::string::npos) {
    return absl::FailedPreconditionError("cubic congestion control is not available");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Testbed>> Testbed::Create(const TestbedOptions& opts,
                                                         CleanupStack* cleanup) {
  absl::Status can = CheckCanRun(opts);
  if (!can.ok()) return can;
  std::unique_ptr<Testbed> tb(new Testbed(opts, cleanup));
  absl::StatusOr<netdev::HostLock> lock =
      netdev::HostLock::Acquire(netdev::DefaultHostLockPath(), netdev::kHostLockWaitS);
  if (!lock.ok()) return lock.status();
  tb->host_lock_ = std::move(*lock);
  absl::Status s = tb->Build();
  if (!s.ok()) return s;  // ~Testbed undoes the partial setup
  return tb;
}

Testbed::~Testbed() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) cleanup_->Run(*it);
}

absl::Status Testbed::Build() {
  const std::string base = absl::StrFormat("%s-%d", opts_.name_prefix, getpid());
  sender_ns_ = base + "-s";
  receiver_ns_ = base + "-r";
  absl::StatusOr<std::vector<std::string>> existing = ListNetns();
  if (!existing.ok()) return existing.status();
  for (const std::string& n : *existing) {
    if (n == sender_ns_ || n == receiver_ns_) {
      return absl::AlreadyExistsError(absl::StrFormat("namespace %s already exists", n));
    }
  }
  for (const std::string& ns : {sender_ns_, receiver_ns_}) {
    absl::StatusOr<std::string> r = RunChecked({"ip", "netns", "add", ns});
    if (!r.ok()) return r.status();
    // Deleting a namespace also destroys the veth end inside it.
    undo_.push_back(cleanup_->Push("delete netns " + ns, [ns] {
      absl::StatusOr<std::string> d = RunChecked({"ip", "netns", "del", ns});
      if (!d.ok()) std::fprintf(stderr, "kernelcmp: cleanup: %s\n", d.status().ToString().c_str());
    }));
  }
  const std::string mtu = absl::StrCat(opts_.mtu);
  const std::vector<std::vector<std::string>> cmds = {
      {"ip", "-n", sender_ns_, "link", "add", kSenderDev, "mtu", mtu, "type", "veth", "peer",
       "name", kReceiverDev, "mtu", mtu, "netns", receiver_ns_},
      {"ip", "-n", sender_ns_, "addr", "add", absl::StrCat(kSenderIp, "/24"), "dev", kSenderDev},
      {"ip", "-n", receiver_ns_, "addr", "add", absl::StrCat(kReceiverIp, "/24"), "dev",
       kReceiverDev},
      {"ip", "-n", sender_ns_, "link", "set", "lo", "up"},
      {"ip", "-n", receiver_ns_, "link", "set", "lo", "up"},
  };
  for (const auto& c : cmds) {
    absl::StatusOr<std::string> r = RunChecked(c);
    if (!r.ok()) return r.status();
  }
  absl::Status s = SetOffloads(sender_ns_, kSenderDev);
  if (s.ok()) s = SetOffloads(receiver_ns_, kReceiverDev);
  if (!s.ok()) return s;
  for (const auto& [ns, dev] : {std::pair{sender_ns_, kSenderDev}, {receiver_ns_, kReceiverDev}}) {
    absl::StatusOr<std::string> r = RunChecked({"ip", "-n", ns, "link", "set", dev, "up"});
    if (!r.ok()) return r.status();
  }
  return RaiseBacklog();
}

absl::Status Testbed::RunInNetns(const std::string& ns,
                                 const std::function<absl::Status()>& fn) const {
  absl::Status result;
  std::thread t([&] {
    const std::string path = "/var/run/netns/" + ns;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      result = absl::InternalError(absl::StrFormat("open %s: %s", path, strerror(errno)));
      return;
    }
    // Only this thread changes namespace (CLONE_NEWNET is per task).
    int rc = setns(fd, CLONE_NEWNET);
    int err = errno;
    close(fd);
    if (rc != 0) {
      result = absl::InternalError(absl::StrFormat("setns %s: %s", ns, strerror(err)));
      return;
    }
    result = fn();
  });
  t.join();
  return result;
}

absl::Status Testbed::SetOffloads(const std::string& ns, const std::string& dev) {
  const bool tso = opts_.tso;
  return RunInNetns(ns, [&]() -> absl::Status {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return absl::InternalError(absl::StrFormat("socket: %s", strerror(errno)));
    struct Want {
      uint32_t set_cmd, get_cmd, value;
      const char* name;
    };
    // GSO off forces software segmentation before the veth's xmit (taps see
    // MSS segments); GRO off keeps the receiver's ACK decision per segment.
    const Want wants[] = {
        {ETHTOOL_STSO, ETHTOOL_GTSO, tso ? 1u : 0u, "tso"},
        {ETHTOOL_SGSO, ETHTOOL_GGSO, tso ? 1u : 0u, "gso"},
        {ETHTOOL_SGRO, ETHTOOL_GGRO, 0u, "gro"},
    };
    absl::Status st;
    for (const Want& w : wants) {
      uint32_t v = w.value;
      st = EthtoolValue(fd, dev, w.set_cmd, &v);
      if (!st.ok()) break;
      v = 0;
      st = EthtoolValue(fd, dev, w.get_cmd, &v);
      if (!st.ok()) break;
      if ((v != 0) != (w.value != 0)) {
        st = absl::InternalError(
            absl::StrFormat("%s on %s stayed %s", w.name, dev, v ? "on" : "off"));
        break;
      }
    }
    close(fd);
    return st;
  });
}

absl::Status Testbed::RaiseBacklog() {
  absl::StatusOr<std::string> cur = ReadSysFile(kBacklogSysctl);
  if (!cur.ok()) return cur.status();
  uint64_t old_value;
  std::string old_text(absl::StripAsciiWhitespace(*cur));
  if (!absl::SimpleAtoi(old_text, &old_value)) {
    return absl::InternalError(absl::StrFormat("unreadable %s: %s", kBacklogSysctl, old_text));
  }
  if (old_value >= opts_.netdev_max_backlog) return absl::OkStatus();
  absl::Status s = WriteSysFile(kBacklogSysctl, absl::StrCat(opts_.netdev_max_backlog));
  if (!s.ok()) return s;
  undo_.push_back(cleanup_->Push("restore netdev_max_backlog", [old_text] {
    absl::Status w = WriteSysFile(kBacklogSysctl, old_text);
    if (!w.ok()) std::fprintf(stderr, "kernelcmp: cleanup: %s\n", w.ToString().c_str());
  }));
  return absl::OkStatus();
}

absl::Status Testbed::SetPlacement(Placement p) {
  const int cpu = p == Placement::kSenderCpu ? opts_.sender_cpu : opts_.receiver_cpu;
  const std::string mask = CpuMask(cpu);
  for (const auto& [ns, dev] : {std::pair{sender_ns_, kSenderDev}, {receiver_ns_, kReceiverDev}}) {
    const std::string path = absl::StrFormat("/sys/class/net/%s/queues/rx-0/rps_cpus", dev);
    // `ip netns exec` mounts the namespace's own sysfs, where the device lives.
    absl::StatusOr<std::string> w = RunChecked(
        {"ip", "netns", "exec", ns, "sh", "-c", absl::StrFormat("echo %s > %s", mask, path)});
    if (!w.ok()) return w.status();
    absl::StatusOr<std::string> r = RunChecked({"ip", "netns", "exec", ns, "cat", path});
    if (!r.ok()) return r.status();
    std::string got(absl::StripAsciiWhitespace(*r));
    // rps_cpus prints zero-padded comma-separated 32-bit groups; compare the value.
    got.erase(std::remove(got.begin(), got.end(), ','), got.end());
    uint64_t got_v = 0, want_v = 0;
    if (!absl::SimpleHexAtoi(got, &got_v) || !absl::SimpleHexAtoi(mask, &want_v) ||
        got_v != want_v) {
      return absl::InternalError(
          absl::StrFormat("rps_cpus of %s reads \"%s\", wanted %s", dev, got, mask));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ListNetns() {
  absl::StatusOr<std::string> out = RunChecked({"ip", "netns", "list"});
  if (!out.ok()) return out.status();
  std::vector<std::string> names;
  for (absl::string_view line : absl::StrSplit(*out, '\n', absl::SkipEmpty())) {
    absl::string_view first = line.substr(0, line.find(' '));
    if (!first.empty()) names.emplace_back(first);
  }
  return names;
}

}  // namespace sendsim::kernelcmp
