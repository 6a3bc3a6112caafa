#include "tools/kernelreplay/replay.h"

#include <algorithm>
#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "props/map.h"
#include "props/outcome.h"
#include "props/run_case.h"
#include "tools/kernelreplay/kernel_case.h"

namespace sendsim::kernelreplay {
namespace {

using props::Writer;
using props::WriterKind;

// The verdict pair: NOTLAST against MORE-only on 6.1 (v1-notlast, v1-more);
// on 6.12, which has no NOTLAST, MORE-only (v1-splice) against one sendmsg
// per message.
std::pair<std::string, std::string> VerdictPair(const std::string& series) {
  return series == "6.1" ? std::make_pair("v1-notlast", "v1-more") : std::make_pair("v1-splice", "v1-sendmsg");
}

const ReplayRun* FindRun(const ReplayCase& c, const std::string& w) {
  for (const ReplayRun& r : c.runs) {
    if (r.writer == w) return &r;
  }
  return nullptr;
}

bool Compared(const ReplayRun& r) { return r.kernel_error.empty() && r.kernel_completed && r.model_completed; }

int Sign(int64_t v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

struct Tally {
  uint64_t runs = 0, same_sizes = 0, same_runts = 0;
  uint64_t cases = 0, same_verdict = 0;
  // Cases where the first writer of the verdict pair sends fewer / more
  // runts than the second, on each side.
  uint64_t kernel_fewer = 0, kernel_more = 0, model_fewer = 0, model_more = 0;
  uint64_t zc_runs = 0, zc_same = 0;  // zero-cost cases (call and crc 0)
  uint64_t failed = 0;                // kernel or model run incomplete or failed
  void Add(const Tally& t) {
    runs += t.runs;
    same_sizes += t.same_sizes;
    same_runts += t.same_runts;
    cases += t.cases;
    same_verdict += t.same_verdict;
    kernel_fewer += t.kernel_fewer;
    kernel_more += t.kernel_more;
    model_fewer += t.model_fewer;
    model_more += t.model_more;
    zc_runs += t.zc_runs;
    zc_same += t.zc_same;
    failed += t.failed;
  }
};

Tally TallyCell(const ReplayCell& cell, const std::string& series) {
  Tally t;
  const auto [a, b] = VerdictPair(series);
  for (const ReplayCase& c : cell.cases) {
    const uint32_t mss = c.c.net.mss;
    const bool zero_cost = c.c.net.call_cost_ns == 0 && c.c.net.crc_ns_per_page == 0;
    for (const ReplayRun& r : c.runs) {
      if (!Compared(r)) {
        ++t.failed;
        continue;
      }
      ++t.runs;
      const bool same = r.kernel == r.model;
      t.same_sizes += same ? 1 : 0;
      t.same_runts += Runts(r.kernel, mss) == Runts(r.model, mss) ? 1 : 0;
      if (zero_cost) {
        ++t.zc_runs;
        t.zc_same += same ? 1 : 0;
      }
    }
    const ReplayRun* ra = FindRun(c, a);
    const ReplayRun* rb = FindRun(c, b);
    if (ra == nullptr || rb == nullptr || !Compared(*ra) || !Compared(*rb)) continue;
    ++t.cases;
    const int k = Sign(static_cast<int64_t>(Runts(ra->kernel, mss)) - static_cast<int64_t>(Runts(rb->kernel, mss)));
    const int m = Sign(static_cast<int64_t>(Runts(ra->model, mss)) - static_cast<int64_t>(Runts(rb->model, mss)));
    t.same_verdict += k == m ? 1 : 0;
    t.kernel_fewer += k < 0 ? 1 : 0;
    t.kernel_more += k > 0 ? 1 : 0;
    t.model_fewer += m < 0 ? 1 : 0;
    t.model_more += m > 0 ? 1 : 0;
  }
  return t;
}

std::string Pct(uint64_t n, uint64_t d) { return d == 0 ? "-" : absl::StrFormat("%.1f", 100.0 * n / d); }

}  // namespace

absl::StatusOr<std::string> ProfileForSeries(const std::string& series) {
  if (series == "6.1") return std::string("linux-6.1");
  if (series == "6.12") return std::string("linux-6.12");
  return absl::InvalidArgumentError(absl::StrFormat("unknown kernel series '%s' (known: 6.1, 6.12)", series));
}

std::vector<Writer> KernelWriters(const std::string& series) {
  if (series == "6.1") {
    return {WriterKind::kV1Legacy, WriterKind::kV1Notlast, WriterKind::kV1More, WriterKind::kV1Cork,
            WriterKind::kV1Sendmsg, WriterKind::kV2,       WriterKind::kV1CorkBatch};
  }
  return {WriterKind::kV1Splice, WriterKind::kV1Sendmsg, WriterKind::kV2};
}

std::vector<std::pair<std::string, std::string>> DefaultCells() {
  return {{"regime", "quiescent"},          {"regime", "any"},
          {"call_ns", "0 ns"},              {"call_ns", "5000 ns"},
          {"crc_ns/4K", "3000 ns"},         {"one-way delay", "1000 ns"},
          {"one-way delay", "1000000 ns"},  {"tx completion", "0 ns"},
          {"acks", "every segment"},        {"peer init window", "4 MSS"},
          {"sndbuf", "16384"},              {"messages", "8"}};
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> ParseCells(const std::string& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (absl::string_view part : absl::StrSplit(s, ';', absl::SkipEmpty())) {
    std::vector<std::string> kv = absl::StrSplit(part, absl::MaxSplits('=', 1));
    if (kv.size() != 2) return absl::InvalidArgumentError(absl::StrFormat("cell '%s' is not axis=value", part));
    out.emplace_back(kv[0], kv[1]);
  }
  return out;
}

absl::StatusOr<Recording> SampleCells(const std::string& series,
                                      const std::vector<std::pair<std::string, std::string>>& cells,
                                      int64_t cases_per_cell, uint64_t seed) {
  absl::StatusOr<std::string> profile = ProfileForSeries(series);
  if (!profile.ok()) return profile.status();
  Recording r;
  r.series = series;
  r.profile = *profile;
  r.seed = seed;
  r.cases_per_cell = cases_per_cell;
  for (const auto& [axis, value] : cells) {
    absl::StatusOr<props::MapCellCases> cc = props::CellCases(axis, value, cases_per_cell, seed);
    if (!cc.ok()) return cc.status();
    ReplayCell cell{axis, value, {}};
    uint64_t i = 0;
    for (props::Case c : cc->cases) {
      c = KernelExpressible(std::move(c));
      c.net.kernel = *profile;
      ReplayCase rc{i++, c, {}};
      for (Writer w : KernelWriters(series)) {
        ReplayRun run;
        run.writer = std::string(props::WriterName(w));
        rc.runs.push_back(std::move(run));
      }
      cell.cases.push_back(std::move(rc));
    }
    r.cells.push_back(std::move(cell));
  }
  return r;
}

props::Case WriterCase(const props::Case& c, const std::string& writer) {
  props::Case x = c;
  absl::StatusOr<Writer> w = props::WriterByName(writer);
  if (w.ok()) x.writer = *w;
  return x;
}

absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> ModelSizes(const props::Case& c) {
  absl::StatusOr<props::Outcome> o = props::RunCase(c, props::RunDepth::kWire);
  if (!o.ok()) return o.status();
  std::vector<uint32_t> sizes;
  for (const props::PacketRecord& p : o->packets) {
    if (p.len > 0 && !p.retransmit) sizes.push_back(p.len);
  }
  return std::make_pair(std::move(sizes), o->completed);
}

absl::Status FillModel(Recording* r) {
  for (ReplayCell& cell : r->cells) {
    for (ReplayCase& c : cell.cases) {
      // The kernel side always ran over the tun peer; kernel sides recorded
      // before the model had a tun (tun=1) get it here (KernelExpressible).
      c.c = KernelExpressible(std::move(c.c));
      for (ReplayRun& run : c.runs) {
        absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> m = ModelSizes(WriterCase(c.c, run.writer));
        if (!m.ok()) return m.status();
        run.model = std::move(m->first);
        run.model_completed = m->second;
      }
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> ModelDrift(const Recording& r, int64_t max_cases_per_cell) {
  std::vector<std::string> out;
  for (const ReplayCell& cell : r.cells) {
    int64_t n = 0;
    for (const ReplayCase& c : cell.cases) {
      if (max_cases_per_cell >= 0 && n++ >= max_cases_per_cell) break;
      for (const ReplayRun& run : c.runs) {
        absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> m = ModelSizes(WriterCase(c.c, run.writer));
        if (!m.ok()) {
          out.push_back(absl::StrFormat("%s=%s case %d %s: %s", cell.axis, cell.value, c.index, run.writer,
                                        m.status().message()));
        } else if (m->first != run.model || m->second != run.model_completed) {
          out.push_back(absl::StrFormat("%s=%s case %d %s: recorded %d packets, now %d", cell.axis, cell.value,
                                        c.index, run.writer, run.model.size(), m->first.size()));
        }
      }
    }
  }
  return out;
}

std::string EncodeSizes(const std::vector<uint32_t>& v) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j < v.size() && v[j] == v[i]) ++j;
    parts.push_back(j - i == 1 ? absl::StrCat(v[i]) : absl::StrCat(v[i], "x", j - i));
    i = j;
  }
  return absl::StrJoin(parts, " ");
}

absl::StatusOr<std::vector<uint32_t>> DecodeSizes(const std::string& s) {
  std::vector<uint32_t> v;
  for (absl::string_view part : absl::StrSplit(s, ' ', absl::SkipEmpty())) {
    std::vector<absl::string_view> kv = absl::StrSplit(part, absl::MaxSplits('x', 1));
    uint32_t size = 0, n = 1;
    if (!absl::SimpleAtoi(kv[0], &size) || (kv.size() == 2 && (!absl::SimpleAtoi(kv[1], &n) || n == 0)) ||
        v.size() + n > (1u << 24)) {
      return absl::InvalidArgumentError(absl::StrFormat("bad size run '%s'", part));
    }
    v.insert(v.end(), n, size);
  }
  return v;
}

uint64_t Runts(const std::vector<uint32_t>& v, uint32_t mss) {
  return static_cast<uint64_t>(std::count_if(v.begin(), v.end(), [mss](uint32_t s) { return s > 0 && s < mss; }));
}

std::string ToJson(const Recording& r) {
  nlohmann::ordered_json j;
  j["note"] = "tools/kernelreplay recording: the kernel side from a UML guest over the tun peer, the model side "
              "from props::RunCase; sizes are first transmissions in wire order, run-length coded";
  j["series"] = r.series;
  j["release"] = r.release;
  j["profile"] = r.profile;
  j["seed"] = r.seed;
  j["cases_per_cell"] = r.cases_per_cell;
  j["cells"] = nlohmann::ordered_json::array();
  for (const ReplayCell& cell : r.cells) {
    nlohmann::ordered_json jc;
    jc["axis"] = cell.axis;
    jc["value"] = cell.value;
    jc["cases"] = nlohmann::ordered_json::array();
    for (const ReplayCase& c : cell.cases) {
      nlohmann::ordered_json x;
      x["index"] = c.index;
      x["case"] = props::FormatCase(c.c);
      x["runs"] = nlohmann::ordered_json::array();
      for (const ReplayRun& run : c.runs) {
        nlohmann::ordered_json y;
        y["writer"] = run.writer;
        y["kernel"] = EncodeSizes(run.kernel);
        y["kernel_completed"] = run.kernel_completed;
        if (!run.kernel_error.empty()) y["kernel_error"] = run.kernel_error;
        y["model"] = EncodeSizes(run.model);
        y["model_completed"] = run.model_completed;
        x["runs"].push_back(y);
      }
      jc["cases"].push_back(x);
    }
    j["cells"].push_back(jc);
  }
  return j.dump(1) + "\n";
}

absl::StatusOr<Recording> FromJson(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    Recording r;
    r.series = j.at("series").get<std::string>();
    r.release = j.value("release", "");
    r.profile = j.at("profile").get<std::string>();
    r.seed = j.at("seed").get<uint64_t>();
    r.cases_per_cell = j.at("cases_per_cell").get<int64_t>();
    for (const nlohmann::json& jc : j.at("cells")) {
      ReplayCell cell{jc.at("axis").get<std::string>(), jc.at("value").get<std::string>(), {}};
      for (const nlohmann::json& x : jc.at("cases")) {
        absl::StatusOr<props::Case> c = props::ParseCase(x.at("case").get<std::string>());
        if (!c.ok()) return absl::InvalidArgumentError(absl::StrCat("recording: ", c.status().message()));
        ReplayCase rc{x.at("index").get<uint64_t>(), *std::move(c), {}};
        for (const nlohmann::json& y : x.at("runs")) {
          ReplayRun run;
          run.writer = y.at("writer").get<std::string>();
          absl::StatusOr<std::vector<uint32_t>> k = DecodeSizes(y.at("kernel").get<std::string>());
          absl::StatusOr<std::vector<uint32_t>> m = DecodeSizes(y.value("model", ""));
          if (!k.ok()) return k.status();
          if (!m.ok()) return m.status();
          run.kernel = *std::move(k);
          run.model = *std::move(m);
          run.kernel_completed = y.at("kernel_completed").get<bool>();
          run.kernel_error = y.value("kernel_error", "");
          run.model_completed = y.value("model_completed", false);
          rc.runs.push_back(std::move(run));
        }
        cell.cases.push_back(std::move(rc));
      }
      r.cells.push_back(std::move(cell));
    }
    return r;
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("recording: ", e.what()));
  }
}

std::string AgreementTable(const Recording& r) {
  const auto [a, b] = VerdictPair(r.series);
  std::string out = absl::StrFormat(
      "kernel %s (%s) vs model %s, seed %d, %d cases per cell; %% of runs (writer x case) with the same packet sizes, "
      "the same sub-MSS count; %% of cases with the same verdict %s vs %s (fewer / tie / more runts)\n\n",
      r.series, r.release.empty() ? "?" : r.release, r.profile, r.seed, r.cases_per_cell, a, b);
  absl::StrAppend(&out, "| cell | runs | same sizes | zero-cost runs: same sizes | same runts | same verdict | failed |\n");
  absl::StrAppend(&out, "|---|---:|---:|---:|---:|---:|---:|\n");
  Tally all;
  for (const ReplayCell& cell : r.cells) {
    const Tally t = TallyCell(cell, r.series);
    all.Add(t);
    absl::StrAppend(&out, absl::StrFormat("| %s = %s | %d | %s | %s (%d) | %s | %s | %d |\n", cell.axis, cell.value,
                                          t.runs, Pct(t.same_sizes, t.runs), Pct(t.zc_same, t.zc_runs), t.zc_runs,
                                          Pct(t.same_runts, t.runs), Pct(t.same_verdict, t.cases), t.failed));
  }
  absl::StrAppend(&out, absl::StrFormat("| all | %d | %s | %s (%d) | %s | %s | %d |\n", all.runs,
                                        Pct(all.same_sizes, all.runs), Pct(all.zc_same, all.zc_runs), all.zc_runs,
                                        Pct(all.same_runts, all.runs), Pct(all.same_verdict, all.cases), all.failed));
  absl::StrAppend(&out, absl::StrFormat("\n%s sends fewer / more runts than %s in %s / %s %% of cases on the kernel, "
                                        "%s / %s %% on the model (%d cases)\n",
                                        a, b, Pct(all.kernel_fewer, all.cases), Pct(all.kernel_more, all.cases),
                                        Pct(all.model_fewer, all.cases), Pct(all.model_more, all.cases), all.cases));
  return out;
}

std::string ExplainQuiescent(const props::Case& c, const std::vector<uint32_t>& kernel) {
  if (c.net.host.tx_orphan_at_xmit) {
    // The model's device is the kernel's (tun: tcp_wfree at xmit), so
    // autocorking and TSQ cannot hold on either side; what the model's run
    // did instead, for the look.
    absl::StatusOr<props::Outcome> o = props::RunCase(c, props::RunDepth::kWire);
    if (!o.ok()) return absl::StrCat("over the tun, the model's run failed: ", o.status().message());
    return absl::StrFormat(
        "over the tun (tun_net_xmit's skb_orphan modelled: no autocork, no TSQ); first divergence and cause: "
        "README.md beside the fixtures; the model's run: tso_deferrals %d, eagains %d, nagle_holds %d, "
        "cork_holds %d, probe0_fires %d",
        o->counters["tso_deferrals"], o->counters["eagains"], o->counters["nagle_holds"], o->counters["cork_holds"],
        o->counters["probe0_fires"]);
  }
  props::Case x = c;
  x.net.autocorking = false;
  if (c.net.autocorking) {
    absl::StatusOr<std::pair<std::vector<uint32_t>, bool>> m = ModelSizes(x);
    if (m.ok() && m->first == kernel) {
      return "tun frees every skb at once (tun_net_xmit -> skb_orphan -> tcp_wfree), so the kernel never "
             "autocorks; the model's NIC completes after the last bit, tcp_should_autocork holds the data tail "
             "and the next call's bytes join it (the same case with autocorking off agrees with the kernel)";
    }
  }
  absl::StatusOr<props::Outcome> o = props::RunCase(x, props::RunDepth::kWire);
  if (o.ok() && o->counters["tsq_throttles"] > 0) {
    return "likely tun's immediate skb free again, for TSQ: with autocorking off the model's tcp_small_queue_check "
           "holds the data tail until the NIC's TX completion (tsq_throttles > 0) and the next call's bytes join "
           "it; over a tun the kernel's sk_wmem_alloc never holds a sent skb (the model has no completion at "
           "xmit to show it)";
  }
  return "not explained: autocorking off does not make the model agree and TSQ did not hold; kept for a look";
}

std::vector<std::pair<std::string, std::string>> QuiescentDisagreements(const Recording& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ReplayCell& cell : r.cells) {
    const bool quiescent = cell.axis == "regime" && cell.value == "quiescent";
    std::string slug;
    for (char ch : absl::StrCat(cell.axis, "-", cell.value)) {
      if (std::isalnum(static_cast<unsigned char>(ch))) slug += ch;
      else if (!slug.empty() && slug.back() != '-') slug += '-';
    }
    for (const ReplayCase& c : cell.cases) {
      if (c.c.net.call_cost_ns != 0 || c.c.net.crc_ns_per_page != 0) continue;
      for (const ReplayRun& run : c.runs) {
        if (!Compared(run) || run.kernel == run.model) continue;
        const props::Case x = WriterCase(c.c, run.writer);
        const std::string name = absl::StrFormat("uml-%s-%s-%d-%s", r.series, slug, c.index, run.writer);
        const std::string text = absl::StrFormat(
            "# kernel %s (%s) and model %s disagree on a %s case of cell %s = %s (tools/kernelreplay;\n"
            "# golden: the model side must stay as recorded, fixtures_test).\n# why: %s\n# kernel: %s\n"
            "# model:  %s\ncase:\n%s",
            r.series, r.release, r.profile, quiescent ? "quiescent" : "zero-cost", cell.axis, cell.value,
            ExplainQuiescent(x, run.kernel), EncodeSizes(run.kernel), EncodeSizes(run.model), props::FormatCase(x));
        out.emplace_back(name, text);
      }
    }
  }
  return out;
}

}  // namespace sendsim::kernelreplay
