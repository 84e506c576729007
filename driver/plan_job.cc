#include "driver/plan_job.h"

#include <cstddef>
#include <filesystem>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "driver/hierarchy_job.h"
#include "driver/onnx_order.h"
#include "driver/region_fast_memory.h"
#include "driver/region_pools.h"
#include "driver/tflite_offline.h"
#include "driver/tflite_summary.h"
#include "driver/verification_failure.h"
#include "report/summary.h"
#include "fmt/format.h"
#include "io/csv/solution_writer.h"
#include "io/byte_size.h"
#include "io/file_io.h"
#include "report/map/html.h"
#include "report/peak_attribution.h"
#include "report/plan_json.h"
#include "report/profile_csv.h"
#include "report/reorder_summary.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"
#include "report/map/side_by_side.h"
#include "report/map/svg.h"
#include "ir/text_printer.h"
#include "io/hlo/emitter.h"
#include "io/hlo/parser.h"
#include "regions/allocate_regions.h"
#include "regions/command_form.h"
#include "verify/region_checks.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

// Output paths must exist as directories, and no output may overwrite the
// input or another output.
absl::Status CheckOutputPaths(const std::string& input_path, const PlanJobOptions& options) {
  const std::pair<const char*, const std::optional<std::string>*> outputs[] = {
      {"--json", &options.json_path},
      {"--svg", &options.svg_path},
      {"--html", &options.html_path},
      {"--profile", &options.profile_path},
      {"--emit-ir", &options.emit_ir_path},
      {"--emit-hlo", &options.emit_hlo_path},
      {"--csv", &options.csv_path},
      {"--write-tflite", &options.tflite_path},
      {"--write-onnx", &options.onnx_path}};
  for (size_t i = 0; i < std::size(outputs); ++i) {
    const auto& [flag, path] = outputs[i];
    if (!*path || **path == kStdoutPath) continue;
    if (absl::Status s = CheckOutputPath(**path); !s.ok()) return s;
    if (SameFile(**path, input_path)) {
      return LocatedError(**path, SourceLocation{},
                          fmt::format("output path is the input file ({})", flag));
    }
    for (size_t j = 0; j < i; ++j) {
      const auto& [other_flag, other] = outputs[j];
      if (*other && **other != kStdoutPath && SameFile(**path, **other)) {
        return LocatedError(**path, SourceLocation{},
                            fmt::format("{} and {} name the same file", other_flag, flag));
      }
    }
  }
  return absl::OkStatus();
}

// --emit-hlo: the input module (read again: the job keeps only its program)
// rewritten with the plan's memory spaces and copies.
absl::StatusOr<std::string> EmitHloOfPlan(const std::string& input_path, const Program& program,
                                          const Program& rewritten) {
  absl::StatusOr<std::string> text = ReadFile(input_path);
  if (!text.ok()) return text.status();
  absl::StatusOr<HloModule> module = ParseHloModule(*text, input_path);
  if (!module.ok()) return module.status();
  return EmitHloWithMemorySpaces(*text, *module, program, rewritten);
}

// A planning failure (capacity, rewrite, internal) located at the input:
// `path: error: message`.
absl::Status AtInput(const absl::Status& status, const std::string& input_path) {
  return absl::Status(status.code(),
                      fmt::format("{}: error: {}", input_path, std::string(status.message())));
}

// `status` in the CLI's error form: kept when it names a file (`path:
// error: ...`), else `memplan: error: ...`.
absl::Status AsUsageError(const absl::Status& status) {
  const std::string text(status.message());
  std::string_view message = text;
  if (message.find(": error: ") != std::string_view::npos) return status;
  if (message.starts_with("error: ")) message.remove_prefix(7);
  return absl::Status(status.code(), fmt::format("memplan: error: {}", message));
}

