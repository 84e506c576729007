#include "cli/commands.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "CLI/CLI.hpp"
#include "fmt/format.h"
#include "absl/status/status.h"
#include "driver/compare_job.h"
#include "driver/msa_job.h"
#include "driver/plan_job.h"
#include "driver/sweep_job.h"
#include "report/sweep/sweep_chart.h"
#include "report/sweep/sweep_table.h"
#include "driver/progress.h"
#include "report/summary.h"
#include "io/byte_size.h"
#include "io/file_io.h"
#include "report/plan_json.h"
#include "ir/diagnostic.h"
#include "msa/target.h"
#include "nlohmann/json.hpp"
#include "regions/allocate_regions.h"
#include "verify/region_checks.h"

namespace memplan {
namespace {

int ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk: return kExitOk;
    case absl::StatusCode::kInvalidArgument: return kExitBadInput;
    default: return kExitPlanningFailure;
  }
}

int Fail(const absl::Status& status) {
  std::cerr << status.message() << "\n";
  return ExitCodeFor(status);
}

// A usage error not tied to a file: `memplan: error: message` (exit 2).
absl::Status UsageError(std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("memplan: error: {}", message));
}

bool Given(const CLI::Option* option) { return option != nullptr && option->count() > 0; }

// Accepts a count: an integer in [minimum, 2^63 - 1].
CLI::Validator Count(std::int64_t minimum = 0) {
  return CLI::Validator(
      [minimum](std::string& text) -> std::string {
        std::int64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, error] = std::from_chars(text.data(), end, value);
        if (error == std::errc() && stop == end && value >= minimum) return "";
        return "expected an integer from " + std::to_string(minimum) +
               " to 9223372036854775807, got '" + text + "'";
      },
      "N");
}

// Flags shared by verbs that read an input.
struct InputFlags {
  std::string input;
  std::vector<std::string> dims;  // NAME=VALUE
  bool no_alias = false;
  bool regions = false;           // --regions
  std::int64_t regions_per = 0;   // --regions-per N (ops per region)
  const CLI::Option* regions_per_option = nullptr;
};

void AddInputFlags(CLI::App* cmd, InputFlags& flags) {
  cmd->add_option("INPUT", flags.input,
                  "input, by extension (any case): .csv lifetimes, .onnx model, else text IR")
      ->required();
  cmd->add_option("--dim", flags.dims,
                  "bind a symbolic dim (an ONNX dim_param or a text IR `dim`), e.g. --dim "
                  "batch=8 (repeatable, one per name)");
  cmd->add_flag("--no-alias", flags.no_alias,
                "ONNX: no views or in-place reuse (every tensor gets its own buffer)");
  cmd->add_flag("--regions", flags.regions,
                "plan a flat program (an ONNX model) as one IREE-style execution region: weights "
                "as constant uploads, outputs as result reservations, activations in a slab");
  flags.regions_per_option =
      cmd->add_option("--regions-per", flags.regions_per,
                      "with --regions: one region per N ops instead of one for the whole program")
          ->check(Count(1));
}

absl::StatusOr<LoadOptions> ToLoadOptions(const InputFlags& flags) {
  LoadOptions options;
  options.alias = !flags.no_alias;
  if (Given(flags.regions_per_option) && !flags.regions) {
    return UsageError("--regions-per applies with --regions");
  }
  if (flags.regions) options.regions_per = Given(flags.regions_per_option) ? flags.regions_per : 0;
  for (const std::string& binding : flags.dims) {
    size_t eq = binding.find('=');
    std::string name = eq == std::string::npos ? "" : binding.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : binding.substr(eq + 1);
    std::int64_t parsed = 0;
    size_t used = 0;
    bool ok = !name.empty() && !value.empty();
    if (ok) {
      try {
        parsed = std::stoll(value, &used);
      } catch (...) {
        ok = false;
      }
    }
    if (!ok || used != value.size() || parsed <= 0) {
      return UsageError(
          fmt::format("--dim expects NAME=POSITIVE_INTEGER, got '{}'", binding));
    }
    if (auto [it, inserted] = options.dims.emplace(name, parsed); !inserted) {
      return UsageError(fmt::format("--dim {} is given twice ({}={} and {}={})", name, name,
                                    it->second, name, parsed));
    }
  }
  return options;
}

absl::StatusOr<Bytes> SizeFlag(const std::string& flag, const std::string& text) {
  absl::StatusOr<Bytes> bytes = ParseByteSize(text);
  if (!bytes.ok()) return UsageError(fmt::format("{}: {}", flag, std::string(bytes.status().message())));
  return bytes;
}

// Fast-memory (memory space assignment) flags of `plan`.
struct MsaFlags {
  std::string fast_memory;
  std::string target;
  std::int64_t max_outstanding_prefetches = -1;
  std::int64_t max_outstanding_evictions = -1;
  std::string picker = "cost";
  std::string mode = "default";
  std::int64_t max_repacks = 0;
  std::int64_t trip_count = 5;
  bool fifo = false;
  bool no_cross_program_prefetch = false;
  bool no_cross_program_prefetch_freeing = false;
  std::int64_t min_overlap_ops = 2;
  std::int64_t max_overlap_ops = 10;
  std::string min_overlap_ratio = "0.8";
  std::string preferred_overlap_ratio = "1.5";
  std::string max_overlap_ratio = "10";
  std::string fast_memory_alignment;
  std::string assign_first;
  std::vector<std::string> pins;  // VALUE[@OP]=default|alternate
  std::string inefficient_ratio = "0";
  std::string emit_ir;
  // Set by AddMsaFlags: which options were given.
  const CLI::Option* emit_ir_option = nullptr;
  const CLI::Option* fast_memory_option = nullptr;
  const CLI::Option* target_option = nullptr;
  std::vector<const CLI::Option*> knobs;  // apply only with fast memory
  const CLI::Option* max_repacks_option = nullptr;
  const CLI::Option* alignment_option = nullptr;
  std::vector<const CLI::Option*> count_picker_knobs;  // --picker instruction-count only
  std::vector<const CLI::Option*> cost_picker_knobs;   // --picker cost only
};

