#include "driver/recorded_machine.h"

#include "fmt/format.h"
#include "io/json_locate.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"
#include "msa/target.h"
#include "nlohmann/json.hpp"

namespace memplan {

namespace {

absl::Status RecordedMachineError(std::string_view path, std::string_view pointer,
                                  std::string_view what) {
  return absl::InvalidArgumentError(fmt::format("{}: error: {}: {}", path, pointer, what));
}

// "plan.json:5:15" (just the path when the place is unknown).
std::string PlaceIn(std::string_view path, SourceLocation at) {
  return at.line > 0 ? fmt::format("{}:{}", path, LineColumn(at)) : std::string(path);
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
  machine.plan_path = std::string(path);
  machine.target_at = JsonPointerLocation(text, "/msa/target");
  if (doc.contains("spaces") && doc["spaces"].is_array()) {
    for (std::size_t i = 0; i < doc["spaces"].size(); ++i) {
      const nlohmann::json& space = doc["spaces"][i];
      if (!space.is_object() || space.value("id", nlohmann::json()) != kAlternateSpace) continue;
      machine.alternate_pointer = fmt::format("/spaces/{}", i);
    }
  }
  if (msa.contains("options") && msa["options"].is_object()) {
    const nlohmann::json& options = msa["options"];
    const auto read = [&](const char* key, Bytes min,
                          Bytes max) -> absl::StatusOr<std::optional<Bytes>> {
      if (!options.contains(key) || options[key].is_null()) return std::optional<Bytes>{};
      const nlohmann::json& v = options[key];
      if (!v.is_number_integer() || v.get<std::int64_t>() < min || v.get<std::int64_t>() > max) {
        return RecordedMachineError(path, fmt::format("/msa/options/{}", key),
                                    fmt::format("expected null or an integer in [{}, {}]", min, max));
      }
      return std::optional<Bytes>{v.get<std::int64_t>()};
    };
    absl::StatusOr<std::optional<Bytes>> bytes = read("fast_memory_override", 0, kMaxTotalBytes);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<std::optional<Bytes>> alignment =
        read("fast_memory_alignment_override", 1, kMaxAlignment);
    if (!alignment.ok()) return alignment.status();
    machine.fast_memory_bytes = *bytes;
    machine.fast_memory_alignment = *alignment;
  }
  return machine;
}

absl::StatusOr<Plan> WithResolvedMachine(const Plan& plan, const RecordedMachine& machine) {
  absl::StatusOr<Target> target = ResolveTarget(machine.target);
  if (!target.ok()) {
    const std::string why(target.status().message());
    // A target file's own errors carry that file's place: say where the plan names it.
    if (why.find(": error: ") != std::string::npos) {
      return absl::InvalidArgumentError(fmt::format(
          "{} (the target file named by {}: /msa/target)", why,
          PlaceIn(machine.plan_path, machine.target_at)));
    }
    // ResolveTarget's own messages begin "error: ".
    const std::string_view what = std::string_view(why).starts_with("error: ")
                                      ? std::string_view(why).substr(7)
                                      : std::string_view(why);
    return LocatedError(machine.plan_path, machine.target_at, fmt::format("/msa/target: {}", what));
  }
  const Bytes capacity = machine.fast_memory_bytes.value_or(target->fast_memory_bytes);
  const Bytes target_alignment =
      std::max<Bytes>(1, machine.fast_memory_alignment.value_or(target->alignment));
  const Bytes plan_alignment = std::max<Bytes>(1, plan.alignment);
  // Past kMaxAlignment no plan could have been made: it never matches.
  const Bytes alignment =
      AlignmentLcm(target_alignment, plan_alignment).value_or(kMaxAlignment + 1);
  const std::string capacity_source =
      machine.fast_memory_bytes
          ? fmt::format("the plan was made with --fast-memory {} (/msa/options/fast_memory_override)",
                        capacity)
          : fmt::format("target '{}' has {}", target->name, CountOf(capacity, "byte"));
  const std::string alignment_source =
      machine.fast_memory_alignment
          ? fmt::format("the plan was made with --fast-memory-alignment {} "
                        "(/msa/options/fast_memory_alignment_override)",
                        target_alignment)
          : fmt::format("target '{}' aligns fast memory to {}", target->name, target_alignment);
  const auto mismatch = [&](std::string_view key, std::string_view what) {
    return absl::FailedPreconditionError(
        fmt::format("{}/{}: {}", machine.alternate_pointer, key, what));
  };
  Plan resolved = plan;
  for (SpaceInfo& space : resolved.spaces) {
    if (space.id != kAlternateSpace) continue;
    if (space.capacity != capacity) {
      return mismatch("capacity_bytes",
                      fmt::format("the plan records {} of alternate memory, but {}",
                                  space.capacity ? CountOf(*space.capacity, "byte")
                                                 : std::string("no limit"),
                                  capacity_source));
    }
    if (space.alignment != alignment) {
      return mismatch(
          "alignment",
          fmt::format("the plan records alternate-memory alignment {}, but {} and the plan's "
                      "alignment is {}: offsets there must be multiples of {}",
                      space.alignment, alignment_source, plan_alignment, alignment));
    }
  }
  return resolved;
}

}  // namespace memplan
