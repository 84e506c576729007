// Window prefetch (XLA's window prefetch: MsaOptions::window_prefetch_detail_fn
// and the reserved scoped allocations of memory_space_assignment/algorithm.cc).
// An op that reads a large operand piecewise (a matmul or convolution
// streaming its weight tile by tile) need not hold the whole operand in fast
// memory: a window of it — a fixed number of bytes — is exposed in reserved
// scoped alternate memory for that op, and the operand's window is prefetched
// into it ahead of the op, so the op's reads of that window come from fast
// memory.
//
// memplan's model (a post-pass over a finished assignment, MsaResult):
//  * candidates: every compute op at step t, in flattened schedule order,
//    and each of its operand positions in order whose buffer b is larger
//    than the window (size > window_bytes), may have windows at all
//    (MsaBuffer::windowable: a buffer too large for fast memory may), is
//    read but not written at the op's step (its MsaProblem access at t is
//    neither a write nor a control-flow read), has no
//    alternate segment starting at or before t (its data is in default
//    memory until then) and is not windowed already for that op;
//  * cost: the op reads operand i's bytes (CostModel::OperandBytesAccessed)
//    uniformly, so a window of W bytes of an S-byte operand serves W / S of
//    them from alternate memory; the op's time is
//    CostModel::OpElapsedWithAlternateBytes(op, bytes of its positions in
//    alternate memory + sum over its windows of W / S x operand bytes). A
//    window is placed only where it makes the op strictly faster;
//  * copy: W bytes on the DMA queue (CostModel::CopySeconds(W)), done at t
//    (before the op) and started at the latest step s < t, s >= max(0, b's
//    start), whose overlap CostModel::ElapsedBetween(s, t) covers the copy,
//    else at the earliest such step; every step in [s, t] must run only ops
//    of the entry computation (no copy crosses into a loop, call or branch);
//  * chunk: [offset, offset + W) of alternate memory reserved over [s, t],
//    the lowest offset that is a multiple of `alignment`, lies within
//    `fast_memory_bytes` and meets no alternate segment (buffer sizes
//    rounded up to `alignment`), no sliced prefetch's early reservation, no
//    cross-program prefetch reservation and no earlier window over [s, t]
//    (first fit); no window when none fits.
//
// Differences from XLA (docs/msa.md "Window prefetch"): XLA asks the backend
// (window_prefetch_detail_fn) which operands of which fusions get windows
// and how large, adds the window buffer as an extra operand of the fusion
// and allocates it in the reserved scoped memory before the main pass;
// memplan picks operands by the rule above, places windows after the main
// pass into memory the plan left free, and models the op's gain by the
// fraction of bytes above. Windows are not counted against
// --max-outstanding-prefetches.
//
// Minimum gain (AddWindowPrefetches, msa/assignment.cc): default mode keeps
// a size's windows only when the simulated plan with them takes less than
// (1 - 1e-6) x its time without them; a smaller gain (e.g. 1-byte windows
// under a 3-byte fast memory) leaves the plan without windows, fewer copies.
// Reference mode with --window-prefetch keeps its own rule (not slower than
// default memory alone).
#pragma once

#include <array>
#include <span>
#include <vector>

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/problem.h"

namespace memplan {

// The window prefetches for `result` (copies sorted by start), by the rule
// above, sorted by (done, op, operand). Empty when window_bytes <= 0.
// O(candidates x (chunks overlapping in time) log) with chunks = segments,
// slices and windows placed.
// Example (tests/msa/scenario_window_prefetch_test.cc): a 256-byte weight
// read by a matmul at step 3 after three negations, 96 bytes of fast memory
// (activations at bytes [0, 32)), copies at 1e11 B/s, window 64: one window
// of 64 bytes at offset 32, its 0.64 ns copy issued after step 1 (the
// negation at step 2 takes 3.2 ns in default memory) and done at step 3.
std::vector<WindowPrefetch> PlanWindowPrefetches(const Program& program,
                                                 const ProgramAnalysis& analysis,
                                                 const CostModel& cost, const MsaProblem& problem,
                                                 const MsaResult& result, Bytes window_bytes,
                                                 Bytes fast_memory_bytes, Bytes alignment);

// Default mode's window sizes when none is given (MsaOptions::
// auto_window_prefetch): fast memory / each divisor, in this order, sizes
// below 1 byte left out: a large window where the plan leaves room for it,
// smaller ones where it does not. The set of at most three of fast memory
// / 2, 4, 8, 16, 32 with the most mean captured speed-up over all 120 rows
// of bench/msa_table.sh (docs/msa.md "Window prefetch").
inline constexpr std::array<Bytes, 3> kAutoWindowDivisors = {2, 4, 8};
std::vector<Bytes> AutoWindowSizes(Bytes fast_memory_bytes);

// Seconds of one execution of `op` with the listed operand / result
// positions in alternate memory and `windows` (those whose op is `op`) read
// through their windows: OpElapsedWithAlternateBytes of the positions'
// bytes plus each window's bytes / buffer size x its operand's bytes
// accessed (`buffers`: the program's buffers, by BufferId; a window of an
// empty buffer counts 0). Equals CostModel::OpElapsed when `windows` is
// empty.
double WindowedOpElapsed(const CostModel& cost, OpId op, std::span<const int> operands_in_alternate,
                         std::span<const int> results_in_alternate,
                         std::span<const WindowPrefetch* const> windows,
                         const std::vector<Buffer>& buffers);

}  // namespace memplan
