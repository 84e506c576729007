// Independent checks of an execution-region plan (Plan::regions, built by
// regions/ and described in ir/region_plan.h). Like verify/verifier.h, this
// shares nothing with the planner beyond the ir/ data types: it re-derives
// what it needs (which buffer holds a value, where a value's data comes from)
// from the Program and the BufferSet.
//
// Happens-before (HB) over the host steps: step A happens before step B
// when B awaits A's signal, when A is a kHost step before B (host code runs
// synchronously: it is done before any later step is issued), or through a
// chain of such edges. HB implies step order. Resource time ranges are the
// planner's claim about the flattened program order, which regions that may
// run at once (neither awaits the other) do not follow, so rules 4 and 5
// order memory by HB.
//
// Rules, checked in this order; the first violation is reported:
//  1. Options and resources: options.pack is one of auto, best-fit-spatial,
//     best-fit-temporal, best-fit-busiest, best-fit-start-time, in-order,
//     skyline-longest, skyline-area, skyline-crowded, skyline-local-search,
//     skyline-window-search,
//     online-best-fit, naive (the packing algorithm names; packing/ is not linked here, a CLI
//     test keeps the list in step); offset_alignment and range_alignment
//     lie in [1, 2^32]. Resource names are unique; each names a pool of the
//     plan in the default space; 0 <= pool.size <= size_bytes;
//     0 <= start <= end < time_steps; two resources whose time ranges
//     intersect do not share a byte of [pool.offset, pool.offset +
//     size_bytes) (the planner's claim; rule 4 checks the truth).
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
//     declare, or overflowing, fails it. After a resource's size: an upload,
//     results or slab resource's size_bytes is a multiple of
//     options.range_alignment; with options.max_allocation_size set, its
//     size at the planning point (where the planner splits) is at most the
//     limit unless it is over_limit; an over_limit resource exceeds the
//     limit there and holds exactly one slice; without the option none is
//     over_limit. After all slices: every buffer homed in the pool of an
//     upload, results or slab resource (placements[b].pool is its name) is
//     in a slice of it. A view at an offset given by dims (`view(%x,
//     align(%n, 64))`) in a slice's buffer ends, for every binding of the
//     dims within their bounds, inside the slice's symbolic size: its offset
//     is its operand's plus its expression (a tied result's is its
//     operand's, a parameter's its argument's, a call or execute result's
//     its callee's returned value's; any other value's is its
//     symbolic_value_offsets entry, else its value_offsets entry).
//  3. Command ranges: the resource exists; offset_bytes + length_bytes <=
//     size_bytes; the value is not a timepoint and belongs to a buffer homed
//     in that resource's pool, and the range lies inside that buffer's
//     default-space segment that covers the command's time (absolute address
//     pool.offset + offset_bytes). Every range needs such a value, a
//     barrier's too, except a *scratch range* (value == kNoId, an op's
//     scratch buffer "<op>.scratch"): it lies inside the default-space
//     segment, covering the command's time, of a buffer without values
//     homed in that resource's pool. Before the value: a resource listing
//     the devices that may access its space (Resource::devices, a slab in a
//     fast level of a hierarchy target) admits the device running the step
//     (an execute's region's affinity; "host" for host steps and regions
//     without one; "*" admits every device).
//  4. Timepoints: every non-empty signal is unique (host steps signal "")
//     and every awaited timepoint was signalled by an earlier step; alloca,
//     upload and dealloca steps name an existing resource, and a resource
//     has at most one alloca and at most one dealloca step. In step order, a
//     step whose commands touch a resource (execute, upload, host) comes
//     before the resource's dealloca step and, for a slab or results
//     resource, after its alloca step; an alloca step comes after no
//     dealloca or touch of its resource. In HB: a resource's alloca step
//     happens before every step touching it and before its dealloca step;
//     every step touching a resource happens before its dealloca step; an
//     execute step is preceded by an upload step of every upload resource
//     it touches. Checked in one pass over the steps (a step's awaits and
//     signal, its resource, its commands' resources); then every slab and
//     results resource has an alloca step. Last, memory reuse: two
//     resources whose bytes [pool.offset, pool.offset + size_bytes)
//     intersect are ordered, i.e. one's dealloca step happens before the
//     other's alloca step; a resource without alloca and dealloca steps
//     (program pools, uploads, persistent reservations) shares bytes with no
//     other. Reported as "X (bytes [a, b)) and Y (bytes [c, d)) share bytes
//     [e, f) but neither is released before the other is allocated: step 7
//     (alloca Y) does not wait for step 5 (dealloca X)" (X before Y in
//     resource order; the order named is the one whose release comes before
//     the allocation in step order, else X's release first), or, when no
//     order is possible, ": X has no alloca or dealloca step", ": neither
//     has a dealloca step", ": neither has an alloca step".
//  5. Shadow execution: steps run in order on tagged memory (one interval map
//     per resource, bytes initially untagged). A command's write range stamps
//     its value's tag over the range; a read range requires every byte it
//     covers to carry the tag of a *data source* of its value (below),
//     written by a command of the reading step or of a step that happens
//     before it. A write range requires the bytes' last write and every read
//     of them since to be of the writing step or of steps that happen before
//     it (else the other step may still be using the bytes). Scratch ranges
//     neither stamp nor read tags. The
//     commands of one execute step with the same `concurrent` >= 0 form a
//     block that runs at once; inside it, the adjacent commands of one op (a
//     transfer's invalidate, copy and flush) form a unit that runs in order.
//     Two units of a block may not touch a common byte when either writes it
//     (a race; scratch ranges count); race-free units commute, so the block
//     then runs command by command, each command's reads checked before its
//     writes apply. Data sources of a value v: v itself and,
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
//     written" (except for a value holding an `alloca`'s storage, through
//     ties and views: its bytes are scratch, and any bytes no source of it
//     wrote may be read); data of an unordered step: "unordered read: <command> reads
//     %u at <resource> [a, b), written by <command> in step N, which step M
//     does not wait for"; writing over data of an unordered step:
//     "unordered write: <command> writes %v at <resource> [a, b) over %w,
//     written by <command> in step N, which step M does not wait for", or
//     "..., read by <command> in step N, which ..." (writes before reads); a
//     race: "race in wave N of <step>: <command>
//     writes %w at <resource> [a, b) while <command> reads %u at <resource>
//     [c, d): both touch bytes [e, f)". [c, d) is the first offending run of
//     bytes. Command descriptions name the command kind and the op:
//     "dispatch %t1 (op dispatch#3)" (its first result, then opcode#id),
//     "barrier barrier#8" for an op without results, the kind alone
//     ("input") for a command without op; a tag's writer is given without
//     the "(op ...)"; a scratch range reads "scratch at <resource> [a, b)".
//  6. Captured copies (checked after rule 3; RegionInfo::copies): each copy
//     names a parameter of its region with storage, its bytes equal the
//     value's size, from_space is the default space; its resource is a slab
//     of that region outside the default space, to_space is the slab's
//     space, the region's device may access it (Resource::devices), the
//     value is not homed in it; [offset_bytes, offset_bytes + bytes) lies
//     in the slab and offset_bytes is a multiple of options.offset_alignment;
//     its steps [step, last_read] lie in the slab's time range; no slice of
//     the slab live at one of those steps, and no other copy into it live
//     then, shares a byte with it (the fast copy is a second segment of the
//     value, in the fast space). Exactly one copy command of the region's
//     execute step, at the copy's step, writes exactly the fast range
//     (second range) after reading all of the value's home range in the
//     pool its buffer is homed in (first range); every other range of the
//     value in the fast range is a read of the same execute step after the
//     copy command, at a step within [step, last_read]. Rule 3 accepts a
//     range of the value inside the fast range; rule 5 then runs the copy
//     like any copy command (its write stamps the value's tag). Reported as
//     "region rule 6 (captured copies): region @r copy 0 (%w): ...".
// Cost, for R resources, S slices, C command ranges, M tagged intervals, N
// steps of which N' are not host steps, and A awaits:
//  * rules 1-3: O(R log R + S + C log M), plus per scratch range a binary
//    search and a scan of the resource's scratch segments starting within
//    the longest one's live range before the command (those starting at its
//    time, for scratch that lives at its op only);
//  * HB: per step, the set of non-host steps before it that happen before
//    it (a host step happens before every later step, so needs no entry),
//    built in step order: O((N + A) * N' / 64) time; each set is a bitset
//    or sorted runs of steps, whichever is smaller, so memory is at most
//    about N * N' / 16 bytes (a triangle of bits) and O(N) for plans whose
//    steps mostly follow each other (200k steps of a region pipeline: under
//    70 MB with the steps themselves); O(log N') per query;
//  * memory reuse: a sweep over resources sorted by offset with the set of
//    those still extending past the current one: O(R log R + P) for P
//    byte-sharing pairs, which is O(R^2) when many allocations reuse one
//    address range;
//  * rule 5: the data-source walks (one per distinct (value, tag) pair read,
//    each bounded by the value's ancestors on tie/view/call chains; cached),
//    and per range the pending reads of its bytes (reads since their last
//    write, pruned to those no other happens before).
#pragma once

#include <cstddef>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// Where a violation lies when it concerns one command (rule 2's range
// sizes, rule 3, rule 4's touch of a released or unallocated resource, rule
// 5): steps[step].commands[command], so a caller can point at the op; when
// it concerns one value (rule 2's subview at an offset given by dims that
// leaves its slice): `value`, so a caller can point at its definition.
struct RegionFailureSite {
  std::size_t step = 0;
  std::size_t command = 0;
  bool has_command = false;
  ValueId value = kNoId;
};

// Checks plan.regions (OK when the plan has none) against `program`, the
// buffers it was planned for and the plan's pools and placements. Returns
// OK or FailedPrecondition naming the rule broken, the resources, values,
// commands and byte ranges involved. Deterministic. `site`, when given, is
// reset and then filled for a violation that concerns one command or one
// value.
absl::Status VerifyRegionPlan(const Program& program, const BufferSet& buffers, const Plan& plan,
                              RegionFailureSite* site = nullptr);

}  // namespace memplan
