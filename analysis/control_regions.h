// The while loops and conditionals of a program as control regions of the
// flattened schedule (ir/buffer_set.h): what a plan must respect because a
// loop repeats its condition and body and a conditional runs one branch.
//
// Example: entry steps 0 and 3 around `%h = while(...) {cond = @c, body = @b}`
// with @c at [1,1] and @b at [2,2] give one region {kLoop, "while %h",
// parts {"condition @c" [1,1], "body @b" [2,2]}}.
#pragma once

#include <vector>

#include "analysis/schedule.h"
#include "ir/buffer_set.h"
#include "ir/program.h"

namespace memplan {

// One region per reachable while / conditional op with at least one
// non-empty part, in flattened order. O(ops + callees).
std::vector<ControlRegion> ControlRegions(const Program& program, const FlatSchedule& schedule);

}  // namespace memplan
