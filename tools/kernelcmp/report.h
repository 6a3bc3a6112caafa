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

// Figures over the valid runs of a cell.
struct CellSummary {
  size_t valid_runs = 0;
  size_t invalid_runs = 0;
  Summary packets;
  Summary sub_mss_per_msg;
  Summary acks_per_msg;                   // the receiver's pure ACKs per message
  // MIB counters per message (traffic.h), over the runs that read them.
  Summary autocorks_per_msg;
  Summary delayed_acks_per_msg;
  // The sender's tcp_info at the end of each run.
  Summary srtt_us;
  Summary snd_cwnd;
  uint64_t retransmitted = 0;
  SizeHistogram sizes;                    // summed over valid runs
  std::vector<std::pair<uint32_t, uint64_t>> top_sizes;  // top 3 of `sizes`
  std::optional<double> tvd;              // vs the model
  std::optional<double> packet_ratio;     // model packets / kernel mean packets
  Summary mbytes_per_sec;                 // kernel data rate (capture first..last data packet)
  // The testbed's own costs, pooled over the valid runs (0 when unmeasured):
  double call_cpu_ns = 0;                 // sender thread CPU per send-family call
  // The sender thread's CPU between two calls (the replay loop, the timing
  // and sampling syscalls): the socket is not held then.
  double between_calls_cpu_ns = 0;
  // The sender thread's wait for its CPU per call (schedstat run_delay):
  // with a non-preemptible kernel it waits at the return to user space,
  // between calls, socket free. 0 when unmeasured.
  double run_delay_per_call_ns = 0;
  // The same split by a least-squares fit over sampled calls (call_fit.h):
  // fixed part and part per segment sent; both 0 when the fit failed.
  uint64_t call_samples = 0;
  double call_base_cpu_ns = 0;
  double xmit_cpu_ns_per_segment = 0;
  // The sender's socket holds from the call trace (call_trace.h), pooled
  // over the runs that traced them: the mean over all calls, and base + per
  // segment over the calls without receive work inline; 0 when unmeasured.
  uint64_t hold_calls = 0;
  double hold_mean_ns = 0;
  double hold_mean_without_receive_ns = 0;
  double hold_base_ns = 0;
  double hold_ns_per_segment = 0;
  double recv_cpu_bytes_per_sec = 0;      // bytes the receiver copies per second of recv CPU
  double bytes_per_read = 0;              // bytes per recv call that returned data
  double reads_per_msg = 0;
  // Receive-backlog delay (delay_trace.h), averaged over the valid runs that
  // measured it: p5 (the base) and mean; 0 when none did.
  double delay_p5_ns = 0;
  double delay_median_ns = 0;
  double delay_mean_ns = 0;
  // The receiving CPU as a queue (DelaySummary), averaged the same way.
  double rx_service_ns = 0;
  double rx_wakeup_ns = 0;
  double rx_deferred_ns = 0;  // DelaySummary::rx_deferred_ns, averaged the same way
};

// All repeats of one (variant, io mode, placement) and the model beside them.
struct Cell {
  Variant variant = Variant::kV1Splice;
  IoMode io = IoMode::kNonBlocking;
  Placement placement = Placement::kSenderCpu;
  std::vector<RunOutcome> runs;           // valid and invalid
  std::optional<ModelFigures> model;      // absent: model unavailable
  std::string model_error;                // why it is absent
  std::string model_settings;             // what the model ran with
  // The kernel side read back from an earlier run (--kernel_json) in place
  // of `runs`.
  std::optional<CellSummary> recorded;
  // Another recording's kernel side of the same cell (--reference_json),
  // judged against this cell's kernel ranges as the model is: how close
  // the kernel comes to itself, the most any model can reach.
  std::optional<CellSummary> reference;
};

