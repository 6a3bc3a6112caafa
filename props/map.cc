#include "props/map.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "props/explore_lib.h"
#include "props/outcome.h"
#include "props/run_case.h"

ABSL_DECLARE_FLAG(uint64_t, seed);  // explore.cc

ABSL_FLAG(bool, map, false, "instead of checking properties: sweep the map's cells (props/map.h)");
ABSL_FLAG(int64_t, map_cases, 2000, "--map: cases per cell");
ABSL_FLAG(std::string, map_axes, "", "--map: comma-separated axes to sweep (default: all)");
ABSL_FLAG(std::string, map_out, "", "--map: also write PREFIX.txt, PREFIX.json and PREFIX.svg");
ABSL_FLAG(bool, rule_search, false,
          "instead of checking properties: rank every writer rule (flags of the payload's non-last and last "
          "pieces x cork points) against v1-notlast on the map's cells outside the quiescent regime");

namespace sendsim::props {
namespace {

struct Cell {
  std::string axis, value;
  CaseLimits limits;
  std::function<void(Case*)> apply;  // pins the axis on a drawn case
};

// The general generator without revokes (v2 and v1-sendmsg do not model
// them), up to 3 messages and 32 pieces, on the sendpage kernels.
CaseLimits BaseLimits() {
  CaseLimits l;
  l.layout.allow_revoke = false;
  l.layout.max_pieces = 32;
  l.writers = {WriterKind::kV1Notlast};
  l.profiles = {"linux-4.19", "linux-5.0"};
  return l;
}

// One cell per value of a network knob; `set` pins it on the case's scenario.
template <typename T>
void AddNet(std::vector<Cell>* cells, const std::string& axis, std::vector<T> values,
            void (*set)(scenario::Scenario*, T), const std::function<std::string(T)>& label) {
  for (T v : values) {
    cells->push_back({axis, label(v), BaseLimits(), [v, set](Case* c) { set(&c->net, v); }});
  }
}

void AddLayoutCells(std::vector<Cell>* cells) {
  for (uint32_t k : {1u, 4u, 16u, 32u}) {
    cells->push_back({"pieces/msg", absl::StrCat(k), BaseLimits(), [k](Case* c) {
                        for (MessageLayout& m : c->layout.messages) {
                          const uint32_t off =
                              !m.items.empty() && m.items[0].kind == DataLayout::kPages ? m.items[0].offset : 0;
                          m.items = {DataItem{DataLayout::kPages, off, uint64_t{k} * kPageSize - off, {}}};
                        }
                      }});
  }
  for (uint32_t off : {0u, 512u, 4095u}) {
    cells->push_back({"page offset", absl::StrCat(off), BaseLimits(), [off](Case* c) {
                        for (MessageLayout& m : c->layout.messages) {
                          for (DataItem& it : m.items) {
                            if (it.kind == DataLayout::kPages) it.offset = off;
                          }
                        }
                      }});
  }
  for (uint32_t f : {0u, 196u, 4096u}) {
    cells->push_back({"front", absl::StrCat(f), BaseLimits(), [f](Case* c) {
                        for (MessageLayout& m : c->layout.messages) m.front_len = f;
                      }});
  }
  for (uint32_t md : {0u, 1024u}) {
    cells->push_back({"middle", absl::StrCat(md), BaseLimits(), [md](Case* c) {
                        for (MessageLayout& m : c->layout.messages) m.middle_len = md;
                      }});
  }
  for (size_t n : {size_t{1}, size_t{3}, size_t{8}}) {
    cells->push_back({"messages", absl::StrCat(n), BaseLimits(), [n](Case* c) {
                        std::vector<MessageLayout> ms;
                        for (size_t i = 0; i < n; ++i) ms.push_back(c->layout.messages[i % c->layout.messages.size()]);
                        c->layout.messages = std::move(ms);
                        c->layout.more_to_follow = true;
                      }});
  }
}

std::vector<Cell> AllCells() {
  std::vector<Cell> cells;
  CaseLimits q = BaseLimits();
  q.layout.max_pieces = 15;
  q.config.quiescent = q.config.fits_initial_window = q.config.nodelay = true;
  cells.push_back({"regime", "quiescent", q, [](Case*) {}});
  cells.push_back({"regime", "any", BaseLimits(), [](Case*) {}});
  using S = scenario::Scenario;
  const auto ns = [](uint64_t v) { return absl::StrFormat("%d ns", v); };
  AddNet<uint64_t>(&cells, "call_ns", {0, 1'000, 5'000, 20'000}, [](S* n, uint64_t v) { n->call_cost_ns = v; }, ns);
  AddNet<uint64_t>(&cells, "crc_ns/4K", {0, 1'000, 3'000}, [](S* n, uint64_t v) { n->crc_ns_per_page = v; }, ns);
  AddNet<uint64_t>(&cells, "one-way delay", {1'000, 25'000, 1'000'000}, [](S* n, uint64_t v) { n->rtt_ns = 2 * v; },
                   ns);
  AddNet<uint64_t>(&cells, "tx completion", {0, 10'000, 50'000}, [](S* n, uint64_t v) { n->tx_completion_ns = v; },
                   ns);
  cells.push_back({"acks", "delack, every 2", BaseLimits(), [](Case* c) {
                     c->net.delayed_ack = true;
                     c->net.ack_every = 2;
                   }});
  cells.push_back({"acks", "every segment", BaseLimits(), [](Case* c) {
                     c->net.delayed_ack = false;
                     c->net.ack_every = 1;
                   }});
  const auto segs = [](uint32_t v) { return absl::StrFormat("%u MSS", v); };
  AddNet<uint32_t>(&cells, "peer init window", {4, 20, 1000},
                   [](S* n, uint32_t v) { n->receiver.init_rcv_wnd_segs = v; }, segs);
  const auto bytes = [](uint32_t v) { return absl::StrFormat("%u", v); };
  AddNet<uint32_t>(&cells, "sndbuf", {16384, 212992, 4u << 20}, [](S* n, uint32_t v) { n->sndbuf = v; }, bytes);
  AddLayoutCells(&cells);
  AddNet<uint32_t>(&cells, "mss", {536, 1448, 8948}, [](S* n, uint32_t v) { SetMss(n, v); }, bytes);
  for (const char* p : {"linux-4.19", "linux-5.0", "linux-6.8"}) {
    cells.push_back({"kernel", p, BaseLimits(), [p](Case* c) { c->net.kernel = p; }});
  }
  return cells;
}

// Writers that do not exist on the case's kernel run on the nearest one:
// v1-splice on linux-6.8, the sendpage writers on linux-5.0.
std::string WriterProfile(Writer w, const std::string& profile) {
  if (WriterRunsOn(w, profile)) return profile;
  return w == WriterKind::kV1Splice ? "linux-6.8" : "linux-5.0";
}

struct Run {
  bool ok = false;
  int64_t runts = 0, packets = 0;
};

// One column of the map: how a drawn case is turned into this writer's run.
struct Contender {
  std::string name;
  std::function<void(Case*)> set;
};

std::vector<Contender> WriterContenders() {
  std::vector<Contender> out;
  for (Writer w : MapWriters()) {
    out.push_back({std::string(WriterName(w)), [w](Case* c) {
                     c->net.kernel = WriterProfile(w, c->net.kernel);
                     c->writer = w;
                   }});
  }
  return out;
}

void Tally(const Case& c, const std::vector<Run>& runs, const std::vector<Contender>& who, size_t ref,
           MapCellResult* cell) {
  int64_t min_runts = INT64_MAX, min_packets = INT64_MAX;
  for (const Run& r : runs) {
    if (!r.ok) continue;
    min_runts = std::min(min_runts, r.runts);
    min_packets = std::min(min_packets, r.packets);
  }
  const Run& n = runs[ref];
  for (size_t w = 0; w < runs.size(); ++w) {
    const Run& r = runs[w];
    if (!r.ok) continue;
    MapWriterStats& s = cell->writers[w];
    ++s.cases;
    s.sum_runts += static_cast<uint64_t>(r.runts);
    s.sum_packets += static_cast<uint64_t>(r.packets);
    s.optimal_runts += r.runts == min_runts ? 1 : 0;
    s.optimal_both += r.runts == min_runts && r.packets == min_packets ? 1 : 0;
    s.runts_better += r.runts < n.runts ? 1 : 0;
    s.runts_worse += r.runts > n.runts ? 1 : 0;
    s.packets_better += r.packets < n.packets ? 1 : 0;
    s.packets_worse += r.packets > n.packets ? 1 : 0;
    const int64_t dr = r.runts - n.runts, dp = r.packets - n.packets;
    if (dr > s.worst_runts || (dr == s.worst_runts && dp > s.worst_packets)) {
      s.worst_runts = dr;
      s.worst_packets = dp;
      Case x = c;
      who[w].set(&x);
      s.worst_case = FormatCase(x);
    }
  }
}

// `who[ref]` is the reference (v1-notlast).
MapCellResult RunCell(const Cell& cell, const MapOptions& opt, uint64_t cell_index, const std::vector<Contender>& who,
                      size_t ref) {
  MapCellResult res{cell.axis, cell.value, 0, std::vector<MapWriterStats>(who.size())};
  const CaseGenerator gen(cell.limits);
  for (int64_t i = 0; i < opt.cases_per_cell; ++i) {
    // Every cell draws from its own index range, the same in any process.
    std::optional<Case> c = gen.Draw(opt.seed, cell_index * 1'000'000'007ULL + static_cast<uint64_t>(i));
    if (!c.has_value()) continue;
    cell.apply(&*c);
    std::vector<Run> runs(who.size());
    for (size_t w = 0; w < who.size(); ++w) {
      Case x = *c;
      who[w].set(&x);
      absl::StatusOr<Outcome> o = RunCase(x, RunDepth::kWire);
      // A run that did not complete would count fewer packets than it owes.
      if (!o.ok() || !o->completed) continue;
      runs[w] = Run{true, static_cast<int64_t>(SubMss(*o)), static_cast<int64_t>(DataPackets(*o))};
    }
    if (!runs[ref].ok) continue;
    ++res.cases;
    Tally(*c, runs, who, ref, &res);
  }
  return res;
}

std::string Pct(uint64_t n, uint64_t d) { return d == 0 ? "-" : absl::StrFormat("%.0f", 100.0 * n / d); }

}  // namespace

std::vector<Writer> MapWriters() {
  return {WriterKind::kV1Legacy, WriterKind::kV1Notlast, WriterKind::kV1More,  WriterKind::kV1Cork,
          WriterKind::kV1Sendmsg, WriterKind::kV1Splice,  WriterKind::kV2,     WriterKind::kV1CorkBatch};
}

std::vector<std::pair<std::string, std::string>> MapCellNames() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Cell& c : AllCells()) out.emplace_back(c.axis, c.value);
  return out;
}

absl::StatusOr<MapCellCases> CellCases(const std::string& axis, const std::string& value, int64_t n, uint64_t seed) {
  const std::vector<Cell> cells = AllCells();
  for (size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].axis != axis || cells[i].value != value) continue;
    MapCellCases out{axis, value, {}};
    const CaseGenerator gen(cells[i].limits);
    // RunCell's draws: case j of cell i is draw i * 1'000'000'007 + j.
    for (int64_t j = 0; j < n; ++j) {
      std::optional<Case> c = gen.Draw(seed, i * 1'000'000'007ULL + static_cast<uint64_t>(j));
      if (!c.has_value()) continue;
      cells[i].apply(&*c);
      out.cases.push_back(*std::move(c));
    }
    return out;
  }
  return absl::InvalidArgumentError(absl::StrFormat("unknown map cell '%s = %s'", axis, value));
}

absl::StatusOr<std::vector<MapCellResult>> BuildMap(const MapOptions& opt) {
  std::vector<Cell> cells = AllCells();
  for (const std::string& a : opt.axes) {
    if (std::none_of(cells.begin(), cells.end(), [&a](const Cell& c) { return c.axis == a; })) {
      std::vector<std::string> names;
      for (const Cell& c : cells) {
        if (names.empty() || names.back() != c.axis) names.push_back(c.axis);
      }
      return absl::InvalidArgumentError(
          absl::StrFormat("unknown map axis '%s' (known: %s)", a, absl::StrJoin(names, ", ")));
    }
  }
  std::vector<MapCellResult> out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (!opt.axes.empty() && std::find(opt.axes.begin(), opt.axes.end(), cells[i].axis) == opt.axes.end()) continue;
    absl::FPrintF(stderr, "\rmap: %s = %s (%d/%d)          ", cells[i].axis, cells[i].value, i + 1, cells.size());
    out.push_back(RunCell(cells[i], opt, i, WriterContenders(), /*ref=v1-notlast*/ 1));
  }
  absl::FPrintF(stderr, "\r%*s\r", 60, "");
  return out;
}

