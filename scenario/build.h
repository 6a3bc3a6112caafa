#ifndef SENDSIM_SCENARIO_BUILD_H_
#define SENDSIM_SCENARIO_BUILD_H_

// Scenario -> model and messenger configuration (pure functions, tested
// without running anything).

#include <vector>

#include "scenario/scenario.h"
#include "messenger/connection.h"
#include "messenger/workload.h"
#include "messenger/workload_driver.h"
#include "model/config.h"
#include "model/profile.h"

namespace sendsim::scenario {

model::ConnectionConfig BuildConnectionConfig(const Scenario& s);

// The messages, sizes drawn from the weighted mix with the scenario's seed
// (SplitMix64: the same on every platform).
std::vector<messenger::MessageSpec> BuildWorkload(const Scenario& s);

messenger::DriverOptions BuildDriverOptions(const Scenario& s, const model::ConnectionConfig& cfg);

messenger::ConnectionOptions BuildConnectionOptions(const Scenario& s, const model::ConnectionConfig& cfg,
                                                    messenger::WriterKind kind, const model::Profile& profile);

}  // namespace sendsim::scenario

#endif  // SENDSIM_SCENARIO_BUILD_H_
