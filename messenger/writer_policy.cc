#include "messenger/writer_policy.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/constants.h"

namespace sendsim::messenger {
namespace {

using model::kMsgEor;
using model::kMsgMore;
using model::kMsgSendpageNotlast;

// ceph_tcp_sendmsg: MORE when con->out_more, else EOR (all v1 versions).
int KvecFlags(const CallContext& c) { return c.out_more ? kMsgMore : kMsgEor; }

}  // namespace

absl::StatusOr<WriterKind> ParseWriterKind(std::string_view name) {
  for (const WriterEntry& e : kWriterTable) {
    if (e.selectable && e.name == name) return e.kind;
  }
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown writer '%s' (expected one of: %s)", name, absl::StrJoin(WriterNames(), ", ")));
}

std::vector<std::string> WriterNames() {
  std::vector<std::string> out;
  for (const WriterEntry& e : kWriterTable) {
    if (e.selectable) out.emplace_back(e.name);
  }
  return out;
}

absl::Status WriterAvailable(WriterKind kind, bool has_sendpage, bool has_splice_pages,
                             std::string_view profile_name) {
  // kernel_sendpage() carries the v1 writers' page calls; v2 and one
  // sendmsg per message use sendmsg only.
  const bool uses_sendpage = kind != WriterKind::kV1Splice && kind != WriterKind::kV2 && kind != WriterKind::kV1Sendmsg;
  if (uses_sendpage && !has_sendpage) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s needs sendpage, absent on %s", WriterKindName(kind), profile_name));
  }
  if (kind == WriterKind::kV1Splice && !has_splice_pages) {
    return absl::FailedPreconditionError(absl::StrFormat("v1-splice needs MSG_SPLICE_PAGES, absent on %s", profile_name));
  }
  return absl::OkStatus();
}

std::string_view CallPartName(CallPart part) {
  switch (part) {
    case CallPart::kPrefix:
      return "prefix";
    case CallPart::kData:
      return "data";
    case CallPart::kFooter:
      return "footer";
    case CallPart::kAck:
      return "ack";
    case CallPart::kKeepalive:
      return "keepalive";
    case CallPart::kSkip:
      return "skip";
  }
  return "?";
}

WriterPolicy MakeWriterPolicy(WriterKind kind) {
  const CorkMode cork = kind == WriterKind::kV1Cork        ? CorkMode::kPerMessage
                        : kind == WriterKind::kV1CorkBatch ? CorkMode::kBatch
                                                           : CorkMode::kNone;
  return WriterPolicy{kind, nullptr, cork};
}

WriterPolicy MakeHookPolicy(FlagHook hook, CorkMode cork) {
  return WriterPolicy{WriterKind::kHook, std::move(hook), cork};
}

int PolicyFlags(const WriterPolicy& policy, const CallContext& c) {
  if (policy.kind == WriterKind::kHook) return policy.hook(c);
  // messenger_v2.c: the socket is corked, every call carries only
  // DONTWAIT|NOSIGNAL (CEPH_MSG_FLAGS).
  if (policy.kind == WriterKind::kV2) return 0;
  switch (c.part) {
    case CallPart::kPrefix:
    case CallPart::kFooter:
    case CallPart::kAck:
    case CallPart::kKeepalive:
      return KvecFlags(c);
    case CallPart::kData:
      switch (policy.kind) {
        case WriterKind::kV1Legacy:
        case WriterKind::kV1Cork:
          // v4.19 write_partial_message_data: more = !last_piece, and
          // ceph_tcp_sendpage turns more=false into MSG_EOR.
          return c.last_piece_of_item ? kMsgEor : kMsgMore;
        case WriterKind::kV1Notlast:
        case WriterKind::kV1CorkBatch:
          // v5.0: MORE|NOTLAST until the piece that ends the whole payload.
          return c.last_of_payload ? kMsgMore : (kMsgMore | kMsgSendpageNotlast);
        case WriterKind::kV1Splice:
          return kMsgMore;  // v6.5+: MORE on every piece, the last included
        case WriterKind::kV1More:
          // v6.5+'s flags on a sendpage kernel: do_tcp_sendpages then runs
          // tcp_push(MSG_MORE) after every piece, which NOTLAST skips.
          return kMsgMore;
        default:
          return 0;
      }
    case CallPart::kSkip:
      if (policy.kind == WriterKind::kV1Notlast || policy.kind == WriterKind::kV1CorkBatch) {
        return c.last_of_payload ? kMsgMore : (kMsgMore | kMsgSendpageNotlast);
      }
      return kMsgMore;  // v4.19 and v6.5+ write_partial_skip
  }
  return 0;
}

}  // namespace sendsim::messenger
