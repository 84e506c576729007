#include "driver/msa_job.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "fmt/ranges.h"
#include "io/byte_size.h"
#include "ir/plural.h"
#include "msa/block_prefetch.h"
#include "msa/rewrite.h"
#include "msa/time_bound.h"
#include "msa/window_prefetch.h"

namespace memplan {
namespace {

// The relative slack of the check estimated time >= time bound (as the
// verifier's): the two sum an op's bytes in different orders.
constexpr double kTimeBoundSlack = 1e-9;

}  // namespace

absl::StatusOr<MsaJobResult> RunMsaJob(const Program& program, const ProgramAnalysis& analysis,
                                       const MsaJobOptions& options,
                                       const PoolPlanOptions& pools) {
  MsaJobResult out;
  absl::StatusOr<Target> target = ResolveTarget(options.target.value_or(std::string(kDefaultTarget)));
  if (!target.ok()) return target.status();
  out.target = *std::move(target);
  if (options.fast_memory_bytes) out.target.fast_memory_bytes = *options.fast_memory_bytes;
  if (options.fast_memory_alignment) out.target.alignment = *options.fast_memory_alignment;
  if (!out.target.spaces.empty()) {
    // --fast-memory sizes the fastest level of a hierarchy.
    out.target.spaces[0].capacity_bytes = out.target.fast_memory_bytes;
    out.target.spaces[0].alignment = out.target.alignment;
    if (options.rewrite) {
      return absl::InvalidArgumentError(
          "memplan: error: --emit-ir and --emit-hlo are not supported yet with a "
          "memory-hierarchy target (spaces[] in the target)");
    }
  }

  const CostModel cost(program, analysis, out.target, options.cost);
  MsaOptions msa = options.msa;
  msa.fast_memory_bytes = out.target.fast_memory_bytes;
  // The rewrite (--emit-ir, --emit-hlo) writes whole-buffer copies only:
  // default mode then tries no sliced variants, and asking for slices is an
  // error. What default mode would have tried is recorded and planned
  // aside below, so the summary can say what the flag cost.
  std::vector<std::string> skipped;
  if (options.rewrite) {
    const bool by_default = msa.mode == MsaMode::kDefault;
    if (by_default && !msa.sliced_prefetch.max_slices) skipped.push_back("sliced_prefetch");
    if (by_default && msa.auto_window_prefetch && msa.window_prefetch_bytes == 0) {
      skipped.push_back("window_prefetch");
    }
    if (msa.sliced_prefetch.max_slices.value_or(0) >= 2) {
      return absl::InvalidArgumentError(
          "memplan: error: --emit-ir and --emit-hlo do not write sliced prefetches yet; drop "
          "--sliced-prefetch (or give it 0)");
    }
    msa.sliced_prefetch.max_slices = 0;
    // Nor do they write window prefetches (msa/window_prefetch.h), so
    // default mode tries none by itself either.
    msa.auto_window_prefetch = false;
    if (msa.window_prefetch_bytes > 0) {
      return absl::InvalidArgumentError(
          "memplan: error: --emit-ir and --emit-hlo do not write window prefetches yet; drop "
          "--window-prefetch (or give it 0)");
    }
  }
  // lcm(target, plan): beyond kMaxAlignment it is refused.
  const Bytes target_alignment = std::max<Bytes>(1, out.target.alignment);
  // A hierarchy's pools share one alignment: every level's and the plan's.
  PoolPlanOptions level_pools = pools;
  for (const MemorySpaceSpec& space : out.target.spaces) {
    level_pools.alignment = AlignmentLcm(std::max<Bytes>(1, level_pools.alignment), space.alignment)
                                .value_or(kMaxAlignment + 1);
  }
  if (level_pools.alignment > kMaxAlignment) {
    return absl::InvalidArgumentError(fmt::format(
        "memplan: error: the alignments of target '{}''s spaces and --alignment {} have a least "
        "common multiple above 2^32 ({})",
        out.target.name, pools.alignment, kMaxAlignment));
  }
  const Bytes plan_alignment = std::max<Bytes>(1, level_pools.alignment);
  const std::optional<Bytes> alignment = AlignmentLcm(target_alignment, plan_alignment);
  if (!alignment) {
    return absl::InvalidArgumentError(fmt::format(
        "memplan: error: the fast-memory alignment, the least common multiple of target '{}''s "
        "alignment {} and --alignment {}, exceeds 2^32 ({})",
        out.target.name, target_alignment, plan_alignment, kMaxAlignment));
  }
  msa.alignment = *alignment;
  out.options = msa;
  if (!out.target.spaces.empty()) {
    for (const auto& [given, flag] : {std::pair{msa.window_prefetch_bytes > 0, "--window-prefetch"},
                                      std::pair{msa.block_prefetch_bytes > 0, "--block-prefetch"},
                                      std::pair{msa.loop_optimizer, "--loop-optimizer"}}) {
      if (!given) continue;
      return absl::InvalidArgumentError(fmt::format(
          "memplan: error: {} does not apply to a memory-hierarchy target (spaces[] in the "
          "target) yet",
          flag));
    }
    absl::StatusOr<HierarchyJobResult> h =
        RunHierarchyJob(program, analysis, cost, out.target, msa, level_pools);
    if (!h.ok()) return h.status();
    out.assignment = std::move(h->assignment);
    out.plan = std::move(h->plan);
    out.simulation = h->simulation;
    out.hierarchy = std::move(h->report);
    return out;
  }
  absl::StatusOr<MsaResult> assignment = AssignMemorySpaces(program, analysis, cost, msa);
  if (!assignment.ok()) return assignment.status();
  out.assignment = *std::move(assignment);

  absl::StatusOr<Plan> plan =
      PlanPoolsWithMsa(analysis.buffers, out.assignment, msa.fast_memory_bytes, msa.alignment,
                       pools);
  if (!plan.ok()) return plan.status();
  out.plan = *std::move(plan);
  // Window chunks count towards the alternate space's peak.
  out.plan.window_prefetches = out.assignment.window_prefetches;
  for (const WindowPrefetch& w : out.plan.window_prefetches) {
    for (SpaceInfo& space : out.plan.spaces) {
      if (space.id == w.space) space.peak = std::max(space.peak, w.offset + w.bytes);
    }
  }

  out.simulation = SimulateMsa(analysis, cost, out.assignment);
  MsaStats stats;
  stats.estimated_time_s = out.simulation.elapsed_s;
  stats.time_all_default_s = TimeAllDefault(analysis, cost);
  stats.time_all_fast_s = TimeAllFast(analysis, cost);
  // Looser with windows: with the flag, or when default mode kept some.
  stats.time_bound_s =
      TimeBound(analysis, cost, msa.fast_memory_bytes,
                msa.window_prefetch_bytes > 0 || !out.plan.window_prefetches.empty());
  // The bound holds for every plan (msa/time_bound.h); the slack absorbs
  // the different order in which the two sum an op's bytes.
  if (out.simulation.elapsed_s < *stats.time_bound_s * (1 - kTimeBoundSlack)) {
    return absl::InternalError(fmt::format(
        "memplan: internal error: the plan's estimated time {:.12g} s is below the time bound "
        "{:.12g} s for {} of fast memory",
        out.simulation.elapsed_s, *stats.time_bound_s, msa.fast_memory_bytes));
  }
  CountCopies(out.plan.copies, msa, stats);
  stats.window_prefetches = static_cast<std::int64_t>(out.plan.window_prefetches.size());
  for (const WindowPrefetch& w : out.plan.window_prefetches) stats.window_prefetch_bytes += w.bytes;
  stats.block = out.assignment.block;
  if (const std::optional<LoopReport>& loop = out.assignment.loop) {
    const auto count = [&](LoopValueClass c) { return loop->counts[static_cast<std::size_t>(c)]; };
    stats.loops.push_back(LoopStats{loop->loop.start, loop->loop.period, loop->loop.iterations,
                                    loop->chosen, loop->steady_state_iteration_s,
                                    loop->steady_state_without_s, count(LoopValueClass::kTemporary),
                                    count(LoopValueClass::kLoopCarried), count(LoopValueClass::kPinned),
                                    count(LoopValueClass::kPrefetch), count(LoopValueClass::kOther)});
  }
  stats.rewrite_skipped = skipped;
  if (!skipped.empty()) {
    // The plan the same command makes without the flag (options.msa as
    // given, fast memory and alignment as used).
    MsaOptions unrestricted_options = options.msa;
    unrestricted_options.fast_memory_bytes = msa.fast_memory_bytes;
    unrestricted_options.alignment = msa.alignment;
    absl::StatusOr<MsaResult> unrestricted =
        AssignMemorySpaces(program, analysis, cost, unrestricted_options);
    if (unrestricted.ok()) {
      stats.estimated_time_with_skipped_s = SimulateMsa(analysis, cost, *unrestricted).elapsed_s;
    }
  }
  out.plan.msa = stats;

  if (options.rewrite) {
    absl::StatusOr<Program> rewritten = RewriteSchedule(program, analysis, out.assignment);
    if (!rewritten.ok()) return rewritten.status();
    out.rewritten = *std::move(rewritten);
    out.rewrite_flag = options.rewrite_flag;
  }
  return out;
}

double CapturedSpeedup(const MsaStats& stats) {
  if (!stats.time_all_default_fits) return 0;
  const double possible = stats.time_all_default_s - stats.time_all_fast_s;
  if (!(possible > 0)) return 0;
  return (stats.time_all_default_s - stats.estimated_time_s) / possible;
}

double FromTimeBound(const MsaStats& stats) {
  if (!stats.time_bound_s || !(*stats.time_bound_s > 0)) return 0;
  return std::max(0.0, stats.estimated_time_s / *stats.time_bound_s - 1);
}

namespace {

// "; N staged through SPACE[, SPACE ...]" for a plan with staged
// copies (AsyncCopy::via, memory hierarchies), its intermediate spaces by
// id; "" otherwise.
std::string StagedSummary(const Plan& plan) {
  std::map<MemorySpace, std::string> through;
  std::int64_t staged = 0;
  for (const AsyncCopy& c : plan.copies) {
    if (!c.via) continue;
    ++staged;
    through[c.via->space] = SpaceNameIn(plan, c.via->space);
  }
  if (staged == 0) return "";
  std::vector<std::string> names;
  for (const auto& [id, name] : through) names.push_back(name);
  return fmt::format("; {} staged through {}", staged, fmt::join(names, ", "));
}

}  // namespace

std::string FormatMsaSummary(const MsaJobResult& result) {
  const MsaStats& s = *result.plan.msa;
  std::string text = fmt::format("fast memory: {} on target {} ({} mode{})\n",
                                 FormatBytes(result.target.fast_memory_bytes), result.target.name,
                                 result.assignment.mode,
                                 result.assignment.variant.empty()
                                     ? std::string()
                                     : ", variant " + result.assignment.variant);
  const std::string sliced =
      s.sliced_prefetches == 0
          ? std::string()
          : fmt::format("; {} of them slices of {}", s.prefetch_slices,
                        CountOf(s.sliced_prefetches, "sliced prefetch", "sliced prefetches"));
  const std::string windows =
      s.window_prefetches == 0
          ? std::string()
          : fmt::format("; {} ({})", CountOf(s.window_prefetches, "window prefetch", "window prefetches"),
                        FormatBytes(s.window_prefetch_bytes));
  text += fmt::format("async copies: {} ({}{}), {} ({}), at most {} outstanding{}{}\n",
                      CountOf(s.prefetches, "prefetch", "prefetches"), FormatBytes(s.prefetch_bytes),
                      sliced, CountOf(s.evictions, "eviction"), FormatBytes(s.eviction_bytes),
                      s.max_outstanding_copies, StagedSummary(result.plan), windows);
  if (s.block) {
    // Kept by default mode's automatic try: say which share of fast memory.
    const std::string automatic =
        result.options.auto_block_prefetch
            ? fmt::format(" (fast memory / {}) kept by default mode's automatic try "
                          "(--block-prefetch 0: none)",
                          kAutoBlockDivisor)
            : "";
    text += fmt::format("block prefetching: block of {} at offset {}, {}{}\n",
                        FormatBytes(s.block->size), s.block->offset,
                        CountOf(s.block_prefetches, "block prefetch", "block prefetches"),
                        automatic);
  } else if (result.options.block_prefetch_bytes > 0 && !result.hierarchy) {
    // Reference mode plans with the block whenever some weight goes in it.
    text += result.options.mode == MsaMode::kReference
                ? "block prefetching: no block reserved (no weight to prefetch: it takes "
                  "constants that ops only read in the entry computation; entry parameters, "
                  "such as an HLO module's, are model inputs to it)\n"
                : "block prefetching: not chosen (no variant with the block was faster)\n";
  }
  if (result.options.window_prefetch_bytes > 0 && s.window_prefetches == 0) {
    // Asked for and absent: say so, as for the block and the loop.
    text += fmt::format(
        "window prefetch: none kept (no window of {} both fits the free fast memory and makes the "
        "plan faster)\n",
        FormatBytes(result.options.window_prefetch_bytes));
  } else if (result.options.window_prefetch_bytes == 0 && s.window_prefetches > 0) {
    // Kept by default mode's automatic try: say which share of fast memory.
    const Bytes window = result.plan.window_prefetches.front().bytes;
    const Bytes fast = result.options.fast_memory_bytes;
    const auto* divisor = std::find_if(kAutoWindowDivisors.begin(), kAutoWindowDivisors.end(),
                                       [&](Bytes d) { return fast / d == window; });
    const std::string share =
        divisor == kAutoWindowDivisors.end() ? "" : fmt::format(" (fast memory / {})", *divisor);
    text += fmt::format(
        "window prefetch: windows of {}{} kept by default mode's automatic try "
        "(--window-prefetch 0: none)\n",
        FormatBytes(window), share);
  }
  text += FormatLoopSummary(result);
  text += fmt::format("estimated time: {:.6g} s", s.estimated_time_s);
  if (s.time_bound_s) {
    text += fmt::format(", bound {:.6g} s, {:.1f}% from the bound", *s.time_bound_s,
                        100 * FromTimeBound(s));
  }
  if (s.time_all_default_fits) {
    text += fmt::format(
        " (all default memory {:.6g} s, all fast memory {:.6g} s); captured speed-up {:.1f}%\n",
        s.time_all_default_s, s.time_all_fast_s, 100 * CapturedSpeedup(s));
  } else {
    text += fmt::format(
        " (all default memory {:.6g} s, which does not fit, all fast memory {:.6g} s); captured "
        "speed-up n/a\n",
        s.time_all_default_s, s.time_all_fast_s);
  }
  text += FormatRewriteSummary(result);
  if (result.hierarchy) text += FormatHierarchySummary(result);
  return text;
}

std::string FormatRewriteSummary(const MsaJobResult& result) {
  const MsaStats& s = *result.plan.msa;
  if (s.rewrite_skipped.empty()) return "";
  const bool sliced = std::find(s.rewrite_skipped.begin(), s.rewrite_skipped.end(),
                                "sliced_prefetch") != s.rewrite_skipped.end();
  const bool window = std::find(s.rewrite_skipped.begin(), s.rewrite_skipped.end(),
                                "window_prefetch") != s.rewrite_skipped.end();
  const std::string kinds = sliced && window ? "sliced or window prefetches"
                            : sliced         ? "sliced prefetches"
                                             : "window prefetches";
  const std::string& flag = result.rewrite_flag;
  std::string text =
      fmt::format("whole-buffer copies only: {} writes no {}, so default mode tried none; ", flag, kinds);
  if (!s.estimated_time_with_skipped_s) {
    return text + fmt::format("plan without {} to see the time they would give\n", flag);
  }
  const double without = *s.estimated_time_with_skipped_s;
  const std::string printed = fmt::format("{:.6g}", without);
  text += fmt::format("without {}: estimated {} s", flag, printed);
  if (printed == fmt::format("{:.6g}", s.estimated_time_s)) return text + ", the same\n";
  const double change = s.estimated_time_s > 0 ? 100 * (1 - without / s.estimated_time_s) : 0;
  return text + (change > 0 ? fmt::format(" ({:.2g}% faster)\n", change)
                            : fmt::format(" ({:.2g}% slower)\n", -change));
}

std::string FormatLoopSummary(const MsaJobResult& result) {
  const MsaOptions& o = result.options;
  const MsaStats& s = *result.plan.msa;
  // Without the flag a loop is reported only when the automatic try kept it.
  if ((!o.loop_optimizer && s.loops.empty()) || result.hierarchy) return "";
  if (s.loops.empty()) {
    return fmt::format("memory-bound loop: none found (no ops repeating for {} or more iterations)\n",
                       o.loop_optimizer_min_iterations);
  }
  const LoopStats& l = s.loops.front();
  std::string text = fmt::format(
      "memory-bound loop{}: steps {}..{}, period {}, {} iterations ({} temporary, {} loop-carried, "
      "{} pinned, {} prefetch, {} other); ",
      o.loop_optimizer ? "" : " (kept by default mode's automatic try; --no-loop-optimizer: off)",
      l.start, l.start + l.period * l.iterations - 1, l.period, l.iterations, l.temporary,
      l.loop_carried, l.pinned, l.prefetch, l.other);
  if (!l.chosen) text += "not chosen: no variant with the loop optimizer was faster; ";
  const std::string steady = fmt::format("{:.6g}", l.steady_state_iteration_s);
  text += "steady-state iteration " + steady + " s";
  if (l.steady_state_without_s) {
    // Equal as printed: the gain lies in the iterations outside the steady
    // state; say so rather than "was X", which reads as no gain.
    const std::string without = fmt::format("{:.6g}", *l.steady_state_without_s);
    text += without == steady ? std::string(" (the same without the loop optimizer: the gain is "
                                            "outside the steady state)")
                              : " (was " + without + " s without the loop optimizer)";
  }
  return text + "\n";
}

std::string FormatHierarchySummary(const MsaJobResult& result) {
  const HierarchyReport& h = *result.hierarchy;
  std::string text;
  for (int level = 0; level < static_cast<int>(result.target.spaces.size()); ++level) {
    const MemorySpace id = SpaceIdOfLevel(result.target, level);
    const auto found = std::find_if(result.plan.spaces.begin(), result.plan.spaces.end(),
                                    [&](const SpaceInfo& s) { return s.id == id; });
    if (found == result.plan.spaces.end()) continue;
    const SpaceInfo& space = *found;
    const MemorySpaceSpec& spec = result.target.spaces[static_cast<std::size_t>(level)];
    // Buffers whose data this level holds at some step: a buffer homed here
    // that lives wholly in the fastest level never takes bytes here.
    std::int64_t homed = 0;
    for (std::size_t b = 0; b < h.home.size(); ++b) {
      homed += h.home[b] == space.id && result.assignment.needs_default[b] ? 1 : 0;
    }
    text += fmt::format("  space {} (level {}, id {}{}): peak {} of {}{}\n", spec.name, level,
                        space.id, spec.writable ? "" : ", read-only", FormatBytes(space.peak),
                        FormatBytes(spec.capacity_bytes),
                        space.id == kAlternateSpace
                            ? std::string()
                            : ", home of " + CountOf(homed, "buffer"));
  }
  std::vector<std::string> tried;
  for (const HierarchyReport::Candidate& c : h.candidates) {
    if (c.estimated_s) {
      tried.push_back(fmt::format("{} {:.6g} s{}", c.name, *c.estimated_s,
                                  c.without_cross_program_prefetch
                                      ? " (without the cross-program prefetch)"
                                      : ""));
    } else {
      tried.push_back(c.name + (c.not_run.empty() ? " does not fit (" + c.does_not_fit + ")"
                                                  : " not run (" + c.not_run + ")"));
    }
  }
  text += fmt::format("hierarchy: kept {}; tried {}; all in the slowest writable space {:.6g} s",
                      h.chosen, fmt::join(tried, ", "), h.all_slowest_writable_s);
  if (!h.all_slowest_writable_does_not_fit.empty()) {
    text += fmt::format(", which does not fit ({}): no bound on the plan's time",
                        h.all_slowest_writable_does_not_fit);
  }
  text += "\n";
  return text;
}

}  // namespace memplan
