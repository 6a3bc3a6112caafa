#include "cli/report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/flags.h"
#include "scenario/scenario_json.h"
#include "cli/reported_criteria.h"
#include "cli/spread.h"
#include "nlohmann/json.hpp"

namespace sendsim::cli {

using scenario::DataLayoutName;
using scenario::Scenario;
using scenario::ScenarioToJsonValue;
namespace {

using OJson = nlohmann::ordered_json;

// Counters in a fixed order, named after their model::Counters fields.
std::vector<std::pair<const char*, uint64_t>> CounterList(const model::Counters& c) {
  return {{"autocorks", c.autocorks},         {"tso_deferrals", c.tso_deferrals},
          {"eagains", c.eagains},             {"tsq_throttles", c.tsq_throttles},
          {"nagle_holds", c.nagle_holds},     {"cork_holds", c.cork_holds},
          {"probe0_fires", c.probe0_fires},   {"tlp_fires", c.tlp_fires},
          {"rto_fires", c.rto_fires},         {"backlog_acks", c.backlog_acks},
          {"write_space_calls", c.write_space_calls}};
}

std::string Percent(double v) { return absl::StrFormat("%+.2f%%", v); }

std::string ReasonBreakdown(const std::array<uint64_t, kReasonCount>& by_reason) {
  std::vector<std::string> parts;
  for (int i = 0; i < kReasonCount; ++i) {
    if (by_reason[i] != 0) {
      parts.push_back(absl::StrFormat("%s %d", ReasonLabel(static_cast<model::PushReason>(i)), by_reason[i]));
    }
  }
  return parts.empty() ? "none" : absl::StrJoin(parts, ", ");
}

std::string SizeMixText(const Scenario& s) {
  if (s.sizes.size() == 1) return absl::StrFormat("%d-byte", s.sizes[0].bytes);
  return absl::StrFormat("mixed (%s)", SizeMixString(s.sizes));
}

}  // namespace

double ChangePercent(const RunResult& r, const RunResult& base) {
  if (base.packets == 0) return 0.0;
  return (static_cast<double>(r.packets) - static_cast<double>(base.packets)) * 100.0 /
         static_cast<double>(base.packets);
}

std::string FormatTable(const Scenario& s, const std::vector<RunResult>& results) {
  std::string out = absl::StrFormat(
      "%d x %s messages (front %d, %s data, offset %d), MSS %d, MTU %d, %d Mbit/s, RTT %d us, kernel %s\n", s.messages,
      SizeMixText(s), s.front_len, DataLayoutName(s.layout), s.page_offset, s.mss, s.mtu, s.link_mbps,
      s.rtt_ns / 1000, s.kernel);
  if (results.empty()) return out;
  const RunResult& base = results.front();
  for (const RunResult& r : results) {
    absl::StrAppendFormat(&out, "\n%s (%s)\n", r.writer, r.kernel);
    absl::StrAppendFormat(&out, "  %8s %10s\n", "SIZE", "COUNT");
    const std::vector<SizeCount> top = SortedHistogram(r);
    for (size_t i = 0; i < top.size() && i < static_cast<size_t>(kTableTopSizes); ++i) {
      absl::StrAppendFormat(&out, "  %8d %10d\n", top[i].size, top[i].count);
    }
    const double sub_pct = r.packets ? 100.0 * static_cast<double>(r.sub_mss_packets) / static_cast<double>(r.packets) : 0;
    absl::StrAppendFormat(&out, "  packets %d, sub-MSS %d (%.1f%%)", r.packets, r.sub_mss_packets, sub_pct);
    if (&r != &base) absl::StrAppendFormat(&out, ", %s packets vs %s", Percent(ChangePercent(r, base)), base.writer);
    absl::StrAppendFormat(&out, "\n  sub-MSS by reason: %s\n", ReasonBreakdown(r.sub_mss_by_reason));
  }
  absl::StrAppendFormat(&out, "\n%-12s %-11s %10s %9s %9s %12s\n", "WRITER", "KERNEL", "PACKETS", "SUB-MSS", "CHANGE",
                        "P99 MSG us");
  for (const RunResult& r : results) {
    const std::string change = &r == &base ? "-" : Percent(ChangePercent(r, base));
    absl::StrAppendFormat(&out, "%-12s %-11s %10d %9d %9s %12.1f\n", r.writer, r.kernel, r.packets, r.sub_mss_packets,
                          change, static_cast<double>(Completion(r).p99) / 1000.0);
  }
  return out;
}

namespace {

OJson ResultsJson(const std::vector<RunResult>& results) {
  OJson arr = OJson::array();
  for (const RunResult& r : results) {
    OJson j;
    j["writer"] = r.writer;
    j["kernel"] = r.kernel;
    j["packets"] = r.packets;
    j["sub_mss_packets"] = r.sub_mss_packets;
    j["payload_bytes"] = r.payload_bytes;
    j["messages"] = r.messages;
    j["mss"] = r.mss;
    j["ack_packets"] = r.ack_packets;
    // Rounded so that the text is stable across libm/printf versions.
    j["change_pct"] = std::round(ChangePercent(r, results.front()) * 100.0) / 100.0;
    OJson hist = OJson::array();
    for (const SizeCount& sc : SortedHistogram(r)) hist.push_back(OJson{{"size", sc.size}, {"count", sc.count}});
    j["histogram"] = hist;
    OJson sub = OJson::object(), all = OJson::object();
    for (int i = 0; i < kReasonCount; ++i) {
      const std::string label(ReasonLabel(static_cast<model::PushReason>(i)));
      if (r.sub_mss_by_reason[i]) sub[label] = r.sub_mss_by_reason[i];
      if (r.packets_by_reason[i]) all[label] = r.packets_by_reason[i];
    }
    j["sub_mss_by_reason"] = sub;
    j["packets_by_reason"] = all;
    const CompletionStats c = Completion(r);
    j["completion_ns"] = OJson{{"p50", c.p50}, {"p99", c.p99}, {"max", c.max}};
    j["duration_ns"] = r.duration_ns;
    OJson counters = OJson::object();
    for (const auto& [name, v] : CounterList(r.counters)) counters[name] = v;
    j["counters"] = counters;
    arr.push_back(j);
  }
  return arr;
}

std::string Dump(const OJson& root) {
  // replace: strings given on the command line need not be UTF-8.
  return root.dump(2, ' ', false, OJson::error_handler_t::replace) + "\n";
}

}  // namespace

std::string FormatJson(const Scenario& s, const std::vector<RunResult>& results) {
  OJson root;
  root["scenario"] = ScenarioToJsonValue(s);
  root["results"] = ResultsJson(results);
  return Dump(root);
}

std::string FormatTable(const Scenario& s, const std::vector<SeedRun>& runs) {
  if (runs.empty()) return FormatTable(s, std::vector<RunResult>{});
  return FormatTable(s, runs[0].results) + FormatSpreadTable(runs, ComputeSpread(runs)) +
         FormatCriteria(JudgeReportedCriteria(runs));
}

std::string FormatJson(const Scenario& s, const std::vector<SeedRun>& runs) {
  OJson root;
  root["scenario"] = ScenarioToJsonValue(s);
  root["results"] = ResultsJson(runs.empty() ? std::vector<RunResult>{} : runs[0].results);
  OJson others = OJson::array();
  for (size_t i = 1; i < runs.size(); ++i) {
    others.push_back(OJson{{"seed", runs[i].seed}, {"results", ResultsJson(runs[i].results)}});
  }
  root["seed_runs"] = others;
  root["spread"] = SpreadsJson(runs, ComputeSpread(runs));
  root["reported_criteria"] = CriteriaJson(JudgeReportedCriteria(runs));
  return Dump(root);
}

std::string FormatCsv(const Scenario& /*s*/, const std::vector<RunResult>& results) {
  std::string out = "writer,kernel,kind,key,value\n";
  for (const RunResult& r : results) {
    auto row = [&](absl::string_view kind, const std::string& key, auto value) {
      absl::StrAppend(&out, r.writer, ",", r.kernel, ",", kind, ",", key, ",", value, "\n");
    };
    row("total", "packets", r.packets);
    row("total", "sub_mss_packets", r.sub_mss_packets);
    row("total", "payload_bytes", r.payload_bytes);
    row("total", "messages", r.messages);
    row("total", "ack_packets", r.ack_packets);
    row("total", "change_pct", absl::StrFormat("%.2f", ChangePercent(r, results.front())));
    for (const SizeCount& sc : SortedHistogram(r)) row("size", absl::StrCat(sc.size), sc.count);
    for (int i = 0; i < kReasonCount; ++i) {
      const std::string label(ReasonLabel(static_cast<model::PushReason>(i)));
      if (r.packets_by_reason[i]) row("reason_packets", label, r.packets_by_reason[i]);
      if (r.sub_mss_by_reason[i]) row("reason_sub_mss", label, r.sub_mss_by_reason[i]);
    }
    const CompletionStats c = Completion(r);
    row("completion_ns", "p50", c.p50);
    row("completion_ns", "p99", c.p99);
    row("completion_ns", "max", c.max);
    for (const auto& [name, v] : CounterList(r.counters)) row("counter", name, v);
  }
  return out;
}

}  // namespace sendsim::cli
