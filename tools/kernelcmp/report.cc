#include "tools/kernelcmp/report.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/kernelcmp/repeatability.h"

namespace sendsim::kernelcmp {

namespace {

// Sums over a cell's valid kernel runs, turned into per-message, per-call
// and per-run figures by Finish.
struct RunTotals {
  std::vector<double> packets, sub, acks, rate, autocorks, delayed, srtt, cwnd;
  double call_cpu = 0, calls = 0, read_cpu = 0, read_bytes = 0, reads = 0, thread_cpu = 0, thread_calls = 0,
         thread_call_cpu = 0;
  double delay_runs = 0, p5 = 0, median = 0, mean = 0, service = 0, wakeup = 0, deferred = 0;
  double hold_sum = 0, run_delay = 0, run_delay_calls = 0;
  CallCostFit fit, hold_fit;

  void AddTraffic(const TrafficResult& t) {
    call_cpu += static_cast<double>(t.send_cpu_ns);
    if (t.sender_thread_cpu_ns > 0) {
      thread_cpu += static_cast<double>(t.sender_thread_cpu_ns);
      thread_call_cpu += static_cast<double>(t.send_cpu_ns);
      thread_calls += static_cast<double>(t.send_calls);
    }
    calls += static_cast<double>(t.send_calls);
    if (t.sender_run_delay_ns >= 0) {
      run_delay += static_cast<double>(t.sender_run_delay_ns);
      run_delay_calls += static_cast<double>(t.send_calls);
    }
    read_cpu += static_cast<double>(t.read_cpu_ns);
    read_bytes += static_cast<double>(t.bytes_received);
    reads += static_cast<double>(t.reads);
    fit.Merge(t.call_fit);
  }

  void AddDelays(const DelaySummary& d) {
    ++delay_runs;
    p5 += static_cast<double>(d.p5_ns);
    median += static_cast<double>(d.median_ns);
    mean += static_cast<double>(d.mean_ns);
    service += static_cast<double>(d.rx_service_ns);
    wakeup += static_cast<double>(d.rx_wakeup_ns);
    deferred += static_cast<double>(d.rx_deferred_ns);
  }

  void Add(const RunOutcome& r, const Workload& w, CellSummary* s) {
    packets.push_back(static_cast<double>(r.figures.packets));
    sub.push_back(static_cast<double>(r.figures.sub_mss_packets) / w.messages);
    acks.push_back(static_cast<double>(r.figures.acks) / w.messages);
    rate.push_back(r.figures.BytesPerSecond() / 1e6);
    if (r.traffic.snd_cwnd > 0) {
      srtt.push_back(r.traffic.rtt_us);
      cwnd.push_back(r.traffic.snd_cwnd);
    }
    if (r.traffic.autocorks >= 0) autocorks.push_back(static_cast<double>(r.traffic.autocorks) / w.messages);
    if (r.traffic.delayed_acks >= 0) delayed.push_back(static_cast<double>(r.traffic.delayed_acks) / w.messages);
    s->retransmitted += r.figures.retransmitted_packets;
    AddTraffic(r.traffic);
    if (r.holds.has_value()) {
      s->hold_calls += r.holds->calls;
      hold_sum += r.holds->mean_ns * static_cast<double>(r.holds->calls);
      hold_fit.Merge(r.holds->fit);
    }
    if (r.delays.has_value()) AddDelays(*r.delays);
    for (const auto& [size, n] : r.figures.sizes) s->sizes[size] += n;
  }