std::string MapText(const std::vector<MapCellResult>& cells, const MapOptions& opt) {
  const std::vector<Writer> writers = MapWriters();
  std::string out = absl::StrFormat(
      "map: seed=%u, %d cases per cell, no revokes; every writer on the same cases, on the cell's kernel\n"
      "(v1-splice always on linux-6.8; the sendpage writers on linux-5.0 in the linux-6.8 cell)\n",
      opt.seed, opt.cases_per_cell);
  struct Matrix {
    const char* title;
    std::function<std::string(const MapWriterStats&)> f;
  };
  const Matrix matrices[] = {
      {"optimal in sub-MSS segments, % of cases (no writer sends fewer)",
       [](const MapWriterStats& s) { return Pct(s.optimal_runts, s.cases); }},
      {"optimal in sub-MSS segments and packets, % of cases",
       [](const MapWriterStats& s) { return Pct(s.optimal_both, s.cases); }},
      {"sub-MSS segments vs v1-notlast, % of cases fewer/more",
       [](const MapWriterStats& s) { return Pct(s.runts_better, s.cases) + "/" + Pct(s.runts_worse, s.cases); }},
      {"packets vs v1-notlast, % of cases fewer/more",
       [](const MapWriterStats& s) { return Pct(s.packets_better, s.cases) + "/" + Pct(s.packets_worse, s.cases); }},
      {"mean sub-MSS segments per case",
       [](const MapWriterStats& s) {
         return s.cases == 0 ? std::string("-") : absl::StrFormat("%.2f", 1.0 * s.sum_runts / s.cases);
       }},
  };
  for (const Matrix& m : matrices) {
    absl::StrAppendFormat(&out, "\n%s\n| axis | value | cases |", m.title);
    for (Writer w : writers) absl::StrAppend(&out, " ", WriterName(w), " |");
    absl::StrAppend(&out, "\n|---|---|---|");
    for (size_t i = 0; i < writers.size(); ++i) absl::StrAppend(&out, "---|");
    absl::StrAppend(&out, "\n");
    for (const MapCellResult& c : cells) {
      absl::StrAppendFormat(&out, "| %s | %s | %u |", c.axis, c.value, c.cases);
      for (const MapWriterStats& s : c.writers) absl::StrAppend(&out, " ", m.f(s), " |");
      absl::StrAppend(&out, "\n");
    }
  }
  absl::StrAppend(&out, "\nworst case against v1-notlast, per writer (sub-MSS, packets; replay with --replay):\n");
  for (size_t w = 0; w < writers.size(); ++w) {
    const MapCellResult* worst = nullptr;
    for (const MapCellResult& c : cells) {
      const MapWriterStats& s = c.writers[w];
      if (s.worst_case.empty()) continue;
      if (worst == nullptr || s.worst_runts > worst->writers[w].worst_runts ||
          (s.worst_runts == worst->writers[w].worst_runts && s.worst_packets > worst->writers[w].worst_packets)) {
        worst = &c;
      }
    }
    if (worst == nullptr) {
      absl::StrAppendFormat(&out, "- %s: never worse\n", WriterName(writers[w]));
      continue;
    }
    const MapWriterStats& s = worst->writers[w];
    absl::StrAppendFormat(&out, "- %s: %+d sub-MSS, %+d packets (%s = %s)\n", WriterName(writers[w]), s.worst_runts,
                          s.worst_packets, worst->axis, worst->value);
    for (absl::string_view line : absl::StrSplit(s.worst_case, '\n', absl::SkipEmpty())) {
      absl::StrAppend(&out, "      ", line, "\n");
    }
  }
  return out;
}

