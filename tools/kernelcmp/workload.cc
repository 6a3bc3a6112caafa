#include "tools/kernelcmp/workload.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_format.h"
#include "messenger/writer_policy.h"

namespace sendsim::kernelcmp {

absl::Status ValidateWorkload(const Workload& w) {
  if (w.messages == 0) return absl::InvalidArgumentError("messages must be > 0");
  if (w.message_bytes == 0) return absl::InvalidArgumentError("message_bytes must be > 0");
  if (w.message_bytes > (uint64_t{1} << 30)) {
    return absl::InvalidArgumentError("message_bytes must be <= 1 GiB");
  }
  if (w.prefix_bytes == 0) return absl::InvalidArgumentError("prefix_bytes must be > 0 (tag byte)");
  if (w.prefix_bytes > 1 << 20) return absl::InvalidArgumentError("prefix_bytes must be <= 1 MiB");
  if (w.footer_bytes > 4096) return absl::InvalidArgumentError("footer_bytes must be <= 4096");
  if (w.StreamBytes() > (uint64_t{64} << 30)) {
    return absl::InvalidArgumentError("workload larger than 64 GiB on the stream");
  }
  return absl::OkStatus();
}

absl::StatusOr<Workload> WorkloadFromScenarioJson(absl::string_view json_text, Workload base) {
  nlohmann::json j = nlohmann::json::parse(std::string(json_text), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("scenario is not valid JSON");
  if (!j.is_object()) return absl::InvalidArgumentError("scenario must be a JSON object");
  // The CLI's format may nest the workload; accept both flat and {"workload": {...}}.
  const nlohmann::json* src = &j;
  if (j.contains("workload") && j["workload"].is_object()) src = &j["workload"];
  auto read_uint = [&](const char* key, uint64_t max, auto* out) -> absl::Status {
    if (!src->contains(key)) return absl::OkStatus();
    const nlohmann::json& v = (*src)[key];
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("scenario key \"%s\" must be a non-negative integer", key));
    }
    uint64_t x = v.get<uint64_t>();
    if (x > max) {
      return absl::InvalidArgumentError(absl::StrFormat("scenario key \"%s\" too large", key));
    }
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(x);
    return absl::OkStatus();
  };
  Workload w = base;
  // sendsim's scenario format (scenario/scenario.h): "front_len" and a "sizes" mix.
  uint32_t front_len = 0;
  if (src->contains("front_len")) {
    absl::Status s = read_uint("front_len", UINT32_MAX - kV1PrefixFixedBytes, &front_len);
    if (!s.ok()) return s;
    w.prefix_bytes = kV1PrefixFixedBytes + front_len;
  }
  if (src->contains("sizes")) {
    const nlohmann::json& sizes = (*src)["sizes"];
    if (!sizes.is_array() || sizes.size() != 1 || !sizes[0].is_object() ||
        !sizes[0].contains("bytes") || !sizes[0]["bytes"].is_number_unsigned()) {
      return absl::InvalidArgumentError(
          "scenario \"sizes\" must hold exactly one {\"bytes\": N} entry (kernelcmp replays "
          "single-size workloads)");
    }
    w.message_bytes = sizes[0]["bytes"].get<uint64_t>();
  }
  if (src->contains("page_offset")) {
    uint32_t page_offset = 0;
    absl::Status s = read_uint("page_offset", UINT32_MAX, &page_offset);
    if (!s.ok()) return s;
    if (page_offset != 0) {
      return absl::InvalidArgumentError(
          "scenario \"page_offset\" must be 0 (kernelcmp sends page-aligned data)");
    }
  }
  for (absl::Status s : {read_uint("messages", UINT64_MAX, &w.messages),
                         read_uint("message_bytes", UINT64_MAX, &w.message_bytes),
                         read_uint("prefix_bytes", UINT32_MAX, &w.prefix_bytes),
                         read_uint("footer_bytes", UINT32_MAX, &w.footer_bytes)}) {
    if (!s.ok()) return s;
  }
  absl::Status valid = ValidateWorkload(w);
  if (!valid.ok()) return valid;
  return w;
}

namespace {
struct VariantEntry {
  Variant v;
  absl::string_view name;
};
// The libceph writers by messenger's names (the one writer table), then
// kernelcmp's own call patterns.
constexpr VariantEntry kVariants[] = {
    {Variant::kV1Legacy, messenger::WriterKindAbslName(messenger::WriterKind::kV1Legacy)},
    {Variant::kV1Splice, messenger::WriterKindAbslName(messenger::WriterKind::kV1Splice)},
    {Variant::kV1Cork, messenger::WriterKindAbslName(messenger::WriterKind::kV1Cork)},
    {Variant::kV2, messenger::WriterKindAbslName(messenger::WriterKind::kV2)},
    {Variant::kSendmsgAll, "sendmsg-all"},
    {Variant::kSendfile, "sendfile"},
    {Variant::kSplice, "splice"},
};
}  // namespace

absl::string_view VariantName(Variant v) {
  for (const VariantEntry& e : kVariants) {
    if (e.v == v) return e.name;
  }
  return "?";
}

absl::StatusOr<Variant> ParseVariant(absl::string_view name) {
  if (name == "per-page-more") return Variant::kV1Splice;
  if (name == "cork") return Variant::kV1Cork;
  for (const VariantEntry& e : kVariants) {
    if (e.name == name) return e.v;
  }
  std::string names;
  for (const VariantEntry& e : kVariants) absl::StrAppendFormat(&names, " %s", e.name);
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown variant \"%s\" (known:%s)", name, names));
}

std::vector<Variant> AllVariants() {
  std::vector<Variant> out;
  for (const VariantEntry& e : kVariants) out.push_back(e.v);
  return out;
}

Framing FramingFor(const Workload& w, Variant v) {
  if (v != Variant::kV2) return Framing{w.prefix_bytes, w.footer_bytes};
  // Same front, msgr2 head and epilogue around it.
  const uint32_t front =
      w.prefix_bytes > kV1PrefixFixedBytes ? w.prefix_bytes - kV1PrefixFixedBytes : 0;
  return Framing{kV2HeadBytes + front, kV2EpilogueBytes};
}

uint64_t StreamBytesFor(const Workload& w, Variant v) {
  const Framing f = FramingFor(w, v);
  return w.messages * (f.prefix_bytes + w.message_bytes + f.footer_bytes);
}

absl::string_view IoModeName(IoMode m) {
  return m == IoMode::kBlocking ? "blocking" : "nonblocking";
}

absl::StatusOr<IoMode> ParseIoMode(absl::string_view name) {
  if (name == "blocking") return IoMode::kBlocking;
  if (name == "nonblocking") return IoMode::kNonBlocking;
  return absl::InvalidArgumentError(
      absl::StrFormat("unknown io mode \"%s\" (known: blocking nonblocking)", name));
}

absl::string_view PlacementName(Placement p) {
  return p == Placement::kSenderCpu ? "rx-on-sender-cpu" : "rx-on-receiver-cpu";
}

absl::StatusOr<Placement> ParsePlacement(absl::string_view name) {
  if (name == "rx-on-sender-cpu" || name == "sender") return Placement::kSenderCpu;
  if (name == "rx-on-receiver-cpu" || name == "receiver") return Placement::kReceiverCpu;
  return absl::InvalidArgumentError(absl::StrFormat(
      "unknown placement \"%s\" (known: rx-on-sender-cpu rx-on-receiver-cpu)", name));
}

}  // namespace sendsim::kernelcmp