// Execution-region allocation flags of `plan` (programs with regions).
struct RegionFlags {
  std::string pack = "auto";
  std::string offset_alignment = "64";
  std::string range_alignment = "64";
  std::string max_allocation_size;
  std::vector<const CLI::Option*> given;  // any of them set explicitly
  const CLI::Option* max_allocation_option = nullptr;
};

void AddRegionFlags(CLI::App* cmd, RegionFlags& flags) {
  const std::string group = "Execution regions (IREE-style allocation)";
  flags.given.push_back(
      cmd->add_option("--pack", flags.pack,
                      "slab layout: in-order (IREE's LayoutSlices) or a packing algorithm "
                      "(default auto)")
          ->group(group));
  flags.given.push_back(cmd->add_option("--offset-alignment", flags.offset_alignment,
                                        "every slice offset is a multiple (default 64)")
                            ->group(group));
  flags.given.push_back(cmd->add_option("--range-alignment", flags.range_alignment,
                                        "slice and allocation sizes are padded to a multiple "
                                        "(default 64)")
                            ->group(group));
  flags.max_allocation_option =
      cmd->add_option("--max-allocation-size", flags.max_allocation_size,
                      "split uploads, result reservations and slabs above this size")
          ->group(group);
  flags.given.push_back(flags.max_allocation_option);
}

absl::StatusOr<RegionPlanOptions> ToRegionOptions(const RegionFlags& flags) {
  RegionPlanOptions options;
  if (flags.pack != "in-order") {
    absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(flags.pack);
    if (!algorithm.ok()) {
      return UsageError(fmt::format("--pack expects in-order or a packing algorithm: {}",
                                    std::string(algorithm.status().message())));
    }
  }
  options.pack = flags.pack;
  const std::pair<const char*, const std::string*> alignments[] = {
      {"--offset-alignment", &flags.offset_alignment},
      {"--range-alignment", &flags.range_alignment}};
  Bytes* targets[] = {&options.offset_alignment, &options.range_alignment};
  for (std::size_t i = 0; i < 2; ++i) {
    absl::StatusOr<Bytes> bytes = SizeFlag(alignments[i].first, *alignments[i].second);
    if (!bytes.ok()) return bytes.status();
    if (*bytes < 1 || *bytes > kMaxAlignment) {
      return UsageError(fmt::format("{} {} is outside the supported range 1 to 2^32 ({})",
                                    alignments[i].first, *bytes, kMaxAlignment));
    }
    *targets[i] = *bytes;
  }
  if (Given(flags.max_allocation_option)) {
    absl::StatusOr<Bytes> bytes = SizeFlag("--max-allocation-size", flags.max_allocation_size);
    if (!bytes.ok()) return bytes.status();
    if (*bytes < 1) return UsageError("--max-allocation-size must be at least 1 byte");
    options.max_allocation_size = *bytes;
  }
  return options;
}

struct PlanFlags {
  InputFlags input;
  std::string algorithm = "auto";
  std::string alignment = "1";
  std::vector<std::string> capacities;  // BYTES or POOL=BYTES, repeatable
  std::string json, svg, html, profile;
  bool quiet = false;
  MsaFlags msa;
  RegionFlags regions;
  const CLI::Option* json_option = nullptr;
  const CLI::Option* profile_option = nullptr;
  const CLI::Option* svg_option = nullptr;
  const CLI::Option* html_option = nullptr;
};

void AddMsaFlags(CLI::App* cmd, MsaFlags& flags) {
  const std::string group = "Fast memory (memory space assignment)";
  flags.fast_memory_option =
      cmd->add_option("--fast-memory", flags.fast_memory,
                      "fast (alternate) memory size, e.g. 2MiB; without --target the target is " +
                          std::string(kDefaultTarget))
          ->group(group);
  flags.target_option =
      cmd->add_option("--target", flags.target,
                      "machine: a preset (memplan targets) or a JSON file; alone, plans its fast "
                      "memory")
          ->group(group);
  const auto knob = [&](CLI::Option* option) { flags.knobs.push_back(option->group(group)); };
  knob(cmd->add_option("--max-outstanding-prefetches", flags.max_outstanding_prefetches,
                       "at most N prefetches in flight at one time step (default unlimited)")
           ->check(Count()));
  knob(cmd->add_option("--max-outstanding-evictions", flags.max_outstanding_evictions,
                       "at most N evictions in flight at one time step (default unlimited)")
           ->check(Count()));
  knob(cmd->add_option("--picker", flags.picker,
                       "prefetch interval picker: cost or instruction-count (default cost)"));
  knob(cmd->add_option("--msa-mode", flags.mode,
                       "default (memplan's improvements, never slower) or reference (the XLA "
                       "pass)"));
  CLI::Option* max_repacks =
      cmd->add_option("--max-repacks", flags.max_repacks,
                      "repack fast memory up to N times when it runs out; 0: never, in every "
                      "mode (default: none in reference mode, up to 4 in one default-mode "
                      "variant)")
          ->check(Count());
  knob(max_repacks);
  flags.max_repacks_option = max_repacks;
  const auto count_knob = [&](CLI::Option* option) {
    knob(option);
    flags.count_picker_knobs.push_back(option);
  };
  const auto cost_knob = [&](CLI::Option* option) {
    knob(option);
    flags.cost_picker_knobs.push_back(option);
  };
  count_knob(cmd->add_option("--min-overlap-ops", flags.min_overlap_ops,
                             "instruction-count picker: a copy overlaps at least N ops "
                             "(default 2)")
                 ->check(Count()));
  count_knob(cmd->add_option("--max-overlap-ops", flags.max_overlap_ops,
                             "instruction-count picker: a prefetch overlaps, and data stays "
                             "without a copy across, at most N ops (default 10)")
                 ->check(Count()));
  cost_knob(cmd->add_option("--min-overlap-ratio", flags.min_overlap_ratio,
                            "cost picker: a prefetch overlaps at least R x its copy time "
                            "(default 0.8)")->type_name("R"));
  cost_knob(cmd->add_option("--preferred-overlap-ratio", flags.preferred_overlap_ratio,
                            "cost picker: prefetch starts are tried from the one overlapping R x "
                            "its copy time (default 1.5)")->type_name("R"));
  cost_knob(cmd->add_option("--max-overlap-ratio", flags.max_overlap_ratio,
                            "cost picker: overlap at most R x the copy time of a buffer as large "
                            "as the fast memory (default 10)")->type_name("R"));
  CLI::Option* alignment =
      cmd->add_option("--fast-memory-alignment", flags.fast_memory_alignment,
                      "fast-memory offset alignment, replacing the target's (default: the "
                      "target's)")->type_name("BYTES");
  knob(alignment);
  flags.alignment_option = alignment;
  knob(cmd->add_flag("--no-cross-program-prefetch-freeing",
                     flags.no_cross_program_prefetch_freeing,
                     "keep the cross-program-prefetched weight in fast memory after its last "
                     "use instead of freeing it and refilling it at the program end"));
  knob(cmd->add_option("--assign-first", flags.assign_first,
                       "give fast memory first to buffers with a value whose whole name "
                       "matches this regular expression (ECMAScript), e.g. 'negate.*'")->type_name("REGEX"));
  knob(cmd->add_option("--pin", flags.pins,
                       "force a value, or one op's read of it, into a memory space: "
                       "VALUE=default|alternate or VALUE@OP=default|alternate (OP: the op's "
                       "first result; repeatable)")->type_name("VALUE[@OP]=SPACE"));
  knob(cmd->add_option("--inefficient-ratio", flags.inefficient_ratio,
                       "keep a copied segment in default memory when its ops use fewer than R "
                       "x the bytes copied (default 0: off)")->type_name("R"));
  knob(cmd->add_option("--while-trip-count", flags.trip_count,
                       "iterations assumed per while loop without a trip_count (default 5)")
           ->check(Count()));
  knob(cmd->add_flag("--fifo-prefetches", flags.fifo,
                     "prefetches complete in the order they start"));
  knob(cmd->add_flag("--no-cross-program-prefetch", flags.no_cross_program_prefetch,
                     "do not keep a weight parameter in fast memory across runs"));
  // --emit-ir without fast memory gets its own message from RunPlanJob.
  flags.emit_ir_option =
      cmd->add_option("--emit-ir", flags.emit_ir,
                      "write the schedule rewritten with copy-start/copy-done as text IR")
          ->group(group);
}

