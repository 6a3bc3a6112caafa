#include "scenario/scenario_json.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "scenario/settings.h"
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

// How a Scenario member of each type is read from and written to JSON; the
// settings table (settings.h) says which members there are.
template <typename T>
struct JsonCodec;

template <>
struct JsonCodec<uint64_t> {
  static absl::Status Read(const Json& j, absl::string_view p, uint64_t* v) { return GetU64(j, p, v); }
  static nlohmann::ordered_json Write(uint64_t v) { return v; }
};
template <>
struct JsonCodec<uint32_t> {
  static absl::Status Read(const Json& j, absl::string_view p, uint32_t* v) { return GetU32(j, p, v); }
  static nlohmann::ordered_json Write(uint32_t v) { return v; }
};
template <>
struct JsonCodec<uint8_t> {
  static absl::Status Read(const Json& j, absl::string_view p, uint8_t* v) {
    uint32_t w = 0;
    if (absl::Status st = GetU32(j, p, &w); !st.ok()) return st;
    if (w > std::numeric_limits<uint8_t>::max()) return KeyError(p, absl::StrFormat("%d does not fit in 8 bits", w));
    *v = static_cast<uint8_t>(w);
    return absl::OkStatus();
  }
  static nlohmann::ordered_json Write(uint8_t v) { return uint32_t{v}; }
};
// Times (model::TimeNs): unsigned in the file.
template <>
struct JsonCodec<int64_t> {
  static absl::Status Read(const Json& j, absl::string_view p, int64_t* v) {
    uint64_t w = 0;
    if (absl::Status st = GetU64(j, p, &w); !st.ok()) return st;
    if (w > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return KeyError(p, absl::StrFormat("%d does not fit in 63 bits", w));
    }
    *v = static_cast<int64_t>(w);
    return absl::OkStatus();
  }
  static nlohmann::ordered_json Write(int64_t v) { return v; }
};
template <>
struct JsonCodec<bool> {
  static absl::Status Read(const Json& j, absl::string_view p, bool* v) { return GetBool(j, p, v); }
  static nlohmann::ordered_json Write(bool v) { return v; }
};
template <>
struct JsonCodec<std::string> {
  static absl::Status Read(const Json& j, absl::string_view p, std::string* v) { return GetString(j, p, v); }
  static nlohmann::ordered_json Write(const std::string& v) { return v; }
};
template <>
struct JsonCodec<std::vector<SizeMixEntry>> {
  static absl::Status Read(const Json& j, absl::string_view p, std::vector<SizeMixEntry>* v) {
    return GetSizes(j, p, v);
  }
  static nlohmann::ordered_json Write(const std::vector<SizeMixEntry>& v) {
    nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
    for (const SizeMixEntry& e : v) {
      nlohmann::ordered_json entry;
      entry["bytes"] = e.bytes;
      entry["weight"] = e.weight;
      sizes.push_back(entry);
    }
    return sizes;
  }
};
template <>
struct JsonCodec<std::vector<WriterSpec>> {
  static absl::Status Read(const Json& j, absl::string_view p, std::vector<WriterSpec>* v) {
    if (!j.is_array()) return KeyError(p, absl::StrFormat("expected an array of strings, got %s", TypeName(j)));
    std::vector<WriterSpec> writers;
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string ep = absl::StrFormat("%s[%d]", p, i);
      std::string text;
      if (absl::Status st = GetString(j[i], ep, &text); !st.ok()) return st;
      absl::StatusOr<WriterSpec> w = ParseWriterSpec(text);
      if (!w.ok()) {
        return KeyError(ep, absl::StrFormat("\"%s\" is not of the form writer or writer@kernel", EscapeForMessage(text)));
      }
      writers.push_back(*std::move(w));
    }
    *v = std::move(writers);
    return absl::OkStatus();
  }
  static nlohmann::ordered_json Write(const std::vector<WriterSpec>& v) {
    nlohmann::ordered_json writers = nlohmann::ordered_json::array();
    for (const WriterSpec& w : v) writers.push_back(WriterSpecString(w));
    return writers;
  }
};

// Enums by name: `what` and `known` word the error.
template <typename E, absl::StatusOr<E> (*ByName)(absl::string_view), absl::string_view (*Name)(E)>
struct EnumCodec {
  static absl::Status ReadNamed(const Json& j, absl::string_view p, E* v, absl::string_view what,
                                absl::string_view known) {
    std::string name;
    if (absl::Status st = GetString(j, p, &name); !st.ok()) return st;
    absl::StatusOr<E> e = ByName(name);
    if (!e.ok()) {
      return KeyError(p, absl::StrFormat("unknown %s \"%s\" (known: %s)", what, EscapeForMessage(name), known));
    }
    *v = *e;
    return absl::OkStatus();
  }
  static nlohmann::ordered_json Write(E v) { return std::string(Name(v)); }
};
template <>
struct JsonCodec<DataLayout> : EnumCodec<DataLayout, DataLayoutByName, DataLayoutName> {
  static absl::Status Read(const Json& j, absl::string_view p, DataLayout* v) {
    return ReadNamed(j, p, v, "data layout", "pages, pagelist, bio, bvecs");
  }
};
template <>
struct JsonCodec<GroMode> : EnumCodec<GroMode, GroModeByName, GroModeName> {
  static absl::Status Read(const Json& j, absl::string_view p, GroMode* v) {
    return ReadNamed(j, p, v, "GRO mode", "off, batch");
  }
};
template <>
struct JsonCodec<model::CongestionControl>
    : EnumCodec<model::CongestionControl, CongestionControlByName, CongestionControlName> {
  static absl::Status Read(const Json& j, absl::string_view p, model::CongestionControl* v) {
    return ReadNamed(j, p, v, "congestion control", "cubic, reno");
  }
};

template <typename T>
using CodecOf = JsonCodec<std::remove_cvref_t<T>>;

// Reads one key into the scenario; false if the key is not a setting.
bool ReadSetting(absl::string_view key, const Json& value, Scenario* s, absl::Status* status) {
  if (key == "description") {
    *status = GetString(value, key, &s->description);
    return true;
  }
#define SENDSIM_READ_SETTING(name, member, group, check, help)          \
  if (key == #name) {                                                  \
    *status = CodecOf<decltype(s->member)>::Read(value, key, &s->member); \
    return true;                                                       \
  }
  SENDSIM_SCENARIO_SETTINGS(SENDSIM_READ_SETTING)
#undef SENDSIM_READ_SETTING
  return false;
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
    absl::Status st;
    if (!ReadSetting(key, value, &s, &st)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: unknown key (see testdata/scenarios/README.md)", EscapeForMessage(key)));
    }
    if (!st.ok()) return absl::InvalidArgumentError(OneLine(std::string(st.message())));
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
  static const auto* const kDefault = new Scenario();
  nlohmann::ordered_json j;
  if (!s.description.empty()) j["description"] = s.description;
  // The host group only when set: files that never set it stay as they were.
#define SENDSIM_WRITE_SETTING(name, member, group, check, help)                   \
  if (SettingGroup::group != SettingGroup::kHost || s.member != kDefault->member) { \
    j[#name] = CodecOf<decltype(s.member)>::Write(s.member);                      \
  }
  SENDSIM_SCENARIO_SETTINGS(SENDSIM_WRITE_SETTING)
#undef SENDSIM_WRITE_SETTING
  return j;
}

std::string ScenarioToJson(const Scenario& s) {
  // replace: strings given on the command line need not be UTF-8.
  return ScenarioToJsonValue(s).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace sendsim::scenario
