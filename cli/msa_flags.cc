#include "cli/msa_flags.h"

#include <charconv>
#include <cmath>
#include <tuple>

#include "cli/cli_support.h"
#include "fmt/format.h"
#include "msa/target.h"

namespace memplan::cli {

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
  CLI::Option* sliced = cmd->add_option("--sliced-prefetch", flags.sliced_prefetch,
                                        "split a prefetch into at most N slices with staggered "
                                        "starts (XLA's sliced prefetch); 0 or 1: never (default: "
                                        "reference mode never, default mode tries 4 where it is "
                                        "faster)")
                            ->check(Count());
  knob(sliced);
  flags.sliced_prefetch_option = sliced;
  knob(cmd->add_option("--sliced-prefetch-min-bytes", flags.sliced_prefetch_min_bytes,
                       "slice only buffers of at least this size (default 0)")
           ->type_name("BYTES"));
  knob(cmd->add_option("--sliced-prefetch-slice-bytes", flags.sliced_prefetch_slice_bytes,
                       "at most ceil(size / BYTES) slices per prefetch (default 0: no limit)")
           ->type_name("BYTES"));
  CLI::Option* window = cmd->add_option(
                            "--window-prefetch", flags.window_prefetch,
                            "prefetch a window of BYTES of a large default-memory operand into "
                            "reserved fast memory for the op that reads it (XLA's window "
                            "prefetch); 0: never (default: reference mode never, default mode "
                            "tries fast memory / 2, / 4 and / 8 and keeps windows only where "
                            "faster)")
                            ->type_name("BYTES");
  knob(window);
  flags.window_prefetch_option = window;
  CLI::Option* block = cmd->add_option(
                           "--block-prefetch", flags.block_prefetch,
                           "reserve BYTES of fast memory for weights (constants, not model "
                           "inputs) prefetched in FIFO order of first use (XLA's block "
                           "prefetching); 0: never (default: reference mode never, default mode "
                           "tries fast memory / 32 where the block would take weights its plan "
                           "reads from default memory, kept only where faster)")
                           ->type_name("BYTES");
  knob(block);
  flags.block_prefetch_option = block;
  CLI::Option* loop = cmd->add_flag("--loop-optimizer", flags.loop_optimizer,
                                    "find an unrolled loop in the schedule and plan its steady "
                                    "state first (XLA's memory-bound loop optimizer; reference "
                                    "mode plans with it, default mode keeps it where it is faster, "
                                    "and tries it without the flag too)");
  knob(loop);
  flags.loop_optimizer_option = loop;
  knob(cmd->add_flag("--no-loop-optimizer", flags.no_loop_optimizer,
                     "nor let default mode try the loop optimizer by itself")
           ->excludes(loop));
  CLI::Option* loop_min = cmd->add_option("--loop-optimizer-min-iterations",
                                          flags.loop_optimizer_min_iterations,
                                          "fewest iterations a repeating run of ops needs to be "
                                          "taken for an unrolled loop (default 3, at least 3)")
                              ->check(Count(3));
  knob(loop_min);
  flags.loop_min_iterations_option = loop_min;
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
  // --emit-hlo without fast memory or on another format: RunPlanJob's messages.
  flags.emit_hlo_option =
      cmd->add_option("--emit-hlo", flags.emit_hlo,
                      "HLO input: write the module as XLA's memory space assignment leaves it "
                      "(S(1) layouts, copy-start/copy-done)")
          ->group(group);
}

namespace {

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

}  // namespace

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
  if (Given(flags.sliced_prefetch_option)) options.msa.sliced_prefetch.max_slices = flags.sliced_prefetch;
  const std::pair<const char*, const std::string*> slice_sizes[] = {
      {"--sliced-prefetch-min-bytes", &flags.sliced_prefetch_min_bytes},
      {"--sliced-prefetch-slice-bytes", &flags.sliced_prefetch_slice_bytes}};
  for (const auto& [flag, text] : slice_sizes) {
    absl::StatusOr<Bytes> bytes = SizeFlag(flag, *text);
    if (!bytes.ok()) return bytes.status();
    if (*bytes > kMaxTotalBytes) {
      return UsageError(fmt::format("{} {} is above the limit of 2^62 ({}) bytes", flag, *bytes,
                                    kMaxTotalBytes));
    }
    (text == &flags.sliced_prefetch_min_bytes ? options.msa.sliced_prefetch.min_bytes
                                              : options.msa.sliced_prefetch.preferred_slice_bytes) = *bytes;
  }
  absl::StatusOr<Bytes> window = SizeFlag("--window-prefetch", flags.window_prefetch);
  if (!window.ok()) return window.status();
  if (*window > kMaxTotalBytes) {
    return UsageError(fmt::format("--window-prefetch {} is above the limit of 2^62 ({}) bytes",
                                  *window, kMaxTotalBytes));
  }
  options.msa.window_prefetch_bytes = *window;
  // A size given, 0 included, replaces default mode's automatic sizes.
  options.msa.auto_window_prefetch = !Given(flags.window_prefetch_option);
  absl::StatusOr<Bytes> block = SizeFlag("--block-prefetch", flags.block_prefetch);
  if (!block.ok()) return block.status();
  if (*block > kMaxTotalBytes) {
    return UsageError(fmt::format("--block-prefetch {} is above the limit of 2^62 ({}) bytes",
                                  *block, kMaxTotalBytes));
  }
  options.msa.block_prefetch_bytes = *block;
  // Likewise a block size, 0 included, replaces default mode's automatic one.
  options.msa.auto_block_prefetch = !Given(flags.block_prefetch_option);
  if (Given(flags.loop_min_iterations_option) && !Given(flags.loop_optimizer_option)) {
    return UsageError("--loop-optimizer-min-iterations applies only with --loop-optimizer");
  }
  options.msa.loop_optimizer = flags.loop_optimizer;
  options.msa.auto_loop_optimizer = !flags.no_loop_optimizer;
  options.msa.loop_optimizer_min_iterations = flags.loop_optimizer_min_iterations;
  options.cost.default_trip_count = flags.trip_count;
  for (const CLI::Option* knob : flags.knobs) {
    if (Given(knob) && knob != flags.alignment_option) {
      options.assignment_flags.push_back(knob->get_name());
    }
  }
  return std::optional<MsaJobOptions>(options);
}

}  // namespace memplan::cli
