#ifndef SENDSIM_MESSENGER_WRITER_POLICY_H_
#define SENDSIM_MESSENGER_WRITER_POLICY_H_

// Which flags (and which socket call) each libceph version uses for each
// write of the try_write skeleton: the flag matrix of
// docs/libceph-write-path.md §9, one policy per writer.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sendsim::messenger {

enum class WriterKind : uint8_t {
  kV1Legacy,   // v4.19/v4.20 messenger.c: MORE on pages, EOR on the last piece of each item
  kV1Notlast,  // v5.0..v6.4: MORE|NOTLAST, MORE on the last piece of the payload
  kV1Cork,     // v4.19 flags + TCP_CORK from before the header to after the footer (never shipped)
  kV1Splice,   // v6.5+ messenger_v1.c: sendmsg(bvec, MORE|SPLICE_PAGES) per piece
  kV2,         // messenger_v2.c crc mode: socket corked around the write loop, no MORE
  // Not shipped; for comparisons (props' map):
  kV1More,     // v5.0 skeleton, MORE on every data piece: the v5.0 rule without NOTLAST
  kV1Sendmsg,  // the whole message (prefix, data, footer) in one sendmsg, as a userspace messenger does
  kV1CorkBatch,  // v5.0 flags + TCP_CORK from a message's first byte until a footer sent without MORE
  kHook,       // v1 skeleton with caller-chosen flags on every call (property tests)
};

// The one table of writer names (command lines, scenario files, fixtures,
// props and kernelcmp all use it): "v1-legacy", "v1-notlast", "v1-cork",
// "v1-splice", "v2"; props also runs "v1-more", "v1-sendmsg" and
// "v1-cork-batch". The hook writer is not selectable by name (it needs code).
struct WriterEntry {
  WriterKind kind;
  std::string_view name;
  bool selectable;
};
inline constexpr WriterEntry kWriterTable[] = {
    {WriterKind::kV1Legacy, "v1-legacy", true}, {WriterKind::kV1Notlast, "v1-notlast", true},
    {WriterKind::kV1Cork, "v1-cork", true},     {WriterKind::kV1Splice, "v1-splice", true},
    {WriterKind::kV2, "v2", true},
    // Comparison writers (props' map and rule search): MORE without
    // NOTLAST, one sendmsg per message, and the proposed batch cork.
    {WriterKind::kV1More, "v1-more", true},
    {WriterKind::kV1Sendmsg, "v1-sendmsg", true},
    {WriterKind::kV1CorkBatch, "v1-cork-batch", true},
    {WriterKind::kHook, "hook", false},
};

constexpr std::string_view WriterKindName(WriterKind kind) {
  for (const WriterEntry& e : kWriterTable) {
    if (e.kind == kind) return e.name;
  }
  return "?";
}
// The same name as an absl::string_view (a distinct type from
// std::string_view with Debian's Abseil), for tables that key on it.
constexpr absl::string_view WriterKindAbslName(WriterKind kind) {
  const std::string_view n = WriterKindName(kind);
  return absl::string_view(n.data(), n.size());
}
absl::StatusOr<WriterKind> ParseWriterKind(std::string_view name);
// The selectable names, in table order.
std::vector<std::string> WriterNames();

// Whether the kernel of `profile` has the socket calls the writer makes: the
// v1 sendpage writers need sendpage (gone in v6.5), v1-splice needs
// MSG_SPLICE_PAGES (v6.5+). The one check behind the CLI, scenario files,
// explore's cases and fixtures. FailedPrecondition names both.
absl::Status WriterAvailable(WriterKind kind, bool has_sendpage, bool has_splice_pages,
                             std::string_view profile_name);

// What a socket call carries.
enum class CallPart : uint8_t {
  kPrefix,     // [ack] + tag + header + front [+ middle] [+ footer when no data]; v2: head + front + middle [+ epilogue]
  kData,       // one cursor piece (or its remainder after a short send)
  kFooter,     // footer kvec (v1) / epilogue (v2)
  kAck,        // standalone ack (v1 tag+seq, v2 ACK frame)
  kKeepalive,  // keepalive2 (v1 tag+timestamp, v2 frame)
  kSkip,       // zero fill after ceph_msg_revoke
};
std::string_view CallPartName(CallPart part);

// Everything a flag choice may depend on.
struct CallContext {
  CallPart part = CallPart::kPrefix;
  uint64_t msg_index = 0;
  uint32_t piece_index = 0;        // data piece number within the message
  bool last_piece_of_item = false;  // cursor->last_piece
  bool last_of_payload = false;     // piece length == cursor->total_resid (or skip chunk == out_skip)
  bool out_more = false;            // con->out_more, for kvec calls
  bool sendpage_ok = true;
};

// Returns the MSG_MORE / MSG_EOR / MSG_SENDPAGE_NOTLAST bits for a call;
// MSG_DONTWAIT|MSG_NOSIGNAL are always added by the connection.
using FlagHook = std::function<int(const CallContext&)>;

// When a v1 writer holds TCP_CORK (tcp_sock_set_cork): never; from before a
// message's first byte to after its footer (v1-cork); or from before a
// message's first byte until a footer goes out without MORE (out_more
// false), nothing is queued or the worker run ends (v1-cork-batch), so that
// messages joined by more_to_follow share one corked run.
enum class CorkMode : uint8_t { kNone, kPerMessage, kBatch };

struct WriterPolicy {
  WriterKind kind = WriterKind::kV1Legacy;
  FlagHook hook;  // kHook only
  CorkMode cork = CorkMode::kNone;

  bool v2() const { return kind == WriterKind::kV2; }
  bool corks() const { return cork != CorkMode::kNone; }
  // Data pages go through sendmsg + MSG_SPLICE_PAGES (v6.5+ ceph_tcp_sendpage).
  bool splice_pages() const { return kind == WriterKind::kV1Splice; }
  // prepare_write_message queues data pages and footer behind the prefix in
  // out_kvec: one sendmsg (copy path) per message.
  bool sendmsg_per_message() const { return kind == WriterKind::kV1Sendmsg; }
};

WriterPolicy MakeWriterPolicy(WriterKind kind);
WriterPolicy MakeHookPolicy(FlagHook hook, CorkMode cork = CorkMode::kNone);

// The flag bits (without DONTWAIT|NOSIGNAL) the policy passes for `ctx`.
int PolicyFlags(const WriterPolicy& policy, const CallContext& ctx);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_WRITER_POLICY_H_
