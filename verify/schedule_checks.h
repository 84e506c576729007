// The reordered-schedule check: that a program whose ops were reordered
// (schedule/reorder.h, `--reorder`) is a topological order of the input
// program with every rule of schedule/order_problem.h kept. It derives the
// storage sharing, side effects and lifetimes again from the program, with
// no code shared with the planner.
#pragma once

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

// Checks `reordered` against `original` (same values, ops and computations;
// only Computation::ops may differ). Per computation:
//  1. the ops are a permutation of the original's;
//  2. a region, or a computation with ops that carry a `wave`, keeps its order;
//  3. every op comes after the ops of the computation defining its operands;
//  4. ops with side effects (no results; a callee holding such an op; a
//     result written in place into storage that holds a parameter of the
//     computation or a value that is not transient) keep their relative order;
//  5. every op touching a value's storage (operand, result, or an X-start's
//     operand at its X-done) comes after as many of the storage's writers (a
//     result tied to an operand there; a control-flow op taking it) as in
//     the original order, so an in-place op stays the last reader of its
//     operand's storage.
// Errors: FailedPrecondition "schedule: @comp: ..." naming the first rule
// broken and the ops concerned. O((values + operands) α + ops log ops).
absl::Status VerifyReorderedSchedule(const Program& original, const Program& reordered);

}  // namespace memplan