// The comparison's goal for one cell: a candidate (the model, or another
// recording's kernel runs) meets it when its sub-MSS packets per message
// lie inside the kernel's measured [min, max], its 3 most frequent payload
// sizes are the kernel's in the same order, and the total variation
// distance of the two size distributions is at most kGoalTvd.
inline constexpr double kGoalTvd = 0.05;
struct GoalVerdict {
  bool inside_range = false;
  bool same_top3 = false;
  double tvd = 1;
  bool met() const { return inside_range && same_top3 && tvd <= kGoalTvd; }
};
// nullopt when the kernel side has no valid run.
std::optional<GoalVerdict> JudgeGoal(const CellSummary& kernel, double sub_mss_per_msg, const SizeHistogram& sizes);
// The model's and the reference's verdicts for a cell (nullopt when absent).
std::optional<GoalVerdict> ModelGoal(const Cell& c, const Workload& w);
std::optional<GoalVerdict> ReferenceGoal(const Cell& c, const Workload& w);
// One line per candidate that has verdicts: how many cells meet the goal
// and each of its parts, and the mean tvd.
std::string FormatGoalSummary(const std::vector<Cell>& cells, const Workload& w);

// Figures over the valid runs (or the recorded summary), and the
// distances to the model.
CellSummary SummarizeCell(const Cell& c, const Workload& w);

// What of the model's network comes from the kernel cell's measurements
// (flags may pin any of them instead).
struct Calibration {
  bool call_cost = true;    // scenario.call_cost_ns = the sender's CPU per call (or the fit's base)
  bool xmit_cost = true;    // xmit_cost_ns = the fit's part per segment
  // Take the two above from the traced socket holds when measured (else
  // from the CPU fit), and count the thread's CPU beyond them between calls.
  bool hold = false;
  bool between_calls = true;  // between_calls_ns = the sender's CPU between calls
  bool run_delay = true;      // ... plus its wait for the CPU per call
  bool read_rate = true;    // app_read_bytes_per_sec = the receiver's copy rate
  bool read_wakeup = true;  // read_wakeup_ns: see CalibrateFromKernel
  bool delay = true;        // one-way delay (rtt_ns / 2) = p5, and the spread or the queue below
  // The data path's delay as the receiving CPU's queue (rx_cpu_service_ns,
  // rx_cpu_wakeup_ns) when measured; false: base + exponential spread.
  bool rx_cpu_queue = true;
};
// Sets the model's sender and reader from a kernel cell. With traced socket
// holds (and `hold`), a call holds the socket for the holds' base plus
// their part per segment sent, and the sender thread's CPU per call beyond
// what that reproduces on average (the mean hold of the calls without
// receive work inline: softirq work charged to the thread, the timing
// syscalls) is added to the CPU between calls, where the socket is free. Otherwise, with the
// call fit (and xmit_cost), a call costs the fit's base plus its part per
// segment sent; without it, the mean CPU per call, flat. The reader's wakeup
// latency W follows from a read cycle: a sleeping reader wakes W after new
// data, then copies what came meanwhile, B = R * (W + B / C) bytes at data
// rate R and copy rate C, so W = B / R - B / C (0 if negative). The data
// path's delay has the measured p5 as its base, then either the receiving
// CPU's queue (service time and wakeup as measured, rx_cpu_queue) or an
// exponential spread of mean = measured mean - p5. No-op for what the cell
// did not measure.
void CalibrateFromKernel(const CellSummary& ks, const Calibration& what, ModelSettings* s);

// One step of matching the model's receive delay to the kernel's: after a
// model run whose own delays (measured like the kernel's) are `model`, scale
// the receiving CPU's wakeup so that the mean delay moves to the kernel's:
// wakeup x (kernel mean - model p5) / (model mean - model p5), the factor
// held to [1/4, 4]. False (settings untouched) when there is nothing to
// match (no queue, no measurement) or the means agree within 5 %.
bool RefitWakeup(const CellSummary& ks, const DelaySummary& model, ModelSettings* s);

std::string FormatTable(const std::vector<Cell>& cells, const Workload& w, bool tso);
std::string FormatJson(const std::vector<Cell>& cells, const Workload& w, bool tso);

}  // namespace sendsim::kernelcmp

#endif  // SENDSIM_TOOLS_KERNELCMP_REPORT_H_
