// The files of a script (syscalls.h): open() of the files it prepares,
// write() to them, and sendfile() from them into the connection.

#include <algorithm>
#include <map>
#include <string>

#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "packetdrill/sendfile.h"
#include "packetdrill/syscall_args.h"
#include "packetdrill/syscalls.h"

namespace sendsim::packetdrill {

absl::Status SyscallDriver::SysSendfile(const Call& c) {
  const std::vector<Expr>& args = c.sc.args;
  if (args.size() != 4) return run_.Fail(c.line(), "sendfile() takes 4 arguments");
  absl::StatusOr<int> out = FdArg(c, 0);
  if (!out.ok()) return out.status();
  absl::StatusOr<int> in = FdArg(c, 1);
  if (!in.ok()) return in.status();
  if (!fds_.count(*out) || !fds_.count(*in)) return Immediate(c, -kErrEbadf);
  if (fds_[*in].kind != Fd::Kind::kFile) return run_.Skip(c.line(), "sendfile() from a socket");
  if (!IsConnFd(*out) || !Connected()) return run_.Skip(c.line(), "sendfile() to a socket that is not connected");
  // Without an offset (NULL) sendfile reads from the file position and
  // advances it (do_sendfile); with one, the position is left alone.
  Fd& file = fds_[*in];
  const bool use_pos = args[2].kind == Expr::Kind::kWord && args[2].text == "NULL";
  uint64_t off = use_pos ? file.offset : 0;
  if (args[2].kind != Expr::Kind::kEllipsis && !use_pos) {
    std::optional<int64_t> o = IntValue(args[2]);
    if (!o || *o < 0) return run_.Skip(c.line(), "sendfile() offset not understood");
    off = static_cast<uint64_t>(*o);
  }
  std::optional<int64_t> cnt = IntValue(args[3]);
  if (!cnt || *cnt < 0) return run_.Skip(c.line(), "sendfile() count not understood");
  const uint64_t size = file.size;
  const uint64_t total = off >= size ? 0 : std::min<uint64_t>(static_cast<uint64_t>(*cnt), size - off);
  if (use_pos) file.offset = off + total;  // simplification: advanced by the whole count at once
  const int flags = fds_[*out].nonblock ? model::kMsgDontwait : 0;
  const uint64_t file_id = static_cast<uint64_t>(*in) << 40;
  model::Socket& sock = run_.sock.ep->socket();
  const bool sendpage = run_.profile.has_sendpage;
  return Issue(c, [&sock, sendpage, file_id, off, total, flags](model::Socket::DoneFn done) {
    return SendFile(sock, sendpage, file_id, off, off + total, flags, std::move(done));
  });
}

// open(): the files a script prepares (dd or truncate in a command, or
// O_CREAT here, then written through the descriptor) are the only ones.
absl::Status SyscallDriver::SysOpen(const Call& c) {
  const SyscallEvent& sc = c.sc;
  if (sc.args.empty() || sc.args[0].kind != Expr::Kind::kString) return run_.Skip(c.line(), "open() of a non-literal path");
  std::optional<int64_t> oflags = sc.args.size() >= 2 ? IntValue(sc.args[1]) : std::optional<int64_t>(kORdonly);
  if (!oflags) return run_.Skip(c.line(), "open() flags not understood");
  std::map<std::string, uint64_t>& files = run_.settings.files;
  if (*oflags & kOCreat) files.emplace(sc.args[0].text, 0);
  auto it = files.find(sc.args[0].text);
  if (it == files.end()) {
    return run_.Skip(c.line(), absl::StrFormat("open(\"%s\"): only files the script creates (dd, truncate, O_CREAT) are modelled",
                                               sc.args[0].text));
  }
  if ((*oflags & kOTrunc) && (*oflags & (kOWronly | kORdwr))) it->second = 0;
  if (sc.ret_any || sc.ret < 0) return run_.Skip(c.line(), "open() without an expected descriptor");
  int fd = static_cast<int>(sc.ret);
  if (fds_.count(fd)) return run_.Fail(c.line(), absl::StrFormat("descriptor %d is already in use", fd));
  Fd f;
  f.kind = Fd::Kind::kFile;
  f.path = it->first;
  f.size = it->second;
  fds_[fd] = f;
  return Immediate(c, fd);
}

// write() to a file descriptor: the file grows to cover the bytes written at
// its position (contents do not matter, only sizes).
absl::Status SyscallDriver::WriteFile(const Call& c, int fd) {
  if (c.sc.name != "write" || c.sc.args.size() != 3) return run_.Skip(c.line(), "only write() to a file is modelled");
  std::optional<int64_t> len = IntValue(c.sc.args[2]);
  if (!len || *len < 0) return run_.Skip(c.line(), "write() length not understood");
  Fd& f = fds_[fd];
  f.offset += static_cast<uint64_t>(*len);
  uint64_t& size = run_.settings.files[f.path];
  size = std::max(size, f.offset);
  f.size = size;
  return Immediate(c, *len);
}

}  // namespace sendsim::packetdrill