// A ratio flag: a finite decimal number > 0 (>= 0 when `zero_ok`).
absl::StatusOr<double> RatioFlag(std::string_view flag, const std::string& text, bool zero_ok) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value) || value < 0 ||
      (value == 0 && !zero_ok)) {
    return UsageError(fmt::format("{} expects a number {} 0, got '{}'", flag,
                                  zero_ok ? ">=" : ">", text));
  }
  return value;
}

// --pin VALUE[@OP]=default|alternate (names with or without the leading %).
absl::StatusOr<MsaPin> ParsePin(const std::string& text) {
  const auto bad = [&] {
    return UsageError(fmt::format(
        "--pin expects VALUE=default|alternate or VALUE@OP=default|alternate, got '{}'", text));
  };
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos) return bad();
  const std::string space = text.substr(eq + 1);
  std::string target = text.substr(0, eq);
  MsaPin pin;
  if (space == "default") {
    pin.space = kDefaultSpace;
  } else if (space == "alternate") {
    pin.space = kAlternateSpace;
  } else {
    return bad();
  }
  const size_t at = target.find('@');
  pin.value = target.substr(0, at);
  if (at != std::string::npos) pin.user = target.substr(at + 1);
  for (std::string* name : {&pin.value, &pin.user}) {
    if (!name->empty() && name->front() == '%') name->erase(0, 1);
  }
  if (pin.value.empty() || (at != std::string::npos && pin.user.empty())) return bad();
  return pin;
}

// The picker's knobs; each applies only to its picker.
absl::Status ToPickerOptions(const MsaFlags& flags, MsaOptions& msa) {
  const bool count = msa.picker == PickerKind::kInstructionCount;
  for (const CLI::Option* option : count ? flags.cost_picker_knobs : flags.count_picker_knobs) {
    if (!Given(option)) continue;
    return UsageError(fmt::format("{} applies only with --picker {}", option->get_name(),
                                  count ? "cost" : "instruction-count"));
  }
  msa.min_overlap_ops = flags.min_overlap_ops;
  msa.max_overlap_ops = flags.max_overlap_ops;
  if (msa.min_overlap_ops > msa.max_overlap_ops) {
    return UsageError(fmt::format("--min-overlap-ops {} is above --max-overlap-ops {}",
                                  msa.min_overlap_ops, msa.max_overlap_ops));
  }
  const std::tuple<const char*, const std::string*, double*> ratios[] = {
      {"--min-overlap-ratio", &flags.min_overlap_ratio, &msa.min_overlap_ratio},
      {"--preferred-overlap-ratio", &flags.preferred_overlap_ratio, &msa.preferred_overlap_ratio},
      {"--max-overlap-ratio", &flags.max_overlap_ratio, &msa.max_overlap_ratio}};
  for (const auto& [flag, text, value] : ratios) {
    absl::StatusOr<double> ratio = RatioFlag(flag, *text, /*zero_ok=*/false);
    if (!ratio.ok()) return ratio.status();
    *value = *ratio;
  }
  if (!(msa.min_overlap_ratio <= msa.preferred_overlap_ratio &&
        msa.preferred_overlap_ratio <= msa.max_overlap_ratio)) {
    return UsageError(fmt::format(
        "the overlap ratios must satisfy min <= preferred <= max, got {} / {} / {}",
        flags.min_overlap_ratio, flags.preferred_overlap_ratio, flags.max_overlap_ratio));
  }
  return absl::OkStatus();
}

