#include "model/types.h"

namespace sendsim::model {

std::string_view PushReasonName(PushReason r) {
  switch (r) {
    case PushReason::kEndOfCall: return "end_of_call";
    case PushReason::kPushOne: return "push_one";
    case PushReason::kForcedPush: return "forced_push";
    case PushReason::kFragLimit: return "frag_limit";
    case PushReason::kSndbufFull: return "sndbuf_full";
    case PushReason::kAck: return "ack";
    case PushReason::kBacklog: return "backlog";
    case PushReason::kTsq: return "tsq";
    case PushReason::kTsqDeferred: return "tsq_deferred";
    case PushReason::kSetsockopt: return "setsockopt";
    case PushReason::kProbe0: return "probe0";
    case PushReason::kTlp: return "tlp";
    case PushReason::kRto: return "rto";
    case PushReason::kRetransmit: return "retransmit";
    case PushReason::kControl: return "control";
    case PushReason::kCount: break;
  }
  return "unknown";
}

}  // namespace sendsim::model