  // The CPU per call, its fit, and the socket holds.
  void FinishCalls(CellSummary* s) const {
    if (calls > 0) s->call_cpu_ns = call_cpu / calls;
    if (run_delay_calls > 0) s->run_delay_per_call_ns = run_delay / run_delay_calls;
    if (thread_calls > 0) s->between_calls_cpu_ns = std::max(0.0, (thread_cpu - thread_call_cpu) / thread_calls);
    s->call_samples = fit.samples();
    if (!fit.Fit(&s->call_base_cpu_ns, &s->xmit_cpu_ns_per_segment)) {
      s->call_base_cpu_ns = 0;
      s->xmit_cpu_ns_per_segment = 0;
    }
    if (s->hold_calls > 0) {
      s->hold_mean_ns = hold_sum / static_cast<double>(s->hold_calls);
      s->hold_mean_without_receive_ns = hold_fit.mean_cpu_ns();
      if (!hold_fit.Fit(&s->hold_base_ns, &s->hold_ns_per_segment)) {
        s->hold_base_ns = 0;
        s->hold_ns_per_segment = 0;
      }
    }
  }

  void Finish(const Workload& w, CellSummary* s) const {
    s->packets = Summarize(packets);
    s->sub_mss_per_msg = Summarize(sub);
    s->acks_per_msg = Summarize(acks);
    s->autocorks_per_msg = Summarize(autocorks);
    s->delayed_acks_per_msg = Summarize(delayed);
    s->srtt_us = Summarize(srtt);
    s->snd_cwnd = Summarize(cwnd);
    s->mbytes_per_sec = Summarize(rate);
    s->top_sizes = TopSizes(s->sizes, 3);
    FinishCalls(s);
    if (read_cpu > 0) s->recv_cpu_bytes_per_sec = read_bytes * 1e9 / read_cpu;
    if (delay_runs > 0) {
      s->delay_p5_ns = p5 / delay_runs;
      s->delay_median_ns = median / delay_runs;
      s->delay_mean_ns = mean / delay_runs;
      s->rx_service_ns = service / delay_runs;
      s->rx_wakeup_ns = wakeup / delay_runs;
      s->rx_deferred_ns = deferred / delay_runs;
    }
    if (reads > 0) {
      s->bytes_per_read = read_bytes / reads;
      s->reads_per_msg = reads / (static_cast<double>(s->valid_runs) * w.messages);
    }
  }
};

CellSummary SummarizeRuns(const Cell& c, const Workload& w) {
  CellSummary s;
  RunTotals t;
  for (const RunOutcome& r : c.runs) {
    if (!r.valid) {
      ++s.invalid_runs;
      continue;
    }
    ++s.valid_runs;
    t.Add(r, w, &s);
  }
  t.Finish(w, &s);
  return s;
}

}  // namespace

CellSummary SummarizeCell(const Cell& c, const Workload& w) {
  CellSummary s = c.recorded.has_value() ? *c.recorded : SummarizeRuns(c, w);
  if (c.model.has_value() && s.valid_runs > 0) {
    s.tvd = TotalVariationDistance(s.sizes, c.model->sizes);
    if (s.packets.mean > 0) s.packet_ratio = c.model->packets / s.packets.mean;
  }
  return s;
}

namespace {

// A calibrated time for an unsigned scenario setting, as the signed value
// it was before (a negative fit wraps as the model's cast would).
uint64_t Ns(double x) { return static_cast<uint64_t>(static_cast<int64_t>(x)); }

}  // namespace

void CalibrateFromKernel(const CellSummary& ks, const Calibration& what, ModelSettings* settings) {
  scenario::Scenario* s = &settings->scenario;
  const bool traced = what.hold && ks.hold_calls > 0 && (ks.hold_base_ns > 0 || ks.hold_ns_per_segment > 0);
  if (traced) {
    if (what.call_cost) s->call_cost_ns = Ns(ks.hold_base_ns + 0.5);
    if (what.xmit_cost) s->host.xmit_cost_ns = static_cast<int64_t>(ks.hold_ns_per_segment + 0.5);
    if (what.between_calls && ks.call_cpu_ns > 0) {
      const double beyond = std::max(0.0, ks.call_cpu_ns - ks.hold_mean_without_receive_ns);
      settings->between_calls_ns = static_cast<int64_t>(ks.between_calls_cpu_ns + beyond + 0.5);
      if (what.run_delay) settings->between_calls_ns += static_cast<int64_t>(ks.run_delay_per_call_ns + 0.5);
    }
  }
  const bool split = !traced && what.xmit_cost && ks.xmit_cpu_ns_per_segment > 0;
  if (split) s->host.xmit_cost_ns = static_cast<int64_t>(ks.xmit_cpu_ns_per_segment + 0.5);
  if (what.call_cost && !traced) {
    if (split) {
      s->call_cost_ns = Ns(ks.call_base_cpu_ns + 0.5);
    } else if (ks.call_cpu_ns > 0) {
      s->call_cost_ns = Ns(ks.call_cpu_ns + 0.5);
    }
  }
  if (what.between_calls && !traced && ks.between_calls_cpu_ns > 0) {
    settings->between_calls_ns = static_cast<int64_t>(ks.between_calls_cpu_ns + 0.5);
    if (what.run_delay) settings->between_calls_ns += static_cast<int64_t>(ks.run_delay_per_call_ns + 0.5);
  }
  if (what.read_rate && ks.recv_cpu_bytes_per_sec > 0) {
    s->receiver.app_read_bytes_per_sec = static_cast<uint64_t>(ks.recv_cpu_bytes_per_sec);
  }
  if (what.delay && ks.delay_mean_ns > 0) {
    s->rtt_ns = 2 * Ns(ks.delay_p5_ns + 0.5);  // one way: the p5
    s->host.data_delay_spread_ns = static_cast<int64_t>(std::max(0.0, ks.delay_mean_ns - ks.delay_p5_ns) + 0.5);
    if (what.rx_cpu_queue && (ks.rx_service_ns > 0 || ks.rx_wakeup_ns > 0)) {
      s->host.rx_cpu_service_ns = static_cast<int64_t>(ks.rx_service_ns + 0.5);
      s->host.rx_cpu_wakeup_ns = static_cast<int64_t>(ks.rx_wakeup_ns + 0.5);
      // One backlog on the sender's CPU: the wakeup is the IPI a deferred
      // packet waits for, not the mean over inline and deferred ones.
      if (s->host.rps_backlog_on_sender_cpu && ks.rx_deferred_ns > 0) {
        s->host.rx_cpu_wakeup_ns = static_cast<int64_t>(ks.rx_deferred_ns + 0.5);
      }
    }
  }
  const double r = ks.mbytes_per_sec.n > 0 ? ks.mbytes_per_sec.mean * 1e6 : 0;
  if (what.read_wakeup && r > 0 && ks.recv_cpu_bytes_per_sec > 0 && ks.bytes_per_read > 0) {
    const double w = ks.bytes_per_read / r - ks.bytes_per_read / ks.recv_cpu_bytes_per_sec;
    s->host.app_read_wakeup_ns = w > 0 ? static_cast<int64_t>(w * 1e9 + 0.5) : 0;
  }
}

bool RefitWakeup(const CellSummary& ks, const DelaySummary& model, ModelSettings* settings) {
  model::HostConfig* h = &settings->scenario.host;
  if (h->rx_cpu_wakeup_ns <= 0 || ks.delay_mean_ns <= 0 || model.packets == 0) return false;
  const double want = ks.delay_mean_ns - model.p5_ns;
  const double have = static_cast<double>(model.mean_ns - model.p5_ns);
  if (want <= 0 || have <= 0) return false;
  if (std::abs(model.mean_ns - ks.delay_mean_ns) <= 0.05 * ks.delay_mean_ns) return false;
  const double factor = std::clamp(want / have, 0.25, 4.0);
  h->rx_cpu_wakeup_ns = static_cast<int64_t>(h->rx_cpu_wakeup_ns * factor + 0.5);
  return true;
}

namespace {

std::string Range(const Summary& s, const char* fmt) {
  if (s.n == 0) return "-";
  return absl::StrFormat("%s [%s-%s]", absl::StrFormat(fmt, s.mean), absl::StrFormat(fmt, s.min),
                         absl::StrFormat(fmt, s.max));
}

std::string Top(const std::vector<std::pair<uint32_t, uint64_t>>& top) {
  std::vector<std::string> parts;
  for (const auto& [size, n] : top) parts.push_back(absl::StrFormat("%u", size));
  return parts.empty() ? "-" : absl::StrJoin(parts, ",");
}

}  // namespace

std::optional<GoalVerdict> JudgeGoal(const CellSummary& kernel, double sub_mss_per_msg, const SizeHistogram& sizes) {
  if (kernel.valid_runs == 0 || kernel.sub_mss_per_msg.n == 0) return std::nullopt;
  // Recorded ranges come back from JSON text: allow for the last digit.
  constexpr double kEps = 1e-9;
  GoalVerdict v;
  v.inside_range = sub_mss_per_msg >= kernel.sub_mss_per_msg.min - kEps &&
                   sub_mss_per_msg <= kernel.sub_mss_per_msg.max + kEps;
  std::vector<uint32_t> want, have;
  for (const auto& [size, n] : kernel.top_sizes) want.push_back(size);
  for (const auto& [size, n] : TopSizes(sizes, 3)) have.push_back(size);
  v.same_top3 = want == have;
  v.tvd = TotalVariationDistance(kernel.sizes, sizes);
  return v;
}

std::optional<GoalVerdict> ModelGoal(const Cell& c, const Workload& w) {
  if (!c.model.has_value()) return std::nullopt;
  return JudgeGoal(SummarizeCell(c, w), c.model->sub_mss_per_msg, c.model->sizes);
}

std::optional<GoalVerdict> ReferenceGoal(const Cell& c, const Workload& w) {
  if (!c.reference.has_value() || c.reference->valid_runs == 0) return std::nullopt;
  return JudgeGoal(SummarizeCell(c, w), c.reference->sub_mss_per_msg.mean, c.reference->sizes);
}

namespace {

std::string GoalLine(const char* who, const std::vector<std::optional<GoalVerdict>>& verdicts) {
  int cells = 0, met = 0, inside = 0, top3 = 0, tvd_ok = 0;
  double tvd = 0;
  for (const auto& v : verdicts) {
    if (!v.has_value()) continue;
    ++cells;
    met += v->met() ? 1 : 0;
    inside += v->inside_range ? 1 : 0;
    top3 += v->same_top3 ? 1 : 0;
    tvd_ok += v->tvd <= kGoalTvd ? 1 : 0;
    tvd += v->tvd;
  }
  if (cells == 0) return "";
  return absl::StrFormat(
      "goal, %s: met in %d of %d cells (inside the kernel's range %d, same top 3 sizes %d, tvd <= %.2f %d; "
      "mean tvd %.4f)\n",
      who, met, cells, inside, top3, kGoalTvd, tvd_ok, tvd / cells);
}

// The table's goal column: "yes", or the parts that fail.
std::string GoalCell(const std::optional<GoalVerdict>& v) {
  if (!v.has_value()) return "n/a";
  if (v->met()) return "yes";
  std::vector<std::string> fail;
  if (!v->inside_range) fail.push_back("range");
  if (!v->same_top3) fail.push_back("top3");
  if (v->tvd > kGoalTvd) fail.push_back("tvd");
  return absl::StrJoin(fail, ",");
}

}  // namespace

std::string FormatGoalSummary(const std::vector<Cell>& cells, const Workload& w) {
  std::vector<std::optional<GoalVerdict>> model, reference;
  for (const Cell& c : cells) {
    model.push_back(ModelGoal(c, w));
    reference.push_back(ReferenceGoal(c, w));
  }
  return GoalLine("the model", model) +
         GoalLine("the reference recording's kernel runs (--reference_json) in the model's place", reference);
}

std::string FormatTable(const std::vector<Cell>& cells, const Workload& w, bool tso) {
  std::string out = absl::StrFormat(
      "workload: %u messages x (prefix %u + data %u + footer %u) bytes; TSO %s; "
      "mean [min-max] over valid runs\n",
      w.messages, w.prefix_bytes, w.message_bytes, w.footer_bytes, tso ? "on (split)" : "off");
  absl::StrAppendFormat(
      &out, "%-11s %-11s %-18s %5s %-22s %-20s %-15s %5s %6s %6s %8s %8s %-15s %6s %6s %6s %6s %-13s %s\n",
      "variant", "io", "placement", "runs", "kernel packets", "sub-MSS/msg", "top sizes", "rtx",
      "MB/s", "acks", "model pk", "model sm", "model top", "m acks", "m MB/s", "tvd", "ratio", "verdict", "goal");
  for (const Cell& c : cells) {
    CellSummary s = SummarizeCell(c, w);
    std::string runs = absl::StrFormat("%u/%u", s.valid_runs, s.valid_runs + s.invalid_runs);
    absl::StrAppendFormat(
        &out, "%-11s %-11s %-18s %5s %-22s %-20s %-15s %5u %6s %6s %8s %8s %-15s %6s %6s %6s %6s %-13s %s\n",
        VariantName(c.variant), IoModeName(c.io), PlacementName(c.placement), runs,
        Range(s.packets, "%.0f"), Range(s.sub_mss_per_msg, "%.2f"), Top(s.top_sizes),
        s.retransmitted, s.mbytes_per_sec.n ? absl::StrFormat("%.0f", s.mbytes_per_sec.mean) : "-",
        s.acks_per_msg.n ? absl::StrFormat("%.1f", s.acks_per_msg.mean) : "-",
        c.model ? absl::StrFormat("%u", c.model->packets) : "n/a",
        c.model ? absl::StrFormat("%.2f", c.model->sub_mss_per_msg) : "n/a",
        c.model ? Top(TopSizes(c.model->sizes, 3)) : "n/a",
        c.model ? absl::StrFormat("%.1f", static_cast<double>(c.model->acks) / w.messages)
                : "n/a",
        c.model ? absl::StrFormat("%.0f", c.model->bytes_per_sec / 1e6) : "n/a",
        s.tvd ? absl::StrFormat("%.3f", *s.tvd) : "n/a",
        s.packet_ratio ? absl::StrFormat("%.3f", *s.packet_ratio) : "n/a",
        RepeatabilityCell(ModelRepeatability(c, w)), GoalCell(ModelGoal(c, w)));
  }
  // The headline: within the kernel's own spread between two recordings;
  // the per-recording goal after it.
  out += FormatRepeatabilitySummary(cells, w);
  out += FormatGoalSummary(cells, w);
  for (const Cell& c : cells) {
    for (size_t i = 0; i < c.runs.size(); ++i) {
      if (!c.runs[i].valid) {
        absl::StrAppendFormat(&out, "invalid: %s %s %s run %u: %s\n", VariantName(c.variant),
                              IoModeName(c.io), PlacementName(c.placement), i + 1,
                              c.runs[i].invalid_reason);
      }
    }
  }
  std::vector<std::string> errors;
  for (const Cell& c : cells) {
    if (c.model || std::find(errors.begin(), errors.end(), c.model_error) != errors.end()) continue;
    errors.push_back(c.model_error);
    absl::StrAppendFormat(&out, "model: %s\n", c.model_error);
  }
  return out;
}

namespace {

// {"size": packets, ...}: the whole payload-size distribution.
nlohmann::json SizesJson(const SizeHistogram& h) {
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [size, n] : h) o[absl::StrFormat("%u", size)] = n;
  return o;
}

nlohmann::json RepeatabilityJson(const std::optional<RepeatabilityVerdict>& v) {
  if (!v.has_value()) return nullptr;
  return {{"met", v->met()},
          {"sub_mss_per_msg_band", {{"min", v->band_min}, {"max", v->band_max}}},
          {"inside_band", v->inside_band},
          {"top3_seen", v->top3_seen},
          {"tvd", v->tvd},
          {"tvd_tolerance", v->tvd_tolerance},
          {"tvd_within", v->tvd_within}};
}

nlohmann::json GoalJson(const std::optional<GoalVerdict>& v) {
  if (!v.has_value()) return nullptr;
  return {{"met", v->met()}, {"inside_range", v->inside_range}, {"same_top3", v->same_top3}, {"tvd", v->tvd}};
}

}  // namespace