std::string MapJson(const std::vector<MapCellResult>& cells, const MapOptions& opt) {
  nlohmann::json j = {{"seed", opt.seed}, {"cases_per_cell", opt.cases_per_cell}};
  nlohmann::json names = nlohmann::json::array();
  for (Writer w : MapWriters()) names.push_back(std::string(WriterName(w)));
  j["writers"] = names;
  j["cells"] = nlohmann::json::array();
  for (const MapCellResult& c : cells) {
    nlohmann::json ws = nlohmann::json::array();
    for (const MapWriterStats& s : c.writers) {
      ws.push_back({{"cases", s.cases},
                    {"optimal_runts", s.optimal_runts},
                    {"optimal_both", s.optimal_both},
                    {"runts_better", s.runts_better},
                    {"runts_worse", s.runts_worse},
                    {"packets_better", s.packets_better},
                    {"packets_worse", s.packets_worse},
                    {"sum_runts", s.sum_runts},
                    {"sum_packets", s.sum_packets},
                    {"worst_runts", s.worst_runts},
                    {"worst_packets", s.worst_packets},
                    {"worst_case", s.worst_case}});
    }
    j["cells"].push_back({{"axis", c.axis}, {"value", c.value}, {"cases", c.cases}, {"writers", ws}});
  }
  return j.dump(1) + "\n";
}

