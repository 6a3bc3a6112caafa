#include "packetdrill/recvmsg_args.h"

#include <cstdlib>
#include <map>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

constexpr int64_t kUioMaxIov = 1024;

// Names only control messages use, then the common constants.
// CMSG_LEVEL_IP / CMSG_TYPE_RECVERR are upstream packetdrill's names for
// the address family's error queue message (IPv4 here: SOL_IP/IP_RECVERR).
std::optional<int64_t> CmsgConstant(const Expr& x) {
  static const std::map<std::string, int64_t> kNames = {
      {"SOL_IP", kSolIp}, {"IPPROTO_IP", kSolIp}, {"CMSG_LEVEL_IP", kSolIp},
      {"IP_RECVERR", kIpRecverr}, {"CMSG_TYPE_RECVERR", kIpRecverr},
      {"SOL_TCP", kSolTcp}, {"IPPROTO_TCP", kSolTcp}, {"TCP_CM_INQ", kTcpCmInq}, {"TCP_INQ", kTcpCmInq},
      {"SO_EE_ORIGIN_NONE", 0}, {"SO_EE_ORIGIN_LOCAL", 1}, {"SO_EE_ORIGIN_ICMP", 2},
      {"SO_EE_ORIGIN_ICMP6", 3}, {"SO_EE_ORIGIN_TIMESTAMPING", 4},
      {"SO_EE_ORIGIN_ZEROCOPY", kSoEeOriginZerocopy}, {"SO_EE_CODE_ZEROCOPY_COPIED", kSoEeCodeZerocopyCopied},
      {"MSG_CTRUNC", kMsgCtrunc}, {"MSG_TRUNC", kMsgTrunc},
      {"SOL_SOCKET", kSolSocket}, {"SCM_TIMESTAMPING", kScmTimestamping}, {"ENOMSG", 42},
      {"SCM_TSTAMP_SND", 0}, {"SCM_TSTAMP_SCHED", 1}, {"SCM_TSTAMP_ACK", 2},
  };
  if (x.kind == Expr::Kind::kWord) {
    auto it = kNames.find(x.text);
    if (it != kNames.end()) return it->second;
  }
  if (x.kind == Expr::Kind::kOr) {
    int64_t v = 0;
    for (const Expr& c : x.children) {
      std::optional<int64_t> y = CmsgConstant(c);
      if (!y) return std::nullopt;
      v |= *y;
    }
    return v;
  }
  return IntValue(x);
}

absl::Status Bad(const std::string& call, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrFormat("%s(): %s", call, what));
}

// [{..., LEN}, ...] into `a`.
absl::Status ParseIovecs(const std::string& call, const Expr& arr, RecvmsgArgs* a) {
  if (arr.kind != Expr::Kind::kArray) return Bad(call, "the iovecs are not a list [{..., LEN}, ...]");
  if (arr.children.size() > static_cast<size_t>(kUioMaxIov)) {
    return absl::UnimplementedError(absl::StrFormat("%s(): more than %d iovecs", call, kUioMaxIov));
  }
  for (const Expr& iov : arr.children) {
    std::optional<int64_t> len =
        iov.kind == Expr::Kind::kStruct && iov.children.size() == 2 ? IntValue(iov.children[1]) : std::nullopt;
    if (!len) return Bad(call, "an iovec is not {..., LEN}");
    if (*len < 0) return Bad(call, absl::StrFormat("iov_len %d is negative", *len));
    a->iov_lens.push_back(static_cast<uint64_t>(*len));
    a->total += static_cast<uint64_t>(*len);
  }
  return absl::OkStatus();
}

