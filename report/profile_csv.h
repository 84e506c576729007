// `memplan plan --profile FILE.csv`: what the plan holds at every time step,
// for plotting. One header line, then one row per time step:
//
//   step,op[,node],<space>.live_bytes,<space>.<pool>.live_bytes,...,defined,freed
//
// * `op`: the op(s) at the step as `%result = opcode` (several ops of one
//   wave joined by ";"); empty for a lifetime CSV, which has no program.
// * `node`: only when some op carries a `name` attribute (an ONNX node
//   name): those names, joined by ";".
// * `<space>.live_bytes` (e.g. `default.live_bytes`): the bytes of every
//   segment of the plan in that space live at the step (report/space_view.h:
//   a segment opened by a prefetch counts from the copy's start; a buffer
//   counts only outside its dead gaps). Live bytes, not the space's extent:
//   its max over the steps is the summary's "max live", never more than its
//   "used" (the highest byte reached). Then `<space>.<pool>.live_bytes` per
//   pool: the bytes there of buffers whose pool it is — first the plan's
//   pools of that space in plan order, then pools whose buffers the space
//   receives (with fast memory: `alternate.transient.live_bytes` are the
//   activations in fast memory, `alternate.constant.live_bytes` the
//   weights), by name.
// * `defined`, `freed`: the buffers whose live range starts / ends at the
//   step, by buffer id, names joined by ";".
// Fields are quoted as RFC 4180 says when they hold a comma, a double quote
// or a line break. The max of `default.transient.live_bytes` is the plan's
// transient lower bound (the summary's "activation peak: N bytes live at
// step S" row).
//
// A lifetime CSV may span up to 2^62 steps: a time line longer than
// kDenseProfileSteps gets a row only at step 0 and at the steps where a
// figure changes or a buffer is defined or freed (a row holds until the next).
//
// Example: a weight %w (4096 B) read by the first and last op, activations
// %a, %b (2048 B) and input %x, output %y (1024 B) (docs/formats.md):
//   step,op,default.live_bytes,default.transient.live_bytes,default.constant.live_bytes,
//   default.external.live_bytes,defined,freed            (one line)
//   0,%w = constant,5120,0,4096,1024,x;w,
//   1,%a = matmul,7168,2048,4096,1024,a,x
//   2,%b = relu,8192,4096,4096,0,b,a
//   3,%y = add,7168,2048,4096,1024,y,w;b;y
#pragma once

#include <string>

#include "ir/plan.h"
#include "ir/units.h"
#include "report/summary.h"

namespace memplan {

// Time lines up to this many steps get one row per step.
inline constexpr TimeStep kDenseProfileSteps = TimeStep{1} << 20;

// The profile of `plan` for `input` (plan.placements parallel to
// input.buffers). Deterministic. O((n + rows) log n + rows x columns) for n
// segments.
std::string WriteProfileCsv(const SummaryInput& input, const Plan& plan);

}  // namespace memplan