namespace {

nlohmann::json RangeJson(const Summary& x) {
  if (x.n == 0) return nullptr;
  return {{"mean", x.mean}, {"min", x.min}, {"max", x.max}};
}

nlohmann::json TopSizesJson(const std::vector<std::pair<uint32_t, uint64_t>>& top) {
  nlohmann::json t = nlohmann::json::array();
  for (const auto& [size, n] : top) t.push_back({{"size", size}, {"packets", n}});
  return t;
}

// The cell's key, workload and the kernel side (what --kernel_json reads back).
nlohmann::json KernelJson(const Cell& c, const CellSummary& s, const Workload& w, bool tso) {
  auto range = RangeJson;
  const nlohmann::json top = TopSizesJson(s.top_sizes);
  nlohmann::json invalid = nlohmann::json::array();
  for (const RunOutcome& r : c.runs) {
    if (!r.valid) invalid.push_back(r.invalid_reason);
  }
  return {
        {"variant", std::string(VariantName(c.variant))},
        {"io", std::string(IoModeName(c.io))},
        {"placement", std::string(PlacementName(c.placement))},
        {"workload", {{"messages", w.messages},
                      {"message_bytes", w.message_bytes},
                      {"prefix_bytes", w.prefix_bytes},
                      {"footer_bytes", w.footer_bytes},
                      {"tso", tso}}},
        {"valid_runs", s.valid_runs},
        {"invalid_runs", invalid},
        {"kernel_packets", s.packets.n ? nlohmann::json(s.packets.mean) : nlohmann::json()},
        {"kernel_packets_range", range(s.packets)},
        {"kernel_sub_mss_per_msg", range(s.sub_mss_per_msg)},
        {"kernel_top_sizes", top},
        {"kernel_sizes", SizesJson(s.sizes)},
        {"kernel_retransmitted", s.retransmitted},
        {"kernel_acks_per_msg", range(s.acks_per_msg)},
        {"kernel_autocorks_per_msg", range(s.autocorks_per_msg)},
        {"kernel_delayed_acks_per_msg", range(s.delayed_acks_per_msg)},
        {"kernel_srtt_us", range(s.srtt_us)},
        {"kernel_snd_cwnd", range(s.snd_cwnd)},
        {"kernel_call_cpu_us", s.call_cpu_ns > 0 ? nlohmann::json(s.call_cpu_ns / 1e3) : nlohmann::json()},
        {"kernel_call_samples", s.call_samples},
        {"kernel_between_calls_cpu_us",
         s.between_calls_cpu_ns > 0 ? nlohmann::json(s.between_calls_cpu_ns / 1e3) : nlohmann::json()},
        {"kernel_call_base_cpu_us",
         s.xmit_cpu_ns_per_segment > 0 ? nlohmann::json(s.call_base_cpu_ns / 1e3) : nlohmann::json()},
        {"kernel_sender_run_delay_us_per_call",
         s.run_delay_per_call_ns > 0 ? nlohmann::json(s.run_delay_per_call_ns / 1e3) : nlohmann::json()},
        {"kernel_call_hold_us",
         s.hold_calls > 0 ? nlohmann::json({{"calls", s.hold_calls},
                                             {"mean", s.hold_mean_ns / 1e3},
                                             {"mean_without_receive", s.hold_mean_without_receive_ns / 1e3},
                                             {"base", s.hold_base_ns / 1e3},
                                             {"per_segment", s.hold_ns_per_segment / 1e3}})
                          : nlohmann::json()},
        {"kernel_xmit_cpu_us_per_segment",
         s.xmit_cpu_ns_per_segment > 0 ? nlohmann::json(s.xmit_cpu_ns_per_segment / 1e3) : nlohmann::json()},
        {"kernel_backlog_delay_us",
         s.delay_mean_ns > 0 ? nlohmann::json({{"p5", s.delay_p5_ns / 1e3},
                                                {"median", s.delay_median_ns / 1e3},
                                                {"mean", s.delay_mean_ns / 1e3},
                                                {"rx_cpu_service", s.rx_service_ns / 1e3},
                                                {"rx_cpu_wakeup", s.rx_wakeup_ns / 1e3},
                                                {"rx_deferred", s.rx_deferred_ns / 1e3}})
                             : nlohmann::json()},
        {"kernel_reads_per_msg", s.reads_per_msg > 0 ? nlohmann::json(s.reads_per_msg) : nlohmann::json()},
        {"kernel_recv_cpu_mbytes_per_sec",
         s.recv_cpu_bytes_per_sec > 0 ? nlohmann::json(s.recv_cpu_bytes_per_sec / 1e6) : nlohmann::json()},
        {"kernel_mbytes_per_sec", range(s.mbytes_per_sec)},
  };
}

// The model's side and the comparison.
nlohmann::json ModelJson(const Cell& c, const CellSummary& s, const Workload& w) {
  return {
        {"model_settings", c.model_settings},
        {"model_packets", c.model ? nlohmann::json(c.model->packets) : nlohmann::json()},
        {"model_sub_mss_per_msg",
         c.model ? nlohmann::json(c.model->sub_mss_per_msg) : nlohmann::json()},
        {"model_autocorks_per_msg",
         c.model ? nlohmann::json(static_cast<double>(c.model->autocorks) / w.messages) : nlohmann::json()},
        {"model_delayed_acks_per_msg",
         c.model ? nlohmann::json(static_cast<double>(c.model->delayed_acks) / w.messages) : nlohmann::json()},
        {"model_backlog_delay_us",
         c.model && c.model->delays.packets > 0
             ? nlohmann::json({{"p5", c.model->delays.p5_ns / 1e3},
                               {"median", c.model->delays.median_ns / 1e3},
                               {"mean", c.model->delays.mean_ns / 1e3},
                               {"rx_cpu_service", c.model->delays.rx_service_ns / 1e3},
                               {"rx_cpu_wakeup", c.model->delays.rx_wakeup_ns / 1e3}})
             : nlohmann::json()},
        {"model_mbytes_per_sec", c.model ? nlohmann::json(c.model->bytes_per_sec / 1e6) : nlohmann::json()},
        {"model_srtt_us", c.model ? nlohmann::json(c.model->rtt_us) : nlohmann::json()},
        {"model_snd_cwnd", c.model ? nlohmann::json(c.model->snd_cwnd) : nlohmann::json()},
        {"model_acks_per_msg",
         c.model ? nlohmann::json(static_cast<double>(c.model->acks) / w.messages)
                 : nlohmann::json()},
        {"model_top_sizes", c.model ? TopSizesJson(TopSizes(c.model->sizes, 3)) : nlohmann::json()},
        {"model_sizes", c.model ? SizesJson(c.model->sizes) : nlohmann::json()},
        {"model_sub_mss_by_push", c.model ? nlohmann::json(c.model->sub_mss_by_reason) : nlohmann::json()},
        {"tvd", s.tvd ? nlohmann::json(*s.tvd) : nlohmann::json()},
        {"model_goal", GoalJson(ModelGoal(c, w))},
        {"packet_ratio", s.packet_ratio ? nlohmann::json(*s.packet_ratio) : nlohmann::json()},
  };
}

}  // namespace

std::string FormatJson(const std::vector<Cell>& cells, const Workload& w, bool tso) {
  nlohmann::json entries = nlohmann::json::array();
  for (const Cell& c : cells) {
    const CellSummary s = SummarizeCell(c, w);
    nlohmann::json e = KernelJson(c, s, w, tso);
    e.update(ModelJson(c, s, w));
    if (c.reference.has_value()) {
      e["reference_sub_mss_per_msg"] = RangeJson(c.reference->sub_mss_per_msg);
      e["reference_goal"] = GoalJson(ReferenceGoal(c, w));
      e["model_repeatability"] = RepeatabilityJson(ModelRepeatability(c, w));
    }
    entries.push_back(e);
  }
  return entries.dump(2) + "\n";
}

}  // namespace sendsim::kernelcmp
