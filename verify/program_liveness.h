// The steps at which a buffer holds no data, re-derived from the Program alone
// for rule 3 of verify/verifier.h (the planners' analysis/ is not used).
//
// The verifier numbers the steps itself: roots (initializers in declaration
// order, then the entry) run their ops in order, an op's called computations
// run just before it (while: cond, body; conditional: branches in order),
// and adjacent ops of one wave without callees share a step. A value holds
// data from its definition (a parameter: its computation's first step, an
// entry parameter: step 0) to its last read, later for a result of a called
// computation (its computation's last step), of the entry or an initializer
// (the last step) and for an operand of an X-start (its X-done). A buffer
// holds data while one of its values (Buffer::values) does; it is *dead* at
// the other steps between its first and last live step. Such steps come from
// conditionals: only the taken branch runs, and a branch holds nothing of
// the op's result before it defines its own returned value.
//
// Example: %r = conditional(%p, %x) {branches = [@a, @b]} with @a = { %u =
// exp(%pa) } at step 1 returning %u and @b = { %t = neg(%pb); %v = exp(%t) }
// at steps 2, 3 returning %v, the conditional at step 4 and %r read at step
// 5: buffer {u, v, r} holds data at 1, 3, 4, 5 and is dead at step 2, where
// %t holds data: %t may share its bytes.
#pragma once

#include <vector>

#include "ir/buffer_set.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan::verify_internal {

// Per buffer of `buffers` (analysed from `program`): the sorted, disjoint
// closed ranges of dead steps strictly inside [start, end]. Empty for a
// buffer without values, and for one whose live steps as derived here do
// not begin at its start and end at its end (then the buffer set and the
// program disagree, and the buffer is taken as live throughout).
// O((values + operands) log values).
std::vector<std::vector<StepRange>> DeadSteps(const Program& program, const BufferSet& buffers);

// The steps numbered as above: per OpId its step, per ValueId the closed
// range of steps at which it holds data ({-1, -1} for ops and values no
// root reaches). O(values + operands).
struct ProgramSteps {
  std::vector<TimeStep> op;
  std::vector<StepRange> value;
};
ProgramSteps NumberProgram(const Program& program);

// What the program says about writing one buffer (rule 10 of
// verify/verifier.h).
struct BufferWrites {
  // Sorted, unique steps (numbered as above) of the compute and constant
  // ops that write one of the buffer's values: its definition or an
  // in-place (tied) write. Views write nothing, nor does a result whose
  // gathered operands fill it (their producers wrote it), and control flow (while,
  // call, conditional, execute, async ops) writes through its callees' ops.
  std::vector<TimeStep> steps;
  // It holds a parameter or a result of the entry computation: the caller
  // provides or receives its data in default memory.
  bool boundary = false;
};

// Per buffer of `buffers` (analysed from `program`). Example: entry
// func @main(%p: f32[4]) { %a = exp(%p); %b = add(%p, %a) tied(%p); return
// %b } at steps 0, 1 gives buffer {p, b}: steps {1}, boundary; buffer {a}:
// steps {0}. O(values + ops).
std::vector<BufferWrites> WriteSteps(const Program& program, const BufferSet& buffers);

}  // namespace memplan::verify_internal