// A region plan that failed verification: a bad input when the program fails
// the same checks with no memory reuse at all (it reads data it overwrote
// itself, races inside a wave, or has a subview at an offset given by dims
// that leaves its buffer's memory), else a planner bug.
absl::Status RegionFailure(const LoadedInput& input, const PlanJobOptions& options,
                           const RegionPlanOptions& region_options,
                           const std::string& input_path, const absl::Status& failure) {
  absl::StatusOr<Plan> as_written = PlanRegions(*input.program, *input.analysis, region_options,
                                                options.pools, /*reuse=*/false);
  if (as_written.ok()) {
    // Every value's place, as the plan being checked has it.
    as_written->value_offsets = input.analysis->value_offset;
    as_written->symbolic_value_offsets = input.analysis->symbolic_value_offset;
    RegionFailureSite site;
    absl::Status own = VerifyRegionPlan(*input.program, input.buffers, *as_written, &site);
    if (!own.ok()) {
      return RegionInputFailure(*input.program, *as_written, input_path, site,
                                std::string(own.message()));
    }
  }
  return PlanVerificationFailure(input.format, input_path, "region plan", std::string(failure.message()));
}

// The knobs recorded in the JSON plan's "msa" object.
PlanMsaKnobs MsaKnobs(const MsaOptions& o, const MsaJobOptions& job) {
  const CostModelOptions& cost = job.cost;
  PlanMsaKnobs k;
  k.picker = o.picker == PickerKind::kInstructionCount ? "instruction-count" : "cost";
  k.min_overlap_ops = o.min_overlap_ops;
  k.max_overlap_ops = o.max_overlap_ops;
  k.min_overlap_ratio = o.min_overlap_ratio;
  k.preferred_overlap_ratio = o.preferred_overlap_ratio;
  k.max_overlap_ratio = o.max_overlap_ratio;
  k.max_outstanding_prefetches = o.max_outstanding_prefetches;
  k.max_outstanding_evictions = o.max_outstanding_evictions;
  k.fifo_prefetches = o.enforce_prefetch_fifo;
  k.max_repacks = o.max_repacks;
  k.cross_program_prefetch = o.cross_program_prefetch;
  k.cross_program_prefetch_freeing = o.cross_program_prefetch_freeing;
  k.fast_memory_alignment = o.alignment;
  k.fast_memory_override = job.fast_memory_bytes;
  k.fast_memory_alignment_override = job.fast_memory_alignment;
  k.assign_first = o.assign_first;
  for (const MsaPin& pin : o.pins) {
    k.pins.push_back(fmt::format("{}{}={}", pin.value, pin.user.empty() ? "" : "@" + pin.user,
                                 pin.space == kAlternateSpace ? "alternate" : "default"));
  }
  k.inefficient_ratio = o.inefficient_use_to_copy_ratio;
  k.while_trip_count = cost.default_trip_count;
  k.sliced_prefetch = o.sliced_prefetch.max_slices;
  k.sliced_prefetch_min_bytes = o.sliced_prefetch.min_bytes;
  k.sliced_prefetch_slice_bytes = o.sliced_prefetch.preferred_slice_bytes;
  k.window_prefetch = o.window_prefetch_bytes;
  k.automatic_window_prefetch = job.msa.auto_window_prefetch;  // as given: --emit-ir turns it off
  k.block_prefetch_bytes = o.block_prefetch_bytes;
  k.automatic_block_prefetch = o.auto_block_prefetch;
  k.loop_optimizer = o.loop_optimizer;
  k.loop_optimizer_min_iterations = o.loop_optimizer_min_iterations;
  k.automatic_loop_optimizer = job.msa.auto_loop_optimizer;
  return k;
}

// The input order's plan for the side-by-side maps of --reorder: its pools
// packed as the reordered program's are, verified the same way.
struct InputOrderMap {
  Plan plan;
  MapOptions options;
};

