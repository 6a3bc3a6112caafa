#ifndef SENDSIM_SCENARIO_SIMULATION_H_
#define SENDSIM_SCENARIO_SIMULATION_H_

// One run of the model: a Scenario's kernel profile and connection on a
// fresh event loop, an application writing on the sending socket and
// observers watching the wire, run to its end. The one place a run is
// assembled: the CLI, props, the kernel comparison, the benchmarks and the
// writer survey all describe their run as a Simulation.
//
//   Simulation sim;
//   sim.scenario = s;
//   sim.observers = {&histogram};
//   MessengerWorkload app = MessengerWorkload::ForScenario(s, kind);
//   absl::StatusOr<SimulationResult> r = sim.Run(app);

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "messenger/connection.h"
#include "messenger/workload.h"
#include "messenger/workload_driver.h"
#include "model/config.h"
#include "model/connection.h"
#include "model/event_loop.h"
#include "model/histogram.h"
#include "model/observer.h"
#include "model/profile.h"
#include "model/socket.h"
#include "scenario/build.h"
#include "scenario/scenario.h"

namespace sendsim::scenario {

// What writes on the sending socket during a run: the messenger's writer
// (MessengerWorkload), props' queued messages, kernelcmp's call replay, a
// benchmark's stream. The simulation calls Prepare, creates the connection
// with Prepare's observer first in line, then Start; between slices of the
// run it asks Done.
class Application {
 public:
  virtual ~Application() = default;
  // Before the connection exists: build what needs the loop, refuse what
  // the profile cannot run. Returns the observer that must see the run
  // before any other (the peer's decoder, say), or null.
  virtual absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile& profile,
                                                   const model::ConnectionConfig& cfg) = 0;
  // The connection exists: attach to its socket, schedule the first calls.
  virtual absl::Status Start(model::Connection* conn) = 0;
  // Whether the work is complete (asked between slices only).
  virtual bool Done() const { return false; }
};

// How the loop runs. Without slices it runs until no event is left. With
// slices (of events or of simulated time) it asks the application between
// slices, reports progress, and stops at the horizon.
struct RunPlan {
  uint64_t slice_events = 0;
  model::TimeNs slice_ns = 0;
  // Event slices: stop once simulated time is past this (0: never).
  // Time slices: the last slice ends here.
  model::TimeNs horizon_ns = 0;
  std::function<void()> progress;  // after each slice
};

// What the run left behind, copied out of the connection.
struct SimulationResult {
  model::TimeNs end_ns = 0;         // simulated time when the run stopped
  bool app_done = false;            // Application::Done held at a slice end
  bool stopped_at_horizon = false;  // events were left at the horizon
  bool loop_empty = false;          // nothing left to happen
  model::Counters counters;
  model::TcpInfo info;
  model::PacketHistogram histogram;
  uint64_t unacked_bytes = 0;
  uint64_t delivered_bytes = 0;
  uint64_t peer_delayed_acks = 0;
  std::vector<std::pair<model::TimeNs, model::TimeNs>> data_timing;  // ModelOutputs::record_data_timing
  absl::Status invariants;          // Connection::CheckInvariants at the end
  uint64_t events_run = 0;
  uint64_t max_queue_size = 0;
};

// A run: the scenario (its kernel is the profile), what the model records,
// the passive observers (called in order, after the application's), and
// how the loop runs.
struct Simulation {
  Scenario scenario;
  ModelOutputs outputs;
  std::vector<model::Observer*> observers;
  RunPlan plan;

  // Errors: unknown kernel (the profile's status), a configuration the model
  // rejects (InvalidArgument), the application's Prepare or Start.
  absl::StatusOr<SimulationResult> Run(Application& app) const;
};

// The messenger's writer pushing a workload, the peer decoding and
// replying (messenger::WorkloadDriver). The model-facing options (the ACK
// arrival delay, the call cost, sendpage) come from the run's
// configuration and profile; the rest from the caller.
class MessengerWorkload : public Application {
 public:
  MessengerWorkload(std::vector<messenger::MessageSpec> specs, messenger::DriverOptions driver_options,
                    messenger::ConnectionOptions connection_options);
  // The scenario's workload, OSD and per-call costs with writer `kind`.
  static MessengerWorkload ForScenario(const Scenario& s, messenger::WriterKind kind);

  absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile& profile,
                                           const model::ConnectionConfig& cfg) override;
  absl::Status Start(model::Connection* conn) override;

  // After Prepare.
  const messenger::WorkloadDriver& driver() const { return *driver_; }
  messenger::WorkloadDriver& driver() { return *driver_; }

 private:
  std::vector<messenger::MessageSpec> specs_;
  messenger::DriverOptions driver_options_;
  messenger::ConnectionOptions connection_options_;
  std::unique_ptr<messenger::WorkloadDriver> driver_;
};

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_SIMULATION_H_
