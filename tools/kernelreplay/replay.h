#ifndef SENDSIM_TOOLS_KERNELREPLAY_REPLAY_H_
#define SENDSIM_TOOLS_KERNELREPLAY_REPLAY_H_

// The map's cases on a real kernel and on the model: a stratified sample of
// the map's cells (props/map.h), every writer the kernel can express, the
// kernel's packet sizes (kernel_case.h, inside a UML guest) beside the
// model's for the same case on the kernel's profile, and the per-cell
// agreement: the same packet-size sequence, the same sub-MSS count, the same
// verdict on which of NOTLAST and MORE-only sends fewer runts.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "props/case.h"

namespace sendsim::kernelreplay {

struct ReplayRun {
  std::string writer;
  std::vector<uint32_t> kernel, model;  // first transmissions' payload sizes, in wire order
  bool kernel_completed = false, model_completed = false;
  std::string kernel_error;  // the run failed (no sizes)
};

struct ReplayCase {
  uint64_t index = 0;  // draw index within the cell
  props::Case c;       // as replayed (KernelExpressible, the series' profile)
  std::vector<ReplayRun> runs;  // KernelWriters order
};

struct ReplayCell {
  std::string axis, value;
  std::vector<ReplayCase> cases;
};

struct Recording {
  std::string series;   // "6.1" or "6.12"
  std::string release;  // uname -r of the guest
  std::string profile;  // model profile
  uint64_t seed = 1;
  int64_t cases_per_cell = 50;
  std::vector<ReplayCell> cells;
};

// The model profile of a UML series; error for another series.
absl::StatusOr<std::string> ProfileForSeries(const std::string& series);
// The writers the series can express through user space (realsock's
// FdSocket): on 6.1 the sendpage writers (NOTLAST by splice, MORE-only as
// v1-more), v1-sendmsg and v2; on 6.12 (no sendpage) v1-splice
// (MSG_SPLICE_PAGES by splice), v1-sendmsg and v2.
std::vector<props::Writer> KernelWriters(const std::string& series);
// The stratified sample: one or more cells per axis that can differ on a
// real kernel.
std::vector<std::pair<std::string, std::string>> DefaultCells();
// "axis=value;axis=value" -> cells.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ParseCells(const std::string& s);

// The sample's cases, no runs yet.
absl::StatusOr<Recording> SampleCells(const std::string& series, const std::vector<std::pair<std::string, std::string>>& cells,
                                      int64_t cases_per_cell, uint64_t seed);
// The writer's case: KernelWriters' writer on the case.
props::Case WriterCase(const props::Case& c, const std::string& writer);
// The model's side of one run.
absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> ModelSizes(const props::Case& c);
// Fills every run's model side.
absl::Status FillModel(Recording* r);
// Runs whose recorded model side differs from the model's now ("cell case
// writer: recorded N packets, now M").
std::vector<std::string> ModelDrift(const Recording& r, int64_t max_cases_per_cell = -1);

// Run-length text of sizes ("1448x3 200 1448") and back.
std::string EncodeSizes(const std::vector<uint32_t>& v);
absl::StatusOr<std::vector<uint32_t>> DecodeSizes(const std::string& s);
uint64_t Runts(const std::vector<uint32_t>& v, uint32_t mss);

std::string ToJson(const Recording& r);
absl::StatusOr<Recording> FromJson(const std::string& text);

// Per cell and overall: runs, same sizes, same runt count, same verdict;
// and the same over the runs without CPU costs (call and crc 0).
std::string AgreementTable(const Recording& r);
// Disagreeing runs of zero-cost cases (call and crc 0; every case of the
// quiescent cell), as fixture text: the case, the two size sequences and
// why (ExplainQuiescent) as comments.
// The named kernel difference behind a quiescent disagreement, when the
// model shows it. A case without the tun device (recorded before tun=1):
// the same case with autocorking off (what a tun's immediate skb free gives
// the kernel) gives the kernel's sizes, or TSQ held. With tun=1 neither can
// hold; the model's counters that did act are listed.
std::string ExplainQuiescent(const props::Case& c, const std::vector<uint32_t>& kernel);
std::vector<std::pair<std::string, std::string>> QuiescentDisagreements(const Recording& r);

}  // namespace sendsim::kernelreplay

#endif  // SENDSIM_TOOLS_KERNELREPLAY_REPLAY_H_
