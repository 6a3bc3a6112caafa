#ifndef SENDSIM_PACKETDRILL_SEQ_H_
#define SENDSIM_PACKETDRILL_SEQ_H_

// Sequence-space order for 32-bit wire sequence numbers (before() and
// after() of include/net/tcp.h): a is before b when b - a, read as a
// signed 32-bit number, is positive, so comparisons survive wrap-around.

#include <cstdint>

namespace sendsim::packetdrill {

inline bool SeqBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
inline bool SeqAfter(uint32_t a, uint32_t b) { return SeqBefore(b, a); }

// tcp_in_window (the SYN-RECV and timewait checks): [seq, end_seq) starts
// at the window's left edge, overlaps [s_win, e_win), or is empty at its
// right edge.
inline bool SeqInWindow(uint32_t seq, uint32_t end_seq, uint32_t s_win, uint32_t e_win) {
  if (seq == s_win) return true;
  if (SeqAfter(end_seq, s_win) && SeqBefore(seq, e_win)) return true;
  return seq == e_win && seq == end_seq;
}

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SEQ_H_
