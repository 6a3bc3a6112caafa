#include "scenario/scenario_json.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "scenario/text_util.h"

namespace sendsim::scenario {
namespace {

using Json = nlohmann::json;

absl::Status KeyError(absl::string_view path, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, what));
}

std::string TypeName(const Json& j) {
  if (j.is_number_float()) return "a non-integer number";
  if (j.is_number_integer() && !j.is_number_unsigned()) return "a negative number";
  return j.type_name();
}

absl::Status GetU64(const Json& j, absl::string_view path, uint64_t* out) {
  if (j.is_number_unsigned()) {
    *out = j.get<uint64_t>();
    return absl::OkStatus();
  }
  if (j.is_number_integer()) return KeyError(path, "must not be negative");
  if (j.is_number_float()) {
    return KeyError(path, "expected an unsigned integer, got a fraction or a number too large for 64 bits");
  }
  return KeyError(path, absl::StrFormat("expected an unsigned integer, got %s", TypeName(j)));
}

absl::Status GetU32(const Json& j, absl::string_view path, uint32_t* out) {
  uint64_t v = 0;
  if (absl::Status st = GetU64(j, path, &v); !st.ok()) return st;
  if (v > std::numeric_limits<uint32_t>::max()) {
    return KeyError(path, absl::StrFormat("%d does not fit in 32 bits", v));
  }
  *out = static_cast<uint32_t>(v);
  return absl::OkStatus();
}

absl::Status GetBool(const Json& j, absl::string_view path, bool* out) {
  if (!j.is_boolean()) return KeyError(path, absl::StrFormat("expected true or false, got %s", TypeName(j)));
  *out = j.get<bool>();
  return absl::OkStatus();
}

absl::Status GetString(const Json& j, absl::string_view path, std::string* out) {
  if (!j.is_string()) return KeyError(path, absl::StrFormat("expected a string, got %s", TypeName(j)));
  *out = j.get<std::string>();
  return absl::OkStatus();
}

absl::Status GetSizes(const Json& j, absl::string_view path, std::vector<SizeMixEntry>* out) {
  if (!j.is_array()) {
    return KeyError(path, absl::StrFormat("expected an array of {\"bytes\": N, \"weight\": W}, got %s", TypeName(j)));
  }
  std::vector<SizeMixEntry> sizes;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string p = absl::StrFormat("%s[%d]", path, i);
    const Json& e = j[i];
    if (!e.is_object()) return KeyError(p, absl::StrFormat("expected an object, got %s", TypeName(e)));
    SizeMixEntry entry;
    bool have_bytes = false;
    for (const auto& [k, v] : e.items()) {
      const std::string kp = absl::StrFormat("%s.%s", p, EscapeForMessage(k));
      if (k == "bytes") {
        if (absl::Status st = GetU64(v, kp, &entry.bytes); !st.ok()) return st;
        have_bytes = true;
      } else if (k == "weight") {
        if (absl::Status st = GetU32(v, kp, &entry.weight); !st.ok()) return st;
      } else {
        return KeyError(kp, "unknown key (known: bytes, weight)");
      }
    }
    if (!have_bytes) return KeyError(p, "missing key \"bytes\"");
    sizes.push_back(entry);
  }
  *out = std::move(sizes);
  return absl::OkStatus();
}

using Setter = std::function<absl::Status(const Json&, absl::string_view, Scenario*)>;
struct Field {
  const char* key;
  Setter set;
};

template <typename T>
Setter U64(T Scenario::*m) {
  return [m](const Json& j, absl::string_view p, Scenario* s) { return GetU64(j, p, &(s->*m)); };
}
Setter U32(uint32_t Scenario::*m) {
  return [m](const Json& j, absl::string_view p, Scenario* s) { return GetU32(j, p, &(s->*m)); };
}
Setter Bool(bool Scenario::*m) {
  return [m](const Json& j, absl::string_view p, Scenario* s) { return GetBool(j, p, &(s->*m)); };
}
Setter Str(std::string Scenario::*m) {
  return [m](const Json& j, absl::string_view p, Scenario* s) { return GetString(j, p, &(s->*m)); };
}

