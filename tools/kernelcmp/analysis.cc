#include "tools/kernelcmp/analysis.h"

#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace sendsim::kernelcmp {
namespace {

constexpr uint8_t kFin = 0x01;
constexpr uint8_t kSyn = 0x02;
constexpr uint8_t kRst = 0x04;
constexpr uint8_t kAckFlag = 0x10;

// Disjoint [begin, end) ranges of stream bytes seen so far.
class RangeSet {
 public:
  // Adds [b, e); returns true if it overlapped anything already present.
  bool Add(uint64_t b, uint64_t e) {
    bool overlap = false;
    auto it = ranges_.upper_bound(b);
    if (it != ranges_.begin()) {
      auto prev = std::prev(it);
      if (prev->second >= b) {
        overlap |= prev->second > b;
        b = prev->first;
        e = std::max(e, prev->second);
        it = ranges_.erase(prev);
      }
    }
    while (it != ranges_.end() && it->first <= e) {
      overlap |= it->first < e;
      e = std::max(e, it->second);
      it = ranges_.erase(it);
    }
    ranges_[b] = e;
    return overlap;
  }
  uint64_t Total() const {
    uint64_t t = 0;
    for (const auto& [b, e] : ranges_) t += e - b;
    return t;
  }

 private:
  std::map<uint64_t, uint64_t> ranges_;
};

}  // namespace

absl::StatusOr<RunFigures> AnalyzeFlow(const std::vector<TcpSegment>& segments, const Flow& flow,
                                       uint32_t mss, bool split_tso) {
  if (mss == 0) return absl::InvalidArgumentError("mss must be > 0");
  std::optional<uint32_t> isn;
  uint64_t last_ext = 0;  // extended (64-bit) relative sequence of the last segment
  RangeSet seen;
  RunFigures fig;
  for (const TcpSegment& s : segments) {
    if (s.src_ip == flow.dst_ip && s.src_port == flow.dst_port && s.dst_ip == flow.src_ip &&
        s.dst_port == flow.src_port) {
      if (s.payload_len == 0 && (s.flags & (kSyn | kFin | kRst)) == 0 && (s.flags & kAckFlag)) {
        ++fig.acks;
      }
      continue;
    }
    if (s.src_ip != flow.src_ip || s.src_port != flow.src_port || s.dst_ip != flow.dst_ip ||
        s.dst_port != flow.dst_port) {
      continue;
    }
    if ((s.flags & kSyn) && !(s.flags & kAckFlag)) {
      if (isn.has_value() && *isn != s.seq) {
        return absl::InvalidArgumentError("capture holds two connections on the same flow");
      }
      isn = s.seq;
      continue;
    }
    if (s.payload_len == 0) continue;
    if (!isn.has_value()) {
      return absl::InvalidArgumentError("capture has data before the SYN (ISN unknown)");
    }
    // Unwrap the 32-bit sequence relative to the last one seen (segments are
    // never 2 GiB apart).
    const uint32_t rel = s.seq - *isn - 1;
    const int32_t delta = static_cast<int32_t>(rel - static_cast<uint32_t>(last_ext));
    const int64_t ext_signed = static_cast<int64_t>(last_ext) + delta;
    if (ext_signed < 0) return absl::InvalidArgumentError("segment before the stream start");
    const uint64_t ext = static_cast<uint64_t>(ext_signed);
    if (fig.packets + fig.retransmitted_packets == 0) fig.first_data_ns = s.time_ns;
    fig.last_data_ns = std::max(fig.last_data_ns, s.time_ns);
    last_ext = ext;
    if (seen.Add(ext, ext + s.payload_len)) {
      ++fig.retransmitted_packets;
      continue;
    }
    if (s.payload_len > mss) {
      ++fig.oversized_skbs;
      if (!split_tso) {
        return absl::FailedPreconditionError(absl::StrFormat(
            "captured a %u-byte packet with MSS %u while TSO/GSO should be off", s.payload_len,
            mss));
      }
    }
    uint32_t left = s.payload_len;
    while (left > 0) {
      const uint32_t piece = std::min(left, mss);
      ++fig.packets;
      if (piece < mss) ++fig.sub_mss_packets;
      ++fig.sizes[piece];
      left -= piece;
    }
  }
  if (!isn.has_value()) return absl::InvalidArgumentError("no SYN for the flow in the capture");
  fig.unique_payload_bytes = seen.Total();
  return fig;
}

absl::StatusOr<CaptureStats> ParseTcpdumpStats(absl::string_view stderr_text) {
  CaptureStats st;
  bool have_captured = false, have_received = false, have_dropped = false;
  for (absl::string_view line : absl::StrSplit(stderr_text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    const size_t space = line.find(' ');
    if (space == absl::string_view::npos) continue;
    uint64_t n;
    if (!absl::SimpleAtoi(line.substr(0, space), &n)) continue;
    absl::string_view rest = line.substr(space + 1);
    if (rest == "packets captured" || rest == "packet captured") {
      st.captured = n;
      have_captured = true;
    } else if (rest == "packets received by filter" || rest == "packet received by filter") {
      st.received_by_filter = n;
      have_received = true;
    } else if (rest == "packets dropped by kernel" || rest == "packet dropped by kernel") {
      st.dropped_by_kernel = n;
      have_dropped = true;
    } else if (rest == "packets dropped by interface" || rest == "packet dropped by interface") {
      st.dropped_by_interface = n;
    }
  }
  if (!have_captured || !have_received || !have_dropped) {
    return absl::InvalidArgumentError(
        absl::StrFormat("tcpdump printed no complete statistics: %s", stderr_text));
  }
  return st;
}

}  // namespace sendsim::kernelcmp