// The MSA job options, or nullopt when no fast memory is planned.
// Errors: a knob without --fast-memory/--target (it would be ignored), an
// empty --target, a bad size, picker or mode.
absl::StatusOr<std::optional<MsaJobOptions>> ToMsaOptions(const MsaFlags& flags) {
  if (!Given(flags.fast_memory_option) && !Given(flags.target_option)) {
    for (const CLI::Option* knob : flags.knobs) {
      if (!Given(knob)) continue;
      return UsageError(fmt::format(
          "{} applies only when fast memory is planned (--fast-memory or --target)",
          knob->get_name()));
    }
    return std::optional<MsaJobOptions>();
  }
  MsaJobOptions options;
  if (Given(flags.target_option)) {
    if (flags.target.empty()) {
      return UsageError("--target expects a preset name (memplan targets) or a JSON file");
    }
    options.target = flags.target;
  }
  if (Given(flags.fast_memory_option)) {
    absl::StatusOr<Bytes> bytes = SizeFlag("--fast-memory", flags.fast_memory);
    if (!bytes.ok()) return bytes.status();
    if (*bytes > kMaxTotalBytes) {
      return UsageError(fmt::format("--fast-memory {} is above the limit of 2^62 ({}) bytes",
                                    *bytes, kMaxTotalBytes));
    }
    options.fast_memory_bytes = *bytes;
  }
  if (flags.picker == "cost") {
    options.msa.picker = PickerKind::kCostAnalysis;
  } else if (flags.picker == "instruction-count") {
    options.msa.picker = PickerKind::kInstructionCount;
  } else {
    return UsageError(
        fmt::format("--picker expects cost or instruction-count, got '{}'", flags.picker));
  }
  if (flags.mode == "default") {
    options.msa.mode = MsaMode::kDefault;
  } else if (flags.mode == "reference") {
    options.msa.mode = MsaMode::kReference;
  } else {
    return UsageError(
        fmt::format("--msa-mode expects default or reference, got '{}'", flags.mode));
  }
  options.msa.max_outstanding_prefetches = flags.max_outstanding_prefetches;
  options.msa.max_outstanding_evictions = flags.max_outstanding_evictions;
  if (Given(flags.max_repacks_option)) options.msa.max_repacks = flags.max_repacks;
  options.msa.enforce_prefetch_fifo = flags.fifo;
  options.msa.cross_program_prefetch = !flags.no_cross_program_prefetch;
  options.msa.cross_program_prefetch_freeing = !flags.no_cross_program_prefetch_freeing;
  if (absl::Status s = ToPickerOptions(flags, options.msa); !s.ok()) return s;
  if (Given(flags.alignment_option)) {
    absl::StatusOr<Bytes> bytes = SizeFlag("--fast-memory-alignment", flags.fast_memory_alignment);
    if (!bytes.ok()) return bytes.status();
    if (*bytes < 1 || *bytes > kMaxAlignment) {
      return UsageError(fmt::format(
          "--fast-memory-alignment {} is outside the supported range 1 to 2^32 ({})", *bytes,
          kMaxAlignment));
    }
    options.fast_memory_alignment = *bytes;
  }
  options.msa.assign_first = flags.assign_first;
  for (const std::string& text : flags.pins) {
    absl::StatusOr<MsaPin> pin = ParsePin(text);
    if (!pin.ok()) return pin.status();
    options.msa.pins.push_back(*pin);
  }
  absl::StatusOr<double> inefficient =
      RatioFlag("--inefficient-ratio", flags.inefficient_ratio, /*zero_ok=*/true);
  if (!inefficient.ok()) return inefficient.status();
  options.msa.inefficient_use_to_copy_ratio = *inefficient;
  options.cost.default_trip_count = flags.trip_count;
  return std::optional<MsaJobOptions>(options);
}

// --capacity, repeatable: BYTES limits the whole default memory, POOL=BYTES
// the default-memory pools of one lifetime. Errors: a malformed size, an
// unknown pool, `alternate` (that is --fast-memory), a limit given twice.
absl::Status ToCapacities(const std::vector<std::string>& texts, PoolPlanOptions& pools) {
  for (const std::string& text : texts) {
    const std::size_t eq = text.find('=');
    const std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
    const std::string size = eq == std::string::npos ? text : text.substr(eq + 1);
    const std::string spelled = "--capacity " + text;
    if (name == "alternate" || name == "fast") {
      return UsageError(fmt::format(
          "{}: the fast (alternate) memory's size is --fast-memory, not --capacity", spelled));
    }
    std::optional<Lifetime> lifetime;
    if (eq != std::string::npos && name != "default") {
      lifetime = ParseLifetime(name);
      if (!lifetime) {
        return UsageError(fmt::format(
            "--capacity expects BYTES (the whole default memory) or POOL=BYTES with POOL one of "
            "transient, constant, external, variable, staging; got '{}'",
            text));
      }
    }
    absl::StatusOr<Bytes> bytes =
        SizeFlag(name.empty() ? "--capacity" : "--capacity " + name, size);
    if (!bytes.ok()) return bytes.status();
    if (lifetime) {
      auto [it, inserted] = pools.pool_capacity.emplace(*lifetime, CapacityLimit{*bytes, spelled});
      if (!inserted) {
        return UsageError(fmt::format("--capacity {} is given twice ({} and {})", name,
                                      it->second.spelled, spelled));
      }
    } else {
      if (pools.capacity) {
        return UsageError(fmt::format(
            "the default memory's --capacity is given twice ({} and {})",
            pools.capacity_spelled, spelled));
      }
      pools.capacity = *bytes;
      pools.capacity_spelled = spelled;
    }
  }
  return absl::OkStatus();
}

// The plan job's options from `flags`. Errors: usage errors (exit 2).
absl::StatusOr<PlanJobOptions> ToPlanJobOptions(const PlanFlags& flags) {
  PlanJobOptions options;
  absl::StatusOr<LoadOptions> load = ToLoadOptions(flags.input);
  if (!load.ok()) return load.status();
  options.load = *load;
  absl::StatusOr<PackingAlgorithm> algorithm = ParsePackingAlgorithm(flags.algorithm);
  if (!algorithm.ok()) return UsageError(std::string(algorithm.status().message()));
  options.pools.algorithm = *algorithm;
  absl::StatusOr<Bytes> alignment = SizeFlag("--alignment", flags.alignment);
  if (!alignment.ok()) return alignment.status();
  if (*alignment < 1 || *alignment > kMaxAlignment) {
    return UsageError(fmt::format("--alignment {} is outside the supported range 1 to 2^32 ({})",
                                  *alignment, kMaxAlignment));
  }
  options.pools.alignment = *alignment;
  if (absl::Status s = ToCapacities(flags.capacities, options.pools); !s.ok()) return s;
  // Output paths: a file name each; only the JSON may go to standard output.
  const std::tuple<const CLI::Option*, const std::string*, std::optional<std::string>*> outputs[] =
      {{flags.json_option, &flags.json, &options.json_path},
       {flags.svg_option, &flags.svg, &options.svg_path},
       {flags.html_option, &flags.html, &options.html_path},
       {flags.profile_option, &flags.profile, &options.profile_path},
       {flags.msa.emit_ir_option, &flags.msa.emit_ir, &options.emit_ir_path}};
  for (const auto& [option, text, path] : outputs) {
    if (!Given(option)) continue;
    if (text->empty()) return UsageError(fmt::format("{} needs a file name", option->get_name()));
    if (*text == kStdoutPath && option != flags.json_option) {
      return UsageError(fmt::format(
          "{} cannot write to standard output ('-'); only --json can", option->get_name()));
    }
    *path = *text;
  }
  absl::StatusOr<std::optional<MsaJobOptions>> msa = ToMsaOptions(flags.msa);
  if (!msa.ok()) return msa.status();
  options.msa = *msa;
  absl::StatusOr<RegionPlanOptions> regions = ToRegionOptions(flags.regions);
  if (!regions.ok()) return regions.status();
  options.regions = *regions;
  options.regions_given = std::any_of(flags.regions.given.begin(), flags.regions.given.end(), Given);
  return options;
}

