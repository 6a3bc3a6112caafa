#ifndef SENDSIM_TOOLS_KERNELCMP_WORKLOAD_H_
#define SENDSIM_TOOLS_KERNELCMP_WORKLOAD_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"

namespace sendsim::kernelcmp {

inline constexpr uint32_t kPageBytes = 4096;
// msgr v1 footer (docs/libceph-write-path.md §1.3).
inline constexpr uint32_t kV1FooterBytes = 21;
// Tag (1) + ceph_msg_header (53) before the front (docs/libceph-write-path.md §1.2, §10.1).
inline constexpr uint32_t kV1PrefixFixedBytes = 54;

// What one replay sends: `messages` messages, each a P-byte prefix (tag +
// header + front), N data bytes cut into 4 KiB pages, and a footer.
struct Workload {
  uint64_t messages = 200;
  uint64_t message_bytes = 128 * 1024;  // N, data payload per message
  uint32_t prefix_bytes = 246;          // P: tag + header + sendsim's default 192-byte front
  uint32_t footer_bytes = kV1FooterBytes;

  uint64_t StreamBytesPerMessage() const { return prefix_bytes + message_bytes + footer_bytes; }
  uint64_t StreamBytes() const { return messages * StreamBytesPerMessage(); }
};

absl::Status ValidateWorkload(const Workload& w);

// Reads the keys kernelcmp understands from a JSON object, on top of `base`:
// sendsim scenario keys "messages", "sizes" (one entry), "front_len"
// (P = 54 + front_len), "page_offset" (must be 0), and kernelcmp's own
// "message_bytes", "prefix_bytes", "footer_bytes" (these win). Other keys are
// ignored (the scenario format belongs to the CLI); a known key with the
// wrong type is an error.
absl::StatusOr<Workload> WorkloadFromScenarioJson(absl::string_view json_text, Workload base);

// One writer analogue: the socket-call pattern a libceph writer produces,
// named after sendsim's writer where there is one (messenger/writer_policy.h).
enum class Variant : uint8_t {
  kV1Legacy,    // per-page send(MSG_MORE), last page MSG_EOR without MORE (v1 before 5.0)
  kV1Splice,    // per-page send(MSG_MORE) on every page (v1 on 6.5+: MSG_SPLICE_PAGES|MORE)
  kV1Cork,      // v1-legacy flags inside TCP_CORK set before the prefix, cleared after the footer
  kV2,          // msgr2 crc mode: plain sends, socket corked for a whole worker run
  kSendmsgAll,  // one sendmsg with prefix, all pages and footer
  kSendfile,    // prefix MORE, sendfile of the data, footer EOR
  kSplice,      // prefix MORE, data spliced from a pipe in 64 KiB chunks (MORE), footer EOR
};
absl::string_view VariantName(Variant v);
// Also accepts the aliases "per-page-more" (v1-splice) and "cork" (v1-cork).
absl::StatusOr<Variant> ParseVariant(absl::string_view name);
std::vector<Variant> AllVariants();

// Bytes around each message's data on the stream for a variant: msgr v1
// (prefix P, 21-byte footer) or, for kV2, msgr2 crc-mode framing: a 77-byte
// head (preamble 32 + header 41 + crc 4) instead of tag + header (54), and a
// 13-byte epilogue (docs/libceph-write-path.md §12.2).
struct Framing {
  uint32_t prefix_bytes = 0;
  uint32_t footer_bytes = 0;
};
inline constexpr uint32_t kV2HeadBytes = 77;
inline constexpr uint32_t kV2EpilogueBytes = 13;
Framing FramingFor(const Workload& w, Variant v);
uint64_t StreamBytesFor(const Workload& w, Variant v);

// How the sender waits for send-buffer space.
enum class IoMode : uint8_t {
  kBlocking,     // the call sleeps in sk_stream_wait_memory
  kNonBlocking,  // MSG_DONTWAIT; on EAGAIN/short count poll(POLLOUT) and resume (libceph)
};
absl::string_view IoModeName(IoMode m);
absl::StatusOr<IoMode> ParseIoMode(absl::string_view name);

// Which CPU runs receive softirq processing (RPS) for both veth ends: the
// sender's CPU (ACKs processed, and data ACKed, on the sending CPU) or the
// receiver's.
enum class Placement : uint8_t { kSenderCpu, kReceiverCpu };
absl::string_view PlacementName(Placement p);
absl::StatusOr<Placement> ParsePlacement(absl::string_view name);

// Parses a comma-separated list with `parse`; "all" gives `all`.
template <typename T, typename ParseFn>
absl::StatusOr<std::vector<T>> ParseList(absl::string_view text, ParseFn parse,
                                         const std::vector<T>& all);

}  // namespace sendsim::kernelcmp

#include "tools/kernelcmp/workload_inl.h"

#endif  // SENDSIM_TOOLS_KERNELCMP_WORKLOAD_H_
