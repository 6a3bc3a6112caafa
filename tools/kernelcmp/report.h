#ifndef SENDSIM_TOOLS_KERNELCMP_REPORT_H_
#define SENDSIM_TOOLS_KERNELCMP_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/kernelcmp/model_figures.h"
#include "tools/kernelcmp/runner.h"
#include "tools/kernelcmp/stats.h"
#include "tools/kernelcmp/workload.h"

namespace sendsim::kernelcmp {

// All repeats of one (variant, io mode, placement) and the model beside them.
struct Cell {
  Variant variant = Variant::kV1Splice;
  IoMode io = IoMode::kNonBlocking;
  Placement placement = Placement::kSenderCpu;
  std::vector<RunOutcome> runs;           // valid and invalid
  std::optional<ModelFigures> model;      // absent: model unavailable
  std::string model_error;                // why it is absent
  std::string model_settings;             // what the model ran with
};

// Figures over the valid runs of a cell.
struct CellSummary {
  size_t valid_runs = 0;
  size_t invalid_runs = 0;
  Summary packets;
  Summary sub_mss_per_msg;
  uint64_t retransmitted = 0;
  SizeHistogram sizes;                    // summed over valid runs
  std::vector<std::pair<uint32_t, uint64_t>> top_sizes;  // top 3 of `sizes`
  std::optional<double> tvd;              // vs the model
  std::optional<double> packet_ratio;     // model packets / kernel mean packets
  Summary mbytes_per_sec;                 // kernel data rate (capture first..last data packet)
};
CellSummary SummarizeCell(const Cell& c, const Workload& w);

std::string FormatTable(const std::vector<Cell>& cells, const Workload& w, bool tso);
std::string FormatJson(const std::vector<Cell>& cells, const Workload& w, bool tso);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_REPORT_H_