// {cmsg_level=L, cmsg_type=T, cmsg_data=D}.
absl::StatusOr<Cmsg> ParseCmsg(const Expr& x) {
  const std::string call = "recvmsg";
  if (x.kind != Expr::Kind::kStruct) {
    return Bad(call, "a control message is not {cmsg_level=..., cmsg_type=..., cmsg_data=...}");
  }
  const Expr* level = StructField(x, "cmsg_level");
  const Expr* type = StructField(x, "cmsg_type");
  const Expr* data = StructField(x, "cmsg_data");
  if (level == nullptr || type == nullptr || data == nullptr) {
    return Bad(call, "a control message needs cmsg_level, cmsg_type and cmsg_data");
  }
  Cmsg c;
  std::optional<int64_t> l = CmsgConstant(*level), t = CmsgConstant(*type);
  if (!l || !t) {
    // A name sendsim does not know (SOL_SOCKET's SCM_TIMESTAMPING...): valid
    // packetdrill outside the model.
    return absl::UnimplementedError("recvmsg(): control message level or type is not modelled");
  }
  c.level = *l;
  c.type = *t;
  if (CmsgDataLen(c.level, c.type) == 0) {
    return absl::UnimplementedError(
        absl::StrFormat("recvmsg(): control message level %d type %d is not modelled", c.level, c.type));
  }
  c.recverr = c.level == kSolIp && c.type == kIpRecverr;
  c.tstamp = c.level == kSolSocket && c.type == kScmTimestamping;
  if (data->kind == Expr::Kind::kEllipsis) {
    c.any = true;
    return c;
  }
  if (c.tstamp) {
    const Expr* sec = data->kind == Expr::Kind::kStruct ? StructField(*data, "scm_sec") : nullptr;
    const Expr* nsec = data->kind == Expr::Kind::kStruct ? StructField(*data, "scm_nsec") : nullptr;
    const int64_t s = sec ? IntValue(*sec).value_or(-1) : -1, n = nsec ? IntValue(*nsec).value_or(-1) : -1;
    if (s < 0 || s > 1000000000 || n < 0 || n >= 1000000000) {
      return Bad(call, "SCM_TIMESTAMPING data is not {scm_sec=S, scm_nsec=N} (N below 10^9)");
    }
    c.ts_ns = s * 1000000000 + n;
    c.any = c.ts_ns == 0;  // upstream's "any time"
    return c;
  }
  if (!c.recverr) {
    std::optional<int64_t> v = CmsgConstant(*data);
    if (!v) return Bad(call, "TCP_CM_INQ data is not an integer");
    c.value = *v;
    return c;
  }
  if (data->kind != Expr::Kind::kStruct) return Bad(call, "IP_RECVERR data is not {ee_errno=..., ...}");
  const std::pair<const char*, int64_t*> fields[] = {
      {"ee_errno", &c.ee.ee_errno}, {"ee_origin", &c.ee.ee_origin}, {"ee_type", &c.ee.ee_type},
      {"ee_code", &c.ee.ee_code},   {"ee_info", &c.ee.ee_info},     {"ee_data", &c.ee.ee_data}};
  for (const auto& [name, out] : fields) {
    const Expr* f = StructField(*data, name);
    std::optional<int64_t> v = f ? CmsgConstant(*f) : std::nullopt;
    if (!v) return Bad(call, absl::StrFormat("IP_RECVERR data needs an integer %s", name));
    *out = *v;
  }
  return c;
}

std::string CmsgText(const Cmsg& c) {
  if (c.tstamp) {
    return absl::StrFormat("{level %d, type %d, scm_sec=%d scm_nsec=%d}", c.level, c.type, c.ts_ns / 1000000000,
                           c.ts_ns % 1000000000);
  }
  if (c.recverr) {
    return absl::StrFormat("{level %d, type %d, ee_errno=%d ee_origin=%d ee_type=%d ee_code=%d ee_info=%d ee_data=%d}",
                           c.level, c.type, c.ee.ee_errno, c.ee.ee_origin, c.ee.ee_type, c.ee.ee_code, c.ee.ee_info,
                           c.ee.ee_data);
  }
  return absl::StrFormat("{level %d, type %d, data %d}", c.level, c.type, c.value);
}

}  // namespace

size_t CmsgDataLen(int64_t level, int64_t type) {
  if (level == kSolTcp && type == kTcpCmInq) return kInqDataLen;
  if (level == kSolIp && type == kIpRecverr) return kRecverrDataLen;
  if (level == kSolSocket && type == kScmTimestamping) return kScmTimestampingDataLen;
  return 0;
}

