#include "driver/recorded_machine.h"

#include <numeric>

#include "fmt/format.h"
#include "msa/target.h"
#include "nlohmann/json.hpp"

namespace memplan {

namespace {

absl::Status RecordedMachineError(std::string_view path, std::string_view pointer,
                                  std::string_view what) {
  return absl::InvalidArgumentError(fmt::format("{}: error: {}: {}", path, pointer, what));
}

}  // namespace

absl::StatusOr<std::optional<RecordedMachine>> ReadRecordedMachine(std::string_view text,
                                                                  std::string_view path) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("msa") || !doc["msa"].is_object()) return std::nullopt;
  const nlohmann::json& msa = doc["msa"];
  if (!msa.contains("target")) return std::nullopt;
  if (!msa["target"].is_string()) {
    return RecordedMachineError(path, "/msa/target", "expected a string");
  }
  RecordedMachine machine;
  machine.target = msa["target"].get<std::string>();
  if (msa.contains("options") && msa["options"].is_object()) {
    const nlohmann::json& options = msa["options"];
    const auto read = [&](const char* key, Bytes max) -> absl::StatusOr<std::optional<Bytes>> {
      if (!options.contains(key) || options[key].is_null()) return std::optional<Bytes>{};
      const nlohmann::json& v = options[key];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > max) {
        return RecordedMachineError(path, fmt::format("/msa/options/{}", key),
                                    fmt::format("expected null or an integer in [1, {}]", max));
      }
      return std::optional<Bytes>{v.get<std::int64_t>()};
    };
    absl::StatusOr<std::optional<Bytes>> bytes = read("fast_memory_override", kMaxTotalBytes);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<std::optional<Bytes>> alignment =
        read("fast_memory_alignment_override", kMaxAlignment);
    if (!alignment.ok()) return alignment.status();
    machine.fast_memory_bytes = *bytes;
    machine.fast_memory_alignment = *alignment;
  }
  return machine;
}

absl::StatusOr<Plan> WithResolvedMachine(const Plan& plan, const RecordedMachine& machine) {
  absl::StatusOr<Target> target = ResolveTarget(machine.target);
  if (!target.ok()) return target.status();
  const Bytes capacity = machine.fast_memory_bytes.value_or(target->fast_memory_bytes);
  const Bytes target_alignment =
      std::max<Bytes>(1, machine.fast_memory_alignment.value_or(target->alignment));
  const Bytes plan_alignment = std::max<Bytes>(1, plan.alignment);
  // lcm without overflow: both are at most kMaxAlignment (2^32).
  const Bytes factor = target_alignment / std::gcd(target_alignment, plan_alignment);
  const Bytes alignment = factor > kMaxAlignment / plan_alignment ? kMaxAlignment + 1
                                                                   : factor * plan_alignment;
  const std::string source =
      machine.fast_memory_bytes ? fmt::format("--fast-memory {}", capacity)
                                : fmt::format("target '{}'", target->name);
  Plan resolved = plan;
  for (SpaceInfo& space : resolved.spaces) {
    if (space.id != kAlternateSpace) continue;
    if (space.capacity != capacity) {
      return absl::FailedPreconditionError(fmt::format(
          "the plan records {} of alternate memory, but {} has {} bytes",
          space.capacity ? fmt::format("{} bytes", *space.capacity) : std::string("no limit"),
          source, capacity));
    }
    space.alignment = alignment;
  }
  return resolved;
}

}  // namespace memplan