absl::StatusOr<InputOrderMap> PlanInputOrderForMap(const LoadedInput& input,
                                                   const PlanJobOptions& options,
                                                   const std::string& input_path) {
  const LoadedInput& given = *input.input_order;
  absl::StatusOr<Plan> plan = PlanPools(given.buffers, options.pools);
  if (!plan.ok()) return AtInput(plan.status(), input_path);
  if (given.analysis) plan->value_offsets = given.analysis->value_offset;
  const Program* program = given.program ? &*given.program : nullptr;
  if (absl::Status s = VerifyAgainst(given.buffers, *plan, -1, -1, program); !s.ok()) {
    return PlanVerificationFailure(given.format, input_path, "plan", std::string(s.message()));
  }
  plan->verified = true;
  InputOrderMap out{*std::move(plan), {}};
  out.options.program = program;
  if (program != nullptr && given.analysis) {
    const FlatSchedule& schedule = given.analysis->schedule;
    out.options.describe_step = [program, &schedule](TimeStep step) {
      return DescribeOpAt(*program, schedule, step).value_or("");
    };
  }
  return out;
}

}  // namespace

absl::Status VerifyAgainst(const BufferSet& buffers, const Plan& plan,
                           std::int64_t max_outstanding_prefetches,
                           std::int64_t max_outstanding_evictions, const Program* program,
                           const HierarchyRules* hierarchy) {
  VerifyOptions options;
  options.program = program;
  if (hierarchy) options.hierarchy = *hierarchy;
  // Without a program the buffers come from a lifetime CSV, whose gaps are input.
  options.input_gaps = program == nullptr;
  if (max_outstanding_prefetches >= 0) options.max_outstanding_prefetches = max_outstanding_prefetches;
  if (max_outstanding_evictions >= 0) options.max_outstanding_evictions = max_outstanding_evictions;
  options.alignment = plan.alignment;
  for (const SpaceInfo& space : plan.spaces) {
    if (space.capacity) options.capacity[space.id] = *space.capacity;
  }
  return VerifyPlan(buffers, plan, options);
}