absl::StatusOr<RecvmsgArgs> ParseRecvmsgArgs(const SyscallEvent& sc) {
  RecvmsgArgs a;
  const std::string& n = sc.name;
  if (n == "readv") {
    if (sc.args.size() != 3) return Bad(n, "takes 3 arguments");
    if (absl::Status st = ParseIovecs(n, sc.args[1], &a); !st.ok()) return st;
    std::optional<int64_t> cnt = IntValue(sc.args[2]);
    if (!cnt) return absl::UnimplementedError("readv(): iovcnt not understood");
    if (*cnt != static_cast<int64_t>(a.iov_lens.size())) {
      return Bad(n, absl::StrFormat("iovcnt is %d but the list holds %d iovecs", *cnt, a.iov_lens.size()));
    }
    return a;
  }
  if (sc.args.size() != 3) return Bad(n, "takes 3 arguments");
  if (sc.args[1].kind != Expr::Kind::kStruct) return Bad(n, "the message is not {msg_iov(N)=[...], ...}");
  std::optional<int64_t> flags = CmsgConstant(sc.args[2]);
  if (!flags) return absl::UnimplementedError("recvmsg(): flags not understood");
  a.flags = *flags;
  bool have_iov = false;
  for (const Expr& f : sc.args[1].children) {
    if (f.kind != Expr::Kind::kField) return Bad(n, "the message holds something other than name=value fields");
    const Expr& v = f.children.back();
    if (f.text == "msg_iov") {
      if (absl::Status st = ParseIovecs(n, v, &a); !st.ok()) return st;
      have_iov = true;
      if (f.children.size() == 2) {
        std::optional<int64_t> cnt = IntValue(f.children[0]);
        if (!cnt || *cnt != static_cast<int64_t>(a.iov_lens.size())) {
          return Bad(n, absl::StrFormat("msg_iov(N) does not match the %d iovecs listed", a.iov_lens.size()));
        }
      }
    } else if (f.text == "msg_flags") {
      if (v.kind == Expr::Kind::kEllipsis) continue;
      a.want_msg_flags = CmsgConstant(v);
      if (!a.want_msg_flags) return Bad(n, "msg_flags not understood");
    } else if (f.text == "msg_control") {
      if (v.kind == Expr::Kind::kEllipsis) continue;
      if (v.kind != Expr::Kind::kArray) return Bad(n, "msg_control is not a list [{cmsg_level=...}, ...]");
      a.control_checked = true;
      for (const Expr& x : v.children) {
        absl::StatusOr<Cmsg> c = ParseCmsg(x);
        if (!c.ok()) return c.status();
        a.control_len += CmsgSpace(CmsgDataLen(c->level, c->type));
        a.want_control.push_back(*c);
      }
    } else if (f.text != "msg_name" && f.text != "msg_namelen" && f.text != "msg_iovlen" &&
               f.text != "msg_controllen") {
      return Bad(n, absl::StrFormat("unknown message field %s", f.text));
    }
  }
  if (!have_iov) return Bad(n, "the message has no msg_iov");
  // Without an expectation the buffer is a generous one, as if the script
  // had not cared (msg_control=...).
  if (!a.control_checked) a.control_len = 256;
  return a;
}

std::vector<Cmsg> PutCmsgs(const std::vector<Cmsg>& put, size_t room, int64_t* msg_flags) {
  std::vector<Cmsg> out;
  for (const Cmsg& c : put) {
    const size_t len = CmsgDataLen(c.level, c.type);
    // put_cmsg: no buffer (or not even a header's room) sets MSG_CTRUNC;
    // a short one keeps a cut message and sets it too.
    if (room < CmsgLen(0) || room < CmsgLen(len)) {
      *msg_flags |= kMsgCtrunc;
      room = room < CmsgLen(0) ? room : 0;
      continue;
    }
    out.push_back(c);
    room -= std::min(room, CmsgSpace(len));
  }
  return out;
}

std::string CompareRecvmsg(const RecvmsgArgs& want, int64_t msg_flags, const std::vector<Cmsg>& got,
                           int64_t tolerance_ns) {
  if (want.want_msg_flags && *want.want_msg_flags != msg_flags) {
    return absl::StrFormat("recvmsg(): msg_flags 0x%x, expected 0x%x", msg_flags, *want.want_msg_flags);
  }
  if (!want.control_checked) return "";
  auto list = [](const std::vector<Cmsg>& v) {
    std::vector<std::string> s;
    for (const Cmsg& c : v) s.push_back(CmsgText(c));
    return "[" + absl::StrJoin(s, ", ") + "]";
  };
  bool same = got.size() == want.want_control.size();
  for (size_t i = 0; same && i < got.size(); ++i) {
    const Cmsg& w = want.want_control[i];
    const Cmsg& g = got[i];
    same = w.level == g.level && w.type == g.type &&
           (w.any || (w.recverr   ? w.ee == g.ee
                      : w.tstamp ? std::abs(g.ts_ns - w.ts_ns) <= tolerance_ns
                                 : w.value == g.value));
  }
  if (same) return "";
  return absl::StrFormat("recvmsg(): msg_control %s, expected %s", list(got), list(want.want_control));
}

}  // namespace sendsim::packetdrill
