#include "props/outcome.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace sendsim::props {

uint64_t DataPackets(const Outcome& o) {
  uint64_t n = 0;
  for (const PacketRecord& p : o.packets) n += (!p.retransmit && p.len > 0) ? 1 : 0;
  return n;
}

uint64_t SubMss(const Outcome& o) {
  uint64_t n = 0;
  for (const PacketRecord& p : o.packets) n += (!p.retransmit && p.len > 0 && p.len < o.mss) ? 1 : 0;
  return n;
}

std::map<uint32_t, uint64_t> RuntSizes(const Outcome& o) {
  std::map<uint32_t, uint64_t> h;
  for (const PacketRecord& p : o.packets) {
    if (!p.retransmit && p.len > 0 && p.len < o.mss) ++h[p.len];
  }
  return h;
}

std::vector<FlushRun> FlushRuns(const Outcome& o) {
  std::vector<PacketRecord> firsts;
  for (const PacketRecord& p : o.packets) {
    if (!p.retransmit && p.len > 0) firsts.push_back(p);
  }
  // Sequence order; a lossless run sends in order anyway, but TLP/RTO
  // artefacts must not reorder runs.
  std::stable_sort(firsts.begin(), firsts.end(),
                   [](const PacketRecord& a, const PacketRecord& b) { return a.seq < b.seq; });
  std::vector<FlushRun> runs;
  size_t next_end = 0;
  FlushRun cur;
  bool open = false;
  for (const PacketRecord& p : firsts) {
    if (!open) {
      cur = FlushRun{p.seq, 0, 0, 0};
      open = true;
    }
    cur.bytes += p.len;
    cur.segments += 1;
    cur.sub_mss += p.len < o.mss ? 1 : 0;
    uint64_t end = uint64_t{p.seq} + p.len;
    while (next_end < o.message_ends.size() && o.message_ends[next_end] < end) ++next_end;
    bool at_message_end = next_end < o.message_ends.size() && o.message_ends[next_end] == end;
    if ((p.flags & kPsh) != 0 || at_message_end) {
      runs.push_back(cur);
      open = false;
    }
  }
  if (open) runs.push_back(cur);
  return runs;
}

std::string Summarize(const Outcome& o) {
  std::vector<std::string> runts;
  for (const auto& [len, n] : RuntSizes(o)) runts.push_back(absl::StrFormat("%ux%u", len, n));
  return absl::StrFormat(
      "packets=%u sub_mss=%u runts=[%s] mss=%u written=%u delivered=%u decoder=%s%s decoded=%u/%u "
      "completed=%d t_done_ns=%d probe0_packets=%u async_during_write=%d invariants=%s hash=%016x%s%s",
      DataPackets(o), SubMss(o), absl::StrJoin(runts, ","), o.mss, o.bytes_written, o.bytes_delivered,
      !o.stream_checked ? "not-run" : o.decoder_ok ? "ok" : "FAIL",
      !o.stream_checked || o.decoder_ok ? "" : absl::StrCat("(", o.decoder_error, ")"),
      o.messages_decoded, o.messages_expected, o.completed, o.completion_ns, o.probe0_packets, o.async_during_write,
      o.invariants.ok() ? "ok" : o.invariants.ToString(), o.trace_hash, o.stall_info.empty() ? "" : " stall=",
      o.stall_info);
}

}  // namespace sendsim::props
