// Run-time simulator for a memory space assignment (the role of XLA's
// RuntimeSimulator / the reference's ComputeEstimatedElapsedTime, msa.md §1):
// executes the rewritten schedule (msa/rewrite.h) on the cost model and
// reports its makespan in seconds.
//
// Model, slot by slot along the flattened schedule:
//  1. every copy-done placed before step t (copies with done == t) blocks the
//     stream until its copy has finished, as a copy-done op does;
//  2. the ops of step t run (ops sharing a step run concurrently: the slowest
//     counts); an op takes OpElapsed for the memory spaces it reads and
//     writes at t, times its execution count (while bodies) — an op with
//     window prefetches (MsaResult::window_prefetches) WindowedOpElapsed
//     (msa/window_prefetch.h) instead;
//  3. every copy-start placed after step t (copies with start == t, in
//     MsaResult::copies order) enters the one DMA queue; the queue serves
//     copies in issue order, each for CopySeconds(bytes) times the execution
//     count of step t. A copy with start -1 is issued before step 0. A
//     window prefetch's copy (its bytes) is issued after the other copies
//     started at its step.
// Dones past the last step are awaited at the end. A conditional's branches
// lie one after another on the flattened schedule and each runs once here
// (CostModel counts branch ops once per execution of their caller): the
// estimate is that of running every branch, a stand-in for the unknown
// branch probabilities that weighs each branch's savings alike.
//
// Where an op accesses buffer b at step t (msa/assignment.h, made precise
// for the window of a prefetch): in alternate memory iff an alternate
// segment of b covers t and the segment either is not opened by a prefetch
// or t >= that prefetch's done (before the data has arrived, the op still
// uses the default copy); otherwise in default memory.
//
// Example: steps 0 and 1 take 1 s each in default memory; a prefetch of
// 300 bytes at 100 B/s with start 0 and done 1 runs 1..4 s, so step 1 starts
// at 4 s and the makespan is 4 s plus step 1's (faster) alternate-memory time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"

namespace memplan {

struct SimulationResult {
  double elapsed_s = 0;     // makespan: end of the last step or copy-done
  double op_s = 0;          // sum of the steps' op times
  double copy_wait_s = 0;   // time the stream stood still at copy-dones
  double copy_busy_s = 0;   // time the DMA queue was busy
  // Per time step: when its ops begin (after the copy-dones before it).
  std::vector<double> step_start_s;
};

// Simulates `result` (copies sorted by start, as MsaResult promises) for the
// program behind `analysis` and `cost`. O(ops + operands * log segments +
// copies). Copies with done < start or times outside [-1, time_steps] are the
// verifier's business; here they are clamped into that range.
SimulationResult SimulateMsa(const ProgramAnalysis& analysis, const CostModel& cost,
                             const MsaResult& result);

// Makespan with nothing in alternate memory and no copies (the slowest
// bound, `time_all_default_s`).
double TimeAllDefault(const ProgramAnalysis& analysis, const CostModel& cost);

// Makespan with every operand and result in alternate memory and copies
// free (the fastest bound, `time_all_fast_s`).
double TimeAllFast(const ProgramAnalysis& analysis, const CostModel& cost);

// Most copies (prefetches and evictions together) outstanding at one time
// step, a copy being outstanding over its closed range [start, done] (the
// rule of the allocator's limits and the verifier). O(n log n).
std::int64_t MaxOutstandingCopies(std::span<const AsyncCopy> copies);

// Fills the copy fields of `stats` from a plan's `copies`: how many
// prefetches and evictions, their bytes, the most outstanding at one step,
// and the limits of `options` they were made under (--max-outstanding-*).
void CountCopies(std::span<const AsyncCopy> copies, const MsaOptions& options, MsaStats& stats);

}  // namespace memplan
