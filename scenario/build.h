#ifndef SENDSIM_SCENARIO_BUILD_H_
#define SENDSIM_SCENARIO_BUILD_H_

// Scenario -> model and messenger configuration (pure functions, tested
// without running anything). BuildConnectionConfig is the one place where a
// model::ConnectionConfig is filled in: every front end (the CLI, props,
// packetdrill, kernelcmp, the benchmarks, the writer survey) describes its
// run as a Scenario and builds the model through it.

#include <vector>

#include "scenario/scenario.h"
#include "messenger/connection.h"
#include "messenger/workload.h"
#include "messenger/workload_driver.h"
#include "model/config.h"
#include "model/profile.h"

namespace sendsim::scenario {

// What the model reports besides the histogram: the bytes delivered (a
// decoder needs them), every wire packet (ACK times, traces), each data
// segment's timing (diagnostics; memory grows with the run).
struct ModelOutputs {
  bool track_payload = true;
  bool full_trace = true;
  bool record_data_timing = false;
};

// The RTT splits evenly into the two one-way delays.
model::ConnectionConfig BuildConnectionConfig(const Scenario& s, const ModelOutputs& outputs = {});

// The messages, sizes drawn from the weighted mix with the scenario's seed
// (SplitMix64: the same on every platform).
std::vector<messenger::MessageSpec> BuildWorkload(const Scenario& s);

// The OSD's replies and the queue depth. The ACK arrival delay is the
// model's (MessengerWorkload sets it from the configuration).
messenger::DriverOptions BuildDriverOptions(const Scenario& s);

// The writer and the messenger's crc cost. The call cost and sendpage come
// from the model's configuration and profile (MessengerWorkload sets them).
messenger::ConnectionOptions BuildConnectionOptions(const Scenario& s, messenger::WriterKind kind);

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_BUILD_H_
