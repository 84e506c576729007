// What the executor derives from a program on its own (not from analysis/):
// each op's time step on the flattened schedule and each value's buffer and
// byte offset inside it.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"
#include "ir/program.h"

namespace memplan {

struct ProgramLayout {
  std::vector<TimeStep> op_time;        // per OpId; kNoId when never reached
  TimeStep time_steps = 0;
  std::vector<BufferId> buffer_of;      // per ValueId; kNoId: no storage (timepoint)
  std::vector<Bytes> offset_in_buffer;  // per ValueId: bytes from the buffer's base
};

// Times: the initializers (in declaration order), then the entry, each op in
// schedule order, a called computation's ops flattened just before the op
// that calls it (while: condition, then body; conditional: branches in order),
// consecutive ops of one computation with equal `wave` sharing a step (an op
// with callees always takes a fresh one).
// Offsets: the values that share storage (tied and view results with their
// operand, view_offset bytes in; gathered operands at their offset in the
// result; a while's operand, condition and body parameters, body result and
// result; a conditional's arguments and branch parameters, branch results
// and results; call/execute arguments and callee parameters, callee results
// and results; an async done's results and operands) are placed relative to
// each other, and each buffer's lowest value at 0.
// Buffers come from `buffers` (each buffer's `values`). Errors:
// InvalidArgument when two values that share storage are in different
// buffers or one value would sit at two offsets.
absl::StatusOr<ProgramLayout> LayOutProgram(const Program& program, const BufferSet& buffers);

}  // namespace memplan
