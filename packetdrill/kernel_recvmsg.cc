// recvmsg() and readv() on the kernel target: the script's iovecs and a
// control buffer sized from the messages it expects (recvmsg_args.h); what
// the kernel returns is compared as on the model.

#include <time.h>
#include <linux/errqueue.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <cstring>
#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "packetdrill/kernel_script.h"
#include "packetdrill/recvmsg_args.h"

namespace sendsim::packetdrill {
namespace {

constexpr uint64_t kMaxRead = 64 << 20;

std::pair<int64_t, int> CallResult(int64_t r) { return {r, r < 0 ? errno : 0}; }  // a call's buffer is allocated for real

int64_t RealtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The messages in a returned control buffer that sendsim knows, whole ones
// only (a cut one cannot match a script's). `real_to_script`: what turns a
// CLOCK_REALTIME time (SCM_TIMESTAMPING's software stamp) into a script time.
std::vector<Cmsg> ParseControl(msghdr* m, int64_t real_to_script) {
  std::vector<Cmsg> out;
  for (cmsghdr* c = CMSG_FIRSTHDR(m); c != nullptr; c = CMSG_NXTHDR(m, c)) {
    const size_t len = CmsgDataLen(c->cmsg_level, c->cmsg_type);
    Cmsg x;
    x.level = c->cmsg_level;
    x.type = c->cmsg_type;
    if (len == 0 || c->cmsg_len < CMSG_LEN(len)) {
      x.value = -1;  // unknown to sendsim: shown by level and type
      out.push_back(x);
      continue;
    }
    if (x.level == kSolIp && x.type == kIpRecverr) {
      sock_extended_err ee;
      std::memcpy(&ee, CMSG_DATA(c), sizeof(ee));
      x.recverr = true;
      x.ee = ExtendedErr{ee.ee_errno, ee.ee_origin, ee.ee_type, ee.ee_code, ee.ee_info, ee.ee_data};
    } else if (x.level == kSolSocket && x.type == kScmTimestamping) {
      // struct scm_timestamping: ts[0] is the software stamp (the only one
      // a tun device gives).
      timespec ts[3];
      std::memcpy(ts, CMSG_DATA(c), sizeof(ts));
      x.tstamp = true;
      x.ts_ns = static_cast<int64_t>(ts[0].tv_sec) * 1000000000 + ts[0].tv_nsec + real_to_script;
    } else {
      int v = 0;
      std::memcpy(&v, CMSG_DATA(c), sizeof(v));
      x.value = v;
    }
    out.push_back(x);
  }
  return out;
}

}  // namespace

absl::Status KernelScript::PrepareRecvmsg(int line, const SyscallEvent& sc, int f, Body* body,
                                          std::function<void(int64_t)>* after) {
  absl::StatusOr<RecvmsgArgs> parsed = ParseRecvmsgArgs(sc);
  if (!parsed.ok()) {
    if (absl::IsUnimplemented(parsed.status())) return Skip(line, std::string(parsed.status().message()));
    return Fail(line, std::string(parsed.status().message()));
  }
  if (parsed->total > kMaxRead) return Skip(line, sc.name + "() of more than 64 MiB on the kernel target");
  auto args = std::make_shared<RecvmsgArgs>(*std::move(parsed));
  auto got_flags = std::make_shared<int64_t>(0);
  auto got = std::make_shared<std::vector<Cmsg>>();
  const bool is_readv = sc.name == "readv";
  *body = [this, f, args, got_flags, got, is_readv] {
    std::vector<std::vector<char>> bufs;
    std::vector<iovec> v;
    for (uint64_t l : args->iov_lens) {
      bufs.emplace_back(l, 0);
      v.push_back(iovec{bufs.back().data(), l});
    }
    if (is_readv) return CallResult(readv(f, v.data(), static_cast<int>(v.size())));
    std::vector<uint64_t> control((args->control_len + 7) / 8);  // aligned for cmsghdr
    msghdr m;
    std::memset(&m, 0, sizeof(m));
    m.msg_iov = v.data();
    m.msg_iovlen = v.size();
    m.msg_control = args->control_len > 0 ? control.data() : nullptr;
    m.msg_controllen = args->control_len;
    const ssize_t r = recvmsg(f, &m, static_cast<int>(args->flags));
    const int err = errno;
    if (r >= 0) {
      *got_flags = m.msg_flags;
      *got = ParseControl(&m, Now() - RealtimeNs());
    }
    errno = err;
    return CallResult(r);
  };
  if (is_readv) return absl::OkStatus();
  *after = [this, args, got_flags, got, line](int64_t) {
    const std::string why = CompareRecvmsg(*args, *got_flags, *got, Tolerance(0));
    if (!why.empty()) value_mismatch_ = Fail(line, why);
  };
  return absl::OkStatus();
}

}  // namespace sendsim::packetdrill
