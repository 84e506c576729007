// AnalyzeProgram: everything the planners need to know about a Program,
// computed once — the flattened schedule, alias sets turned into buffers with
// live ranges, lifetimes and pins, and which buffers each op touches.
//
// Reads: a Program (assumed to pass ValidateProgram). Guarantees: a BufferSet
// whose buffers are
//  1. one per alias set (analysis/alias_sets.h), ordered by smallest member
//     ValueId, named after that member; size = the set's size; live range =
//     the hull (min start, max end) of the members' live ranges
//     (analysis/live_ranges.h) and dead gaps (Buffer::gaps) = the steps of
//     the hull that no member's range covers; use_times = the sorted, unique
//     times of ops reading any member; lifetime and pinned space from the
//     alias set;
//  2. then one synthetic buffer per reachable op with scratch_bytes > 0, by op
//     id, named "<OpName>.scratch", live and used only at that op's time,
//     transient, with no values.
// Zero-size buffers are kept; alignment is 1. time_steps is the schedule's
// step count, at least 1 so that a program without ops still has a time 0.
//
// Control flow. Called computations are nested in the caller's span, so a
// buffer read by a while (every outer value the body reads is one of its
// operands) is live across the whole loop, and a loop-carried buffer (init,
// cond and body parameters, body result, while result: one alias set) is
// live from its init's definition to the last use of the while result,
// without gaps. A conditional's result buffer joins the op's result with
// every branch's returned value; its live set is, per branch, from the
// branch's definition of the value to the branch's end, then from the op
// to the result's last outer use (also across later or nested
// conditionals). The steps of a branch before it defines the value are a
// dead gap: only the taken branch runs, so the temporaries of the other
// branches (and their results) may use those bytes. A branch that returns
// a parameter makes the result share the argument's buffer, which the
// conditional reads, so that buffer has no gap. Each gap separates two
// members' ranges, so a buffer has fewer gaps than values (at most one per
// branch after the first of each conditional whose result it holds) and
// the gaps of all buffers number fewer than the program's values.
//
// Example:
//   entry func @main(%x: f32[4]) {           time
//     %y = exp(%x) : f32[4]                   0
//     %z = relu(%y) : f32[4] tied(%y)         1   (scratch_bytes = 64)
//     return %z
//   }
// gives time_steps 2 and buffers
//   0 "x"          16 B [0,0] external uses {0}
//   1 "y" {y, z}   16 B [0,1] external uses {1}   (z is an entry result)
//   2 "z.scratch"  64 B [1,1] transient uses {1}
#pragma once

#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/live_ranges.h"
#include "analysis/schedule.h"
#include "ir/buffer_set.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// The buffers one op touches at its time step.
struct OpBuffers {
  std::vector<BufferId> operands;  // position-wise with Op::operands; kNoId for timepoints
  std::vector<BufferId> results;   // position-wise with Op::results; kNoId for timepoints
  BufferId scratch = kNoId;        // the op's scratch buffer, if it reserves any
};

struct ProgramAnalysis {
  FlatSchedule schedule;
  BufferSet buffers;
  std::vector<BufferId> value_buffer;    // per ValueId; kNoId for timepoints
  std::vector<Bytes> value_offset;       // per ValueId: byte offset within its buffer
  // The offsets that depend on dims (members of buffers holding a subview at
  // a dynamic offset), as expressions; value_offset is their value at the
  // evaluation point. See ValueOffsetExpr.
  std::map<ValueId, SizeExpr> symbolic_value_offset;
  std::vector<LiveRange> value_ranges;   // per ValueId
  std::vector<OpBuffers> op_buffers;     // per OpId
};

// Analyzes `program`. O((values + operands) log) time. Errors (InvalidArgument,
// `path:line:col: error: ...` with path = program.source):
//  * those of ComputeAliasSets (conflicting pins, in-place write into a
//    constant, conflicting view offsets);
//  * "program has no entry computation";
//  * "computation @f is called more than once" (at the second call site),
//    "entry computation @main must not be called" and "initializer @i must
//    not be called" (at the call site): each computation needs exactly one
//    place in the flattened schedule;
//  * "computation @f is not reachable from the entry computation @main or an
//    initializer" (initializers are roots like the entry, flattened before
//    it; analysis/schedule.h).
absl::StatusOr<ProgramAnalysis> AnalyzeProgram(const Program& program);

// Value `v`'s byte offset within its buffer as an expression over dims: its
// symbolic_value_offset entry, else the constant value_offset[v]. O(log n).
SizeExpr ValueOffsetExpr(const ProgramAnalysis& analysis, ValueId v);

}  // namespace memplan
