#include "realsock/testbed.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/kernelcmp/subprocess.h"
#include "tools/kernelcmp/sysfile.h"

namespace sendsim::realsock {
namespace {

using kernelcmp::RunChecked;
using kernelcmp::RunCommand;

constexpr const char* kBacklog = "/proc/sys/net/core/netdev_max_backlog";

std::string Us(uint64_t ns) { return absl::StrFormat("%.3fus", static_cast<double>(ns) / 1000.0); }

}  // namespace

absl::Status CheckCanRun(const TestbedOptions& opts) {
  if (geteuid() != 0) return absl::UnavailableError("needs root (network namespaces, veth)");
  if (access("/proc/self/ns/net", R_OK) != 0) {
    return absl::UnavailableError("kernel has no network namespaces (/proc/self/ns/net)");
  }
  absl::StatusOr<kernelcmp::CommandResult> ip = RunCommand({"ip", "-V"});
  if (!ip.ok() || ip->exit_code != 0) return absl::UnavailableError("`ip` (iproute2) is not installed");
  if (opts.shape) {
    absl::StatusOr<kernelcmp::CommandResult> tc = RunCommand({"tc", "-V"});
    if (!tc.ok() || tc->exit_code != 0) return absl::UnavailableError("`tc` (iproute2) is not installed");
    if (access("/proc/sys/net/core/netdev_max_backlog", W_OK) != 0) {
      return absl::UnavailableError("cannot write net.core.netdev_max_backlog");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Testbed>> Testbed::Create(const TestbedOptions& opts,
                                                         kernelcmp::CleanupStack* cleanup) {
  if (absl::Status s = CheckCanRun(opts); !s.ok()) return s;
  std::unique_ptr<Testbed> tb(new Testbed(opts, cleanup));
  absl::StatusOr<netdev::HostLock> lock =
      netdev::HostLock::Acquire(netdev::DefaultHostLockPath(), netdev::kHostLockWaitS);
  if (!lock.ok()) return lock.status();
  tb->host_lock_ = std::move(*lock);
  if (absl::Status s = tb->Build(); !s.ok()) return s;  // ~Testbed undoes the partial setup
  return tb;
}

Testbed::~Testbed() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) cleanup_->Run(*it);
}

absl::Status Testbed::Build() {
  const std::string base = absl::StrFormat("rs-%d", getpid());
  sender_ns_ = base + "-s";
  receiver_ns_ = base + "-r";
  for (const std::string& ns : {sender_ns_, receiver_ns_}) {
    absl::StatusOr<std::string> r = RunChecked({"ip", "netns", "add", ns});
    if (!r.ok()) return r.status();
    // Deleting a namespace destroys the veth end (and its qdisc) inside it.
    undo_.push_back(cleanup_->Push("delete netns " + ns, [ns] {
      absl::StatusOr<std::string> d = RunChecked({"ip", "netns", "del", ns});
      if (!d.ok()) std::fprintf(stderr, "realsock: cleanup: %s\n", d.status().ToString().c_str());
    }));
  }
  const std::string mtu = absl::StrCat(opts_.mtu);
  std::vector<std::vector<std::string>> cmds = {
      {"ip", "-n", sender_ns_, "link", "add", kSenderDev, "mtu", mtu, "type", "veth", "peer", "name", kReceiverDev,
       "mtu", mtu, "netns", receiver_ns_},
      {"ip", "-n", sender_ns_, "addr", "add", absl::StrCat(kSenderIp, "/24"), "dev", kSenderDev},
      {"ip", "-n", receiver_ns_, "addr", "add", absl::StrCat(kReceiverIp, "/24"), "dev", kReceiverDev},
      {"ip", "-n", sender_ns_, "link", "set", "lo", "up"},
      {"ip", "-n", receiver_ns_, "link", "set", "lo", "up"},
      {"ip", "-n", sender_ns_, "link", "set", kSenderDev, "up"},
      {"ip", "-n", receiver_ns_, "link", "set", kReceiverDev, "up"},
  };
  if (opts_.shape) {
    const std::string delay = Us(opts_.one_way_delay_ns);
    cmds.push_back({"tc", "-n", sender_ns_, "qdisc", "add", "dev", kSenderDev, "root", "netem", "delay", delay,
                    "rate", absl::StrCat(opts_.rate_mbps, "mbit"), "limit", "100000"});
    cmds.push_back({"tc", "-n", receiver_ns_, "qdisc", "add", "dev", kReceiverDev, "root", "netem", "delay", delay,
                    "limit", "100000"});
  }
  for (const auto& c : cmds) {
    absl::StatusOr<std::string> r = RunChecked(c);
    if (!r.ok()) return r.status();
  }
  // netdev_max_backlog is not per namespace: raise it, restore it after.
  absl::StatusOr<std::string> old = kernelcmp::ReadSysFile(kBacklog);
  if (!old.ok()) return old.status();
  const std::string was(absl::StripAsciiWhitespace(*old));
  if (absl::Status s = kernelcmp::WriteSysFile(kBacklog, absl::StrCat(opts_.netdev_max_backlog)); !s.ok()) return s;
  undo_.push_back(cleanup_->Push("restore netdev_max_backlog", [was] {
    if (absl::Status s = kernelcmp::WriteSysFile(kBacklog, was); !s.ok()) {
      std::fprintf(stderr, "realsock: cleanup: %s\n", s.ToString().c_str());
    }
  }));
  return absl::OkStatus();
}

absl::Status Testbed::RunInNetns(const std::string& ns, const std::function<absl::Status()>& fn) const {
  absl::Status result;
  std::thread t([&] {
    const std::string path = "/var/run/netns/" + ns;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      result = absl::InternalError(absl::StrFormat("open %s: %s", path, std::strerror(errno)));
      return;
    }
    // Only this thread changes namespace (CLONE_NEWNET is per task).
    const int rc = setns(fd, CLONE_NEWNET);
    const int err = errno;
    close(fd);
    if (rc != 0) {
      result = absl::InternalError(absl::StrFormat("setns %s: %s", ns, std::strerror(err)));
      return;
    }
    result = fn();
  });
  t.join();
  return result;
}

}  // namespace sendsim::realsock