const std::vector<Field>& Fields() {
  static const auto* const kFields = new std::vector<Field>{
      {"description", Str(&Scenario::description)},
      {"messages", U64(&Scenario::messages)},
      {"sizes", [](const Json& j, absl::string_view p, Scenario* s) { return GetSizes(j, p, &s->sizes); }},
      {"front_len", U32(&Scenario::front_len)},
      {"layout",
       [](const Json& j, absl::string_view p, Scenario* s) {
         std::string name;
         if (absl::Status st = GetString(j, p, &name); !st.ok()) return st;
         absl::StatusOr<DataLayout> l = DataLayoutByName(name);
         if (!l.ok()) return KeyError(p, absl::StrFormat("unknown data layout \"%s\" (known: pages, pagelist, bio, bvecs)",
                                                         EscapeForMessage(name)));
         s->layout = *l;
         return absl::OkStatus();
       }},
      {"page_offset", U32(&Scenario::page_offset)},
      {"queue_depth", U32(&Scenario::queue_depth)},
      {"osd_reply_ns", U64(&Scenario::osd_reply_ns)},
      {"osd_reply_jitter_ns", U64(&Scenario::osd_reply_jitter_ns)},
      {"mss", U32(&Scenario::mss)},
      {"mtu", U32(&Scenario::mtu)},
      {"timestamps", Bool(&Scenario::timestamps)},
      {"tso", Bool(&Scenario::tso)},
      {"nodelay", Bool(&Scenario::nodelay)},
      {"autocorking", Bool(&Scenario::autocorking)},
      {"sndbuf", U32(&Scenario::sndbuf)},
      {"hz", U32(&Scenario::hz)},
      {"link_mbps", U64(&Scenario::link_mbps)},
      {"rtt_ns", U64(&Scenario::rtt_ns)},
      {"tx_completion_ns", U64(&Scenario::tx_completion_ns)},
      {"call_cost_ns", U64(&Scenario::call_cost_ns)},
      {"crc_ns_per_page", U64(&Scenario::crc_ns_per_page)},
      {"delayed_ack", Bool(&Scenario::delayed_ack)},
      {"ack_every", U32(&Scenario::ack_every)},
      {"gro",
       [](const Json& j, absl::string_view p, Scenario* s) {
         std::string name;
         if (absl::Status st = GetString(j, p, &name); !st.ok()) return st;
         absl::StatusOr<GroMode> g = GroModeByName(name);
         if (!g.ok()) return KeyError(p, absl::StrFormat("unknown GRO mode \"%s\" (known: off, batch)", EscapeForMessage(name)));
         s->gro = *g;
         return absl::OkStatus();
       }},
      {"gro_flush_ns", U64(&Scenario::gro_flush_ns)},
      {"ack_proc_ns", U64(&Scenario::ack_proc_ns)},
      {"kernel", Str(&Scenario::kernel)},
      {"writers",
       [](const Json& j, absl::string_view p, Scenario* s) {
         if (!j.is_array()) return KeyError(p, absl::StrFormat("expected an array of strings, got %s", TypeName(j)));
         std::vector<WriterSpec> writers;
         for (size_t i = 0; i < j.size(); ++i) {
           const std::string ep = absl::StrFormat("%s[%d]", p, i);
           std::string text;
           if (absl::Status st = GetString(j[i], ep, &text); !st.ok()) return st;
           absl::StatusOr<WriterSpec> w = ParseWriterSpec(text);
           if (!w.ok()) return KeyError(ep, absl::StrFormat("\"%s\" is not of the form writer or writer@kernel",
                                                           EscapeForMessage(text)));
           writers.push_back(*std::move(w));
         }
         s->writers = std::move(writers);
         return absl::OkStatus();
       }},
      {"seed", U64(&Scenario::seed)},
      {"seeds", U32(&Scenario::seeds)},
      {"trace", Str(&Scenario::trace)},
      {"pcap", Str(&Scenario::pcap)},
      {"plot", Str(&Scenario::plot)},
  };
  return *kFields;
}

// Rejects deep nesting before nlohmann's parser and destructor see it.
absl::Status CheckDepth(absl::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxScenarioDepth) {
        return absl::InvalidArgumentError(
            absl::StrFormat("malformed scenario: nesting deeper than %d levels", kMaxScenarioDepth));
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return absl::OkStatus();
}

std::string StripNlohmannPrefix(std::string msg) {
  // "[json.exception.parse_error.101] parse error at ..." -> "parse error at ..."
  if (!msg.empty() && msg[0] == '[') {
    const size_t close = msg.find("] ");
    if (close != std::string::npos) msg = msg.substr(close + 2);
  }
  return msg;
}

}  // namespace

