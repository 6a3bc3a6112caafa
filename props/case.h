#ifndef SENDSIM_PROPS_CASE_H_
#define SENDSIM_PROPS_CASE_H_

// A property-test case as a plain value: payload layout + network
// configuration + kernel profile + writer + seed. Everything a run depends on
// is in here, so a Case printed by Format() and read back by ParseCase()
// reproduces the run byte for byte (fixtures rely on that).

#include <cstdint>
#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "messenger/writer_policy.h"

namespace sendsim::props {

inline constexpr uint32_t kPage = 4096;  // PAGE_SIZE
// Bounds of a case read from a file (ValidateCase).
inline constexpr size_t kMaxCaseMessages = 1024;
inline constexpr uint64_t kMaxCaseBytes = uint64_t{64} << 20;

// libceph data item kinds (libceph-write-path.md §7.1).
enum class ItemKind : uint8_t {
  kPages,     // page vector with an alignment offset into the first page
  kPagelist,  // pagelist: pages filled from offset 0
  kBio,       // bio-like list of (page, offset, length) segments
  kBvecs,     // bvec array, same shape as kBio
};

// One (offset, length) piece inside a single page.
struct Extent {
  uint32_t offset = 0;
  uint32_t len = 0;
  friend bool operator==(const Extent&, const Extent&) = default;
};

struct DataItem {
  ItemKind kind = ItemKind::kPages;
  uint32_t offset = 0;          // kPages only: alignment offset (0..4095)
  uint64_t length = 0;          // kPages / kPagelist: bytes
  std::vector<Extent> extents;  // kBio / kBvecs: one extent per page
  friend bool operator==(const DataItem&, const DataItem&) = default;
};

struct MessageLayout {
  uint32_t front_len = 0;
  uint32_t middle_len = 0;
  std::vector<DataItem> items;
  friend bool operator==(const MessageLayout&, const MessageLayout&) = default;
};

// ceph_msg_revoke of message `message` once at least `after_bytes` of its
// wire bytes were accepted by the socket; the rest is zero-filled
// (write_partial_skip, libceph-write-path.md §8.3).
struct Revoke {
  uint32_t message = 0;
  uint64_t after_bytes = 0;
  friend bool operator==(const Revoke&, const Revoke&) = default;
};

struct Layout {
  std::vector<MessageLayout> messages;
  // true: all messages are queued before the writer starts (out_more /
  // more_to_follow set on all but the last); false: each message is queued
  // when the previous one has been fully written.
  bool more_to_follow = true;
  std::optional<Revoke> revoke;
  friend bool operator==(const Layout&, const Layout&) = default;
};

enum class GroModeP : uint8_t { kOff, kBatch };

// The connection parameters a property may vary (a subset of
// model::ConnectionConfig; RunCase maps them).
struct NetConfig {
  uint32_t mss = 1448;
  bool tso = true;
  bool nodelay = true;
  bool autocorking = true;
  uint32_t sndbuf = 4 * 1024 * 1024;    // SO_SNDBUF bytes, >= 4 KiB
  uint32_t initcwnd = 10;
  uint32_t cwnd_clamp = 0;              // 0 = none
  uint32_t rcvbuf = 6 * 1024 * 1024;    // peer
  uint32_t init_rcv_wnd_segs = 20;      // peer's initial window in MSS
  bool delayed_ack = true;
  uint32_t ack_every_segs = 2;
  GroModeP gro = GroModeP::kOff;
  int64_t gro_flush_ns = 0;
  int64_t one_way_delay_ns = 25'000;    // RTT = 2x this
  uint64_t link_bps = 10'000'000'000;
  int64_t tx_completion_ns = 0;
  int64_t call_cost_ns = 0;             // CPU time per socket call
  int64_t crc_ns_per_page = 0;          // CPU time between page calls (crc32c)
  int hz = 250;
  // The sender's device is a tun (HostConfig::tx_orphan_at_xmit: tun_net_xmit
  // orphans each skb, so TSQ and autocorking see nothing in flight on the
  // device). Only tools/kernelreplay sets it; text "tun=1", written only when set.
  bool tun = false;
  friend bool operator==(const NetConfig&, const NetConfig&) = default;
};

enum class Writer : uint8_t {
  kV1Legacy,
  kV1Notlast,
  kV1Cork,
  kV1Splice,
  kV2,
  kV1More,     // v5.0 without NOTLAST: MORE on every data piece
  kV1Sendmsg,  // one sendmsg per message
  kV1CorkBatch,  // v1-notlast's flags, TCP_CORK held while more_to_follow joins messages
  kAssigned,  // v1 with Case::assignment giving each data piece's flags
  kRule,      // v1 with Case::rule's flags and cork points (the rule search)
  // Deliberately wrong writers (negative controls).
  kMutantNotlastStuck,    // never clears NOTLAST on the last piece (pre-35f9c09fe9c7 stall)
  kMutantPushEveryPage,   // no MORE on any page: every page pushed with Nagle off
  kMutantDropNotlast,     // v1-notlast with NOTLAST dropped (MORE only on the data pieces)
  kMutantDropMore,        // v1-notlast with MORE dropped from the data pieces (NOTLAST alone, last piece bare)
  kMutantPushRandom,      // v1-notlast, but about one data piece in three (drawn from the seed) pushed bare
  // Control for the layout bound: v1-notlast's flags with MSG_EOR cleared on
  // every call, so a footer sent without MORE no longer closes its skb.
  kControlNoEor,
};
// The mutants the mutation score runs in place of v1-notlast.
std::vector<Writer> MutantWriters();

// Per-piece flags for Writer::kAssigned.
enum class PieceFlags : uint8_t { kNone, kMore, kMoreNotlast };

// A writer rule for Writer::kRule: flags for the data pieces before the
// payload's last, for the last one, and when TCP_CORK is held. Text form:
// two flag letters (N = MORE|NOTLAST, M = MORE, - = none) and a cork mode
// (none, message, batch), e.g. "NM none" is v1-notlast.
struct FlagRule {
  PieceFlags nonlast = PieceFlags::kMoreNotlast;
  PieceFlags last = PieceFlags::kMore;
  messenger::CorkMode cork = messenger::CorkMode::kNone;
  friend bool operator==(const FlagRule&, const FlagRule&) = default;
};
std::string FormatRule(const FlagRule& r);
absl::StatusOr<FlagRule> ParseRule(absl::string_view s);

// Faults injected outside the writer, for negative controls.
struct Mutation {
  int64_t decoder_drop_byte = -1;  // >= 0: drop this stream byte before decoding
  bool perturb_trace = false;      // mix a per-process counter into the trace hash
  friend bool operator==(const Mutation&, const Mutation&) = default;
};

struct Case {
  Layout layout;
  NetConfig net;
  std::string profile = "linux-4.19";
  Writer writer = Writer::kV1Notlast;
  std::vector<PieceFlags> assignment;  // kAssigned: one entry per data piece, all messages in order
  FlagRule rule;                       // kRule only
  Mutation mutation;
  uint64_t seed = 1;
  friend bool operator==(const Case&, const Case&) = default;
};

absl::string_view WriterName(Writer w);
absl::StatusOr<Writer> WriterByName(absl::string_view name);
std::vector<Writer> AllWriters();  // the libceph-style writers of messenger::kWriterTable
absl::string_view ItemKindName(ItemKind k);
// True when `w` can run on the named profile: the sendpage writers need
// do_tcp_sendpages (<= v6.4), v1-splice needs MSG_SPLICE_PAGES (v6.5+);
// v2 and v1-sendmsg run anywhere.
bool WriterRunsOn(Writer w, absl::string_view profile);

// Pieces the cursor yields (ceph_msg_data_next never crosses a page).
uint32_t PieceCount(const DataItem& item);
uint32_t PieceCount(const MessageLayout& m);
uint32_t PieceCount(const Layout& l);
uint64_t DataBytes(const DataItem& item);
uint64_t DataBytes(const MessageLayout& m);
// v1 bytes of a message on the wire: tag + header + front + middle + data + footer.
uint64_t V1WireBytes(const MessageLayout& m);
uint64_t V1WireBytes(const Layout& l);

// The per-piece flags v1-notlast uses (MORE|NOTLAST, the last piece of each
// message's payload MORE), in Case::assignment order.
std::vector<PieceFlags> NotlastAssignment(const Layout& l);
std::vector<PieceFlags> LegacyAssignment(const Layout& l);
std::string FormatAssignment(const std::vector<PieceFlags>& a);
absl::StatusOr<std::vector<PieceFlags>> ParseAssignment(absl::string_view s);

// Multi-line text form (see testdata/fixtures/README.md) and its parser.
std::string FormatCase(const Case& c);
absl::StatusOr<Case> ParseCase(absl::string_view text);
// Structural checks (lengths, extents inside a page, assignment size, ...).
absl::Status ValidateCase(const Case& c);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_CASE_H_
