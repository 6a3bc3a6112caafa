#ifndef SENDSIM_PROPS_SETUP_H_
#define SENDSIM_PROPS_SETUP_H_

// How a props case configures the model and the messenger.

#include "absl/status/statusor.h"
#include "messenger/connection.h"
#include "messenger/writer_policy.h"
#include "props/case.h"
#include "scenario/scenario.h"

namespace sendsim::props {

// The case's network and profile checked by the scenario's own rules
// (scenario::ValidateNetwork: the same ranges as a command line or a
// scenario file), and its writer against the profile
// (messenger::WriterAvailable). InvalidArgument "case: ...".
absl::Status ValidateCaseSetup(const Case& c);

// The messenger's options (writer policy, CPU costs) for a case.
absl::StatusOr<messenger::ConnectionOptions> MessengerOptions(const Case& c, bool has_sendpage);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_SETUP_H_