int RunPlan(const PlanFlags& flags) {
  absl::StatusOr<PlanJobOptions> options = ToPlanJobOptions(flags);
  if (!options.ok()) return Fail(options.status());
  // Progress on a terminal's stderr for runs longer than a second; erased
  // before anything else is printed.
  std::unique_ptr<ProgressReporter> progress = ProgressReporter::ForStderr(flags.quiet);
  progress->StartTicker();
  options->progress = progress.get();
  absl::StatusOr<PlanJobResult> result = RunPlanJob(flags.input.input, *options);
  progress->Finish();
  if (!result.ok()) return Fail(result.status());
  // Warnings go to stderr: --quiet and --json - must not hide them.
  if (result->plan.regions) {
    for (const std::string& warning : result->plan.regions->warnings) {
      std::cerr << flags.input.input << ": warning: " << warning << "\n";
    }
  }
  // With --json -, standard output carries the JSON alone.
  if (result->json_stdout) {
    std::cout << *result->json_stdout;
  } else if (!flags.quiet) {
    std::cout << result->summary;
  }
  return kExitOk;
}

// `memplan sweep`: plan's flags, with lists for --dim and --fast-memory.
struct SweepFlags {
  PlanFlags plan;
  std::string csv, svg;
  const CLI::Option* csv_option = nullptr;
  const CLI::Option* svg_option = nullptr;
};

// Splits "a,b,c" at commas; an empty item is an error naming `flag`.
absl::StatusOr<std::vector<std::string>> SplitList(std::string_view flag, const std::string& text) {
  std::vector<std::string> items;
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    items.push_back(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (items.back().empty()) {
      return UsageError(fmt::format("{} expects a comma-separated list, got '{}'", flag, text));
    }
    if (comma == std::string::npos) return items;
    begin = comma + 1;
  }
}

