#ifndef SENDSIM_PACKETDRILL_SYSCALL_ARGS_H_
#define SENDSIM_PACKETDRILL_SYSCALL_ARGS_H_

// The values of system-call arguments as a script writes them: integers,
// Linux's symbolic constants (O_NONBLOCK, POLLOUT, MSG_MORE, ...) and ORs of
// them, struct fields, and errno names for results. Upstream packetdrill
// gets these from the host's headers (symbols.c); these are Linux's values.

#include <cstdint>
#include <optional>
#include <string>

#include "packetdrill/ast.h"

namespace sendsim::packetdrill {

inline constexpr int64_t kORdonly = 0, kOWronly = 1, kORdwr = 2, kONonblock = 0x800;
inline constexpr int64_t kOCreat = 0x40, kOTrunc = 0x200, kOCloexec = 0x80000;
inline constexpr int64_t kFGetfl = 3, kFSetfl = 4;
inline constexpr int64_t kSiocinq = 0x541B, kSiocoutq = 0x5411, kSiocoutqnsd = 0x894B;
inline constexpr int64_t kPollIn = 0x1, kPollPri = 0x2, kPollOut = 0x4, kPollErr = 0x8, kPollHup = 0x10,
                         kPollNval = 0x20, kPollRdnorm = 0x40, kPollRdband = 0x80, kPollWrnorm = 0x100,
                         kPollWrband = 0x200, kPollRdhup = 0x2000;
inline constexpr int64_t kMsgErrqueue = 0x2000;
// epoll: the EPOLL* event bits equal the POLL* ones above; these are the rest.
inline constexpr int64_t kEpollExclusive = int64_t{1} << 28, kEpollWakeup = int64_t{1} << 29,
                         kEpollOneshot = int64_t{1} << 30, kEpollEt = int64_t{1} << 31;
inline constexpr int64_t kEpollCtlAdd = 1, kEpollCtlDel = 2, kEpollCtlMod = 3;
inline constexpr int kErrEinprogress = 115, kErrEnoent = 2, kErrEbadf = 9, kErrEinval = 22, kErrEagain = 11,
                     kErrEpipe = 32, kErrEnotconn = 107, kErrEfault = 14, kErrEperm = 1,
                     kErrEexist = 17, kErrEconnrefused = 111, kErrEconnaborted = 103,
                     kErrEtimedout = 110, kErrEnotsock = 88;

// A symbolic constant's value; nullopt for a name not known.
std::optional<int64_t> Constant(const std::string& w);

// Value of an argument that is an integer, a symbol or an OR of those.
std::optional<int64_t> IntValue(const Expr& e);

// The value of field `name` of a struct argument ({fd=3, events=POLLOUT}).
const Expr* StructField(const Expr& s, const std::string& name);

std::string ErrnoName(int e);

// A struct epoll_event as scripts write it: {events=EPOLLIN|EPOLLET, fd=4}
// (or u32=, u64=, ptr= for the user data; the kernel only echoes it).
struct EpollEventArg {
  int64_t events = 0;
  uint64_t data = 0;
};
// nullopt when the struct is not of that form.
std::optional<EpollEventArg> EpollEventValue(const Expr& e);

// A struct linger as upstream packetdrill writes it: {onoff=1, linger=0}
// (l_onoff, l_linger). nullopt when the struct is not of that form.
struct LingerValue {
  int onoff = 0;
  int linger = 0;
};
std::optional<LingerValue> LingerArg(const Expr& e);

// A pointer argument written NULL: the call gets a null pointer.
bool IsNull(const Expr& e);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SYSCALL_ARGS_H_
