#ifndef SENDSIM_PACKETDRILL_CODE_H_
#define SENDSIM_PACKETDRILL_CODE_H_

// %{ }% code blocks. Upstream packetdrill runs them in Python with the
// socket's struct tcp_info (getsockopt TCP_INFO) as tcpi_* variables; sendsim
// evaluates the assert subset (asserts.h) over the tcpi_* values the model
// socket reports, completed with what the runner itself knows of the
// connection (the handshake's choices, the TCP state), and Linux's TCP_CA_*,
// TCP_<state> and TCPI_OPT_* constants.

#include <string>

#include "absl/status/status.h"
#include "packetdrill/run_state.h"

namespace sendsim::packetdrill {

// Runs the code block `code` at `line`: a FAIL names the first failing
// assertion, a construct outside the subset is a SKIP.
absl::Status RunCode(const RunState& run, int line, const std::string& code);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_CODE_H_
