// The memory-space-assignment step of `memplan plan` (msa.md §2): resolve
// the target, build the cost model, run AssignMemorySpaces, lay out the
// default space around its result (PlanPoolsWithMsa), compute the MSA
// statistics with the run-time simulator, and optionally rewrite the
// schedule with explicit copies (for --emit-ir).
#pragma once

#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "driver/hierarchy_job.h"
#include "driver/pools.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/simulator.h"
#include "msa/target.h"

namespace memplan {

// The target used when --fast-memory is given without --target.
inline constexpr std::string_view kDefaultTarget = "edge-npu";

struct MsaJobOptions {
  std::optional<std::string> target;       // preset name or JSON file; kDefaultTarget if unset
  std::optional<Bytes> fast_memory_bytes;  // overrides the target's fast_memory_bytes
  std::optional<Bytes> fast_memory_alignment;  // overrides the target's alignment (>= 1)
  // Allocator knobs. fast_memory_bytes and alignment are filled in by the job:
  // the fast memory from above, the alignment as the least common multiple of
  // the target's and the plan's alignment (every offset is a multiple of both).
  MsaOptions msa;
  CostModelOptions cost;
  bool rewrite = false;  // produce MsaJobResult::rewritten
  // The flag that asked for the rewrite, as the summary names it.
  std::string rewrite_flag = "--emit-ir";
  // The assignment knobs given on the command line (e.g. "--window-prefetch"),
  // beyond the fast memory's size, alignment and target: a program with
  // execution regions takes none of them.
  std::vector<std::string> assignment_flags;
};

struct MsaJobResult {
  Target target;              // as resolved (fast_memory_bytes as used)
  MsaOptions options;         // as used (fast memory and alignment filled in)
  MsaResult assignment;
  Plan plan;                  // not yet verified; plan.msa filled in
  SimulationResult simulation;
  std::optional<Program> rewritten;
  std::string rewrite_flag;   // MsaJobOptions::rewrite_flag when rewritten
  // With a hierarchy target (Target::spaces): what the portfolio tried.
  std::optional<HierarchyReport> hierarchy;
};

// Runs the step for `program` (analysed as `analysis`). Errors:
// InvalidArgument for an unknown target, a bad target file, a fast-memory
// alignment (lcm of the target's and pools.alignment) above kMaxAlignment or bad knobs
// (AssignMemorySpaces); ResourceExhausted when the default space does not fit
// `pools.capacity` or a pinned buffer does not fit the fast memory;
// FailedPrecondition when the rewrite is requested but impossible; Internal
// when the simulated time lies below the time bound (msa/time_bound.h: a
// bug in one of them).
absl::StatusOr<MsaJobResult> RunMsaJob(const Program& program, const ProgramAnalysis& analysis,
                                       const MsaJobOptions& options,
                                       const PoolPlanOptions& pools);

// The share of the possible speed-up the plan captures:
// (time_all_default - estimated) / (time_all_default - time_all_fast), or 0
// when the bounds coincide (nothing to gain) or all in default memory does
// not fit (no baseline to measure from).
double CapturedSpeedup(const MsaStats& stats);

// How far the estimated time lies above the time bound, as a fraction of the
// bound: estimated / time_bound - 1, or 0 without a bound or when it is 0
// (clamped at 0: the two may differ in the last bits where they meet).
double FromTimeBound(const MsaStats& stats);

// Summary lines for `memplan plan`: target, fast memory, copies, estimated
// time against the time bound (msa/time_bound.h) and the all-default and
// all-fast times, the captured speed-up, and FormatRewriteSummary's line.
std::string FormatMsaSummary(const MsaJobResult& result);

// For a plan made for the rewrite (--emit-ir / --emit-hlo) in which default
// mode skipped some kind of copy (MsaStats::rewrite_skipped): one line saying
// the plan has whole-buffer copies only, what was skipped, and the estimated
// time without the flag, e.g.
//   whole-buffer copies only: --emit-hlo writes no sliced or window
//   prefetches, so default mode tried none; without --emit-hlo: estimated
//   0.00412 s (3.1% faster)
// (one line; "the same" when the two estimates print alike). Empty when
// nothing was skipped (reference mode, or both kinds turned off by flags).
std::string FormatRewriteSummary(const MsaJobResult& result);

// With --loop-optimizer (two-space targets): the loop it found (steps,
// period, iterations, buffers per class), whether the plan uses it, and the
// steady-state iteration time in seconds (with the time without the
// optimizer when it was chosen), or that none was found. Part of
// FormatMsaSummary; empty without the option.
std::string FormatLoopSummary(const MsaJobResult& result);

// For a hierarchy target (result.hierarchy set): one line per space of the
// plan (level, peak of capacity, buffers homed there) and the portfolio's
// candidates with their estimated times. Part of FormatMsaSummary.
std::string FormatHierarchySummary(const MsaJobResult& result);

}  // namespace memplan
