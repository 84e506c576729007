// XLA's memory-bound loop optimizer, memplan's version: for an unrolled
// loop found in the flat schedule (msa/loop_detect.h), classify the buffers
// the loop touches, plan one steady-state iteration within the fast memory,
// and hand the result to the allocator as *preferences* — which buffers it
// allocates first and which start it tries first for a prefetch. The
// allocator (msa/allocator.h) still makes every decision, so a preference
// it cannot honour falls back to its usual choices, and the verifier checks
// the plan as any other.
//
// Classes (iteration i of a loop of period L from step S: steps
// [S + iL, S + (i+1)L); a step's *position* is its offset in its iteration):
//  * kTemporary: written first in iteration i, every access in iteration i;
//  * kLoopCarried: written in the loop and accessed in a later iteration or
//    after the loop, or written in place in the loop after being defined
//    before it (no preference: the allocator plans it as usual);
//  * kPinned: not written in the loop, read only in the loop, in every
//    iteration at the same positions (a weight shared by the iterations):
//    budgeted in alternate memory for the whole loop;
//  * kPrefetch: not written in the loop, read only in the loop and in one
//    iteration (a per-iteration weight): prefetched during the previous
//    iteration;
//  * kOther: any other buffer the loop touches.
//
// Steady-state plan. The candidates are the pinned buffers and the
// temporaries and prefetch buffers of iteration 1 (a middle one), in
// decreasing saving per byte (BufferAccess::saving_s summed over the
// iteration, over the size; ties: smaller size, then BufferId). One is
// taken when, with the ones taken before, (a) the bytes held at every
// position of the steady state fit the fast memory — a pinned buffer at
// every position, a temporary from its first to its last access, a prefetch
// buffer from its copy's issue in the previous iteration to its last read
// (overlapping itself when that is longer than L: double buffering) — and
// (b) the prefetch copies fit the one copy queue: scheduled as late as
// possible, each done before its first read, none overlapping another, each
// issued after an op of the previous iteration or of the current one before
// its read, all within one iteration's time. Times are per position the op's
// all-alternate elapsed seconds (CostModel::OpElapsedAllAlternate: the
// shortest the op can run, so a copy planned to hide behind it does).
// The chosen pinned and prefetch buffers are the allocator's preferences;
// the chosen temporaries only keep their room in the budget, the allocator
// places them in its own order (allocating them first made BERT's plans
// slower, docs/msa.md). A chosen pinned buffer is allocated first but, as
// any buffer, stays in alternate memory between reads only as far as the
// picker allows (forcing it resident over the whole loop, as XLA pins it,
// was slower on BERT too).
// The same decision then holds in every iteration: a temporary or prefetch
// buffer of iteration i follows the candidate of iteration 1 with the same
// class, first and last positions and size (the n-th such buffer of i the
// n-th of iteration 1, by BufferId), and its copy is issued at the same
// position, one iteration earlier.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/units.h"
#include "msa/cost_model.h"
#include "msa/loop_detect.h"
#include "msa/problem.h"

namespace memplan {

enum class LoopValueClass : std::uint8_t { kTemporary, kLoopCarried, kPinned, kPrefetch, kOther };
inline constexpr std::size_t kLoopValueClasses = 5;

// "temporary", "loop-carried", "pinned", "prefetch", "other".
const char* LoopValueClassName(LoopValueClass c);

// What the allocator is asked to prefer (msa/allocator.h).
struct LoopPlan {
  DetectedLoop loop;
  std::vector<std::optional<LoopValueClass>> classes;  // per BufferId; nullopt: not in the loop
  std::array<std::int64_t, kLoopValueClasses> counts{};  // buffers per class
  // The chosen pinned and prefetch buffers of every iteration, allocated
  // before all others in this order (the candidates' order, then
  // iteration, then BufferId).
  std::vector<BufferId> order;
  // Per BufferId: the step after whose op its prefetch should be issued
  // (chosen prefetch buffers), kNoId for none.
  std::vector<TimeStep> preferred_start;
  // Most bytes held at one position of the steady state by the chosen ones.
  Bytes steady_state_bytes = 0;
};

// Classifies every buffer of `problem` against `loop` (classes, counts). O(accesses).
void ClassifyLoopBuffers(const MsaProblem& problem, const DetectedLoop& loop, LoopPlan& plan);

// The whole plan: ClassifyLoopBuffers, then the steady-state choice
// described at the top of this file within `fast_memory_bytes`.
// `loop.iterations` must be >= 3. O(C^2 log C + C x L) for C candidates.
LoopPlan PlanMemoryBoundLoop(const MsaProblem& problem, const ProgramAnalysis& analysis,
                             const CostModel& cost, const DetectedLoop& loop,
                             Bytes fast_memory_bytes);

// The steady-state iteration time of a simulated plan, seconds: the time
// between the starts of the first and the last middle iteration (1 and
// iterations - 2; `step_start_s` per time step, SimulationResult) divided
// by the iterations between them, i.e. (start of iteration k-1 - start of
// iteration 1) / (k - 2). `loop.iterations` must be >= 3.
double SteadyStateIterationSeconds(std::span<const double> step_start_s, const DetectedLoop& loop);

}  // namespace memplan
