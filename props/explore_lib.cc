#include "props/explore_lib.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace sendsim::props {

uint64_t CaseKey(uint64_t seed, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + i + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int CaseSize(uint64_t i) { return static_cast<int>(i % 101); }

CaseGenerator::CaseGenerator(CaseLimits limits) : limits_(std::move(limits)) {}

std::optional<Case> CaseGenerator::Draw(uint64_t seed, uint64_t i, std::vector<uint64_t>* choices) const {
  ChoiceDraws d(CaseKey(seed, i), CaseSize(i));
  std::optional<Case> c = DrawCase(limits_, d);
  if (choices != nullptr) *choices = d.recorded();
  return c;
}

std::optional<Case> CaseGenerator::Replay(const std::vector<uint64_t>& choices, int size) const {
  ChoiceDraws d(choices, size);
  return DrawCase(limits_, d);
}


void Classes::Add(int64_t better, int64_t other) {
  if (better < other) {
    ++strict;
  } else if (better == other) {
    ++equal;
  } else {
    ++reversed;
  }
}

std::string Classes::Format() const {
  const double n = static_cast<double>(strict + equal + reversed);
  if (n == 0) return "n/a";
  return absl::StrFormat("strict %u (%.1f%%), equal %u (%.1f%%), reversed %u (%.1f%%)", strict, 100.0 * strict / n,
                         equal, 100.0 * equal / n, reversed, 100.0 * reversed / n);
}

void Stats::Add(const PropertyResult& r) {
  ++run;
  for (const auto& [len, n] : r.runts) runts[len] += n;
  for (const Comparison& cmp : r.comparisons) {
    sub.Add(cmp.better_sub_mss, cmp.other_sub_mss);
    packets.Add(cmp.better_packets, cmp.other_packets);
    ++packet_gain[cmp.other_packets - cmp.better_packets];
    ++sub_gain[cmp.other_sub_mss - cmp.better_sub_mss];
  }
  if (r.verdict != Verdict::kSkipped && r.decisive) ++decisive;
  switch (r.verdict) {
    case Verdict::kHolds:
      ++holds;
      break;
    case Verdict::kSkipped:
      ++skipped;
      ++skip_reasons[r.detail.substr(0, 60)];
      break;
    case Verdict::kFails:
      ++fails;
      break;
  }
}

void Stats::Merge(const Stats& o) {
  run += o.run;
  holds += o.holds;
  fails += o.fails;
  skipped += o.skipped;
  gen_failures += o.gen_failures;
  decisive += o.decisive;
  for (auto [mine, theirs] : {std::pair{&sub, &o.sub}, std::pair{&packets, &o.packets}}) {
    mine->strict += theirs->strict;
    mine->equal += theirs->equal;
    mine->reversed += theirs->reversed;
  }
  for (const auto& [k, v] : o.packet_gain) packet_gain[k] += v;
  for (const auto& [k, v] : o.sub_gain) sub_gain[k] += v;
  for (const auto& [k, v] : o.runts) runts[k] += v;
  for (const auto& [k, v] : o.skip_reasons) skip_reasons[k] += v;
  seconds += o.seconds;
}

Interval Wilson(uint64_t k, uint64_t n) {
  if (n == 0) return {0, 1};
  constexpr double z = 1.959963984540054;  // 97.5th percentile of the normal
  const double nn = static_cast<double>(n), p = static_cast<double>(k) / nn, z2 = z * z;
  const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string ShareWithInterval(uint64_t k, uint64_t n) {
  if (n == 0) return "n/a";
  const Interval w = Wilson(k, n);
  return absl::StrFormat("%.1f %% [%.1f, %.1f]", 100.0 * k / n, 100 * w.lo, 100 * w.hi);
}

std::string FloorViolation(const Stats& st, const Floors& floors) {
  const uint64_t drawn = st.run + st.gen_failures, judged = st.holds + st.fails;
  if (drawn == 0) return "";
  if (static_cast<double>(judged) < floors.min_judged_share * static_cast<double>(drawn)) {
    return absl::StrFormat("%s: judged %u of %u drawn cases (%.1f %%), below its floor of %.0f %% (generator drift?)",
                           st.property, judged, drawn, 100.0 * judged / drawn, 100 * floors.min_judged_share);
  }
  if (static_cast<double>(st.decisive) < floors.min_decisive_share * static_cast<double>(judged) ||
      (floors.min_decisive_share > 0 && judged == 0)) {
    return absl::StrFormat(
        "%s: %u of %u judged cases decisive (%.1f %%), below its floor of %.0f %% (the cases tie whatever the writer)",
        st.property, st.decisive, judged, judged > 0 ? 100.0 * st.decisive / judged : 0.0,
        100 * floors.min_decisive_share);
  }
  return "";
}

namespace {

std::string Histogram(const std::map<int64_t, uint64_t>& h) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : h) parts.push_back(absl::StrFormat("%+d:%u", k, v));
  return absl::StrJoin(parts, " ");
}

// "+0.496 [+0.45, +0.54]": the mean of a histogram with a normal 95 %
// interval (paired differences: the cases are independent draws).
std::string MeanWithInterval(const std::map<int64_t, uint64_t>& h) {
  double sum = 0, sq = 0, n = 0;
  for (const auto& [k, v] : h) {
    sum += static_cast<double>(k) * static_cast<double>(v);
    sq += static_cast<double>(k) * static_cast<double>(k) * static_cast<double>(v);
    n += static_cast<double>(v);
  }
  if (n < 2) return "n/a";
  const double mean = sum / n, var = std::max(0.0, (sq - n * mean * mean) / (n - 1));
  const double half = 1.959963984540054 * std::sqrt(var / n);
  return absl::StrFormat("%+.3f [%+.3f, %+.3f]", mean, mean - half, mean + half);
}

std::string RuntSummary(const std::map<uint32_t, uint64_t>& runts, uint32_t top) {
  // Most frequent sizes first, then a coarse histogram by 256-byte ranges.
  std::vector<std::pair<uint64_t, uint32_t>> by_count;
  std::map<uint32_t, uint64_t> ranges;
  uint64_t total = 0;
  for (const auto& [len, n] : runts) {
    by_count.emplace_back(n, len);
    ranges[len / 256] += n;
    total += n;
  }
  std::sort(by_count.begin(), by_count.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::vector<std::string> tops;
  for (size_t i = 0; i < by_count.size() && i < top; ++i) {
    tops.push_back(absl::StrFormat("%u:%u", by_count[i].second, by_count[i].first));
  }
  std::vector<std::string> rs;
  for (const auto& [r, n] : ranges) rs.push_back(absl::StrFormat("[%u,%u):%u", r * 256, r * 256 + 256, n));
  return absl::StrFormat("%u runts; most frequent size:count %s\n    by range %s", total, absl::StrJoin(tops, " "),
                         absl::StrJoin(rs, " "));
}

template <typename K>
nlohmann::json MapToJson(const std::map<K, uint64_t>& m) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : m) j[absl::StrCat(k)] = v;
  return j;
}

