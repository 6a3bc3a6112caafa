#include "packetdrill/syscall_args.h"

#include <map>

#include "absl/strings/str_format.h"
#include "model/constants.h"

namespace sendsim::packetdrill {

std::optional<int64_t> Constant(const std::string& w) {
  static const std::map<std::string, int64_t> kConstants = {
      {"O_RDONLY", kORdonly}, {"O_WRONLY", kOWronly}, {"O_RDWR", kORdwr}, {"O_NONBLOCK", kONonblock},
      {"O_CREAT", kOCreat}, {"O_TRUNC", kOTrunc}, {"O_CLOEXEC", kOCloexec},
      {"F_GETFL", kFGetfl}, {"F_SETFL", kFSetfl},
      {"POLLIN", kPollIn}, {"POLLPRI", kPollPri}, {"POLLOUT", kPollOut}, {"POLLERR", kPollErr},
      {"POLLHUP", kPollHup}, {"POLLNVAL", kPollNval}, {"POLLRDNORM", kPollRdnorm}, {"POLLRDBAND", kPollRdband},
      {"POLLWRNORM", kPollWrnorm}, {"POLLWRBAND", kPollWrband}, {"POLLRDHUP", kPollRdhup},
      {"SHUT_RD", 0}, {"SHUT_WR", 1}, {"SHUT_RDWR", 2},
      {"SIOCINQ", kSiocinq}, {"FIONREAD", kSiocinq}, {"SIOCOUTQ", kSiocoutq}, {"TIOCOUTQ", kSiocoutq},
      {"SIOCOUTQNSD", kSiocoutqnsd},
      {"MSG_DONTWAIT", model::kMsgDontwait}, {"MSG_EOR", model::kMsgEor}, {"MSG_NOSIGNAL", model::kMsgNosignal},
      {"MSG_MORE", model::kMsgMore}, {"MSG_ZEROCOPY", model::kMsgZerocopy},
      {"IP_PMTUDISC_DONT", 0}, {"IP_PMTUDISC_WANT", 1}, {"IP_PMTUDISC_DO", 2}, {"IP_PMTUDISC_PROBE", 3},
      {"IP_PMTUDISC_INTERFACE", 4}, {"IP_PMTUDISC_OMIT", 5},
      {"SOF_TIMESTAMPING_TX_HARDWARE", 1 << 0}, {"SOF_TIMESTAMPING_TX_SOFTWARE", 1 << 1},
      {"SOF_TIMESTAMPING_RX_HARDWARE", 1 << 2}, {"SOF_TIMESTAMPING_RX_SOFTWARE", 1 << 3},
      {"SOF_TIMESTAMPING_SOFTWARE", 1 << 4}, {"SOF_TIMESTAMPING_SYS_HARDWARE", 1 << 5},
      {"SOF_TIMESTAMPING_RAW_HARDWARE", 1 << 6}, {"SOF_TIMESTAMPING_OPT_ID", 1 << 7},
      {"SOF_TIMESTAMPING_TX_SCHED", 1 << 8}, {"SOF_TIMESTAMPING_TX_ACK", 1 << 9},
      {"SOF_TIMESTAMPING_OPT_CMSG", 1 << 10}, {"SOF_TIMESTAMPING_OPT_TSONLY", 1 << 11},
      {"SOF_TIMESTAMPING_OPT_STATS", 1 << 12}, {"SOF_TIMESTAMPING_OPT_PKTINFO", 1 << 13},
      {"SOF_TIMESTAMPING_OPT_TX_SWHW", 1 << 14}, {"SOF_TIMESTAMPING_BIND_PHC", 1 << 15},
      {"SOF_TIMESTAMPING_OPT_ID_TCP", 1 << 16}, {"SOF_TIMESTAMPING_OPT_RX_FILTER", 1 << 17},
      {"EPOLLIN", kPollIn}, {"EPOLLPRI", kPollPri}, {"EPOLLOUT", kPollOut}, {"EPOLLERR", kPollErr},
      {"EPOLLHUP", kPollHup}, {"EPOLLRDNORM", kPollRdnorm}, {"EPOLLRDBAND", kPollRdband},
      {"EPOLLWRNORM", kPollWrnorm}, {"EPOLLWRBAND", kPollWrband}, {"EPOLLRDHUP", kPollRdhup},
      {"EPOLLEXCLUSIVE", kEpollExclusive}, {"EPOLLWAKEUP", kEpollWakeup}, {"EPOLLONESHOT", kEpollOneshot},
      {"EPOLLET", kEpollEt}, {"EPOLL_CTL_ADD", kEpollCtlAdd}, {"EPOLL_CTL_DEL", kEpollCtlDel},
      {"EPOLL_CTL_MOD", kEpollCtlMod}, {"EPOLL_CLOEXEC", kOCloexec},
      {"MSG_ERRQUEUE", kMsgErrqueue}, {"MSG_OOB", 0x1}, {"MSG_PEEK", 0x2}, {"MSG_WAITALL", 0x100}, {"MSG_TRUNC", 0x20}, {"MSG_FASTOPEN", 0x20000000},
  };
  auto it = kConstants.find(w);
  if (it == kConstants.end()) return std::nullopt;
  return it->second;
}

std::optional<int64_t> IntValue(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kInt: return e.num;
    case Expr::Kind::kWord: return Constant(e.text);
    case Expr::Kind::kOr: {
      int64_t v = 0;
      for (const Expr& c : e.children) {
        std::optional<int64_t> x = IntValue(c);
        if (!x) return std::nullopt;
        v |= *x;
      }
      return v;
    }
    case Expr::Kind::kArray:
      if (e.children.size() == 1) return IntValue(e.children[0]);
      return std::nullopt;
    default: return std::nullopt;
  }
}

