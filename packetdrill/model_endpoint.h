#ifndef SENDSIM_PACKETDRILL_MODEL_ENDPOINT_H_
#define SENDSIM_PACKETDRILL_MODEL_ENDPOINT_H_

#include "packetdrill/endpoint.h"

namespace sendsim::packetdrill {

// Builds the model's sending socket (model::TcpSock) as an established
// connection for the runner.
EndpointFactory ModelEndpointFactory();

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_MODEL_ENDPOINT_H_
