#ifndef SENDSIM_CLI_SVG_PLOT_H_
#define SENDSIM_CLI_SVG_PLOT_H_

#include <string>
#include <vector>

#include "cli/run_result.h"

namespace sendsim::cli {

// --plot: the writers' packet-size histograms as grouped bars (one group per
// size, one bar per writer) on a log-scale count axis, with labelled axes
// and a legend. Sizes shown: the union of every writer's most frequent
// sizes (at most kPlotMaxSizes), in ascending order. Each writer's bars are
// one <g class="series" data-writer="..."> element.
inline constexpr int kPlotTopPerWriter = 8;
inline constexpr int kPlotMaxSizes = 24;

std::string RenderSizeHistogramSvg(const std::vector<RunResult>& results, const std::string& title);

// XML text/attribute escaping.
std::string XmlEscape(const std::string& s);

}  // namespace sendsim::cli

#endif  // SENDSIM_CLI_SVG_PLOT_H_