std::string MapSvg(const std::vector<MapCellResult>& cells) {
  const std::vector<Writer> writers = MapWriters();
  constexpr int kLabel = 230, kCol = 78, kRow = 18, kHead = 40;
  const int width = kLabel + kCol * static_cast<int>(writers.size()) + 10;
  const int height = kHead + kRow * static_cast<int>(cells.size()) + 30;
  std::string out = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
      "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"4\" y=\"14\">optimal in sub-MSS segments, %% of cases (no compared writer sends fewer; "
      "v2's frames differ in size)</text>\n",
      width, height);
  for (size_t w = 0; w < writers.size(); ++w) {
    absl::StrAppendFormat(&out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                          kLabel + kCol * static_cast<int>(w) + kCol / 2, kHead - 6, WriterName(writers[w]));
  }
  for (size_t r = 0; r < cells.size(); ++r) {
    const int y = kHead + kRow * static_cast<int>(r);
    absl::StrAppendFormat(&out, "<text x=\"4\" y=\"%d\">%s = %s</text>\n", y + 13, cells[r].axis, cells[r].value);
    for (size_t w = 0; w < writers.size(); ++w) {
      const MapWriterStats& s = cells[r].writers[w];
      const double p = s.cases == 0 ? -1 : 1.0 * s.optimal_runts / s.cases;
      // Red (0 %) through yellow to green (100 %); grey when the writer never ran.
      const std::string fill = p < 0 ? std::string("rgb(200,200,200)")
                                     : absl::StrFormat("hsl(%d,60%%,%d%%)", static_cast<int>(120 * p),
                                                       static_cast<int>(80 - 30 * p));
      const int x = kLabel + kCol * static_cast<int>(w);
      absl::StrAppendFormat(&out,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"white\"/>\n"
                            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                            x, y, kCol, kRow, fill, x + kCol / 2, y + 13, Pct(s.optimal_runts, s.cases));
    }
  }
  absl::StrAppend(&out, "</svg>\n");
  return out;
}