// --dim NAME=V1,V2,... (repeatable, one per name) as sweep dims, in order.
absl::StatusOr<std::vector<SweepDim>> ToSweepDims(const std::vector<std::string>& bindings) {
  std::vector<SweepDim> dims;
  for (const std::string& binding : bindings) {
    const size_t eq = binding.find('=');
    const auto bad = [&] {
      return UsageError(fmt::format(
          "--dim expects NAME=VALUE[,VALUE...] with positive integers, got '{}'", binding));
    };
    if (eq == 0 || eq == std::string::npos || eq + 1 == binding.size()) return bad();
    SweepDim dim{binding.substr(0, eq), {}};
    absl::StatusOr<std::vector<std::string>> values = SplitList("--dim", binding.substr(eq + 1));
    if (!values.ok()) return bad();
    for (const std::string& text : *values) {
      std::int64_t value = 0;
      const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || stop != text.data() + text.size() || value <= 0) return bad();
      dim.values.push_back(value);
    }
    for (const SweepDim& other : dims) {
      if (other.name == dim.name) {
        return UsageError(fmt::format("--dim {} is given twice (list its values once: --dim {}=A,B,C)",
                                      dim.name, dim.name));
      }
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

int RunSweep(const SweepFlags& flags) {
  if (Given(flags.plan.msa.emit_ir_option)) {
    return Fail(UsageError("sweep does not take --emit-ir (plan one point with memplan plan)"));
  }
  absl::StatusOr<std::vector<SweepDim>> dims = ToSweepDims(flags.plan.input.dims);
  if (!dims.ok()) return Fail(dims.status());
  std::vector<Bytes> sizes;
  PlanFlags plan_flags = flags.plan;
  plan_flags.input.dims.clear();  // bound per point
  if (Given(flags.plan.msa.fast_memory_option)) {
    absl::StatusOr<std::vector<std::string>> texts =
        SplitList("--fast-memory", flags.plan.msa.fast_memory);
    if (!texts.ok()) return Fail(texts.status());
    for (const std::string& text : *texts) {
      plan_flags.msa.fast_memory = text;  // validated like plan's
      absl::StatusOr<std::optional<MsaJobOptions>> msa = ToMsaOptions(plan_flags.msa);
      if (!msa.ok()) return Fail(msa.status());
      sizes.push_back(*(*msa)->fast_memory_bytes);
    }
  }
  absl::StatusOr<PlanJobOptions> options = ToPlanJobOptions(plan_flags);
  if (!options.ok()) return Fail(options.status());
  const std::tuple<const CLI::Option*, const std::string*> outputs[] = {
      {flags.csv_option, &flags.csv}, {flags.svg_option, &flags.svg}};
  // Checked before planning: a sweep may take long.
  for (const auto& [option, text] : outputs) {
    if (!Given(option)) continue;
    if (text->empty()) return Fail(UsageError(fmt::format("{} needs a file name", option->get_name())));
    if (*text == kStdoutPath) {
      if (option == flags.csv_option) continue;
      return Fail(UsageError(fmt::format(
          "{} cannot write to standard output ('-'); only --csv can", option->get_name())));
    }
    if (absl::Status s = CheckOutputPath(*text); !s.ok()) return Fail(s);
    if (SameFile(*text, flags.plan.input.input)) {
      return Fail(LocatedError(*text, SourceLocation{},
                               fmt::format("output path is the input file ({})", option->get_name())));
    }
  }
  if (Given(flags.csv_option) && Given(flags.svg_option) && SameFile(flags.csv, flags.svg)) {
    return Fail(LocatedError(flags.svg, SourceLocation{}, "--csv and --svg name the same file"));
  }
  const std::vector<SweepPoint> points = SweepGrid(*dims, sizes);
  std::unique_ptr<ProgressReporter> progress = ProgressReporter::ForStderr(flags.plan.quiet);
  progress->StartTicker();
  progress->Phase("sweep", static_cast<std::int64_t>(points.size()), "plans");
  absl::StatusOr<std::vector<SweepRow>> rows =
      RunSweepJob(flags.plan.input.input, *options, points,
                  [&](size_t done, size_t) { progress->Advance(static_cast<std::int64_t>(done)); });
  progress->Finish();
  if (!rows.ok()) return Fail(rows.status());
  // Files first, all or none: a failed write leaves no half-written output.
  std::vector<std::pair<std::string, std::string>> files;
  const bool csv_stdout = Given(flags.csv_option) && flags.csv == kStdoutPath;
  if (Given(flags.csv_option) && !csv_stdout) files.emplace_back(flags.csv, FormatSweepCsv(*rows));
  if (Given(flags.svg_option)) {
    files.emplace_back(flags.svg, RenderSweepChart(flags.plan.input.input, *rows));
  }
  if (absl::Status s = WriteFilesAtomically(files); !s.ok()) return Fail(s);
  // With --csv -, standard output carries the CSV alone.
  if (csv_stdout) {
    std::cout << FormatSweepCsv(*rows);
  } else if (!flags.plan.quiet) {
    std::cout << FormatSweepTable(flags.plan.input.input, *rows);
  }
  const bool all_fit = std::none_of(rows->begin(), rows->end(),
                                    [](const SweepRow& row) { return row.over_capacity.has_value(); });
  return all_fit ? kExitOk : kExitPlanningFailure;
}

// The input a plan records ("input"), or "" when it has none.
std::string RecordedInput(const std::string& plan_text) {
  const nlohmann::json doc = nlohmann::json::parse(plan_text, nullptr, false);
  if (!doc.is_object() || !doc.contains("input") || !doc["input"].is_string()) return "";
  return doc["input"].get<std::string>();
}

// The load options for `verify`: those recorded in the plan, unless the plan
// has none (then the flags). Flags that disagree with the record are an
// error, and so is an input the recorded options do not apply to (--no-alias:
// ONNX only; --dim: ONNX and text IR): the plan was made for another input.
absl::StatusOr<LoadOptions> VerifyLoadOptions(const LoadOptions& flags, bool dims_given,
                                              const std::optional<PlanInputOptions>& recorded,
                                              const std::string& plan_path,
                                              const std::string& input_path,
                                              const std::string& plan_text) {
  if (!recorded) return flags;
  const auto conflict = [&](std::string_view flag, std::string_view plan_has) {
    return LocatedError(plan_path, SourceLocation{},
                        fmt::format("{} disagrees with the plan, which was made with {}; drop the "
                                    "flag (verify loads the input as the plan records)",
                                    flag, plan_has));
  };
  const auto dims_text = [](const std::map<std::string, std::int64_t>& dims) {
    std::string text;
    for (const auto& [name, value] : dims) text += fmt::format(" --dim {}={}", name, value);
    return text.empty() ? std::string("no --dim") : text.substr(1);
  };
  const InputFormat format = DetectFormat(input_path);
  // --no-alias applies to ONNX only, --dim to ONNX and text IR.
  const bool alias_mismatch = format != InputFormat::kOnnx && !recorded->alias;
  const bool dims_mismatch = format == InputFormat::kLifetimeCsv && !recorded->dims.empty();
  if (alias_mismatch || dims_mismatch) {
    std::string load_flags = recorded->alias ? "" : "--no-alias";
    if (!recorded->dims.empty()) {
      load_flags += (load_flags.empty() ? "" : " ") + dims_text(recorded->dims);
    }
    const std::string made_for = RecordedInput(plan_text);
    // Only ONNX and text IR inputs record flags; name the one the plan was made for.
    const InputFormat made_for_format =
        made_for.empty() ? InputFormat::kOnnx : DetectFormat(made_for);
    return LocatedError(
        plan_path, SourceLocation{},
        fmt::format("this plan was made for {} with {}{}, but the input given is {}",
                    InputFormatName(made_for_format), load_flags,
                    made_for.empty() ? "" : fmt::format(" (input '{}')", made_for),
                    InputFormatName(format)));
  }
  if (!flags.alias && recorded->alias) return conflict("--no-alias", "aliasing on");
  if (dims_given && flags.dims != recorded->dims) {
    return conflict(dims_text(flags.dims), dims_text(recorded->dims));
  }
  const auto regions_text = [](const std::optional<std::int64_t>& per) {
    return !per ? std::string("no --regions")
                : *per == 0 ? std::string("--regions")
                            : fmt::format("--regions --regions-per {}", *per);
  };
  if (flags.regions_per && flags.regions_per != recorded->regions_per) {
    return conflict(regions_text(flags.regions_per), regions_text(recorded->regions_per));
  }
  LoadOptions options;
  options.alias = recorded->alias;
  options.dims = recorded->dims;
  options.regions_per = recorded->regions_per;
  return options;
}

// `quiet`: print nothing on success (errors are still printed).
int RunVerify(const InputFlags& input_flags, const std::string& plan_path, bool quiet) {
  absl::StatusOr<LoadOptions> flags = ToLoadOptions(input_flags);
  if (!flags.ok()) return Fail(flags.status());
  absl::StatusOr<std::string> text = ReadFile(plan_path);
  if (!text.ok()) return Fail(text.status());
  absl::StatusOr<std::optional<PlanInputOptions>> recorded =
      ReadPlanInputOptions(*text, plan_path);
  if (!recorded.ok()) return Fail(recorded.status());
  absl::StatusOr<LoadOptions> load =
      VerifyLoadOptions(*flags, !input_flags.dims.empty(), *recorded, plan_path,
                        input_flags.input, *text);
  if (!load.ok()) return Fail(load.status());
  absl::StatusOr<LoadedInput> input = LoadInput(input_flags.input, *load);
  if (!input.ok()) return Fail(input.status());
  const std::string note =
      *recorded ? "" : "the plan does not record how the input was loaded (--no-alias, --dim)";
  const Program* program = input->program ? &*input->program : nullptr;
  absl::StatusOr<Plan> plan = ReadPlanJson(*text, plan_path, input->buffers, note, program);
  if (!plan.ok()) return Fail(plan.status());
  if (absl::Status s = CheckInputLimits(*input, plan->alignment); !s.ok()) return Fail(s);
  // Without the regions block nothing would check the regions' allocations.
  absl::Status verified =
      !plan->regions && program && HasRegions(*program)
          ? absl::FailedPreconditionError(
                "the input has execution regions but the plan has no regions block")
          : VerifyAgainst(input->buffers, *plan,
                          plan->msa ? plan->msa->max_outstanding_prefetches : -1,
                          plan->msa ? plan->msa->max_outstanding_evictions : -1, program);
  // A plan with regions is read only for a program (ReadPlanJson).
  if (verified.ok() && plan->regions) verified = VerifyRegionPlan(*program, input->buffers, *plan);
  if (!verified.ok()) {
    std::cerr << plan_path << ": error: verification failed: " << verified.message() << "\n";
    return kExitPlanningFailure;
  }
  if (quiet) return kExitOk;
  std::cout << plan_path << ": plan verified: " << input->buffers.buffers.size()
            << " buffers, transient peak " << plan->peak << " bytes, lower bound "
            << plan->lower_bound << " bytes";
  // With fast memory the activations may all be there (transient peak 0).
  for (const SpaceInfo& space : plan->spaces) {
    if (space.id == kAlternateSpace) std::cout << ", alternate memory peak " << space.peak << " bytes";
  }
  std::cout << "\n";
  return kExitOk;
}

int RunStats(const InputFlags& input_flags) {
  absl::StatusOr<LoadOptions> load = ToLoadOptions(input_flags);
  if (!load.ok()) return Fail(load.status());
  absl::StatusOr<LoadedInput> input = LoadInput(input_flags.input, *load);
  if (!input.ok()) return Fail(input.status());
  std::cout << FormatStats(SummaryInputOf(*input));
  return kExitOk;
}

struct CompareFlags {
  InputFlags input;
  std::string alignment = "1";
  std::string json;
  const CLI::Option* json_option = nullptr;
};

// `memplan compare`: the table on stdout (or the JSON alone with --json -);
// exit 1 when a strategy's placement failed verification.
int RunCompare(const CompareFlags& flags) {
  CompareJobOptions options;
  absl::StatusOr<LoadOptions> load = ToLoadOptions(flags.input);
  if (!load.ok()) return Fail(load.status());
  options.load = *load;
  absl::StatusOr<Bytes> alignment = SizeFlag("--alignment", flags.alignment);
  if (!alignment.ok()) return Fail(alignment.status());
  if (*alignment < 1 || *alignment > kMaxAlignment) {
    return Fail(UsageError(fmt::format(
        "--alignment {} is outside the supported range 1 to 2^32 ({})", *alignment, kMaxAlignment)));
  }
  options.alignment = *alignment;
  if (Given(flags.json_option)) {
    if (flags.json.empty()) return Fail(UsageError("--json needs a file name"));
    options.json_path = flags.json;
  }
  absl::StatusOr<CompareJobResult> result = RunCompareJob(flags.input.input, options);
  if (!result.ok()) return Fail(result.status());
  std::cout << (result->json_stdout ? *result->json_stdout : result->text);
  for (const std::string& failure : result->failures) {
    std::cerr << flags.input.input << ": error: verification failed: " << failure << "\n";
  }
  return result->failures.empty() ? kExitOk : kExitPlanningFailure;
}

// "8 G" style: three significant digits with a decimal prefix.
std::string Rate(double value) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (p < 5 && value >= 1000) {
    value /= 1000;
    ++p;
  }
  return fmt::format("{:.3g} {}", value, prefixes[p]);
}

int RunTargets() {
  for (const Target& t : BuiltinTargets()) {
    std::cout << fmt::format(
        "{}: {}flop/s, {}transcendentals/s, default {}B/s, alternate {}B/s, copy {}B/s, fast "
        "memory {}, alignment {} ({})\n",
        t.name, Rate(t.flops_per_second), Rate(t.transcendentals_per_second),
        Rate(t.default_bandwidth), Rate(t.alternate_bandwidth), Rate(t.copy_bandwidth),
        FormatBytes(t.fast_memory_bytes), t.alignment, t.description);
  }
  return kExitOk;
}

std::string AlgorithmChoices() {
  std::string text;
  for (PackingAlgorithm a : AllPackingAlgorithms()) {
    if (!text.empty()) text += ", ";
    text += PackingAlgorithmName(a);
  }
  return text;
}

// CLI11's parse error `e` as a sentence in memplan's words, for the kinds a
// user meets (a flag given twice or without its value, an argument the verb
// does not take, no verb); other kinds keep CLI11's text. `verb` is the
// parsed verb, if any.
std::string ParseErrorMessage(const CLI::ParseError& e, const CLI::App& app,
                              const CLI::App* verb) {
  const std::string text = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr) {
    // `NAME: At Most 1 required but received 2`, `NAME: 1 required TEXT missing`.
    const size_t colon = text.find(": ");
    const std::string name = text.substr(0, colon);
    if (colon != std::string::npos && text.find(": At Most ", colon) == colon) {
      return name + " given more than once";
    }
    if (colon != std::string::npos && text.ends_with(" missing")) return name + " needs a value";
    return text;
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    const std::vector<std::string> extras = app.remaining(true);
    if (extras.empty() || verb == nullptr) return text;
    if (verb->get_name() == "verify" && extras.front() == "--alignment") {
      return "verify does not take --alignment (the plan records it)";
    }
    return fmt::format("unexpected argument '{}' for '{}'", extras.front(), verb->get_name());
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && verb == nullptr) {
    const std::vector<std::string> extras = app.remaining(true);
    if (!extras.empty()) return fmt::format("unexpected argument '{}' before the command", extras.front());
    return "a command is required (plan, verify, stats, compare, sweep or targets)";
  }
  return text;
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{"memplan: plans where every tensor buffer of an ML model lives"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "memplan 0.1.0");

  PlanFlags plan_flags;
  CLI::App* plan = app.add_subcommand("plan", "plan buffer offsets, verify, print a summary");
  AddInputFlags(plan, plan_flags.input);
  plan->add_option("--algorithm", plan_flags.algorithm,
                   "packing algorithm: " + AlgorithmChoices() + " (default auto)");
  plan->add_option("--alignment", plan_flags.alignment, "offset alignment, e.g. 64 (default 1)");
  plan->add_option("--capacity", plan_flags.capacities,
                   "default-memory capacity, e.g. 1MiB, or one pool's: transient=256KiB (the "
                   "activations), constant=4MiB, external, variable, staging; repeatable (exit 1 "
                   "if exceeded; the fast memory's size is --fast-memory)")
      ->type_name("[POOL=]BYTES");
  plan_flags.json_option = plan->add_option(
      "--json", plan_flags.json,
      "write the plan as JSON (memplan.plan/1); - writes it to standard output instead of the "
      "summary");
  plan_flags.svg_option =
      plan->add_option("--svg", plan_flags.svg, "write the memory map as SVG");
  plan_flags.html_option =
      plan->add_option("--html", plan_flags.html, "write the interactive memory map as HTML");
  plan_flags.profile_option = plan->add_option(
      "--profile", plan_flags.profile,
      "write the live bytes per time step (per space and pool, the op, buffers defined and "
      "freed) as CSV");
  plan->add_flag("--quiet,-q", plan_flags.quiet,
                 "print nothing on success (and no progress line on a terminal)");
  AddMsaFlags(plan, plan_flags.msa);
  AddRegionFlags(plan, plan_flags.regions);

  InputFlags verify_input;
  std::string verify_plan;
  CLI::App* verify = app.add_subcommand("verify", "re-check a saved JSON plan against its input");
  AddInputFlags(verify, verify_input);
  verify->add_option("PLAN", verify_plan, "plan JSON written by memplan plan --json")->required();
  bool verify_quiet = false;
  verify->add_flag("--quiet,-q", verify_quiet, "print nothing on success");

  InputFlags stats_input;
  CLI::App* stats = app.add_subcommand("stats", "lower bound and live-bytes profile, no planning");
  AddInputFlags(stats, stats_input);

  CompareFlags compare_flags;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "the arena other planners' strategies need (TFLite, TFLite Micro, ONNX Runtime, IREE, "
      "XLA, no reuse) beside memplan's plan and the lower bound");
  compare->add_option("INPUT", compare_flags.input.input,
                      "input, by extension (any case): .csv lifetimes, .onnx model, else text IR")
      ->required();
  compare->add_option("--dim", compare_flags.input.dims,
                      "bind a symbolic dim, e.g. --dim batch=8 (repeatable, one per name)");
  compare->add_flag("--no-alias", compare_flags.input.no_alias,
                    "ONNX: no views or in-place reuse (every tensor gets its own buffer)");
  compare->add_option("--alignment", compare_flags.alignment,
                      "offset alignment for every strategy, e.g. 64 (default 1)");
  compare_flags.json_option = compare->add_option(
      "--json", compare_flags.json,
      "write the table as JSON (memplan.compare/1); - writes it to standard output instead");

  SweepFlags sweep_flags;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "plan over lists of --dim values and fast-memory sizes; print a table");
  AddInputFlags(sweep, sweep_flags.plan.input);
  sweep->get_option("--dim")->description(
      "a symbolic dim and the values to sweep, e.g. --dim batch=1,2,4,8 (repeatable, one per "
      "name; the first dim varies slowest)");
  sweep->add_option("--algorithm", sweep_flags.plan.algorithm,
                    "packing algorithm: " + AlgorithmChoices() + " (default auto)");
  sweep->add_option("--alignment", sweep_flags.plan.alignment, "offset alignment (default 1)");
  sweep->add_option("--capacity", sweep_flags.plan.capacities,
                    "default-memory capacity, or one pool's (transient=256KiB); points that do "
                    "not fit are reported (exit 1)");
  sweep_flags.csv_option = sweep->add_option(
      "--csv", sweep_flags.csv, "write the table as CSV; - writes it to standard output instead");
  sweep_flags.svg_option =
      sweep->add_option("--svg", sweep_flags.svg, "write the sweep as an SVG line chart");
  sweep->add_flag("--quiet,-q", sweep_flags.plan.quiet, "print no table");
  AddMsaFlags(sweep, sweep_flags.plan.msa);
  sweep->get_option("--fast-memory")->description(
      "fast (alternate) memory sizes to sweep, e.g. 0,256KiB,1MiB,4MiB; without --target the "
      "target is " + std::string(kDefaultTarget));
  AddRegionFlags(sweep, sweep_flags.plan.regions);

  CLI::App* targets = app.add_subcommand(
      "targets", "list the preset machines for --target (name first, then the key figures)");

  // CLI11 would report an unknown verb as a missing one.
  const auto is_verb = [&](const CLI::App* verb) { return verb->get_name() == argv[1]; };
  if (argc > 1 && argv[1][0] != '-' && !is_verb(plan) && !is_verb(verify) && !is_verb(stats) &&
      !is_verb(compare) && !is_verb(sweep) && !is_verb(targets)) {
    return Fail(UsageError(fmt::format(
        "unknown command '{}' (expected plan, verify, stats, compare, sweep or targets; see "
        "memplan --help)",
        argv[1])));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    const CLI::App* verb = nullptr;
    for (const CLI::App* v : {plan, verify, stats, compare, sweep, targets}) {
      if (v->parsed()) verb = v;
    }
    std::cerr << fmt::format("memplan: error: {} (see memplan --help)\n",
                             ParseErrorMessage(e, app, verb));
    return kExitBadInput;
  }
  if (plan->parsed()) return RunPlan(plan_flags);
  if (verify->parsed()) return RunVerify(verify_input, verify_plan, verify_quiet);
  if (sweep->parsed()) return RunSweep(sweep_flags);
  if (targets->parsed()) return RunTargets();
  if (compare->parsed()) return RunCompare(compare_flags);
  return RunStats(stats_input);
}

}  // namespace memplan