absl::StatusOr<PlanJobResult> RunPlanJob(const std::string& input_path,
                                         const PlanJobOptions& options,
                                         std::optional<LoadedInput> loaded) {
  if (absl::Status s = CheckOutputPaths(input_path, options); !s.ok()) return s;
  const auto phase = [&](std::string name, std::int64_t total = 0, std::string unit = "") {
    if (options.progress != nullptr) options.progress->Phase(std::move(name), total, std::move(unit));
  };
  phase("importing " + std::filesystem::path(input_path).filename().string());
  LoadOptions load = options.load;
  load.keep_unaliased = options.measure_aliasing;
  // Fast memory chooses between the orders; the maps draw both.
  load.keep_input_order =
      options.msa.has_value() || options.svg_path.has_value() || options.html_path.has_value();
  absl::StatusOr<LoadedInput> input =
      loaded ? absl::StatusOr<LoadedInput>(*std::move(loaded)) : LoadInput(input_path, load);
  if (!input.ok()) return input.status();
  if (absl::Status s = CheckInputLimits(*input, options.pools.alignment); !s.ok()) return s;
  // Located at the input: it is the input that is of the wrong kind.
  if (options.tflite_path && input->format != InputFormat::kTflite) {
    return LocatedError(input_path, SourceLocation{},
                        fmt::format("--write-tflite needs a TFLite model as input (this is {})",
                                    InputFormatName(input->format)));
  }
  if (options.onnx_path && input->format != InputFormat::kOnnx) {
    return LocatedError(input_path, SourceLocation{},
                        fmt::format("--write-onnx needs an ONNX model as input (this is {})",
                                    InputFormatName(input->format)));
  }
  if (options.tflite_path && options.msa) {
    return absl::InvalidArgumentError(
        "memplan: error: --write-tflite writes one arena (an offline plan); it cannot be "
        "combined with fast memory (--fast-memory, --target)");
  }
  if (options.load.reorder && options.load.offline_plan) {
    return absl::InvalidArgumentError(
        "memplan: error: --reorder cannot be combined with --offline-plan yet (the offline "
        "plan's offsets are for the file's operator order)");
  }
  if (options.load.offline_plan && options.msa) {
    return absl::InvalidArgumentError(
        "memplan: error: --offline-plan cannot be combined with fast memory yet (--fast-memory, "
        "--target)");
  }
  // A TFLite model's own offline plan: checked by the verifier, and with
  // --offline-plan required to pass.
  std::optional<TfliteOfflineCheck> offline;
  if (input->tflite && !input->tflite->offline_offsets.empty()) {
    absl::StatusOr<TfliteOfflineCheck> check = CheckTfliteOfflinePlan(*input);
    if (!check.ok()) return check.status();
    if (options.load.offline_plan && !check->verified.ok()) {
      return absl::InvalidArgumentError(
          fmt::format("{}: error: --offline-plan: the model's offline plan fails verification: {}",
                      input_path, std::string(check->verified.message())));
    }
    offline = *std::move(check);
  }
  if (options.csv_path && input->format != InputFormat::kLifetimeCsv) {
    return LocatedError(*options.csv_path, SourceLocation{},
                        fmt::format("--csv writes MiniMalloc's output form, which needs a "
                                    "lifetime CSV input (this is {})",
                                    InputFormatName(input->format)));
  }
  const bool regions = input->program && HasRegions(*input->program);
  if (options.regions_given && !regions) {
    return absl::InvalidArgumentError(
        input_path + ": error: --offset-alignment, --range-alignment, --pack and "
                     "--max-allocation-size apply to programs with execution regions; this "
                     "input has none");
  }
  if (regions && options.msa && !options.msa->assignment_flags.empty()) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: {} is a memory space assignment option; a program with execution regions "
        "places its fast memory per slab (docs/regions.md, Fast memory) and takes only "
        "--fast-memory, --fast-memory-alignment and --target",
        input_path, options.msa->assignment_flags.front()));
  }
  if (options.emit_ir_path && !options.msa && !regions && !input->reorder) {
    return absl::InvalidArgumentError(
        "memplan: error: --emit-ir writes the schedule rewritten by memory space assignment "
        "(it needs --fast-memory or --target), the command form of execution regions or the "
        "reordered program (--reorder)");
  }

  if (options.emit_hlo_path && input->format != InputFormat::kHlo) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: error: --emit-hlo writes an HLO module back with its plan; this input is {}, "
        "not an HLO module (use --emit-ir for the rewritten schedule as text IR)",
        input_path, InputFormatName(input->format)));
  }
  if (options.emit_hlo_path && !options.msa) {
    return absl::InvalidArgumentError(
        "memplan: error: --emit-hlo writes the module rewritten by memory space assignment "
        "(it needs --fast-memory or --target)");
  }

  PlanJobResult result;
  absl::StatusOr<Plan> plan;
  std::optional<ReorderFastMemoryChoice> reorder_choice;
  RegionPlanOptions region_options = options.regions;
  if (options.msa && !regions) {
    if (!input->program) {
      return absl::InvalidArgumentError(
          input_path + ": error: fast memory needs a program (text IR or ONNX): a lifetime CSV "
                       "has no op costs to plan it with");
    }
    MsaJobOptions msa = *options.msa;
    msa.rewrite = options.emit_ir_path.has_value() || options.emit_hlo_path.has_value();
    msa.rewrite_flag = options.emit_hlo_path ? "--emit-hlo" : "--emit-ir";
    phase(fmt::format("memory space assignment ({})", CountOf(input->buffers.buffers.size(), "buffer")));
    absl::StatusOr<MsaJobResult> job =
        RunMsaJob(*input->program, *input->analysis, msa, options.pools);
    if (!job.ok()) {
      // Bad knobs and targets are usage errors (a target file's carry its
      // path); failures to plan are located at the input.
      if (job.status().code() == absl::StatusCode::kInvalidArgument) {
        return AsUsageError(job.status());
      }
      return AtInput(job.status(), input_path);
    }
    result.msa = *std::move(job);
    // --reorder lowers max-live, which is not the run time: with fast memory
    // the input order is planned too, and the faster of the two is kept.
    if (input->input_order) {
      phase("memory space assignment in the input order");
      absl::StatusOr<MsaJobResult> as_given = RunMsaJob(
          *input->input_order->program, *input->input_order->analysis, msa, options.pools);
      if (!as_given.ok()) return AtInput(as_given.status(), input_path);
      const double reordered_s = result.msa->plan.msa->estimated_time_s;
      const double as_given_s = as_given->plan.msa->estimated_time_s;
      reorder_choice = ReorderFastMemoryChoice{as_given_s < reordered_s, reordered_s, as_given_s};
      if (reorder_choice->kept_input_order) {
        std::optional<ReorderResult> reorder = std::move(input->reorder);
        input = LoadedInput(*input->input_order);
        input->reorder = std::move(reorder);
        result.msa = *std::move(as_given);
      }
    }
    plan = result.msa->plan;
  } else if (regions) {
    phase(fmt::format("allocating execution regions ({})",
                      CountOf(input->buffers.buffers.size(), "buffer")));
    std::optional<RegionFastMemorySetup> fast;
    if (options.msa) {
      absl::StatusOr<RegionFastMemorySetup> setup = SetUpRegionFastMemory(
          *input->program, *input->analysis, *options.msa, options.pools.alignment);
      if (!setup.ok()) return AsUsageError(setup.status());
      fast = *std::move(setup);
      region_options.fast_memory = fast->memory;
    }
    plan = PlanRegions(*input->program, *input->analysis, region_options, options.pools);
    // Bad region input is located already; other failures at the input.
    if (!plan.ok() && plan.status().code() == absl::StatusCode::kInvalidArgument) {
      return plan.status();
    }
    if (plan.ok() && fast) {
      EstimateRegionTimes(*input->program, *input->analysis, fast->target, options.msa->cost,
                          *plan);
      if (!fast->target.spaces.empty()) {
        // Every level is held to its capacity, the default one (the
        // slowest writable level, where the slabs live) too.
        NameTargetLevels(fast->target, *plan);
        if (absl::Status s = CheckSpaceCapacities(fast->target, *plan); !s.ok()) plan = s;
      }
    }
  } else {
    phase("packing " + CountOf(input->buffers.buffers.size(), "buffer"));
    plan = PlanPools(input->buffers, options.pools);
    // Over a capacity: also where the activations peak and what is live
    // there, so one run says what to shrink.
    if (!plan.ok() && plan.status().code() == absl::StatusCode::kResourceExhausted) {
      plan = absl::ResourceExhaustedError(std::string(plan.status().message()) +
                                          CapacityPeakText(SummaryInputOf(*input)));
    }
  }
  if (!plan.ok()) return AtInput(plan.status(), input_path);
  if (input->analysis) {
    plan->value_offsets = input->analysis->value_offset;  // every value's place
    plan->symbolic_value_offsets = input->analysis->symbolic_value_offset;
  }
  const std::int64_t prefetch_limit = options.msa ? options.msa->msa.max_outstanding_prefetches : -1;
  const std::int64_t eviction_limit = options.msa ? options.msa->msa.max_outstanding_evictions : -1;
  const Program* analysed = input->program ? &*input->program : nullptr;
  phase(fmt::format("verifying the plan ({})", CountOf(input->buffers.buffers.size(), "buffer")));
  const std::optional<HierarchyRules> hierarchy =
      result.msa && result.msa->hierarchy
          ? std::optional<HierarchyRules>(HierarchyRulesOf(result.msa->target))
          : std::nullopt;
  if (absl::Status s = VerifyAgainst(input->buffers, *plan, prefetch_limit, eviction_limit,
                                     analysed, hierarchy ? &*hierarchy : nullptr);
      !s.ok()) {
    return PlanVerificationFailure(input->format, input_path, "plan", std::string(s.message()));
  }
  if (regions) {
    if (absl::Status s = VerifyRegionPlan(*input->program, input->buffers, *plan); !s.ok()) {
      return RegionFailure(*input, options, region_options, input_path, s);
    }
  }
  plan->verified = true;
  if (result.msa) result.msa->plan.verified = true;

  // Aliasing only changes ONNX imports; measure what it saved there.
  if (options.measure_aliasing && input->format == InputFormat::kOnnx && options.load.alias) {
    phase("measuring the aliasing saving");
    LoadOptions plain = options.load;
    plain.alias = false;
    // Loaded with the input unless the caller passed it in loaded.
    const LoadedInput* unaliased = input->unaliased.get();
    std::optional<LoadedInput> reloaded;
    if (unaliased == nullptr) {
      absl::StatusOr<LoadedInput> again = LoadInput(input_path, plain);
      if (!again.ok()) return again.status();
      unaliased = &reloaded.emplace(*std::move(again));
    }
    // Without aliasing there are more bytes; past the limits, no comparison.
    if (CheckInputLimits(*unaliased, options.pools.alignment).ok()) {
      PoolPlanOptions unbounded = options.pools;
      unbounded.capacity.reset();
      unbounded.pool_capacity.clear();
      absl::StatusOr<Plan> plain_plan = PlanPools(unaliased->buffers, unbounded);
      if (!plain_plan.ok()) return AtInput(plain_plan.status(), input_path);
      AliasingSaving saving{plan->peak, plain_plan->peak, result.msa.has_value()};
      if (result.msa) {
        // Like with like: the aliased input packed without fast memory too.
        absl::StatusOr<Plan> aliased = PlanPools(input->buffers, unbounded);
        if (!aliased.ok()) return AtInput(aliased.status(), input_path);
        saving.aliased_peak = aliased->peak;
      }
      result.aliasing = saving;
    }
  }

  phase("writing outputs");
  // The JSON plan and the CSV solution grow with the buffers (about 200 and
  // 35 bytes each): they are written as they are made, never held whole.
  std::vector<OutputFile> outputs;
  const Program* program = input->program ? &*input->program : nullptr;
  if (options.json_path) {
    // `memplan verify` loads the input again with the recorded options.
    PlanJsonExtras extras;
    extras.input_options =
        PlanInputOptions{options.load.alias, options.load.dims, options.load.regions_per,
                         options.load.offline_plan, options.load.input_shapes,
                         options.load.reorder};
    // The input order kept for fast memory: verify loads it without --reorder.
    if (reorder_choice && reorder_choice->kept_input_order) extras.input_options->reorder = false;
    if (input->reorder) {
      extras.reorder = PlanReorder{input->reorder->strategy, input->reorder->input_peak,
                                   input->reorder->peak, input->reorder->lower_bound, reorder_choice};
    }
    if (result.msa) {
      extras.msa_setup = PlanMsaSetup{options.msa->target.value_or(std::string(kDefaultTarget)),
                                      result.msa->assignment.mode, result.msa->assignment.variant,
                                      MsaKnobs(result.msa->options, *options.msa)};
      if (const std::optional<HierarchyReport>& h = result.msa->hierarchy) {
        PlanHierarchySummary summary{h->chosen, {}, h->all_slowest_writable_s,
                                     h->all_slowest_writable_does_not_fit};
        for (const HierarchyReport::Candidate& c : h->candidates) {
          summary.candidates.push_back({c.name, c.estimated_s, c.not_run, c.does_not_fit,
                                        c.without_cross_program_prefetch});
        }
        extras.hierarchy = std::move(summary);
      }
    }
    extras.space_peaks = true;
    extras.seconds = options.timings;
    extras.schedule = input->analysis ? &input->analysis->schedule : nullptr;
    if (*options.json_path == kStdoutPath) {
      result.json_stdout = WritePlanJson(*plan, input->buffers, program, extras);
    } else {
      outputs.push_back(OutputFile{*options.json_path, "", [&, extras](TextSink sink) {
                                     return WritePlanJsonTo(*plan, input->buffers, program,
                                                            extras, sink);
                                   }});
    }
  }
  MapOptions map_options;
  map_options.title = input_path;
  map_options.program = program;
  if (program != nullptr && input->analysis) {
    const FlatSchedule& schedule = input->analysis->schedule;
    map_options.describe_step = [program, &schedule](TimeStep step) {
      return DescribeOpAt(*program, schedule, step).value_or("");
    };
  }
  // --reorder: the input order's map beside the new order's.
  std::optional<InputOrderMap> input_order_map;
  if ((options.svg_path || options.html_path) && input->reorder && input->input_order &&
      !result.msa && !regions) {
    absl::StatusOr<InputOrderMap> other = PlanInputOrderForMap(*input, options, input_path);
    if (!other.ok()) return other.status();
    input_order_map = *std::move(other);
  }
  std::optional<std::pair<MapSide, MapSide>> sides;
  if (input_order_map) {
    const LoadedInput& given = *input->input_order;
    MapOptions left = input_order_map->options;
    left.title = fmt::format("{} · input order · transient peak {}", input_path,
                             FormatBytes(input_order_map->plan.peak));
    MapOptions right = map_options;
    right.title = fmt::format("{} · reordered by {} · transient peak {}", input_path,
                              input->reorder->strategy, FormatBytes(plan->peak));
    sides.emplace(MapSide{&given.buffers, &input_order_map->plan, left},
                  MapSide{&input->buffers, &*plan, right});
  }
  if (options.svg_path) {
    outputs.push_back(OutputFile{*options.svg_path,
                                 sides ? RenderSvgMapPair(sides->first, sides->second)
                                       : RenderSvgMap(input->buffers, *plan, map_options)});
  }
  if (options.html_path) {
    // The page is laid out for windows from 800 pixels wide: a narrower map
    // scales down less there (and up at most 1.25x on wide windows).
    MapOptions html_options = map_options;
    html_options.width_px = kHtmlMapWidthPx;
    outputs.push_back(OutputFile{
        *options.html_path,
        sides ? RenderHtmlMapPair(sides->first, sides->second,
                                  fmt::format("{}: the input order beside the reordered one, "
                                              "on one scale",
                                              input_path))
              : RenderHtmlMap(input->buffers, *plan, html_options)});
  }
  if (options.profile_path) {
    outputs.push_back(
        OutputFile{*options.profile_path, WriteProfileCsv(SummaryInputOf(*input), *plan)});
  }
  if (options.emit_hlo_path) {
    absl::StatusOr<std::string> hlo =
        EmitHloOfPlan(input_path, *input->program, *result.msa->rewritten);
    if (!hlo.ok()) return AtInput(hlo.status(), input_path);
    outputs.push_back(OutputFile{*options.emit_hlo_path, *std::move(hlo)});
  }
  if (options.emit_ir_path) {
    outputs.push_back(OutputFile{
        *options.emit_ir_path,
        result.msa ? PrintProgram(*result.msa->rewritten)
        : regions  ? PrintProgram(CommandProgram(*input->program, *input->analysis, *plan))
                   : PrintProgram(*input->program)});
  }
  if (options.csv_path) {
    outputs.push_back(OutputFile{*options.csv_path, "", [&](TextSink sink) {
                                   const auto offset_of = [&](std::size_t i) {
                                     const AllocationList& a = plan->placements[i].allocations;
                                     return a.empty() ? Bytes{0} : a.front().offset;
                                   };
                                   return WriteCsvSolution(input->buffers, offset_of, sink);
                                 }});
  }
  if (options.tflite_path) {
    absl::StatusOr<std::string> model = TfliteWithPlan(*input, *plan);
    if (!model.ok()) return model.status();
    outputs.push_back(OutputFile{*options.tflite_path, *std::move(model)});
  }
  if (options.onnx_path) {
    absl::StatusOr<std::string> model = OnnxInPlanOrder(*input);
    if (!model.ok()) return model.status();
    outputs.push_back(OutputFile{*options.onnx_path, *std::move(model)});
  }
  if (absl::Status s = WriteOutputsAtomically(outputs); !s.ok()) return s;

  result.summary = FormatPlanSummary(SummaryInputOf(*input), *plan,
                                     result.aliasing, options.timings);
  if (input->reorder) {
    // Second, after the input's line: the order every figure below is for.
    const ReorderResult& r = *input->reorder;
    const std::size_t first_line = result.summary.find('\n') + 1;
    result.summary.insert(first_line,
                          FormatReorderLine(r.strategy, r.input_peak, r.peak, r.lower_bound, reorder_choice));
  }
  if (result.msa) result.summary += FormatMsaSummary(*result.msa);
  if (input->tflite && !result.msa) {
    result.summary += FormatTfliteArenaSummary(TfliteArenaFiguresOf(input->tflite->head, *plan));
  }
  if (offline) {
    result.summary += FormatTfliteOfflineSummary(
        *offline, options.load.offline_plan ? std::optional<Bytes>(plan->peak) : std::nullopt);
  }
  result.plan = *std::move(plan);
  result.input = *std::move(input);
  return result;
}

