#include "tools/kernelcmp/recorded.h"

#include <nlohmann/json.hpp>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tools/kernelcmp/stats.h"

namespace sendsim::kernelcmp {
namespace {

using Json = nlohmann::json;

// Reads entry[key] as a number (absent or null: `fallback` when optional).
absl::Status Number(const Json& e, const char* key, bool optional, double* out) {
  auto it = e.find(key);
  if (it == e.end() || it->is_null()) {
    if (optional) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrFormat("missing %s", key));
  }
  if (!it->is_number()) return absl::InvalidArgumentError(absl::StrFormat("%s is not a number", key));
  *out = it->get<double>();
  return absl::OkStatus();
}

absl::Status Range(const Json& e, const char* key, size_t n, Summary* out) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_object()) return absl::InvalidArgumentError(absl::StrFormat("missing %s", key));
  for (const char* k : {"mean", "min", "max"}) {
    auto v = it->find(k);
    if (v == it->end() || !v->is_number()) {
      return absl::InvalidArgumentError(absl::StrFormat("%s.%s is not a number", key, k));
    }
  }
  out->mean = (*it)["mean"].get<double>();
  out->min = (*it)["min"].get<double>();
  out->max = (*it)["max"].get<double>();
  out->n = n;
  return absl::OkStatus();
}

// The same for a field a JSON may lack (older, or unmeasured): left empty.
absl::Status OptionalRange(const Json& e, const char* key, size_t n, Summary* out) {
  auto it = e.find(key);
  if (it == e.end() || it->is_null()) return absl::OkStatus();
  return Range(e, key, n, out);
}

absl::Status Sizes(const Json& e, SizeHistogram* out) {
  auto it = e.find("kernel_sizes");
  if (it == e.end() || !it->is_object()) {
    return absl::InvalidArgumentError("missing kernel_sizes (a JSON from before the field existed?)");
  }
  for (const auto& [k, v] : it->items()) {
    uint32_t size = 0;
    if (!absl::SimpleAtoi(k, &size) || !v.is_number_unsigned()) {
      return absl::InvalidArgumentError(absl::StrFormat("kernel_sizes entry %s is not size: count", k));
    }
    (*out)[size] = v.get<uint64_t>();
  }
  return absl::OkStatus();
}

// The cell's key (variant, io mode, placement).
absl::Status ParseCellKey(const Json& e, RecordedCell* r) {
  auto name = [&](const char* key) -> absl::StatusOr<std::string> {
    auto it = e.find(key);
    if (it == e.end() || !it->is_string()) return absl::InvalidArgumentError(absl::StrFormat("missing %s", key));
    return it->get<std::string>();
  };
  absl::StatusOr<std::string> v = name("variant"), io = name("io"), p = name("placement");
  for (const auto* s : {&v, &io, &p}) {
    if (!s->ok()) return s->status();
  }
  absl::StatusOr<Variant> variant = ParseVariant(*v);
  absl::StatusOr<IoMode> mode = ParseIoMode(*io);
  absl::StatusOr<Placement> placement = ParsePlacement(*p);
  if (!variant.ok()) return variant.status();
  if (!mode.ok()) return mode.status();
  if (!placement.ok()) return placement.status();
  r->variant = *variant;
  r->io = *mode;
  r->placement = *placement;
  return absl::OkStatus();
}

// The model reruns on the caller's workload: it must be the recorded one.
absl::Status CheckRecordedWorkload(const Json& e, const Workload& w, bool tso) {
  auto wl = e.find("workload");
  if (wl == e.end() || !wl->is_object()) return absl::InvalidArgumentError("missing workload");
  double messages = 0, message_bytes = 0, prefix = 0, footer = 0;
  for (absl::Status st : {Number(*wl, "messages", false, &messages), Number(*wl, "message_bytes", false, &message_bytes),
                          Number(*wl, "prefix_bytes", false, &prefix), Number(*wl, "footer_bytes", false, &footer)}) {
    if (!st.ok()) return absl::InvalidArgumentError(absl::StrCat("workload: ", st.message()));
  }
  if (messages != w.messages || message_bytes != w.message_bytes || prefix != w.prefix_bytes ||
      footer != w.footer_bytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "recorded with %.0f messages of %.0f + %.0f + %.0f bytes, the scenario has %u of %u + %u + %u", messages,
        prefix, message_bytes, footer, w.messages, w.prefix_bytes, w.message_bytes, w.footer_bytes));
  }
  auto t = wl->find("tso");
  if (t == wl->end() || !t->is_boolean()) return absl::InvalidArgumentError("workload: missing tso");
  if (t->get<bool>() != tso) {
    return absl::InvalidArgumentError(absl::StrFormat("recorded with TSO %s, the flags say %s",
                                                      t->get<bool>() ? "on" : "off", tso ? "on" : "off"));
  }
  return absl::OkStatus();
}