template <typename K>
bool MapFromJson(const nlohmann::json& j, std::map<K, uint64_t>* m) {
  if (!j.is_object()) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    K k;
    if constexpr (std::is_same_v<K, std::string>) {
      k = it.key();
    } else if (!absl::SimpleAtoi(it.key(), &k)) {
      return false;
    }
    (*m)[k] = it.value().get<uint64_t>();
  }
  return true;
}

nlohmann::json ClassesToJson(const Classes& c) {
  return {{"strict", c.strict}, {"equal", c.equal}, {"reversed", c.reversed}};
}

Classes ClassesFromJson(const nlohmann::json& j) {
  return Classes{j.at("strict").get<uint64_t>(), j.at("equal").get<uint64_t>(), j.at("reversed").get<uint64_t>()};
}

}  // namespace

std::string FormatStats(const Stats& st, const std::string& summary, bool throughput) {
  std::string out = absl::StrFormat("\n== %s: %s\n", st.property, summary);
  absl::StrAppendFormat(&out, "  cases %u: holds %u, fails %u, skipped %u (generator discards %u)\n", st.run, st.holds,
                        st.fails, st.skipped, st.gen_failures);
  for (const auto& [why, n] : st.skip_reasons) absl::StrAppendFormat(&out, "    skipped %u: %s\n", n, why);
  const uint64_t judged = st.holds + st.fails;
  absl::StrAppendFormat(&out, "  judged %s of drawn, decisive %s of judged\n",
                        ShareWithInterval(judged, st.run + st.gen_failures), ShareWithInterval(st.decisive, judged));
  if (st.sub.strict + st.sub.equal + st.sub.reversed > 0) {
    absl::StrAppendFormat(&out, "  sub-MSS (claimed better vs other): %s\n", st.sub.Format());
    absl::StrAppendFormat(&out, "  packets (claimed better vs other): %s\n", st.packets.Format());
    for (const auto& [name, c] : {std::pair{"sub-MSS", &st.sub}, std::pair{"packets", &st.packets}}) {
      const uint64_t n = c->strict + c->equal + c->reversed;
      absl::StrAppendFormat(&out, "  %s, 95 %% Wilson: fewer %s, tie %s, more %s\n", name,
                            ShareWithInterval(c->strict, n), ShareWithInterval(c->equal, n),
                            ShareWithInterval(c->reversed, n));
    }
    absl::StrAppendFormat(&out, "  per case, other - better (95 %%): sub-MSS %s, packets %s\n",
                          MeanWithInterval(st.sub_gain), MeanWithInterval(st.packet_gain));
    absl::StrAppendFormat(&out, "  packets saved (other - better): %s\n", Histogram(st.packet_gain));
    absl::StrAppendFormat(&out, "  sub-MSS saved (other - better): %s\n", Histogram(st.sub_gain));
  }
  absl::StrAppendFormat(&out, "  %s\n", RuntSummary(st.runts, 12));
  if (throughput) {
    absl::StrAppendFormat(&out, "  throughput: %.1f cases/s (%.2f s)\n", st.seconds > 0 ? st.run / st.seconds : 0.0,
                          st.seconds);
  }
  return out;
}