absl::StatusOr<Scenario> ScenarioFromJson(absl::string_view text, const Scenario& base) {
  if (text.size() > kMaxScenarioFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrFormat("malformed scenario: %d bytes is larger than the %d-byte limit", text.size(),
                        kMaxScenarioFileBytes));
  }
  if (absl::Status st = CheckDepth(text); !st.ok()) return st;

  // Duplicate keys: nlohmann keeps the last one silently; a strict format
  // reports them. One set of seen keys per open object.
  std::vector<std::set<std::string>> open_objects;
  std::string duplicate;
  auto callback = [&](int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        open_objects.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!open_objects.empty() && parsed.is_string() &&
            !open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      default:
        break;
    }
    return true;
  };
  Json j;
  try {
    j = Json::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const Json::exception& e) {
    return absl::InvalidArgumentError(
        OneLine(absl::StrFormat("malformed scenario: %s", StripNlohmannPrefix(e.what()))));
  }
  if (!duplicate.empty()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: duplicate key", EscapeForMessage(duplicate)));
  }
  if (!j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("malformed scenario: expected one JSON object, got %s", TypeName(j)));
  }
  Scenario s = base;
  for (const auto& [key, value] : j.items()) {
    const Field* field = nullptr;
    for (const Field& f : Fields()) {
      if (key == f.key) field = &f;
    }
    if (field == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: unknown key (see testdata/scenarios/README.md)", EscapeForMessage(key)));
    }
    if (absl::Status st = field->set(value, key, &s); !st.ok()) {
      return absl::InvalidArgumentError(OneLine(std::string(st.message())));
    }
  }
  return s;
}

absl::StatusOr<Scenario> LoadScenarioFile(const std::string& path, const Scenario& base) {
  absl::StatusOr<std::string> text = ReadFileCapped(path, kMaxScenarioFileBytes, "scenario");
  if (!text.ok()) return text.status();
  absl::StatusOr<Scenario> s = ScenarioFromJson(*text, base);
  if (!s.ok()) {
    return absl::Status(s.status().code(),
                        absl::StrFormat("scenario %s: %s", EscapeForMessage(path), s.status().message()));
  }
  return s;
}

nlohmann::ordered_json ScenarioToJsonValue(const Scenario& s) {
  nlohmann::ordered_json j;
  if (!s.description.empty()) j["description"] = s.description;
  j["messages"] = s.messages;
  nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
  for (const SizeMixEntry& e : s.sizes) {
    nlohmann::ordered_json entry;
    entry["bytes"] = e.bytes;
    entry["weight"] = e.weight;
    sizes.push_back(entry);
  }
  j["sizes"] = sizes;
  j["front_len"] = s.front_len;
  j["layout"] = std::string(DataLayoutName(s.layout));
  j["page_offset"] = s.page_offset;
  j["queue_depth"] = s.queue_depth;
  j["osd_reply_ns"] = s.osd_reply_ns;
  j["osd_reply_jitter_ns"] = s.osd_reply_jitter_ns;
  j["mss"] = s.mss;
  j["mtu"] = s.mtu;
  j["timestamps"] = s.timestamps;
  j["tso"] = s.tso;
  j["nodelay"] = s.nodelay;
  j["autocorking"] = s.autocorking;
  j["sndbuf"] = s.sndbuf;
  j["hz"] = s.hz;
  j["link_mbps"] = s.link_mbps;
  j["rtt_ns"] = s.rtt_ns;
  j["tx_completion_ns"] = s.tx_completion_ns;
  j["call_cost_ns"] = s.call_cost_ns;
  j["crc_ns_per_page"] = s.crc_ns_per_page;
  j["delayed_ack"] = s.delayed_ack;
  j["ack_every"] = s.ack_every;
  j["gro"] = std::string(GroModeName(s.gro));
  j["gro_flush_ns"] = s.gro_flush_ns;
  j["ack_proc_ns"] = s.ack_proc_ns;
  j["kernel"] = s.kernel;
  nlohmann::ordered_json writers = nlohmann::ordered_json::array();
  for (const WriterSpec& w : s.writers) writers.push_back(WriterSpecString(w));
  j["writers"] = writers;
  j["seed"] = s.seed;
  j["seeds"] = s.seeds;
  j["trace"] = s.trace;
  j["pcap"] = s.pcap;
  j["plot"] = s.plot;
  return j;
}

std::string ScenarioToJson(const Scenario& s) {
  // replace: strings given on the command line need not be UTF-8.
  return ScenarioToJsonValue(s).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace sendsim::scenario