bool MapRequested() { return absl::GetFlag(FLAGS_map) || absl::GetFlag(FLAGS_rule_search); }

namespace {

// Every FlagRule, after v1-notlast itself (the reference).
std::vector<Contender> RuleContenders() {
  std::vector<Contender> out = {{"v1-notlast", [](Case* c) {
                                   c->net.kernel = WriterProfile(WriterKind::kV1Notlast, c->net.kernel);
                                   c->writer = WriterKind::kV1Notlast;
                                 }}};
  const PieceFlags flags[] = {PieceFlags::kMoreNotlast, PieceFlags::kMore, PieceFlags::kNone};
  for (PieceFlags nonlast : flags) {
    for (PieceFlags last : flags) {
      for (messenger::CorkMode cork :
           {messenger::CorkMode::kNone, messenger::CorkMode::kPerMessage, messenger::CorkMode::kBatch}) {
        const FlagRule r{nonlast, last, cork};
        out.push_back({FormatRule(r), [r](Case* c) {
                         c->net.kernel = WriterProfile(HookWriter::kRule, c->net.kernel);
                         c->writer = HookWriter::kRule;
                         c->rule = r;
                       }});
      }
    }
  }
  return out;
}

int RunRuleSearch(const MapOptions& opt) {
  const std::vector<Contender> who = RuleContenders();
  std::vector<MapWriterStats> total(who.size());
  std::vector<Cell> cells = AllCells();
  for (size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].axis == "regime" && cells[i].value == "quiescent") continue;
    absl::FPrintF(stderr, "\rrule search: %s = %s (%d/%d)          ", cells[i].axis, cells[i].value, i + 1,
                  cells.size());
    const MapCellResult r = RunCell(cells[i], opt, i, who, 0);
    for (size_t w = 0; w < who.size(); ++w) {
      const MapWriterStats& s = r.writers[w];
      MapWriterStats& t = total[w];
      t.cases += s.cases;
      t.sum_runts += s.sum_runts;
      t.sum_packets += s.sum_packets;
      t.runts_better += s.runts_better;
      t.runts_worse += s.runts_worse;
      t.packets_better += s.packets_better;
      t.packets_worse += s.packets_worse;
      if (s.worst_runts > t.worst_runts) {
        t.worst_runts = s.worst_runts;
        t.worst_packets = s.worst_packets;
        t.worst_case = s.worst_case;
      }
    }
  }
  absl::FPrintF(stderr, "\r%*s\r", 60, "");
  std::vector<size_t> order(who.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&total](size_t a, size_t b) {
    // Mean per case (a rule that stalls on some cases has fewer of them).
    const double ra = 1.0 * total[a].sum_runts / std::max<uint64_t>(1, total[a].cases);
    const double rb = 1.0 * total[b].sum_runts / std::max<uint64_t>(1, total[b].cases);
    if (ra != rb) return ra < rb;
    return 1.0 * total[a].sum_packets / std::max<uint64_t>(1, total[a].cases) <
           1.0 * total[b].sum_packets / std::max<uint64_t>(1, total[b].cases);
  });
  const MapWriterStats& n = total[0];
  absl::PrintF(
      "rule search: seed=%u, %d cases per cell, the map's cells without the quiescent regime; rule = flags of the\n"
      "payload's non-last and last data pieces (N = MORE|NOTLAST, M = MORE, - = none) + TCP_CORK points\n"
      "(none; message: v1-cork; batch: held until a footer without MORE). \"NM none\" is v1-notlast's rule.\n\n"
      "| rule | cases | sub-MSS per case | vs v1-notlast | packets per case | vs v1-notlast | cases fewer/more sub-MSS | "
      "cases fewer/more packets | worst (sub-MSS, packets) |\n|---|---|---|---|---|---|---|---|---|\n",
      opt.seed, opt.cases_per_cell);
  const double nr = 1.0 * n.sum_runts / std::max<uint64_t>(1, n.cases);
  const double np = 1.0 * n.sum_packets / std::max<uint64_t>(1, n.cases);
  for (size_t w : order) {
    const MapWriterStats& s = total[w];
    const double r = 1.0 * s.sum_runts / std::max<uint64_t>(1, s.cases);
    const double p = 1.0 * s.sum_packets / std::max<uint64_t>(1, s.cases);
    absl::PrintF("| %s | %u | %.3f | %+.1f%% | %.2f | %+.2f%% | %s/%s %% | %s/%s %% | %+d, %+d |\n", who[w].name, s.cases,
                 r, 100.0 * (r - nr) / nr, p, 100.0 * (p - np) / np, Pct(s.runts_better, s.cases),
                 Pct(s.runts_worse, s.cases), Pct(s.packets_better, s.cases), Pct(s.packets_worse, s.cases),
                 s.worst_runts, s.worst_packets);
  }
  return 0;
}

}  // namespace

