#ifndef SENDSIM_PROPS_GENERATORS_H_
#define SENDSIM_PROPS_GENERATORS_H_

// RapidCheck generators for cases. Every choice is drawn so that RapidCheck
// shrinks it toward the small, readable end: one message, one item, page
// offset 0, short lengths, default MSS 1448, zero costs, writer and profile
// at the front of the allowed lists.

#include <optional>
#include <string>
#include <vector>

#include "props/case.h"
#include "props/draws.h"
#include "rapidcheck.h"

namespace sendsim::props {

struct LayoutLimits {
  uint32_t min_pieces = 1;   // over the whole layout
  uint32_t max_pieces = 64;
  uint32_t max_messages = 3;
  uint32_t max_items_per_message = 4;
  bool allow_dataless_messages = true;  // messages with no data items (front/middle only)
  bool allow_revoke = true;
  bool allow_more_to_follow = true;  // false: Layout::more_to_follow is always false
  // The regime of the 2018 patch's capture (krbd writes): 4..8 messages in
  // flight joined by more_to_follow, each a 128 KiB data item (32 pages,
  // mostly page-aligned bio segments) behind a short front. Overrides the
  // other layout limits.
  bool osd_writes = false;
};

struct ConfigLimits {
  // No ACK, completion or timer can run while a message is written: zero
  // per-call and crc cost, a send buffer larger than the whole layout (see
  // MakeQuiescent).
  bool quiescent = false;
  // Also keep the whole layout inside the peer's first window (cases that
  // do not fit are re-drawn): see IsQuiescentConfig.
  bool fits_initial_window = false;
  // TCP_NODELAY always on (libceph's default).
  bool nodelay = false;
};

struct CaseLimits {
  LayoutLimits layout;
  ConfigLimits config;
  std::vector<std::string> profiles = {"linux-4.19", "linux-5.0", "linux-6.8"};
  // Writers to draw from; pairs (writer, profile) that cannot run are
  // re-drawn (v1-splice needs linux-6.8, the sendpage writers need <= 5.0).
  std::vector<Writer> writers = {WriterKind::kV1Notlast, WriterKind::kV1Legacy,  WriterKind::kV1Cork,
                                 WriterKind::kV1Splice,  WriterKind::kV2,        WriterKind::kV1More,
                                 WriterKind::kV1Sendmsg, WriterKind::kV1CorkBatch};
};

// One generator, two draw sources: RapidCheck's (shrinking as RapidCheck
// does; props_test) and ChoiceDraws (the explorer: fast, replayable,
// shrunk by ShrinkChoices). Both draw the same distribution.
rc::Gen<Case> GenCase(const CaseLimits& limits);
// nullopt when the draw is discarded (a suchThat-style retry budget ran out).
std::optional<Case> DrawCase(const CaseLimits& limits, ChoiceDraws& draws);

// RapidCheck prints cases in the fixture text form.
void showValue(const Case& c, std::ostream& os);

// Shapes the network so that nothing asynchronous can happen while a message
// is written (see ConfigLimits::quiescent): zero costs, ample send buffer,
// peer buffer and initial-window segments.
void MakeQuiescent(scenario::Scenario* n, uint64_t layout_wire_bytes);
// The window the peer offers in its SYN-ACK: never scaled, so at most 65535
// bytes (tcp_select_initial_window), and at most init_rcv_wnd_segs x MSS.
uint64_t InitialWindow(const scenario::Scenario& n);
// MakeQuiescent leaves `n` unchanged, and the whole layout fits the peer's
// initial window: everything is written at t = 0, so a larger layout meets a
// window edge, where tcp_mss_split_point cuts at a non-MSS boundary when
// Nagle allows partial segments (linux-tcp-send-path.md §5.6).
bool IsQuiescentConfig(const scenario::Scenario& n, uint64_t layout_wire_bytes);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_GENERATORS_H_
