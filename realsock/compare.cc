#include "realsock/compare.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/runner.h"
#include "nlohmann/json.hpp"

namespace sendsim::realsock {
namespace {

using nlohmann::json;

json FiguresJson(const Figures& f) {
  json sizes = json::object();
  for (const auto& [size, count] : f.sizes) sizes[std::to_string(size)] = count;
  return json{{"writer", f.writer},
              {"messages", f.messages},
              {"packets", f.packets},
              {"sub_mss", f.sub_mss},
              {"retransmitted", f.retransmitted},
              {"notlast_buffers", f.notlast_buffers},
              {"spliced_buffers", f.spliced_buffers},
              {"eagains", f.eagains},
              {"sizes", sizes}};
}

absl::StatusOr<Figures> FiguresFromJson(const json& j) {
  Figures f;
  f.writer = j.at("writer").get<std::string>();
  f.messages = j.at("messages").get<uint64_t>();
  f.packets = j.at("packets").get<uint64_t>();
  f.sub_mss = j.at("sub_mss").get<uint64_t>();
  f.retransmitted = j.at("retransmitted").get<uint64_t>();
  f.notlast_buffers = j.at("notlast_buffers").get<uint64_t>();
  f.spliced_buffers = j.at("spliced_buffers").get<uint64_t>();
  f.eagains = j.at("eagains").get<uint64_t>();
  for (const auto& [size, count] : j.at("sizes").items()) {
    f.sizes[static_cast<uint32_t>(std::stoul(size))] = count.get<uint64_t>();
  }
  return f;
}

std::string TopText(const Figures& f) {
  std::vector<std::string> parts;
  for (const auto& [size, count] : TopSizes(f.sizes, 5)) {
    parts.push_back(absl::StrFormat("%u %.1f%%", size, f.packets == 0 ? 0.0 : 100.0 * count / f.packets));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

scenario::Scenario ComparisonScenario(const std::string& profile, uint64_t messages,
                                      const std::vector<std::string>& writers) {
  scenario::Scenario s;
  s.messages = messages;
  s.kernel = profile;
  s.seeds = 1;
  s.writers.clear();
  for (const std::string& w : writers) s.writers.push_back({w, ""});
  return s;
}

absl::StatusOr<Figures> ModelFigures(const scenario::Scenario& s, const std::string& writer) {
  absl::StatusOr<cli::RunResult> r = cli::RunOne(s, {writer, ""}, nullptr, {});
  if (!r.ok()) return r.status();
  Figures f;
  f.writer = writer;
  f.messages = r->messages;
  f.packets = r->packets;
  f.sub_mss = r->sub_mss_packets;
  f.sizes = r->histogram;
  f.eagains = r->counters.eagains;
  return f;
}

std::vector<std::pair<uint32_t, uint64_t>> TopSizes(const std::map<uint32_t, uint64_t>& sizes, size_t n) {
  std::vector<std::pair<uint32_t, uint64_t>> v(sizes.begin(), sizes.end());
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (v.size() > n) v.resize(n);
  return v;
}

std::string RecordingToJson(const Recording& r) {
  json k = json::array();
  for (const Figures& f : r.kernel_runs) k.push_back(FiguresJson(f));
  json m = json::array();
  for (const Figures& f : r.model_runs) m.push_back(FiguresJson(f));
  json j{{"kernel", r.kernel}, {"profile", r.profile}, {"messages", r.messages},
         {"shaped", r.shaped}, {"kernel_runs", k},     {"model_runs", m}};
  return j.dump(1) + "\n";
}

absl::StatusOr<Recording> RecordingFromJson(absl::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return absl::InvalidArgumentError("recording: not a JSON object");
  try {
    Recording r;
    r.kernel = j.at("kernel").get<std::string>();
    r.profile = j.at("profile").get<std::string>();
    r.messages = j.at("messages").get<uint64_t>();
    r.shaped = j.at("shaped").get<bool>();
    for (const json& f : j.at("kernel_runs")) {
      absl::StatusOr<Figures> x = FiguresFromJson(f);
      if (!x.ok()) return x.status();
      r.kernel_runs.push_back(*x);
    }
    for (const json& f : j.at("model_runs")) {
      absl::StatusOr<Figures> x = FiguresFromJson(f);
      if (!x.ok()) return x.status();
      r.model_runs.push_back(*x);
    }
    return r;
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("recording: ", e.what()));
  }
}

std::string FormatComparison(const Recording& r) {
  std::string out = absl::StrFormat(
      "%u x 131072-byte messages, the default scenario's workload; kernel %s%s beside model %s\n\n", r.messages,
      r.kernel, r.shaped ? " (netem: 25 us each way, 10000 Mbit/s)" : " (plain veth)", r.profile);
  absl::StrAppendFormat(&out, "%-14s %10s %10s %12s %12s %12s %12s\n", "WRITER", "K PACKETS", "M PACKETS",
                        "K SUB-MSS/MSG", "M SUB-MSS/MSG", "K NOTLAST", "K RETRANS");
  for (const Figures& k : r.kernel_runs) {
    const Figures* m = nullptr;
    for (const Figures& x : r.model_runs) {
      if (x.writer == k.writer) m = &x;
    }
    absl::StrAppendFormat(&out, "%-14s %10u %10s %13.2f %13s %12u %12u\n", k.writer, k.packets,
                          m ? absl::StrCat(m->packets) : "-", k.SubMssPerMessage(),
                          m ? absl::StrFormat("%.2f", m->SubMssPerMessage()) : "-", k.notlast_buffers,
                          k.retransmitted);
  }
  out += "\nTop sizes, % of the writer's packets:\n";
  for (const Figures& k : r.kernel_runs) {
    absl::StrAppendFormat(&out, "%-14s kernel %s\n", k.writer, TopText(k));
    for (const Figures& m : r.model_runs) {
      if (m.writer == k.writer) absl::StrAppendFormat(&out, "%-14s model  %s\n", "", TopText(m));
    }
  }
  return out;
}

}  // namespace sendsim::realsock
