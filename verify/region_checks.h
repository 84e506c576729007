// Independent checks of an execution-region plan (Plan::regions, built by
// regions/ and described in ir/region_plan.h). Like verify/verifier.h, this
// shares nothing with the planner beyond the ir/ data types: it re-derives
// what it needs (which buffer holds a value, where a value's data comes from)
// from the Program and the BufferSet.
//
// Rules, checked in this order; the first violation is reported:
//  1. Resources: names unique; each names a pool of the plan in the default
//     space; 0 <= pool.size <= size_bytes; 0 <= start <= end < time_steps;
//     two resources whose time ranges intersect do not share a byte of
//     [pool.offset, pool.offset + size_bytes).
//  2. Slices: the buffer exists, is homed in the resource's pool, appears in
//     exactly one slice of all resources, and has a default-space segment,
//     every one of which is at pool.offset + offset_bytes (a slice has one
//     offset); size_bytes equals the buffer's size;
//     offset_bytes + size_bytes <= the resource's size_bytes; offset_bytes is
//     a multiple of options.offset_alignment for upload, results and slab
//     resources; [start, end] is the buffer's live range and lies within the
//     resource's time range; offset and size evaluated at the program's
//     evaluation point (ir/dims.h) equal offset_bytes and size_bytes. The
//     same evaluation check holds for every resource size (checked before
//     the resource's slices) and, after all slices, every command range's
//     offset and length. An expression mentioning a dim the program does not
//     declare, or overflowing, fails it.
//  3. Command ranges: the resource exists; offset_bytes + length_bytes <=
//     size_bytes; the value is not a timepoint and belongs to a buffer homed
//     in that resource's pool, and the range lies inside that buffer's
//     default-space segment that covers the command's time (absolute address
//     pool.offset + offset_bytes). Every range needs such a value, a
//     barrier's too.
//  4. Timepoints: every non-empty signal is unique (host steps signal "")
//     and every awaited timepoint was signalled by an earlier step; alloca,
//     upload and dealloca steps name an existing resource, and a resource
//     has at most one alloca and at most one dealloca step. Let "step A
//     precedes step B" mean B awaits A's signal directly or through other
//     steps' awaits. Then: an execute step is preceded by the alloca step of
//     every slab or results resource its commands touch and by an upload
//     step of every upload resource they touch; a dealloca step is preceded
//     by every execute step that touches its resource; no command touches a
//     resource in a step after the resource's dealloca step; every slab and
//     results resource has one alloca step before (in step order) any
//     command touches it. Checked in one pass over the steps: a step's
//     awaits and signal, its resource, its commands' resources, then
//     (execute) what must precede it.
//  5. Shadow execution: steps run in order on tagged memory (one interval map
//     per resource, bytes initially untagged). A command's write range stamps
//     its value's tag over the range; a read range requires every byte it
//     covers to carry the tag of a *data source* of its value (below). The
//     commands of one execute step with the same `concurrent` >= 0 form a
//     block that runs at once; inside it, the adjacent commands of one op (a
//     transfer's invalidate, copy and flush) form a unit that runs in order.
//     Two units of a block may not touch a common byte when either writes it
//     (a race); race-free units commute, so the block then runs command by
//     command, each command's reads checked before its writes apply. Data sources of a value v: v itself and,
//     recursively, the data sources of
//       * the operand v is tied to (an in-place write changes part or all of
//         the bytes; the rest still hold the operand's data),
//       * the operand v is a view of (a view holds its source's bytes),
//       * for a computation parameter, the operand(s) passed for it at its
//         call site (execute, call, while, conditional: the args after the
//         predicate); a while's cond and body parameters also take the body
//         result at their position (what later iterations receive),
//       * for a result of execute/call/while/conditional, the callee
//         result(s) at its position; for an X-done result, the X-start's
//         result at its position.
//     Only execute steps form blocks; every other command is a block of its
//     own (its reads still precede its writes). A clobber is reported with
//     both values: "clobber: <command> reads %u at <resource> [a, b) but
//     bytes [c, d) hold %w (written by <command>)"; bytes never written:
//     "uninitialized read: <command> reads ... but bytes [c, d) were never
//     written"; a race: "race in wave N of <step>: <command> writes %w at
//     <resource> [a, b) while <command> reads %u at <resource> [c, d): both
//     touch bytes [e, f)". [c, d) is the first offending run of bytes.
//     Command descriptions name the command kind and the op: "dispatch %t1
//     (op dispatch#3)" (its first result, then opcode#id), "barrier
//     barrier#8" for an op without results, the kind alone ("input") for a
//     command without op; a tag's writer is given without the "(op ...)".
// Cost: O(R log R + S + C log M) for R resources, S slices, C command ranges
// and M tagged intervals, plus the data-source walks (one per distinct
// (value, tag) pair read, each bounded by the value's ancestors on
// tie/view/call chains; cached) and, per execute or dealloca step, a walk
// back over the awaits of the steps since its earliest alloca, upload or
// execute it must await (a few steps in practice).
#pragma once

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// Checks plan.regions (OK when the plan has none) against `program`, the
// buffers it was planned for and the plan's pools and placements. Returns
// OK or FailedPrecondition naming the rule broken, the resources, values,
// commands and byte ranges involved. Deterministic.
absl::Status VerifyRegionPlan(const Program& program, const BufferSet& buffers, const Plan& plan);

}  // namespace memplan
