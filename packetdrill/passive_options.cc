#include "packetdrill/passive_options.h"

#include "packetdrill/syscall_args.h"

namespace sendsim::packetdrill {
namespace {

int AnyValue(int64_t, bool) { return 0; }

// do_tcp_setsockopt: TCP_INQ takes 0 or 1.
int ZeroOrOne(int64_t v, bool) { return v < 0 || v > 1 ? -kErrEinval : 0; }

// do_ip_setsockopt: IP_MTU_DISCOVER takes IP_PMTUDISC_DONT..IP_PMTUDISC_OMIT.
int PmtudiscMode(int64_t v, bool) { return v < 0 || v > 5 ? -kErrEinval : 0; }

// sock_set_timestamping (6.12): flags beyond SOF_TIMESTAMPING_MASK are
// refused; OPT_ID_TCP needs OPT_ID, OPT_STATS needs OPT_TSONLY; OPT_ID on a
// TCP socket needs a connection (a listener or a closed socket has no
// sequence to count from).
int Timestamping(int64_t v, bool connected) {
  constexpr int64_t kOptId = 1 << 7, kOptTsonly = 1 << 11, kOptStats = 1 << 12, kOptIdTcp = 1 << 16;
  constexpr int64_t kMask = (1 << 18) - 1;
  if (v & ~kMask) return -kErrEinval;
  if ((v & kOptIdTcp) && !(v & kOptId)) return -kErrEinval;
  if ((v & kOptId) && !connected) return -kErrEinval;
  if ((v & kOptStats) && !(v & kOptTsonly)) return -kErrEinval;
  return 0;
}

}  // namespace

std::optional<PassiveOption> PassiveOptionByName(const std::string& name) {
  if (name == "SO_MARK" || name == "IP_FREEBIND") return PassiveOption{0, AnyValue};
  if (name == "TCP_INQ") return PassiveOption{0, ZeroOrOne};
  // A TCP socket starts with IP_PMTUDISC_WANT (net.ipv4.ip_no_pmtu_disc 0).
  if (name == "IP_MTU_DISCOVER") return PassiveOption{1, PmtudiscMode};
  if (name == "SO_TIMESTAMPING") return PassiveOption{0, Timestamping};
  return std::nullopt;
}

}  // namespace sendsim::packetdrill
