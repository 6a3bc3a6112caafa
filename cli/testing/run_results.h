#ifndef SENDSIM_CLI_TESTING_RUN_RESULTS_H_
#define SENDSIM_CLI_TESTING_RUN_RESULTS_H_

// Hand-made RunResults for report tests: a writer's size histogram on
// linux-4.19 at MSS 1448, with its packet and sub-MSS totals.

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "cli/run_result.h"

namespace sendsim::cli::testing {

inline RunResult WriterRun(const std::string& name, std::map<uint32_t, uint64_t> histogram, uint64_t messages = 0) {
  RunResult r;
  r.writer = name;
  r.kernel = "linux-4.19";
  r.mss = 1448;
  r.messages = messages;
  r.histogram = std::move(histogram);
  for (const auto& [size, count] : r.histogram) {
    r.packets += count;
    if (size < r.mss) r.sub_mss_packets += count;
  }
  return r;
}

}  // namespace sendsim::cli::testing

#endif  // SENDSIM_CLI_TESTING_RUN_RESULTS_H_
