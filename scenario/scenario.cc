#include "scenario/scenario.h"

#include "messenger/writer_policy.h"
#include "model/profile.h"

#include <algorithm>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "scenario/settings.h"
#include "scenario/text_util.h"

namespace sendsim::scenario {
namespace {

struct LayoutName {
  DataLayout layout;
  absl::string_view name;
};
constexpr LayoutName kLayouts[] = {
    {DataLayout::kPages, "pages"},
    {DataLayout::kPagelist, "pagelist"},
    {DataLayout::kBio, "bio"},
    {DataLayout::kBvecs, "bvecs"},
};

absl::Status Invalid(absl::string_view msg) { return absl::InvalidArgumentError(std::string(msg)); }

}  // namespace

absl::string_view DataLayoutName(DataLayout l) {
  for (const auto& e : kLayouts) {
    if (e.layout == l) return e.name;
  }
  return "?";
}

absl::StatusOr<DataLayout> DataLayoutByName(absl::string_view name) {
  for (const auto& e : kLayouts) {
    if (e.name == name) return e.layout;
  }
  return absl::InvalidArgumentError(
      absl::StrFormat("layout: unknown data layout \"%s\" (known: pages, pagelist, bio, bvecs)", EscapeForMessage(name)));
}

absl::string_view GroModeName(GroMode g) { return g == GroMode::kOff ? "off" : "batch"; }

absl::StatusOr<GroMode> GroModeByName(absl::string_view name) {
  if (name == "off") return GroMode::kOff;
  if (name == "batch") return GroMode::kBatch;
  return absl::InvalidArgumentError(absl::StrFormat("gro: unknown GRO mode \"%s\" (known: off, batch)", EscapeForMessage(name)));
}

absl::string_view CongestionControlName(model::CongestionControl c) {
  return c == model::CongestionControl::kReno ? "reno" : "cubic";
}

absl::StatusOr<model::CongestionControl> CongestionControlByName(absl::string_view name) {
  if (name == "cubic") return model::CongestionControl::kCubic;
  if (name == "reno") return model::CongestionControl::kReno;
  return absl::InvalidArgumentError(
      absl::StrFormat("tcp_cc: unknown congestion control \"%s\" (known: cubic, reno)", EscapeForMessage(name)));
}

absl::StatusOr<WriterSpec> ParseWriterSpec(absl::string_view text) {
  WriterSpec w;
  const size_t at = text.find('@');
  if (at == absl::string_view::npos) {
    w.writer = std::string(text);
  } else {
    w.writer = std::string(text.substr(0, at));
    w.kernel = std::string(text.substr(at + 1));
    if (w.kernel.empty() || w.kernel.find('@') != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrFormat("writers: \"%s\" is not of the form writer or writer@kernel", EscapeForMessage(text)));
    }
  }
  if (w.writer.empty()) {
    return absl::InvalidArgumentError(absl::StrFormat("writers: empty writer name in \"%s\"", EscapeForMessage(text)));
  }
  return w;
}

std::string WriterSpecString(const WriterSpec& w) {
  return w.kernel.empty() ? w.writer : absl::StrFormat("%s@%s", w.writer, w.kernel);
}

std::string EffectiveKernel(const WriterSpec& w, absl::string_view scenario_kernel) {
  return w.kernel.empty() ? std::string(scenario_kernel) : w.kernel;
}

const std::vector<std::string>& KnownWriters() {
  // The messenger's writer table, the one list of names.
  static const auto* const kNames = new std::vector<std::string>(messenger::WriterNames());
  return *kNames;
}

const std::vector<std::string>& KnownKernels() {
  static const auto* const kNames = new std::vector<std::string>(model::ProfileNames());
  return *kNames;
}

uint32_t HeaderOverhead(const Scenario& s) { return 20 + 20 + (s.timestamps ? 12 : 0); }

namespace {

bool Known(const std::vector<std::string>& names, absl::string_view n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

absl::Status CheckRange(absl::string_view key, uint64_t v, uint64_t lo, uint64_t hi, absl::string_view unit) {
  if (v < lo || v > hi) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d%s%s is out of range [%d, %d]", key, v, unit.empty() ? "" : " ", unit, lo, hi));
  }
  return absl::OkStatus();
}

absl::Status CheckKernel(absl::string_view key, absl::string_view k) {
  if (!Known(KnownKernels(), k)) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: unknown kernel profile \"%s\" (known: %s)", key, EscapeForMessage(k),
                                                      absl::StrJoin(KnownKernels(), ", ")));
  }
  return absl::OkStatus();
}

// The writer's socket calls must exist on its kernel (the same check as
// explore's cases and fixtures).
absl::Status CheckWriterOnKernel(const WriterSpec& w, absl::string_view scenario_kernel) {
  const std::string kernel = EffectiveKernel(w, scenario_kernel);
  absl::StatusOr<messenger::WriterKind> kind = messenger::ParseWriterKind(w.writer);
  absl::StatusOr<model::Profile> profile = model::ProfileByName(kernel);
  if (!kind.ok() || !profile.ok()) return absl::OkStatus();  // reported by the name checks
  absl::Status st = messenger::WriterAvailable(*kind, profile->has_sendpage, profile->has_splice_pages, kernel);
  if (st.ok()) return st;
  return absl::InvalidArgumentError(absl::StrFormat("writers: %s (name another kernel: %s@KERNEL)", st.message(),
                                                    w.writer));
}

