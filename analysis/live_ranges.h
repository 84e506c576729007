// Live ranges of values on the flattened schedule (analysis/schedule.h).
//
// A live range is a closed interval [start, end] of time steps:
//  * start: the defining op's time; 0 for entry params; the first step of
//    its computation's span for params of called computations;
//  * end: the latest time of an op reading the value, raised to
//      - time_steps - 1 for entry results (the caller reads them after the run)
//        and for initializer results (they persist to the end, like globals),
//      - the span's last step for results of called computations,
//      - the X-done's time for operands of an X-start (the async op reads them
//        until it completes);
//    a value nothing reads is live [start, start].
// Because called computations are nested inside the caller's span, a value
// read by a while op after the loop is live across the whole loop.
//
// Example (spans from analysis/schedule.h's example):
//   %a = exp(%x)      t0    a: [0, 3] (read by the while at t3)
//   %w = while(%a)    t3    w: [3, 4]
//   %r = relu(%w)     t4    r: [4, 4] (entry result: end = time_steps - 1 = 4)
#pragma once

#include <vector>

#include "analysis/schedule.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

struct LiveRange {
  TimeStep start = kNoId;  // first live time step (inclusive)
  TimeStep end = kNoId;    // last live time step (inclusive)
};

// Per ValueId live ranges. Timepoints and values of computations unreachable
// from the roots (initializers and entry) get {kNoId, kNoId}. O(values + operands).
std::vector<LiveRange> ComputeValueLiveRanges(const Program& program, const FlatSchedule& schedule);

}  // namespace memplan
