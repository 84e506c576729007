#include "msa/assignment.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "msa/allocator.h"
#include "msa/block_allocator.h"
#include "msa/block_prefetch.h"
#include "msa/loop_detect.h"
#include "msa/loop_optimizer.h"
#include "msa/problem.h"
#include "msa/simulator.h"
#include "msa/window_prefetch.h"
#include "msa/user_overrides.h"
#include "packing/parallel_tasks.h"

namespace memplan {
namespace {

absl::Status ValidateOptions(const MsaOptions& o) {
  auto bad = [](const std::string& what) { return absl::InvalidArgumentError("invalid memory space assignment option: " + what); };
  if (o.fast_memory_bytes < 0) return bad("fast memory size must be >= 0");
  if (o.alignment < 1) return bad("alignment must be >= 1");
  if (o.min_overlap_ops < 0 || o.max_overlap_ops < o.min_overlap_ops) {
    return bad("instruction-count picker needs 0 <= min overlap <= max overlap");
  }
  if (!(o.min_overlap_ratio > 0 && o.min_overlap_ratio <= o.preferred_overlap_ratio &&
        o.preferred_overlap_ratio <= o.max_overlap_ratio)) {
    return bad("cost-analysis picker needs 0 < min ratio <= preferred ratio <= max ratio");
  }
  if (o.max_retries < 1) return bad("max retries must be >= 1");
  if (o.max_repacks && *o.max_repacks < 0) return bad("max repacks must be >= 0");
  if (!(o.inefficient_use_to_copy_ratio >= 0) || std::isinf(o.inefficient_use_to_copy_ratio)) {
    return bad("inefficient use-to-copy ratio must be a finite number >= 0");
  }
  const SlicedPrefetchOptions& sliced = o.sliced_prefetch;
  if (sliced.max_slices && *sliced.max_slices < 0) return bad("max slices must be >= 0");
  if (sliced.min_bytes < 0 || sliced.preferred_slice_bytes < 0) {
    return bad("sliced prefetch sizes must be >= 0");
  }
  if (o.window_prefetch_bytes < 0) return bad("window prefetch bytes must be >= 0");
  if (o.block_prefetch_bytes < 0) return bad("block prefetch size must be >= 0");
  if (o.block_prefetch_bytes > 0 && !BlockHonoursCopyLimits(o)) {
    return bad("block prefetching does not honour a limit on outstanding prefetches or FIFO "
               "prefetches yet");
  }
  if (o.loop_optimizer_min_iterations < 3) return bad("loop optimizer minimum iterations must be >= 3");
  return absl::OkStatus();
}

struct Variant {
  std::string name;
  AllocatorConfig config;
  bool cross_program_prefetch = true;  // false: never, whatever the options say
  bool copies = true;                  // false: copy-free residency only
  Bytes block = 0;                     // bytes of the block (msa/block_allocator.h), 0: none
  bool loop = false;                   // with the loop optimizer's preferences (msa/loop_optimizer.h)
  bool compare_only = false;           // run for LoopReport's comparison, never kept
};

// memplan's variants tried by kDefault after the reference run, picked
// greedily (each adding the most captured speed-up) on the torchvision
// models of docs/msa.md. What wins most: modelling the DMA queue with a
// conservative share of each step's time, and not pinning the largest
// weight into fast memory for the whole run (the reference's cross-program
// prefetch choice can fill the fast memory with a weight read only at the
// end). The copy-free variant makes kDefault never slower than keeping
// everything in default memory.
// Default-mode variants run again with sliced prefetches: the reference
// configuration, then the first of the list below that model the DMA queue
// with the spatial packer, this many in all.
constexpr std::size_t kSlicedVariants = 3;
// Default-mode variants run again with block prefetching (a block size
// given, or the automatic one), chosen as the sliced ones are.
constexpr std::size_t kBlockVariants = 3;
// Default-mode variants run again with the loop optimizer's preferences
// (when a loop is to be planned), chosen as the block ones are.
constexpr std::size_t kLoopVariants = 3;

// Block prefetching (msa/block_prefetch.h): the reference configuration
// and the strongest variants of `variants` (copy-bandwidth ones without
// slices, the loop optimizer or a block) again with a block of `bytes`.
// They win only when strictly faster.
std::vector<Variant> BlockVariants(const MsaOptions& options, const std::vector<Variant>& variants,
                                   Bytes bytes) {
  const std::int64_t r = options.max_repacks.value_or(0);
  std::vector<Variant> blocked;
  std::vector<Variant> bases = {
      {"reference", {BufferOrder::kMemoryBoundedness, 1, PackingAlgorithm::kBestFitSpatial, r}}};
  for (const Variant& v : variants) {
    if (v.copies && v.config.repacker == PackingAlgorithm::kBestFitSpatial &&
        v.config.copy_bandwidth_share > 0 && v.config.max_slices == 0 && v.block == 0 && !v.loop) {
      bases.push_back(v);
    }
  }
  for (const Variant& v : bases) {
    if (blocked.size() == kBlockVariants) break;
    Variant b = v;
    b.name = absl::StrCat(v.name, "-block-", bytes);
    b.block = bytes;
    blocked.push_back(std::move(b));
  }
  return blocked;
}

std::vector<Variant> DefaultModeVariants(const MsaOptions& options, bool loop) {
  const PackingAlgorithm spatial = PackingAlgorithm::kBestFitSpatial;
  const std::int64_t r = options.max_repacks.value_or(0);
  const BufferOrder bounded = BufferOrder::kMemoryBoundedness;
  const BufferOrder size = BufferOrder::kSize;
  // An explicit max_repacks (0 included) holds for every variant; unset,
  // the portfolio-repack variant may repack up to 4 times.
  const std::int64_t portfolio_repacks = options.max_repacks.value_or(4);
  std::vector<Variant> variants = {
      {"copy-bandwidth-0.15-no-cross-program-prefetch", {bounded, 1, spatial, r, 0.15}, false},
      {"copy-bandwidth-0.15", {bounded, 1, spatial, r, 0.15}},
      {"copy-bandwidth-0.5-fragmentation-aware-no-cross-program-prefetch", {bounded, 4, spatial, r, 0.5}, false},
      {"copy-bandwidth-0.1-size-order", {size, 1, spatial, r, 0.1}},
      {"copy-bandwidth-0.3-fragmentation-aware-no-cross-program-prefetch", {bounded, 4, spatial, r, 0.3}, false},
      {"copy-bandwidth-0.3-fragmentation-aware", {bounded, 4, spatial, r, 0.3}},
      {"copy-bandwidth-0.1-no-cross-program-prefetch", {bounded, 1, spatial, r, 0.1}, false},
      {"copy-bandwidth-0.5-size-order-no-cross-program-prefetch", {size, 1, spatial, r, 0.5}, false},
      {"copy-bandwidth-0.15-portfolio-repack",
       {bounded, 1, PackingAlgorithm::kAuto, portfolio_repacks, 0.15}},
      // The reference's copies, but none issued before the first op: early
      // entry-parameter prefetches all share the first ops' time.
      {"reference-from-the-first-op", {bounded, 1, spatial, r, 0, false}},
      {"copy-free", {bounded, 1, spatial, r, 0}, true, false},
  };
  // Without repacks that variant is copy-bandwidth-0.15 again.
  if (portfolio_repacks == 0) {
    variants.erase(std::find_if(variants.begin(), variants.end(), [](const Variant& v) {
      return v.config.repacker == PackingAlgorithm::kAuto;
    }));
  }
  // Sliced prefetch (msa/sliced_prefetch.h): the reference configuration and
  // the strongest variants again with prefetches sliced, before copy-free. They win only when strictly
  // faster (ties go to fewer copies), so slicing is on only where it helps.
  const std::int64_t slices = options.sliced_prefetch.max_slices.value_or(kDefaultMaxSlices);
  if (slices >= 2) {
    std::vector<Variant> sliced;
    std::vector<Variant> bases = {{"reference", {bounded, 1, spatial, 0}}};
    for (const Variant& v : variants) {
      if (v.copies && v.config.repacker == spatial && v.config.copy_bandwidth_share > 0) bases.push_back(v);
    }
    for (const Variant& v : bases) {
      if (sliced.size() == kSlicedVariants) break;
      Variant s = v;
      s.name = absl::StrCat(v.name, "-sliced-", slices);
      s.config.max_slices = slices;
      s.config.max_repacks = 0;  // a run with slices never repacks (msa/allocator.h)
      sliced.push_back(std::move(s));
    }
    variants.insert(variants.end() - 1, sliced.begin(), sliced.end());
  }
  // A given block size's variants, before copy-free (the automatic size's
  // run later, behind their gate: AssignMemorySpaces).
  if (options.block_prefetch_bytes > 0) {
    std::vector<Variant> blocked = BlockVariants(options, variants, options.block_prefetch_bytes);
    variants.insert(variants.end() - 1, blocked.begin(), blocked.end());
  }
  // The memory-bound loop optimizer (msa/loop_optimizer.h): likewise.
  if (loop) {
    std::vector<Variant> looped;
    std::vector<Variant> bases = {{"reference", {bounded, 1, spatial, r}}};
    for (const Variant& v : variants) {
      if (v.copies && v.config.repacker == spatial && v.config.copy_bandwidth_share > 0 &&
          v.config.max_slices == 0 && v.block == 0) {
        bases.push_back(v);
      }
    }
    for (const Variant& v : bases) {
      if (looped.size() == kLoopVariants) break;
      Variant l = v;
      l.name = absl::StrCat(v.name, "-loop");
      l.loop = true;
      looped.push_back(std::move(l));
    }
    variants.insert(variants.end() - 1, looped.begin(), looped.end());
  }
  return variants;
}

// `options` with no prefetch or eviction allowed: residency without copies.
MsaOptions WithoutCopies(MsaOptions options) {
  options.max_outstanding_prefetches = 0;
  options.max_outstanding_evictions = 0;
  return options;
}

// Above this many buffers kDefault tries only its strongest variants, so
// that planning stays near-linear in practice (each variant is one full
// allocator run).
constexpr size_t kLargeProgramBuffers = 20000;
constexpr size_t kLargeProgramVariants = 3;

// Runs `variants` on PackingThreads() threads (MEMPLAN_THREADS, else up to
// 2). Each run reads only const inputs and is deterministic, so the results
// do not depend on the threads; they come back in variant order.
std::vector<std::optional<absl::StatusOr<MsaResult>>> RunVariants(
    const std::vector<Variant>& variants, const MsaProblem& problem, ComputationId entry,
    const CostModel& cost, const MsaOptions& options) {
  std::vector<std::optional<absl::StatusOr<MsaResult>>> results(variants.size());
  RunTasks(variants.size(), PackingThreads(), [&](std::size_t i) {
    const Variant& v = variants[i];
    MsaOptions variant_options = v.copies ? options : WithoutCopies(options);
    variant_options.cross_program_prefetch &= v.cross_program_prefetch;
    variant_options.block_prefetch_bytes = v.block;
    results[i] = v.block > 0
                     ? RunAllocatorWithBlock(problem, entry, cost, variant_options, v.config)
                     : RunAllocator(problem, cost, variant_options, v.config);
  });
  return results;
}

}  // namespace

std::vector<std::pair<std::string, std::int64_t>> DefaultModeRepackBudgets(
    const MsaOptions& options) {
  std::vector<std::pair<std::string, std::int64_t>> budgets;
  for (const Variant& v : DefaultModeVariants(options, options.loop_optimizer)) {
    budgets.emplace_back(v.name, v.config.max_repacks);
  }
  return budgets;
}

namespace {

// Window prefetches on the kept result (msa/window_prefetch.h): kReference
// keeps them unless the plan would then be slower than default memory
// alone, kDefault only when they simulate faster by at least
// kMinWindowGain of the plan's time without them (with < (1 -
// kMinWindowGain) x without) — with the given size, else with the fastest
// of AutoWindowSizes (ties: the earlier). Below that margin the plan
// without the windows (fewer copies) wins: a gain of a millionth of the
// estimated time is far below the cost model's accuracy, and the extra
// async copies are real work.
constexpr double kMinWindowGain = 1e-6;

void AddWindowPrefetches(const Program& program, const ProgramAnalysis& analysis,
                         const CostModel& cost, const MsaProblem& problem,
                         const MsaOptions& options, MsaResult& result) {
  const bool reference = options.mode == MsaMode::kReference;
  std::vector<Bytes> sizes;
  if (options.window_prefetch_bytes > 0) {
    sizes.push_back(options.window_prefetch_bytes);
  } else if (!reference && options.auto_window_prefetch) {
    sizes = AutoWindowSizes(options.fast_memory_bytes);
  }
  std::optional<double> best;  // simulated only once some size yields windows
  std::vector<WindowPrefetch> kept;
  Bytes kept_size = 0;
  for (Bytes size : sizes) {
    std::vector<WindowPrefetch> windows =
        PlanWindowPrefetches(program, analysis, cost, problem, result, size,
                             options.fast_memory_bytes, options.alignment);
    if (windows.empty()) continue;
    // kReference keeps them unless that makes the plan slower than default
    // memory alone (the guarantee of AssignMemorySpaces).
    if (!best) {
      best = reference ? TimeAllDefault(analysis, cost)
                       : SimulateMsa(analysis, cost, result).elapsed_s * (1.0 - kMinWindowGain);
    }
    std::swap(result.window_prefetches, windows);
    const double with = SimulateMsa(analysis, cost, result).elapsed_s;
    std::swap(result.window_prefetches, windows);
    if (reference ? with <= *best : with < *best) {
      best = with;
      kept = std::move(windows);
      kept_size = size;
    }
  }
  if (kept.empty()) return;
  result.window_prefetches = std::move(kept);
  if (!reference) result.variant = absl::StrCat(result.variant, "+window-", kept_size);
}

}  // namespace

absl::StatusOr<MsaResult> AssignMemorySpaces(const Program& program,
                                             const ProgramAnalysis& analysis,
                                             const CostModel& cost, const MsaOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  MsaProblem problem = BuildMsaProblem(program, analysis, cost, options.fast_memory_bytes);
  absl::StatusOr<PinnedUses> pinned_uses = ApplyUserOverrides(program, analysis, options, problem);
  if (!pinned_uses.ok()) return pinned_uses.status();

  AllocatorConfig reference{BufferOrder::kMemoryBoundedness, 1,
                            PackingAlgorithm::kBestFitSpatial,
                            options.max_repacks.value_or(0)};
  // Reference mode slices only when asked to (XLA's SlicedPrefetchOptions
  // are off unless configured); default mode's reference run never does.
  if (options.mode == MsaMode::kReference) {
    reference.max_slices = options.sliced_prefetch.max_slices.value_or(0);
  }
  // The memory-bound loop optimizer's plan, when it is on (or default mode
  // tries it by itself) and finds a loop.
  const bool auto_loop = !options.loop_optimizer && options.mode == MsaMode::kDefault &&
                         options.auto_loop_optimizer;
  std::optional<LoopPlan> loop_plan;
  if (options.loop_optimizer || auto_loop) {
    if (std::optional<DetectedLoop> loop =
            DetectLoop(program, analysis, options.loop_optimizer_min_iterations)) {
      loop_plan = PlanMemoryBoundLoop(problem, analysis, cost, *loop, options.fast_memory_bytes);
    }
  }
  Variant first{"reference", reference};
  // Reference mode plans with the block when one is asked for.
  if (options.mode == MsaMode::kReference) first.block = options.block_prefetch_bytes;
  std::vector<Variant> variants = {first};
  // Reference mode plans with the loop optimizer when it finds a loop, and
  // once without it for the comparison.
  if (options.mode == MsaMode::kReference && loop_plan) {
    variants.front().loop = true;
    Variant without = first;
    without.compare_only = true;
    variants.push_back(without);
  }
  const bool large = analysis.buffers.buffers.size() > kLargeProgramBuffers;
  if (options.mode == MsaMode::kDefault) {
    std::vector<Variant> more = DefaultModeVariants(options, loop_plan.has_value());
    if (large) {
      more.erase(more.begin() + kLargeProgramVariants, more.end() - 1);  // keep copy-free
    }
    variants.insert(variants.end(), more.begin(), more.end());
  }
  for (Variant& v : variants) {
    if (v.loop) v.config.loop = &*loop_plan;
  }
  std::vector<std::optional<absl::StatusOr<MsaResult>>> results =
      RunVariants(variants, problem, program.entry, cost, options);

  // The lowest simulated time wins (ties: fewer copies, then variant order)
  // among the results that serve every use pinned to alternate memory there.
  std::optional<MsaResult> best;
  double best_seconds = 0;
  bool best_loop = false;
  bool best_block = false;
  // In kDefault with a block, also the fastest result without it: windows
  // are planned after the choice and may favour that one (below).
  const bool track_unblocked =
      options.mode == MsaMode::kDefault && options.block_prefetch_bytes > 0;
  std::optional<MsaResult> unblocked;
  double unblocked_seconds = 0;
  bool unblocked_loop = false;
  // The fastest result without the loop optimizer, for LoopReport; and, in
  // kDefault, that result itself: windows may favour it (below).
  std::optional<SimulationResult> fastest_without;
  std::optional<MsaResult> without_loop;
  double without_loop_seconds = 0;
  absl::Status unpinned;
  // Weighs one variant's result against those before it.
  const auto consider = [&](const Variant& variant,
                            absl::StatusOr<MsaResult>& candidate) -> absl::Status {
    // A default-mode block variant that cannot run (a buffer pinned to
    // alternate memory no longer fits below the block) is skipped.
    if (!candidate.ok() && variant.block > 0 && options.mode == MsaMode::kDefault) {
      return absl::OkStatus();
    }
    if (!candidate.ok()) return candidate.status();
    if (absl::Status s = CheckPinnedUses(problem, *pinned_uses, *candidate); !s.ok()) {
      if (unpinned.ok()) unpinned = s;
      return absl::OkStatus();
    }
    SimulationResult simulated = SimulateMsa(analysis, cost, *candidate);
    const double seconds = simulated.elapsed_s;
    if (loop_plan && !variant.loop && (!fastest_without || seconds < fastest_without->elapsed_s)) {
      fastest_without = std::move(simulated);
    }
    if (variant.compare_only) return absl::OkStatus();
    const auto wins = [&](const std::optional<MsaResult>& kept, double kept_seconds) {
      return !kept || seconds < kept_seconds ||
             (seconds == kept_seconds && candidate->copies.size() < kept->copies.size());
    };
    if (loop_plan && options.mode == MsaMode::kDefault && !variant.loop &&
        wins(without_loop, without_loop_seconds)) {
      without_loop_seconds = seconds;
      without_loop = *candidate;
      without_loop->variant = variant.name;
    }
    if (track_unblocked && variant.block == 0 && wins(unblocked, unblocked_seconds)) {
      unblocked_seconds = seconds;
      unblocked = *candidate;
      unblocked->variant = variant.name;
      unblocked_loop = variant.loop;
    }
    if (wins(best, best_seconds)) {
      best_seconds = seconds;
      best = *std::move(candidate);
      best->variant = variant.name;
      best_loop = variant.loop;
      best_block = variant.block > 0;
    }
    return absl::OkStatus();
  };
  for (size_t i = 0; i < variants.size(); ++i) {
    if (absl::Status s = consider(variants[i], *results[i]); !s.ok()) return s;
  }
  // Default mode's automatic block (no size given): its variants run only
  // when the block would take a weight that the fastest plan so far
  // without the loop optimizer (the block variants' own kind) reads from
  // default memory; else they could only squeeze that plan into less fast
  // memory. The fastest plan so far, none with a block, is the block's
  // rival for the windows (below).
  if (options.mode == MsaMode::kDefault && options.block_prefetch_bytes == 0 &&
      options.auto_block_prefetch && BlockHonoursCopyLimits(options) && !large && best) {
    const Bytes bytes = AutoBlockSize(options.fast_memory_bytes);
    if (bytes > 0 &&
        BlockWouldTakeDefaultReads(problem, program.entry, options, bytes,
                                   without_loop ? *without_loop : *best)) {
      const std::vector<Variant> blocked = BlockVariants(options, variants, bytes);
      std::vector<std::optional<absl::StatusOr<MsaResult>>> more =
          RunVariants(blocked, problem, program.entry, cost, options);
      unblocked = best;
      unblocked_seconds = best_seconds;
      unblocked_loop = best_loop;
      for (size_t i = 0; i < blocked.size(); ++i) {
        if (absl::Status s = consider(blocked[i], *more[i]); !s.ok()) return s;
      }
    }
  }
  // Never report a plan slower than using no fast memory (the reference can
  // stall on copies it does not budget for; any variant can meet a target
  // whose fast memory does not pay). Fall back to residency without copies
  // if that is not slower, else to the empty assignment. kDefault has already
  // run the copy-free variant (the same run) and it was slower still.
  if (!best) return unpinned;
  // Uses pinned to alternate memory outrank "never slower than default
  // memory alone": the fallbacks below would not serve them.
  const double all_default = TimeAllDefault(analysis, cost);
  if (best_seconds > all_default && pinned_uses->empty()) {
    const std::string why = "the chosen plan was slower than default memory alone";
    const MsaOptions copy_free = WithoutCopies(options);
    std::optional<MsaResult> fallback;
    if (options.mode == MsaMode::kReference) {
      absl::StatusOr<MsaResult> residency = RunAllocator(problem, cost, copy_free, reference);
      if (!residency.ok()) return residency.status();
      if (SimulateMsa(analysis, cost, *residency).elapsed_s <= all_default) {
        fallback = *std::move(residency);
        fallback->variant = "copy-free (" + why + ")";
      }
    }
    if (!fallback) {
      AllocatorConfig empty = reference;
      empty.required_only = true;
      absl::StatusOr<MsaResult> nothing = RunAllocator(problem, cost, copy_free, empty);
      if (!nothing.ok()) return nothing.status();
      fallback = *std::move(nothing);
      fallback->variant = "empty (" + why + ", also without copies)";
    }
    best = std::move(fallback);
    best_loop = false;
    best_block = false;
  }
  best->mode = options.mode == MsaMode::kReference ? "reference" : "default";
  AddWindowPrefetches(program, analysis, cost, problem, options, *best);
  SimulationResult kept = SimulateMsa(analysis, cost, *best);
  // Windows are planned after the choice, so a variant that won before them
  // may lose after them: `rival` (the fastest result without the block, or
  // without the loop optimizer) gets its windows too and is simulated.
  const auto windowed = [&](MsaResult& rival) {
    rival.mode = best->mode;
    AddWindowPrefetches(program, analysis, cost, problem, options, rival);
    return SimulateMsa(analysis, cost, rival);
  };
  // The block's rival wins only when strictly faster, so --block-prefetch
  // never makes kDefault slower.
  if (best_block && unblocked) {
    if (SimulationResult plain = windowed(*unblocked); plain.elapsed_s < kept.elapsed_s) {
      best = std::move(unblocked);
      best_loop = unblocked_loop;
      kept = std::move(plain);
    }
  }
  // The loop is kept only if still faster (the automatic try strictly;
  // --loop-optimizer on ties), so its steady state is compared with the
  // plan a user gets without it.
  if (best_loop && without_loop) {
    SimulationResult plain = windowed(*without_loop);
    if (plain.elapsed_s < kept.elapsed_s || (auto_loop && plain.elapsed_s == kept.elapsed_s)) {
      best = std::move(without_loop);
      best_loop = false;
      kept = std::move(plain);
    } else {
      fastest_without = std::move(plain);
    }
  }
  // An automatic try that kept nothing leaves no trace: the plan is as
  // without it.
  if (loop_plan && (best_loop || !auto_loop)) {
    LoopReport report;
    report.loop = loop_plan->loop;
    report.counts = loop_plan->counts;
    report.preferred_buffers = static_cast<std::int64_t>(loop_plan->order.size());
    report.steady_state_bytes = loop_plan->steady_state_bytes;
    report.chosen = best_loop;
    report.steady_state_iteration_s = SteadyStateIterationSeconds(kept.step_start_s, report.loop);
    if (best_loop && fastest_without) {
      report.steady_state_without_s =
          SteadyStateIterationSeconds(fastest_without->step_start_s, report.loop);
    }
    best->loop = report;
  }
  return *std::move(best);
}

}  // namespace memplan