namespace {

// The plan's time_all_default_fits against AllSlowestWritableDoesNotFit:
// a plan that says the baseline cannot run escapes the upper bound
// estimated_time_s <= time_all_default_s (rule 7), so the flag is computed
// again. FailedPrecondition when they differ.
absl::Status CheckAllDefaultFits(const Program& program, const ProgramAnalysis& analysis,
                                 const Target& target, const Plan& plan) {
  absl::StatusOr<std::string> does_not_fit =
      AllSlowestWritableDoesNotFit(program, analysis, target, plan.alignment);
  if (!does_not_fit.ok()) return does_not_fit.status();
  const bool fits = does_not_fit->empty();
  if (fits == plan.msa->time_all_default_fits) return absl::OkStatus();
  const std::string& level =
      target.spaces[static_cast<std::size_t>(SlowestWritableSpace(target))].name;
  return absl::FailedPreconditionError(fmt::format(
      "the MSA statistics report time_all_default_fits = {}, but every buffer in the slowest "
      "writable space '{}' {}",
      plan.msa->time_all_default_fits ? "true" : "false", level,
      fits ? "fits it (so a plan is never slower than time_all_default_s)"
           : "cannot run there: " + *does_not_fit));
}

}  // namespace

absl::Status VerifySavedPlan(const LoadedInput& input, const Plan& recorded_plan,
                             const std::optional<RecordedMachine>& machine) {
  absl::StatusOr<Plan> resolved = recorded_plan;
  if (machine && recorded_plan.msa) resolved = WithResolvedMachine(recorded_plan, *machine);
  if (!resolved.ok()) return resolved.status();
  const Plan& plan = *resolved;
  if (absl::Status s = CheckInputLimits(input, plan.alignment); !s.ok()) return s;
  const Program* program = input.program ? &*input.program : nullptr;
  // Without the regions block nothing would check the regions' allocations.
  if (!plan.regions && program != nullptr && HasRegions(*program)) {
    return absl::FailedPreconditionError(
        "the input has execution regions but the plan has no regions block");
  }
  // A hierarchy target's rules (rule 15), from the target resolved again.
  std::optional<Target> levels;
  std::optional<HierarchyRules> hierarchy;
  if (machine && plan.msa) {
    absl::StatusOr<Target> target = ResolveTarget(machine->target);
    if (target.ok() && !target->spaces.empty()) {
      if (machine->fast_memory_bytes) target->spaces[0].capacity_bytes = *machine->fast_memory_bytes;
      hierarchy = HierarchyRulesOf(*target);
      levels = *std::move(target);
    }
  }
  if (absl::Status s = VerifyAgainst(input.buffers, plan,
                                     plan.msa ? plan.msa->max_outstanding_prefetches : -1,
                                     plan.msa ? plan.msa->max_outstanding_evictions : -1, program,
                                     hierarchy ? &*hierarchy : nullptr);
      !s.ok()) {
    return s;
  }
  // Execution regions record no such baseline.
  if (levels && !plan.regions && program != nullptr && input.analysis) {
    if (absl::Status s = CheckAllDefaultFits(*program, *input.analysis, *levels, plan); !s.ok()) {
      return s;
    }
  }
  // A plan with regions is read only for a program (ReadPlanJson).
  if (plan.regions) return VerifyRegionPlan(*program, input.buffers, plan);
  return absl::OkStatus();
}

}  // namespace memplan