// The ranges, sizes and per-call figures of the valid runs (JSON in us and
// MB/s; the summary in ns and bytes/s).
absl::Status ParseRunFigures(const Json& e, const Workload& w, Variant variant, CellSummary* k) {
  double retrans = 0, samples = 0, reads_per_msg = 0, recv_mb = 0;
  for (absl::Status st : {
           Range(e, "kernel_packets_range", k->valid_runs, &k->packets),
           Range(e, "kernel_sub_mss_per_msg", k->valid_runs, &k->sub_mss_per_msg),
           Range(e, "kernel_acks_per_msg", k->valid_runs, &k->acks_per_msg),
           Range(e, "kernel_mbytes_per_sec", k->valid_runs, &k->mbytes_per_sec),
           OptionalRange(e, "kernel_autocorks_per_msg", k->valid_runs, &k->autocorks_per_msg),
           OptionalRange(e, "kernel_delayed_acks_per_msg", k->valid_runs, &k->delayed_acks_per_msg),
           OptionalRange(e, "kernel_srtt_us", k->valid_runs, &k->srtt_us),
           OptionalRange(e, "kernel_snd_cwnd", k->valid_runs, &k->snd_cwnd),
           Sizes(e, &k->sizes),
           Number(e, "kernel_retransmitted", true, &retrans),
           Number(e, "kernel_call_cpu_us", true, &k->call_cpu_ns),
           Number(e, "kernel_call_samples", true, &samples),
           Number(e, "kernel_between_calls_cpu_us", true, &k->between_calls_cpu_ns),
           Number(e, "kernel_sender_run_delay_us_per_call", true, &k->run_delay_per_call_ns),
           Number(e, "kernel_call_base_cpu_us", true, &k->call_base_cpu_ns),
           Number(e, "kernel_xmit_cpu_us_per_segment", true, &k->xmit_cpu_ns_per_segment),
           Number(e, "kernel_reads_per_msg", true, &reads_per_msg),
           Number(e, "kernel_recv_cpu_mbytes_per_sec", true, &recv_mb),
       }) {
    if (!st.ok()) return st;
  }
  k->retransmitted = static_cast<uint64_t>(retrans);
  k->call_samples = static_cast<uint64_t>(samples);
  for (double* x : {&k->call_cpu_ns, &k->call_base_cpu_ns, &k->between_calls_cpu_ns, &k->run_delay_per_call_ns,
                    &k->xmit_cpu_ns_per_segment}) {
    *x *= 1e3;
  }
  k->recv_cpu_bytes_per_sec = recv_mb * 1e6;
  k->reads_per_msg = reads_per_msg;
  if (reads_per_msg > 0) {
    k->bytes_per_read = static_cast<double>(StreamBytesFor(w, variant)) / w.messages / reads_per_msg;
  }
  return absl::OkStatus();
}

// The traced delays and socket holds, when the recording has them.
absl::Status ParseTraces(const Json& e, CellSummary* k) {
  if (auto it = e.find("kernel_backlog_delay_us"); it != e.end() && it->is_object()) {
    const Json& d = *it;
    for (absl::Status st : {Number(d, "p5", false, &k->delay_p5_ns), Number(d, "median", false, &k->delay_median_ns),
                            Number(d, "mean", false, &k->delay_mean_ns),
                            Number(d, "rx_cpu_service", true, &k->rx_service_ns),
                            Number(d, "rx_cpu_wakeup", true, &k->rx_wakeup_ns),
                            Number(d, "rx_deferred", true, &k->rx_deferred_ns)}) {
      if (!st.ok()) return absl::InvalidArgumentError(absl::StrCat("kernel_backlog_delay_us: ", st.message()));
    }
    for (double* x : {&k->delay_p5_ns, &k->delay_median_ns, &k->delay_mean_ns, &k->rx_service_ns,
                      &k->rx_wakeup_ns, &k->rx_deferred_ns}) {
      *x *= 1e3;
    }
  }
  if (auto it = e.find("kernel_call_hold_us"); it != e.end() && it->is_object()) {
    const Json& h = *it;
    double calls = 0;
    for (absl::Status st : {Number(h, "calls", false, &calls), Number(h, "mean", false, &k->hold_mean_ns),
                            Number(h, "base", false, &k->hold_base_ns),
                            Number(h, "per_segment", false, &k->hold_ns_per_segment),
                            Number(h, "mean_without_receive", false, &k->hold_mean_without_receive_ns)}) {
      if (!st.ok()) return absl::InvalidArgumentError(absl::StrCat("kernel_call_hold_us: ", st.message()));
    }
    k->hold_calls = static_cast<uint64_t>(calls);
    for (double* x : {&k->hold_mean_ns, &k->hold_base_ns, &k->hold_ns_per_segment, &k->hold_mean_without_receive_ns}) {
      *x *= 1e3;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<RecordedCell> ParseEntry(const Json& e, const Workload& w, bool tso) {
  RecordedCell r;
  if (absl::Status s = ParseCellKey(e, &r); !s.ok()) return s;
  if (absl::Status s = CheckRecordedWorkload(e, w, tso); !s.ok()) return s;
  CellSummary& k = r.kernel;
  double valid = 0;
  if (absl::Status s = Number(e, "valid_runs", false, &valid); !s.ok()) return s;
  k.valid_runs = static_cast<size_t>(valid);
  if (auto it = e.find("invalid_runs"); it != e.end() && it->is_array()) k.invalid_runs = it->size();
  if (k.valid_runs == 0) return r;
  if (absl::Status s = ParseRunFigures(e, w, r.variant, &k); !s.ok()) return s;
  if (absl::Status s = ParseTraces(e, &k); !s.ok()) return s;
  k.top_sizes = TopSizes(k.sizes, 3);
  return r;
}

}  // namespace

absl::StatusOr<std::vector<RecordedCell>> ParseRecordedJson(absl::string_view json, const Workload& w, bool tso) {
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("not JSON");
  if (!j.is_array()) return absl::InvalidArgumentError("not a JSON array of cells (kernelcmp --json_out)");
  std::vector<RecordedCell> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_object()) return absl::InvalidArgumentError(absl::StrFormat("entry %u is not an object", i));
    absl::StatusOr<RecordedCell> r = ParseEntry(j[i], w, tso);
    if (!r.ok()) return absl::InvalidArgumentError(absl::StrFormat("entry %u: %s", i, r.status().message()));
    if (r->kernel.valid_runs > 0) out.push_back(*std::move(r));
  }
  return out;
}

}  // namespace sendsim::kernelcmp
