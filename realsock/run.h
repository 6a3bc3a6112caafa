#ifndef SENDSIM_REALSOCK_RUN_H_
#define SENDSIM_REALSOCK_RUN_H_

// One writer's run on the kernel's sockets: the messenger's CephConnection
// and WorkloadDriver (the code that drives the model) on an FdSocket
// connected across the testbed's veth, a receiving thread whose bytes feed
// the driver's decoder (every byte and crc checked), the OSD's replies after
// their delay, and a packet socket counting what left the sender.
//
// The model's EventLoop is the driver's scheduler, run against
// CLOCK_MONOTONIC: an event runs when the clock reaches its time, and the
// driver sleeps (ppoll) until then. So the CPU costs the connection charges
// between calls (crc per page, call cost, prepare_write_message) become
// sleeps of the same length; in a time-travel guest, where CPU work takes
// no virtual time, they are the only time the sender spends, as in the model.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "messenger/connection.h"
#include "messenger/workload.h"
#include "messenger/workload_driver.h"
#include "model/event_loop.h"
#include "realsock/fd_socket.h"
#include "realsock/testbed.h"
#include "tools/kernelcmp/analysis.h"

namespace sendsim::realsock {

struct RunSpec {
  messenger::ConnectionOptions connection;
  std::vector<messenger::MessageSpec> messages;
  messenger::DriverOptions driver;
  uint32_t mss = 1448;
  bool nodelay = true;  // libceph sets TCP_NODELAY on its sockets
  uint16_t port = 6800;
  // The run fails if it has not finished by then (clock time since start).
  model::TimeNs deadline_ns = 120 * model::kNsPerSec;
};

struct RunOutcome {
  kernelcmp::RunFigures figures;  // first transmissions, counted per MSS (TSO split)
  uint64_t messages = 0;          // delivered and decoded
  FdSocketStats socket;
  model::TimeNs duration_ns = 0;  // first submission to the last reply
};

// Connects across the testbed, runs, and counts the capture.
absl::StatusOr<RunOutcome> RunWriter(const Testbed& tb, const RunSpec& spec);

// The run on an already connected pair (owns both descriptors); `capture`
// (may be null) is drained as packets arrive. No figures.
class Capture;
absl::StatusOr<RunOutcome> RunOnSockets(int send_fd, int recv_fd, const RunSpec& spec, Capture* capture);

}  // namespace sendsim::realsock

#endif  // SENDSIM_REALSOCK_RUN_H_
