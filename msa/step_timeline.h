// The time line both simulators run (msa/simulator.h, the two-space one, and
// msa/hierarchy_simulator.h): the steps' op times, then the copies issued
// and awaited between the steps on the queues the caller picks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "msa/cost_model.h"
#include "msa/simulator.h"

namespace memplan {

// Per time step (at least one): the slowest of its ops' times each multiplied
// by its execution count, seconds; and that execution count (1 for a step
// without ops).
struct StepTimes {
  std::vector<double> seconds;
  std::vector<double> count;
};

// The steps' times when each op takes `op_seconds(op)` seconds per
// execution. O(ops).
template <typename OpSeconds>
StepTimes TimeSteps(const ProgramAnalysis& analysis, const CostModel& cost, OpSeconds op_seconds) {
  const auto steps = static_cast<std::size_t>(std::max<TimeStep>(1, analysis.schedule.time_steps));
  StepTimes out{std::vector<double>(steps, 0), std::vector<double>(steps, 1)};
  for (OpId op : analysis.schedule.order) {
    const auto t = static_cast<std::size_t>(analysis.schedule.op_time[op]);
    out.seconds[t] = std::max(out.seconds[t], op_seconds(op) * cost.ExecutionCount(op));
    out.count[t] = cost.ExecutionCount(op);
  }
  return out;
}

// The sum of the steps' seconds.
double TotalSeconds(const StepTimes& steps);

// How a copy runs once issued: `queue_free` is when the queue it takes is
// free (moved to the copy's finish), `seconds` its time for one execution
// of the step that issues it. A staged copy (AsyncCopy::via) has a second
// leg: it enters queue `next_queue_free` when the first leg finishes (or
// when that queue is free, if later) and takes `next_seconds`; the copy is
// done when it finishes. Null for a copy of one leg.
struct CopyService {
  double* queue_free = nullptr;
  double seconds = 0;
  double* next_queue_free = nullptr;
  double next_seconds = 0;
};

// Runs the steps in order: before step t the stream waits for the copies
// done at t, after it the copies started at t enter their queues (each for
// `serve(c).seconds` times step t's execution count, from the later of the
// clock and its queue's free time); start -1 issues before step 0, dones
// past the last step are awaited at the end (times clamped into
// [-1, steps] as msa/simulator.h says). `serve(c)` is called once per copy
// `c` (index into `copies`), in issue order. O(steps + copies) calls.
SimulationResult RunStepTimeline(const StepTimes& steps, std::span<const AsyncCopy> copies,
                                 const std::function<CopyService(std::size_t)>& serve);

}  // namespace memplan