std::string ShardResultToJson(const ShardResult& r) {
  nlohmann::json props = nlohmann::json::array();
  for (const Stats& st : r.properties) {
    props.push_back({{"property", st.property},
                     {"run", st.run},
                     {"holds", st.holds},
                     {"fails", st.fails},
                     {"skipped", st.skipped},
                     {"gen_failures", st.gen_failures},
                     {"decisive", st.decisive},
                     {"sub", ClassesToJson(st.sub)},
                     {"packets", ClassesToJson(st.packets)},
                     {"packet_gain", MapToJson(st.packet_gain)},
                     {"sub_gain", MapToJson(st.sub_gain)},
                     {"runts", MapToJson(st.runts)},
                     {"skip_reasons", MapToJson(st.skip_reasons)},
                     {"seconds", st.seconds}});
  }
  nlohmann::json j = {{"seed", r.seed}, {"cases", r.cases}, {"shard", r.shard}, {"shards", r.shards},
                      {"properties", props}};
  return j.dump(1) + "\n";
}

absl::StatusOr<ShardResult> ShardResultFromJson(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    ShardResult r;
    r.seed = j.at("seed").get<uint64_t>();
    r.cases = j.at("cases").get<int64_t>();
    r.shard = j.at("shard").get<int>();
    r.shards = j.at("shards").get<int>();
    for (const nlohmann::json& p : j.at("properties")) {
      Stats st;
      st.property = p.at("property").get<std::string>();
      st.run = p.at("run").get<uint64_t>();
      st.holds = p.at("holds").get<uint64_t>();
      st.fails = p.at("fails").get<uint64_t>();
      st.skipped = p.at("skipped").get<uint64_t>();
      st.gen_failures = p.at("gen_failures").get<uint64_t>();
      st.decisive = p.at("decisive").get<uint64_t>();
      st.sub = ClassesFromJson(p.at("sub"));
      st.packets = ClassesFromJson(p.at("packets"));
      st.seconds = p.at("seconds").get<double>();
      if (!MapFromJson(p.at("packet_gain"), &st.packet_gain) || !MapFromJson(p.at("sub_gain"), &st.sub_gain) ||
          !MapFromJson(p.at("runts"), &st.runts) || !MapFromJson(p.at("skip_reasons"), &st.skip_reasons)) {
        return absl::InvalidArgumentError("a histogram has a non-numeric key");
      }
      r.properties.push_back(std::move(st));
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("not an explore shard result: ", e.what()));
  }
}

absl::StatusOr<ShardResult> MergeShards(const std::vector<ShardResult>& shards) {
  if (shards.empty()) return absl::InvalidArgumentError("no shard results to merge");
  ShardResult out = shards.front();
  out.properties.clear();
  std::set<int> seen;
  std::vector<std::string> order;
  std::map<std::string, Stats> by_name;
  for (const ShardResult& s : shards) {
    if (s.seed != out.seed || s.cases != out.cases || s.shards != out.shards) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "shard %d/%d (seed %u, %d cases) does not belong with shard %d/%d (seed %u, %d cases)", s.shard, s.shards,
          s.seed, s.cases, shards.front().shard, out.shards, out.seed, out.cases));
    }
    if (!seen.insert(s.shard).second) return absl::InvalidArgumentError(absl::StrFormat("shard %d twice", s.shard));
    for (const Stats& st : s.properties) {
      auto [it, fresh] = by_name.try_emplace(st.property, Stats{});
      if (fresh) {
        order.push_back(st.property);
        it->second.property = st.property;
      }
      it->second.Merge(st);
    }
  }
  for (const std::string& name : order) out.properties.push_back(by_name[name]);
  out.shard = -1;  // merged
  return out;
}

}  // namespace sendsim::props