// Rules across settings, each attached to a setting in settings.h.
absl::Status CheckSizes(const Scenario& s) {
  if (s.sizes.empty()) return Invalid("sizes: the size mix is empty");
  uint64_t largest = 0;
  for (size_t i = 0; i < s.sizes.size(); ++i) {
    const auto& e = s.sizes[i];
    if (absl::Status st = CheckRange(absl::StrFormat("sizes[%d].bytes", i), e.bytes, 1, kMaxMessageBytes, "bytes");
        !st.ok()) {
      return st;
    }
    if (absl::Status st = CheckRange(absl::StrFormat("sizes[%d].weight", i), e.weight, 1, 1'000'000, ""); !st.ok()) {
      return st;
    }
    largest = std::max(largest, e.bytes);
  }
  // largest <= 2^30 and messages <= 10^8, so the product fits in 64 bits.
  if (largest * s.messages > kMaxStreamBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "messages x sizes: %d messages of up to %d bytes exceed the %d-byte stream limit", s.messages, largest,
        kMaxStreamBytes));
  }
  return absl::OkStatus();
}

absl::Status CheckPageOffset(const Scenario& s) {
  if (s.page_offset >= kPageSize) {
    return absl::InvalidArgumentError(
        absl::StrFormat("page_offset: %d is not below the page size %d", s.page_offset, kPageSize));
  }
  if (s.layout == DataLayout::kPagelist && s.page_offset != 0) {
    return Invalid("page_offset: a pagelist always starts at offset 0 of its first page (use pages, bio or bvecs)");
  }
  return absl::OkStatus();
}

absl::Status CheckMssFitsMtu(const Scenario& s) {
  if (uint64_t{s.mss} + HeaderOverhead(s) > s.mtu) {
    return absl::InvalidArgumentError(
        absl::StrFormat("mss: %d bytes + %d bytes of IPv4/TCP headers%s do not fit the %d-byte MTU (max mss %d)",
                        s.mss, HeaderOverhead(s), s.timestamps ? " and timestamps" : "", s.mtu,
                        s.mtu - HeaderOverhead(s)));
  }
  return absl::OkStatus();
}

absl::Status CheckHz(const Scenario& s) {
  if (s.hz != 100 && s.hz != 250 && s.hz != 300 && s.hz != 1000) {
    return absl::InvalidArgumentError(absl::StrFormat("hz: %d is not a kernel HZ (100, 250, 300 or 1000)", s.hz));
  }
  return absl::OkStatus();
}

absl::Status CheckScenarioKernel(const Scenario& s) { return CheckKernel("kernel", s.kernel); }

absl::Status CheckWriters(const Scenario& s) {
  if (s.writers.empty()) return Invalid("writers: no writer to run");
  std::set<std::pair<std::string, std::string>> seen;
  for (const WriterSpec& w : s.writers) {
    if (!Known(KnownWriters(), w.writer)) {
      return absl::InvalidArgumentError(absl::StrFormat("writers: unknown writer \"%s\" (known: %s)",
                                                        EscapeForMessage(w.writer), absl::StrJoin(KnownWriters(), ", ")));
    }
    if (!w.kernel.empty()) {
      if (absl::Status st = CheckKernel("writers", w.kernel); !st.ok()) return st;
    }
    if (!seen.insert({w.writer, EffectiveKernel(w, s.kernel)}).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("writers: \"%s\" is listed twice on the same kernel", EscapeForMessage(WriterSpecString(w))));
    }
    if (absl::Status st = CheckWriterOnKernel(w, s.kernel); !st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::Status CheckSeedRange(const Scenario& s) {
  if (s.seed > UINT64_MAX - (s.seeds - 1)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("seeds: seed %d + %d runs passes the largest 64-bit seed", s.seed, s.seeds));
  }
  return absl::OkStatus();
}

// One setting's check from the table: its range, then its rule.
template <typename T>
absl::Status CheckSetting(absl::string_view key, const T& value, const SettingCheck& c, const Scenario& s) {
  if constexpr (std::is_arithmetic_v<T>) {
    if (c.range && !(c.zero_ok && value == 0)) {
      if (absl::Status st = CheckRange(key, static_cast<uint64_t>(value), c.lo, c.hi, c.unit); !st.ok()) return st;
    }
  }
  return c.then != nullptr ? c.then(s) : absl::OkStatus();
}

// The settings of `only` (or all), in the table's order.
absl::Status CheckSettings(const Scenario& s, std::optional<SettingGroup> only) {
#define SENDSIM_CHECK_SETTING(key, member, group, check, help)                                  \
  if (!only.has_value() || *only == SettingGroup::group) {                                      \
    if (absl::Status st = CheckSetting(#key, s.member, check, s); !st.ok()) return st;           \
  }
  SENDSIM_SCENARIO_SETTINGS(SENDSIM_CHECK_SETTING)
#undef SENDSIM_CHECK_SETTING
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateNetwork(const Scenario& s) { return CheckSettings(s, SettingGroup::kNetwork); }

absl::Status ValidateNetworkAndHost(const Scenario& s) {
  if (absl::Status st = CheckSettings(s, SettingGroup::kNetwork); !st.ok()) return st;
  return CheckSettings(s, SettingGroup::kHost);
}

absl::Status ValidateScenario(const Scenario& s) { return CheckSettings(s, std::nullopt); }

}  // namespace sendsim::scenario
