// Memory space assignment (XLA MSA, msa.md §3): decides which buffers — or
// which use segments of a buffer — live in the small fast alternate memory,
// at which offset, and which async copies (prefetch default->alternate,
// eviction alternate->default) move them, under a cost model.
//
// Result conventions (shared with the driver, the verifier, the simulator
// and the rewrite):
//  * `needs_default[b]` is true iff default memory holds b's data at some
//    step. Its default chunk spans from the first such step — b's start,
//    unless b is produced in alternate memory, else the first eviction's
//    start — to the end of b's live range; the default-space packer places
//    it (driver/pools.h), not this pass. Buffers pinned to a space >= 2 are
//    left to the driver (no alternate segments, needs_default false).
//  * `alternate[b]` lists buffer b's alternate-memory segments
//    {space = 1, offset, start, end}, sorted and never sharing a step: the
//    chunk is reserved over the closed range [start, end]. A segment starts
//    at the buffer's start (produced in fast memory, pinned there, reserved
//    scoped memory, or the cross-program prefetch below) or at the start of
//    the prefetch that fills it — at step 0 for a prefetch issued before the
//    first op (start -1, below).
//  * A copy with start s and done d is issued after the op at time s and
//    completes before the op at time d (s < d); ops at time >= d may read it.
//    A copy's source segment stays reserved through d - 1 (at least through
//    s): the copy is done before any op of step d runs, so an eviction done
//    at d and another buffer's prefetch started at d (issued after the op at
//    d) may share a chunk. Both times are steps of the computation that owns
//    the buffer's ops, except that an entry parameter's prefetch may start at
//    -1: issued before the op at time 0, as its data exists before the run
//    (only when step 0 belongs to the computation that awaits the copy).
//  * Entry parameters and results are written in default memory, except
//    that an in-place write may happen in alternate memory when an eviction
//    started after it restores the default copy before the next read from
//    default memory and before the live range ends (msa/problem.h).
//  * An op at time t reads/writes buffer b in alternate memory iff an
//    alternate segment of b covers t; otherwise in default memory. Every
//    step of a prefetched segment before its done is one at which no op
//    touches b, so no op ever waits on data that is not there.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "msa/cost_model.h"
#include "msa/loop_optimizer.h"
#include "msa/sliced_prefetch.h"

