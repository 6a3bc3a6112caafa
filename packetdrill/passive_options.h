#ifndef SENDSIM_PACKETDRILL_PASSIVE_OPTIONS_H_
#define SENDSIM_PACKETDRILL_PASSIVE_OPTIONS_H_

// Socket options that scripts set but that leave the modelled send path as
// it is: the value is checked as Linux checks it, stored, and returned by
// getsockopt. What each one would change lies outside the model (the
// receive-side cmsg of TCP_INQ, the mark a
// route or filter sees, the DF bit). SO_TIMESTAMPING is checked here and
// also reaches the model (model/tx_timestamp.h).

#include <cstdint>
#include <optional>
#include <string>

namespace sendsim::packetdrill {

struct PassiveOption {
  int64_t initial = 0;  // getsockopt before any setsockopt
  // The value accepted by setsockopt: 0, or the -errno Linux returns.
  int (*check)(int64_t value, bool connected) = nullptr;
};

// The option called `name` (SO_MARK, TCP_INQ, ...), or nullopt.
std::optional<PassiveOption> PassiveOptionByName(const std::string& name);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_PASSIVE_OPTIONS_H_