int RunMap(int shards, int shard) {
  if (shards != 1 || shard != 0) {
    absl::FPrintF(stderr, "explore: --map does not shard (unset TEST_TOTAL_SHARDS)\n");
    return 2;
  }
  MapOptions opt;
  opt.seed = absl::GetFlag(FLAGS_seed);
  opt.cases_per_cell = absl::GetFlag(FLAGS_map_cases);
  if (opt.cases_per_cell <= 0) {
    absl::FPrintF(stderr, "explore: --map_cases must be > 0\n");
    return 2;
  }
  for (absl::string_view a : absl::StrSplit(absl::GetFlag(FLAGS_map_axes), ',', absl::SkipEmpty())) {
    opt.axes.emplace_back(a);
  }
  if (absl::GetFlag(FLAGS_rule_search)) return RunRuleSearch(opt);
  absl::StatusOr<std::vector<MapCellResult>> cells = BuildMap(opt);
  if (!cells.ok()) {
    absl::FPrintF(stderr, "explore: %s\n", cells.status().message());
    return 2;
  }
  const std::string text = MapText(*cells, opt);
  absl::PrintF("%s", text);
  const std::string prefix = absl::GetFlag(FLAGS_map_out);
  if (prefix.empty()) return 0;
  for (const auto& [ext, body] : {std::pair<const char*, std::string>{".txt", text},
                                  {".json", MapJson(*cells, opt)},
                                  {".svg", MapSvg(*cells)}}) {
    std::ofstream f(prefix + ext);
    f << body;
    if (!f) {
      absl::FPrintF(stderr, "explore: cannot write %s%s\n", prefix, ext);
      return 2;
    }
  }
  return 0;
}

}  // namespace sendsim::props