namespace memplan {

enum class PickerKind { kCostAnalysis, kInstructionCount };
enum class MsaMode {
  kReference,  // behaves like the reference XLA pass
  kDefault,    // memplan's improvements on top; never slower (simulated)
};

// A user-forced memory space (the reference's buffer colorings, msa.md §5
// row 9): value `value` (its whole buffer) or, when `user` is set, only the
// reads of it by the op named `user` (Program::OpName) must be served from
// `space` (kDefaultSpace or kAlternateSpace). Example: {"w", "", 1} keeps
// w's buffer in alternate memory for its whole live range; {"x", "y", 0}
// serves y's read of x from default memory.
struct MsaPin {
  std::string value;
  std::string user;
  MemorySpace space = kDefaultSpace;
};

struct MsaOptions {
  Bytes fast_memory_bytes = 0;                 // alternate-memory capacity
  Bytes alignment = 1;                         // alternate-memory offset alignment
  MsaMode mode = MsaMode::kDefault;
  PickerKind picker = PickerKind::kCostAnalysis;
  // Instruction-count picker (overlap in ops).
  std::int64_t min_overlap_ops = 2;
  std::int64_t max_overlap_ops = 10;
  // Cost-analysis picker (ratios of overlapped compute to copy time).
  double min_overlap_ratio = 0.8;
  double preferred_overlap_ratio = 1.5;
  double max_overlap_ratio = 10.0;
  std::int64_t max_outstanding_prefetches = -1;  // -1: unlimited
  std::int64_t max_outstanding_evictions = -1;   // -1: unlimited
  bool enforce_prefetch_fifo = false;            // no copy nested inside another
  std::int64_t max_retries = 1;
  // Repacks per allocator run; nullopt: automatic (none in the reference
  // run, up to 4 in kDefault's portfolio-repack variant). 0 means no
  // repacking in any variant.
  std::optional<std::int64_t> max_repacks;
  bool cross_program_prefetch = true;
  bool cross_program_prefetch_freeing = true;
  // ECMAScript regular expression; buffers with a value whose whole name
  // matches are allocated before every other buffer (in the configured
  // order among themselves), as the reference's sort-order override
  // "assign first" (msa.md §5 row 5). Empty: no override.
  std::string assign_first;
  // The reference's inefficient_use_to_copy_ratio (msa.md §3 step 7): an
  // alternate segment that async copies fill or drain is inefficient when
  // the bytes its ops access there are below ratio x the bytes copied
  // (buffer size per copy); its accesses are then served from default
  // memory and the buffer is walked again. 0: off (the reference default).
  double inefficient_use_to_copy_ratio = 0;
  std::vector<MsaPin> pins;
  // Sliced prefetch (msa/sliced_prefetch.h). Reference mode slices only when
  // max_slices is given (>= 2), default mode also tries variants sliced into
  // kDefaultMaxSlices when it is not given (0 or 1: none).
  SlicedPrefetchOptions sliced_prefetch;
  // Window prefetch (msa/window_prefetch.h): window size in bytes, 0: none
  // given. Reference mode places windows after its pass wherever the rule
  // of msa/window_prefetch.h allows (unless the plan would then be slower
  // than default memory alone); default mode adds them to its chosen plan
  // only when that simulates strictly faster (variant suffix "+window-W").
  Bytes window_prefetch_bytes = 0;
  // With no window size given, default mode tries the sizes of
  // AutoWindowSizes (msa/window_prefetch.h) in the same way; false: it does
  // not (the CLI's --window-prefetch, any value, turns this off).
  bool auto_window_prefetch = true;
  // Block prefetching (msa/block_prefetch.h): bytes of alternate memory to
  // reserve for weights prefetched in FIFO order; 0: none given. Reference
  // mode then plans with the block; default mode tries it as extra
  // variants, which win only when strictly faster.
  Bytes block_prefetch_bytes = 0;
  // With no block size given, default mode tries a block of AutoBlockSize
  // (msa/block_prefetch.h) in the same way, after its other variants and
  // only when the block would take a weight the fastest of them without
  // the loop optimizer reads from default memory (BlockWouldTakeDefaultReads);
  // false: it does not (the CLI's --block-prefetch, any value, turns this off).
  bool auto_block_prefetch = true;
  // Memory-bound loop optimizer (msa/loop_optimizer.h): find an unrolled
  // loop of at least loop_optimizer_min_iterations (>= 3) iterations and
  // plan its steady state. Reference mode then plans with its preferences;
  // default mode tries them as extra variants, which win only when
  // strictly faster.
  bool loop_optimizer = false;
  std::int64_t loop_optimizer_min_iterations = 3;
  // Without loop_optimizer, default mode still runs its loop variants when
  // a loop is found, kept only when strictly faster; false: it does not
  // (--no-loop-optimizer).
  bool auto_loop_optimizer = true;
};

// What the memory-bound loop optimizer found and what it did.
struct LoopReport {
  DetectedLoop loop;
  std::array<std::int64_t, kLoopValueClasses> counts{};  // buffers per LoopValueClass
  std::int64_t preferred_buffers = 0;  // buffers the optimizer chose (LoopPlan::order)
  Bytes steady_state_bytes = 0;        // LoopPlan::steady_state_bytes
  bool chosen = false;                 // the kept result was planned with its preferences
  // The kept result's steady-state iteration (SteadyStateIterationSeconds),
  // seconds, and, when chosen, that of the fastest result planned without
  // the optimizer (reference mode: the reference run without it).
  double steady_state_iteration_s = 0;
  std::optional<double> steady_state_without_s;
};

// The entry parameter prefetched across program runs (msa.md §3 step 4). Its
// data arrives in alternate memory before the run (the copy overlaps the
// previous run, as XLA's runtime issues it), so its alternate segment starts
// at the buffer's start and no entry in MsaResult::copies opens it. After
// its last read the chunk is held again during [reserved_from,
// time_steps - 1] so the next run finds the data resident, in one of two
// ways:
//  * kept (freed = false, reserved_from = last read + 1): a reservation
//    outside the buffer's live range, reported only here (no other chunk
//    overlaps it);
//  * freed after the last read and refilled (freed = true): the
//    end-of-program prefetch is a real copy in MsaResult::copies over
//    [reserved_from, time_steps - 1] opening an alternate segment of the
//    buffer over the same range — after the buffer's live range, which the
//    verifier allows for buffers that outlive the run (verify/verifier.h).
//    It counts against max_outstanding_prefetches like any prefetch.
struct CrossProgramPrefetch {
  BufferId buffer = kNoId;
  Bytes offset = 0;
  TimeStep reserved_from = 0;
  bool freed = false;
};

struct MsaResult {
  std::vector<std::vector<Allocation>> alternate;  // per BufferId, by start
  std::vector<bool> needs_default;                 // per BufferId
  std::vector<AsyncCopy> copies;                   // sorted by (start, done, buffer)
  Bytes alternate_peak = 0;                        // max offset + size in alternate memory
  std::string mode;                                // "reference" or "default"
  std::string variant;                             // which allocator variant produced it
  std::optional<CrossProgramPrefetch> cross_program_prefetch;
  std::vector<WindowPrefetch> window_prefetches;   // msa/window_prefetch.h, by (done, op, operand)
  // The block of block prefetching when the result uses one (its copies
  // have AsyncCopy::block set); nullopt otherwise.
  std::optional<PrefetchBlock> block = std::nullopt;
  // With MsaOptions::loop_optimizer, the loop it found (nullopt: none);
  // with the automatic try alone, the loop only when its variant was kept.
  std::optional<LoopReport> loop = std::nullopt;
};

// Assigns memory spaces (see the top of this file and msa/allocator.h for
// the algorithm). kReference runs the reference algorithm once. kDefault
// runs it and memplan's variants — copies only where the modelled DMA queue
// can finish them in time (msa/copy_bandwidth.h), other buffer orders,
// fragmentation-aware prefetch starts (openxla/xla #45289), repacking with
// the portfolio packer, without the cross-program prefetch, and a copy-free
// assignment — and keeps the result
// with the lowest simulated run time (msa/simulator.h; ties: fewer copies,
// then the earlier variant). So kDefault is never slower than kReference.
// Unless options.sliced_prefetch.max_slices is 0 or 1, kDefault also runs
// the reference configuration and its two strongest copy-bandwidth variants
// with sliced prefetches (msa/sliced_prefetch.h; suffix "-sliced-N"), which win only when strictly
// faster. kReference slices only when max_slices >= 2 is given.
// With window_prefetch_bytes > 0, window prefetches (msa/window_prefetch.h)
// are planned on the kept result last (after the fallbacks below): in
// kReference unless they make it slower than default memory alone, in
// kDefault only when they make its simulation strictly faster (the variant
// name then ends in "+window-W"). With window_prefetch_bytes 0 and
// auto_window_prefetch, kDefault tries each of AutoWindowSizes so and keeps
// the fastest strictly faster one (ties: the earlier size). When kDefault
// kept a block variant, windows are planned on the fastest result without
// the block too, and that one is kept if then strictly faster.
// With block_prefetch_bytes > 0 (msa/block_prefetch.h), kReference plans
// with the block; kDefault also runs the reference configuration and its
// two strongest copy-bandwidth variants with it (suffix "-block-B"), which
// win only when strictly faster. With block_prefetch_bytes 0 and
// auto_block_prefetch, kDefault runs those three with a block of
// AutoBlockSize after its other variants, when BlockWouldTakeDefaultReads
// holds for the fastest of them without the loop optimizer (never above
// 20000 buffers, nor with max_outstanding_prefetches >= 0 or
// enforce_prefetch_fifo).
// With loop_optimizer, a loop found in the entry computation
// (msa/loop_detect.h) is planned by msa/loop_optimizer.h: kReference plans
// with its preferences (and once without, for LoopReport's comparison);
// kDefault runs the reference configuration and its two strongest
// copy-bandwidth variants with them (suffix "-loop"), which win only when
// strictly faster. MsaResult::loop reports the loop either way. Without
// loop_optimizer, kDefault with auto_loop_optimizer does the same but
// reports the loop only when a "-loop" variant is kept.
// In both modes, when the kept result simulates slower than keeping
// everything in default memory (TimeAllDefault), it is replaced by the
// copy-free residency of the reference order if that is not slower, else by
// the empty assignment (only buffers pinned to alternate memory there); the
// variant then starts with "copy-free" or "empty". So no mode ever reports
// a plan slower than no fast memory.
//
// Buffers that cross into or out of `while`, `call` and `conditional` are
// planned under the rules of msa/control_scopes.h (a segment stays inside
// a loop part or branch, or covers the whole region from before it; no
// copy crosses a part's bounds; a conditional's result is produced at one
// offset by every branch). Buffers that reach into an execution region or
// are touched by async start/done ops stay in default memory
// (msa/problem.h lists every rule).
//
// User overrides (msa/user_overrides.h): assign_first buffers are allocated
// first; pins force spaces. A use pinned to alternate memory must be served
// there by the kept result (variants that do not are skipped), and such a
// plan is kept even when slower than default memory alone.
//
// Errors: InvalidArgument for bad options (negative fast memory, alignment
// < 1, negative overlap counts or min > max, ratios not 0 < min <= preferred
// <= max, max_retries < 1, negative max_repacks, a negative or non-finite
// inefficient ratio, negative sliced-prefetch counts or sizes, a negative
// window size, a loop optimizer minimum below 3 iterations, a block size
// given with max_outstanding_prefetches >= 0 or enforce_prefetch_fifo) and bad
// overrides (an invalid regex, a pin naming no value or op, or one that can
// never be honoured); ResourceExhausted when a
// buffer or use pinned to alternate memory cannot be placed there.
// The allocator variants kDefault runs after the reference run, by name,
// each with the repacks it may do under `options` (for tests and tools):
// max_repacks when given, else 0 — except up to 4 in the portfolio-repack
// variant, which is left out when max_repacks is given as 0; the sliced
// variants never repack (0). The loop variants are listed only with
// loop_optimizer (automatically they run only when a loop is found), the
// block variants only with block_prefetch_bytes > 0 (automatically they
// run only when the gate above holds).
std::vector<std::pair<std::string, std::int64_t>> DefaultModeRepackBudgets(
    const MsaOptions& options);

absl::StatusOr<MsaResult> AssignMemorySpaces(const Program& program,
                                             const ProgramAnalysis& analysis,
                                             const CostModel& cost, const MsaOptions& options);

}  // namespace memplan
