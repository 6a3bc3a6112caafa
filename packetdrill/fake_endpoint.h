#ifndef SENDSIM_PACKETDRILL_FAKE_ENDPOINT_H_
#define SENDSIM_PACKETDRILL_FAKE_ENDPOINT_H_

// A deliberately simple sender for testing the runner's mechanics without the
// model: every call without MSG_MORE transmits everything queued as one skb
// (gso_size = MSS) with PSH; MSG_MORE calls only queue. At most `limit` bytes
// may be unacknowledged; a blocking call waits for ACKs, a non-blocking one
// returns what fit or -EAGAIN. No cwnd, no Nagle, no timers.

#include <memory>

#include "packetdrill/endpoint.h"

namespace sendsim::packetdrill {

struct FakeOptions {
  uint64_t limit = 1 << 20;  // max unacknowledged + queued bytes
};

EndpointFactory FakeEndpointFactory(FakeOptions opts = {});

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_FAKE_ENDPOINT_H_
