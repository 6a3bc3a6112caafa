#ifndef SENDSIM_PROPS_CASE_H_
#define SENDSIM_PROPS_CASE_H_

// A property-test case as a plain value: payload layout + scenario (network,
// host and kernel profile) + writer + seed. Everything a run depends on
// is in here, so a Case printed by Format() and read back by ParseCase()
// reproduces the run byte for byte (fixtures rely on that).

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "messenger/writer_policy.h"
#include "scenario/scenario.h"

namespace sendsim::props {

// The shared vocabulary, by its short names: messenger's writers,
// scenario's data item kinds and page size.
using messenger::WriterKind;
using scenario::DataLayout;
using scenario::kPageSize;

// Bounds of a case read from a file (ValidateCase).
inline constexpr size_t kMaxCaseMessages = 1024;
inline constexpr uint64_t kMaxCaseBytes = uint64_t{64} << 20;

// One (offset, length) piece inside a single page.
struct Extent {
  uint32_t offset = 0;
  uint32_t len = 0;
  friend bool operator==(const Extent&, const Extent&) = default;
};

// One ceph_msg data item (libceph-write-path.md §7.1): a page vector with an
// alignment offset into its first page, a pagelist filled from offset 0, or
// a bio / bvec array of (page, offset, length) segments.
struct DataItem {
  DataLayout kind = DataLayout::kPages;
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

// A case's network, host and kernel (Case::net) before the generator or the
// case text sets them: the quiescent defaults of a property case (zero CPU
// costs, ample buffers, no GRO, no receiver latency), timestamps on and the
// MTU just fitting the MSS; the kernel is linux-4.19. The text form
// (FormatCase) carries the knobs a case varies; the rest stay as here.
scenario::Scenario CaseNetworkDefaults();
// Sets the MSS and the MTU that just fits it (the case text has no MTU).
void SetMss(scenario::Scenario* s, uint32_t mss);

// The writers only property tests run: each is messenger's hook writer
// (messenger::WriterKind::kHook, the v1 skeleton with chosen flags).
enum class HookWriter : uint8_t {
  kNone,      // not a hook writer: Writer::kind names the writer
  kAssigned,  // Case::assignment gives each data piece's flags
  kRule,      // Case::rule's flags and cork points (the rule search)
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

// A case's writer: one of messenger's (the libceph writers and the
// comparison writers, by messenger::kWriterTable's names) or a hook writer.
// Ordered as messenger's writers, then the hook writers.
struct Writer {
  WriterKind kind = WriterKind::kV1Notlast;
  HookWriter hook = HookWriter::kNone;  // kind == kHook only

  constexpr Writer() = default;
  constexpr Writer(WriterKind k) : kind(k) {}  // NOLINT: a messenger writer is a Writer
  constexpr Writer(HookWriter h) : kind(WriterKind::kHook), hook(h) {}  // NOLINT: so is a hook writer
  friend bool operator==(const Writer&, const Writer&) = default;
  friend auto operator<=>(const Writer&, const Writer&) = default;
};
// The mutants the mutation score runs in place of v1-notlast.
std::vector<Writer> MutantWriters();

// Per-piece flags for HookWriter::kAssigned.
enum class PieceFlags : uint8_t { kNone, kMore, kMoreNotlast };

// A writer rule for HookWriter::kRule: flags for the data pieces before the
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
  // The network, host and kernel profile (net.kernel); its workload and
  // output fields are unused (the layout is the workload).
  scenario::Scenario net = CaseNetworkDefaults();
  Writer writer = WriterKind::kV1Notlast;
  std::vector<PieceFlags> assignment;  // kAssigned: one entry per data piece, all messages in order
  FlagRule rule;                       // kRule only
  Mutation mutation;
  uint64_t seed = 1;
  friend bool operator==(const Case&, const Case&) = default;
};

absl::string_view WriterName(Writer w);
absl::StatusOr<Writer> WriterByName(absl::string_view name);
std::vector<Writer> AllWriters();  // the libceph-style writers of messenger::kWriterTable
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