const Expr* StructField(const Expr& s, const std::string& name) {
  for (const Expr& c : s.children) {
    if (c.kind == Expr::Kind::kField && c.text == name) return &c.children.back();
  }
  return nullptr;
}

std::optional<LingerValue> LingerArg(const Expr& e) {
  if (e.kind != Expr::Kind::kStruct || e.children.size() != 2) return std::nullopt;
  const Expr* on = StructField(e, "onoff");
  const Expr* secs = StructField(e, "linger");
  std::optional<int64_t> a = on ? IntValue(*on) : std::nullopt;
  std::optional<int64_t> b = secs ? IntValue(*secs) : std::nullopt;
  if (!a || !b || *a < INT32_MIN || *a > INT32_MAX || *b < INT32_MIN || *b > INT32_MAX) return std::nullopt;
  return LingerValue{static_cast<int>(*a), static_cast<int>(*b)};
}

std::string ErrnoName(int e) {
  switch (e) {
    case 1: return "EPERM";
    case 2: return "ENOENT";
    case 9: return "EBADF";
    case 11: return "EAGAIN";
    case 14: return "EFAULT";
    case 17: return "EEXIST";
    case 22: return "EINVAL";
    case 32: return "EPIPE";
    case 88: return "ENOTSOCK";
    case 90: return "EMSGSIZE";
    case 92: return "ENOPROTOOPT";
    case 95: return "EOPNOTSUPP";
    case 103: return "ECONNABORTED";
    case 104: return "ECONNRESET";
    case 107: return "ENOTCONN";
    case 110: return "ETIMEDOUT";
    case 111: return "ECONNREFUSED";
    case 115: return "EINPROGRESS";
    default: return absl::StrFormat("errno %d", e);
  }
}

bool IsNull(const Expr& e) { return e.kind == Expr::Kind::kWord && e.text == "NULL"; }

std::optional<EpollEventArg> EpollEventValue(const Expr& e) {
  if (e.kind != Expr::Kind::kStruct) return std::nullopt;
  const Expr* ev = StructField(e, "events");
  std::optional<int64_t> events = ev ? IntValue(*ev) : std::nullopt;
  if (!events) return std::nullopt;
  EpollEventArg out{*events, 0};
  int data_fields = 0;
  for (const char* name : {"fd", "u32", "u64", "ptr"}) {
    const Expr* d = StructField(e, name);
    if (d == nullptr) continue;
    std::optional<int64_t> v = IntValue(*d);
    if (!v) return std::nullopt;
    out.data = static_cast<uint64_t>(*v);
    ++data_fields;
  }
  if (data_fields > 1) return std::nullopt;
  return out;
}

}  // namespace sendsim::packetdrill
