#ifndef SENDSIM_PROPS_EXPLORE_LIB_H_
#define SENDSIM_PROPS_EXPLORE_LIB_H_

// Case i of an exploration: a pure function of (limits, seed, i), so any
// process, shard or machine draws the same case for the same index.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "props/properties.h"

#include "props/case.h"
#include "props/draws.h"
#include "props/generators.h"

namespace sendsim::props {

uint64_t CaseKey(uint64_t seed, uint64_t i);
// RapidCheck-style size of case i: 0..100, cycling, so that every stretch of
// cases has small and large ones.
int CaseSize(uint64_t i);

class CaseGenerator {
 public:
  explicit CaseGenerator(CaseLimits limits);
  // nullopt when the draw is discarded; `choices` (optional) gets the draw's
  // recorded choices, for ShrinkChoices.
  std::optional<Case> Draw(uint64_t seed, uint64_t i, std::vector<uint64_t>* choices = nullptr) const;
  // The case a (shrunk) choice sequence gives at `size`.
  std::optional<Case> Replay(const std::vector<uint64_t>& choices, int size) const;

 private:
  CaseLimits limits_;
};

// strict / equal / reversed counts of "claimed better" vs "other".
struct Classes {
  uint64_t strict = 0, equal = 0, reversed = 0;
  void Add(int64_t better, int64_t other);
  std::string Format() const;
};

// One property's results over the cases an explorer process ran; shards'
// Stats add up (Merge) to what one process would have counted, whatever
// the shard count, because case i depends on (seed, i) alone.
struct Stats {
  std::string property;
  uint64_t run = 0, holds = 0, fails = 0, skipped = 0, gen_failures = 0;
  uint64_t decisive = 0;  // judged cases with PropertyResult::decisive
  Classes sub, packets;
  std::map<int64_t, uint64_t> packet_gain;  // other - better, in packets
  std::map<int64_t, uint64_t> sub_gain;     // other - better, in sub-MSS segments
  std::map<uint32_t, uint64_t> runts;       // runt size -> count (primary run)
  std::map<std::string, uint64_t> skip_reasons;
  double seconds = 0;  // wall clock, for throughput only

  void Add(const PropertyResult& r);
  void Merge(const Stats& other);
};

// Wilson score interval (95 %) of k successes in n trials, as fractions.
struct Interval {
  double lo = 0, hi = 0;
};
Interval Wilson(uint64_t k, uint64_t n);
// "12.3 % [11.0, 13.7]" (n = 0: "n/a").
std::string ShareWithInterval(uint64_t k, uint64_t n);

// The harness's vacuity floors for one property: of the cases drawn (run +
// generator discards) at least `min_judged_share` judged (held or failed),
// and of the judged at least `min_decisive_share` decisive. Empty when
// both hold (or nothing was drawn); else one line naming the shortfall.
struct Floors {
  double min_judged_share = 0;
  double min_decisive_share = 0;
};
std::string FloorViolation(const Stats& st, const Floors& floors);

// Text summary as `explore` prints it (`throughput` adds the cases/s line).
std::string FormatStats(const Stats& st, const std::string& summary, bool throughput);

// One explorer process's results: what `--json_out` writes and `--merge`
// reads.
struct ShardResult {
  uint64_t seed = 0;
  int64_t cases = 0;
  int shard = 0, shards = 1;
  std::vector<Stats> properties;
};
std::string ShardResultToJson(const ShardResult& r);
absl::StatusOr<ShardResult> ShardResultFromJson(const std::string& text);
// Adds `shards` property by property; they must share seed, cases and shard
// count and cover distinct shards.
absl::StatusOr<ShardResult> MergeShards(const std::vector<ShardResult>& shards);

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_EXPLORE_LIB_H_
