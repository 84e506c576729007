// The flattened schedule: one global time line for the whole program.
//
// Time is the index into the flattened schedule, as in XLA's HloLiveRange:
// the initializers (`initializer func`, in declaration order) and then the
// entry computation are the roots, and each root's ops are walked in schedule
// order, so an initializer's ops come before the entry's; before a while,
// conditional, call or execute op gets its own time step, its called
// computations are flattened recursively in place (while: cond then body;
// conditional: branches in order; call/execute: the callee). A called
// computation therefore occupies a contiguous span nested inside its caller's
// time range, ending just before the calling op. Within one computation,
// consecutive ops with equal `wave` run concurrently and share one time step
// (an op with callees always gets a fresh step, after its callees).
//
// Example:
//   entry func @main(%x) {            time
//     %a = exp(%x)                       0
//     %w = while(%a) {cond=@c, body=@b}  3   (@c = [1,1], @b = [2,2])
//     %r = relu(%w)                      4
//   }
//   func @c(%p) { %k = compare(%p) }     1   loop_depth 1
//   func @b(%q) { %n = add(%q) }         2   loop_depth 1
// gives time_steps = 5 and spans main = [0,4], c = [1,1], b = [2,2].
#pragma once

#include <cstdint>
#include <vector>

#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// Closed range [first, last] of time steps covered by one computation's ops,
// including the spans of computations it calls. A reachable computation
// without ops has an empty span: first = the step its caller will take,
// last = first - 1. An unreachable one has first = last = kNoId.
struct ComputationSpan {
  TimeStep first = kNoId;
  TimeStep last = kNoId;
};

struct FlatSchedule {
  std::vector<TimeStep> op_time;          // per OpId; kNoId if unreachable from the roots
  std::vector<std::int32_t> loop_depth;   // per OpId: enclosing while loops (0 in a root)
  std::vector<OpId> order;                // reachable ops, in flattened order
  TimeStep time_steps = 0;                // distinct time steps (op times lie in [0, time_steps))
  std::vector<ComputationSpan> spans;     // per ComputationId
};

// Flattens `program` from its roots: every initializer in declaration order,
// then the entry (no entry: every op unreachable).
// Each computation is flattened at most once, at its first call site, so a
// malformed program (computation called twice or recursively) cannot loop.
// Runs in O(ops + callees) with an explicit stack (no recursion depth limit).
FlatSchedule FlattenSchedule(const Program& program);

}  // namespace memplan
