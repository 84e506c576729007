// The independent plan verifier: checks that a Plan is a valid placement of a
// BufferSet. It shares nothing with the planners beyond the ir/ data types,
// so a planner bug cannot hide behind shared code. Every check is a direct
// restatement of a rule below; the only clever part is the address-overlap
// check, a sweep over time events with one ordered set of live chunks per
// memory space (the live set is disjoint by induction, so a new chunk need only
// be compared with its two neighbours): O(n log n) in allocation segments.
//
// Terms: a *segment* is one Allocation of a buffer: bytes [offset, offset +
// size) of a memory space during the closed time range [start, end]. A buffer's
// *home space* is its pinned space; else the default space, unless the
// default space has no pool named as the buffer's placement and another
// space has (a memory hierarchy homes a buffer's default-memory data in a
// slower level: msa/hierarchy.h), then the first such pool's space. Its
// *home pool* is the pool named by its placement in its home space.
//
// Rules, checked in this order; the first violation is reported:
//  1. Shape: one placement per buffer; plan.time_steps equals the buffer
//     set's; every buffer has size >= 0, alignment >= 1 and
//     0 <= start <= end < time_steps; space ids and (pool name, space) pairs
//     are unique; every declared space has alignment >= 1.
//  2. Segments, buffer by buffer in id order, segment by segment: start <=
//     end; within the buffer's live range — for storage that outlives the run
//     (external, constant, variable lifetimes) from its start up to the last
//     step, since the caller keeps it between runs (an end-of-program
//     prefetch refills fast memory for the next run); in a space the plan declares; in the
//     pinned space if the buffer is pinned; offset >= 0 and offset + size
//     representable; offset a multiple of the buffer's alignment, of
//     plan.alignment, of options.alignment and of its space's declared
//     alignment (SpaceInfo::alignment); offset equal to the buffer's fixed
//     offset (Buffer::fixed_offset, an input constraint) when the segment
//     is in its home space; offset + size <= the capacity of
//     its space in `options.capacity` (when given). Then the buffer's segments
//     cover every time step of its live range, and two segments of the buffer in
//     the same space never share a time step.
//  3. Overlap: no two segments (of different buffers) that share a time step
//     at which both buffers are live and a space share a byte. Intervals are
//     closed in time ([0,1] and [1,2] conflict) and half-open in bytes;
//     zero-size segments never conflict. A buffer is live at every step of
//     its segments unless options.program is given: then the verifier
//     derives on its own, from the program (verify/program_liveness.h), the
//     steps at which none of the buffer's values holds data — a conditional
//     branch that has not yet defined the op's result holds nothing of it,
//     as only the taken branch runs — and the buffer's bytes are free then.
//     The planners' Buffer::gaps are never read, except with
//     options.input_gaps and no program (a lifetime CSV's `gaps` column:
//     then they are the input itself, not derived by a planner, and its
//     bytes are free there); with it, during an occupancy window
//     (Buffer::windows, `L-U@LO:HI`) a segment takes only bytes
//     [offset + LO, offset + HI) (an overlap there is reported with the
//     bytes both hold, e.g. "... at time 3, where both hold bytes [4, 8)").
//     Sub-allocations (rule 13) are left out.
//  4. Async copies, copy by copy: the buffer exists; a prefetch goes from the
//     buffer's home space to another space, an eviction the other way; start <= done,
//     both within the buffer's live range (extended as in rule 2); start < done unless the copy is a
//     cross-program prefetch, listed as a prefetch with start = done = the
//     buffer's start (in a rewritten schedule a step's copy-dones precede its
//     ops and its copy-starts follow them, so a copy done at its start step
//     would complete before it is issued; the cross-program prefetch overlaps
//     the previous run); a prefetch may start at -1 — issued before the op
//     at step 0 — when the buffer starts at step 0 and holds a parameter of
//     the entry computation of options.program (its data exists before the
//     run; without a program this is refused), and then opens a segment
//     beginning at step 0 (below, read start as max(start, 0)); bytes ==
//     the buffer's size (a slice: below); a segment in from_space covers [start, max(start,
//     done - 1)] (the source must stay intact until the copy is done, which
//     is before the ops of step done: so an eviction done at d and another
//     buffer's prefetch started at d may share bytes); a segment in to_space begins exactly at start
//     and lasts at least until done (its chunk is reserved from copy start) —
//     that copy *opens* it — except that an eviction may instead *refresh* a
//     home-space segment that begins earlier and lasts until done (data
//     rewritten in place in the other space goes back to its reserved chunk);
//     no two copies open the same segment. Then a copy whose source segment
//     is opened by another copy starts no earlier than that copy's done (the
//     source holds the data by then); every segment that begins after its
//     buffer's start is opened by a copy; and every use time
//     (Buffer::use_times) inside a non-default-space segment opened by a
//     prefetch is >= that prefetch's done.
//     Sliced prefetches (msa/sliced_prefetch.h): a copy with slice_count
//     n >= 2 is slice slice_index of a group — the prefetches of its buffer
//     into its space done at its done — that has slices 0..n-1 once each,
//     starting in index order, whose non-empty byte ranges (slice_offset,
//     bytes) tile the buffer from byte 0 to its size (in any order);
//     the last slice opens (as above) one segment of the whole buffer
//     starting at its start and lasting until done, no earlier segment of
//     the buffer in that space reaches the first slice's start, and each
//     slice's chunk — [segment offset + slice_offset, + bytes) from its
//     start until the segment begins — shares no byte at any step with a
//     segment of its space or another slice's chunk. An unsliced copy is
//     slice 0 of 1 at byte 0 with bytes == the buffer's size.
//     Block prefetches (msa/block_prefetch.h, AsyncCopy::block): the plan
//     has a block (MsaStats::block) inside the alternate space's capacity;
//     each is a whole-buffer prefetch into alternate memory opening a
//     segment inside the block; two such segments held at a common step
//     share no byte; ordered by done, their starts do not decrease (FIFO
//     issue); no other alternate segment touches the block's bytes.
//  5. Outstanding copies: a copy is outstanding at every time step of its
//     closed range [start, done]; at no time step may more than
//     options.max_outstanding_prefetches prefetches (resp. evictions) be
//     outstanding, when the limit is set.
//  6. Pools: offset >= 0, size >= 0, 0 <= lower_bound <= size, a time range
//     (start and end both or neither) within [0, time_steps), the pool lies
//     within its space's capacity (options and declared); the default
//     space's pools of a lifetime with a limit in plan.pool_capacity (from
//     `--capacity transient=BYTES`) span, lowest offset to highest end, at
//     most that many bytes; two pools of one
//     space share no byte while both exist (a pool without a time range exists
//     for the whole run; a sweep over time, O(P log P)); every buffer's home
//     pool exists and holds every segment of
//     the buffer in the home space (zero-size segments may sit at the pool's
//     end), within the pool's time range; `buffers` and `total_bytes` count
//     the buffers whose home pool it is; `size` is exactly the highest end
//     (offset + size) of a non-empty home-space segment of its buffers minus
//     the pool offset (0 when none) — at least that for a pool with a time
//     range (a region allocation, whose size includes its padding).
//  7. Summary: each SpaceInfo.peak is the highest end of a non-empty segment
//     or pool in that space (0 when none) and is within its declared capacity;
//     the default space's transient pools are the pool "transient" and the
//     pools with a time range and transient lifetime; plan.peak is their
//     extent (highest end minus lowest offset; 0 when none) and
//     plan.lower_bound the lower bound of "transient" when it is the only
//     one, else the max over time of the live bytes of their buffers'
//     home-space segments. A plan
//     with async copies, or with a segment outside its buffer's home space
//     (only memory space assignment moves data between spaces), has MSA
//     statistics. With MSA statistics, their prefetch/eviction counts and byte
//     totals match the copies, and the times are finite, >= 0 and satisfy
//     time_all_fast_s <= estimated_time_s, and estimated_time_s <=
//     time_all_default_s unless time_all_default_fits is false (all in
//     default memory does not fit: no plan can run that way; the flag is
//     taken as given here, and VerifySavedPlan in driver/plan_job.h
//     computes it again on a hierarchy), up to a
//     relative 1e-9 (decimal round trips); time_bound_s, when present, is
//     finite, >= 0 and <= estimated_time_s up to the same slack. Each
//     memory-bound loop (MsaStats::loops) lies within the schedule with at
//     least 3 iterations of at least one step, its steady-state times are
//     finite, >= 0 and <= estimated_time_s, and only a chosen loop reports
//     a time without the loop optimizer.
//  8. Origin: at most one segment of a buffer begins at the buffer's start
//     without a copy opening it — the data is produced (or provided by the
//     caller) in one place, so e.g. a default-memory copy of data produced in
//     the alternate space must come from an eviction.
//  9. Control flow (BufferSet::control_regions): the parts of all regions
//     (a loop's condition and body, a conditional's branches) nest or are
//     disjoint and lie within [0, time_steps). A loop's parts run many times
//     and only one branch of a conditional runs, while the flattened schedule
//     lays them out once, one after another. So every segment that touches a
//     part either stays inside it or covers the whole region from before it
//     (starts before the region's first step and ends at or after its last):
//     a buffer live across an iteration or a conditional is in the same place
//     (space and offset) at the start and end of every iteration or branch as
//     before and after the region. A segment that begins at its buffer's
//     start may also begin inside a branch (a conditional's result, which
//     every branch produces into one place) or at a region's first step (the
//     buffer exists before it, e.g. a parameter). The *exit segment*: a
//     segment whose start lies directly in a loop's body (its innermost part)
//     may end after the loop — rule 4 makes a copy open it, and that copy
//     runs inside the body (below), so every iteration refills it — provided
//     no other segment of its space touches its bytes during the loop's
//     condition, which runs once more after the last iteration. And every
//     copy has its start and done in
//     the same innermost part (or both outside every part): no copy starts
//     outside a loop or branch and completes inside it, or the other way
//     round. Called computations of `call` are straight-line code and no parts.
//     O(segments x nesting depth + time steps + exit segments x segments).
// 10. Writes (only with options.program, which gives each buffer's write
//     steps: its definition and in-place writes by compute and constant ops,
//     verify/program_liveness.h): for every segment outside the home
//     space of an unpinned buffer that covers a write step, let w be its last
//     such step. When the buffer is read later from its home space (a use
//     time after w that no other space's segment covers), or it holds an
//     entry parameter or result (the caller provides and receives its data in
//     its home space), an eviction from that segment must start at or after
//     w. With rule 4 (its source lasts until done - 1), the eviction then
//     completes before that read and within the live range.
// 11. Gathers (only with options.program): for every result r of an op at
//     step t that gathers operands (`gathers(%a, 0, %b, 1024)`: their
//     producers write straight into r's bytes, so the op moves no data):
//     each gathered operand is a value of r's buffer and its slice [offset,
//     offset + size) lies inside r and is disjoint from the others'; the
//     *family* of r — its gathered operands, every value linked to one by a
//     tie or a view of the same size (either direction: the same bytes),
//     and recursively the gathered operands
//     of a member that gathers (a concat of concats) — first holds data at
//     some step f, and the buffer's live range covers [f, t]; and no other
//     value of the buffer holds data at a step of [f, t - 1] (say a loop
//     parameter that r will replace: the producers' writes would clobber
//     it). Steps and holds are re-derived from the program
//     (verify/program_liveness.h). O(sum over gathering results of their
//     buffer's values + family links).
// 12. Slice views (only with options.program): a result of `onnx.Slice`
//     that is a view is a view of the op's first operand (the data); the
//     op's `starts` attribute (the window's first index per dim, as the ONNX
//     importer records it) has the operand's rank, the window [starts,
//     starts + result dims) lies inside the operand's dims and is one
//     contiguous run of it (its first and last elements are as far apart in
//     row-major order as it has elements), the sizes agree with the dims,
//     and the view offset is the first element's index times the element
//     size. A wrong offset would make the op's readers read other bytes of
//     the buffer. O(values x rank).
// 13. Sub-allocations (Buffer::inside, an input constraint: checked before
//     rule 3): a buffer nested inside a container lies inside it — the
//     container is another buffer that is not nested itself; offset >= 0
//     and offset + size <= the container's size; the buffer's live range
//     lies within the container's; each of its segments lies at the
//     container's offset + offset in a segment of the container in the same
//     space that covers its time range, and the container holds all of its
//     bytes at every step of it (no dead step, no occupancy window). Rule 3
//     then leaves the nested buffer out: any segment that meets it meets its
//     container, which rule 3 checks; what is nested inside one container
//     is laid out by whoever addresses the container (e.g. an NPU command
//     stream), not checked against each other. Rule 7 counts a nested
//     buffer's bytes once, as its container's. O(nested x segments).
// 14. Value addresses (only with options.program and plan.value_offsets
//     non-empty): the plan gives every value of the program its bytes from
//     its buffer's first byte, so its address in a segment is the segment's
//     offset plus that; each lies inside its buffer ([offset, offset + size)
//     within the buffer's size); a view's is its source's plus the view
//     offset, a tied result's its operand's, a gathered operand's the
//     gathering result's plus the gather offset, each in the same buffer. A
//     wrong one would send a runtime to another value's bytes. O(values).
// 15. Memory hierarchies (only with options.hierarchy, verify/hierarchy_checks.cc):
//     every space the plan declares or uses is one of the hierarchy's, and
//     its peak lies within the space's capacity there; every copy goes from
//     and to spaces joined by a link, never into a read-only space; a
//     staged copy (AsyncCopy::via, verify/staging_checks.cc) instead has
//     each leg (from -> via, via -> to) on a link, its chunk [via offset,
//     + bytes) over [max(start, 0), done] in a writable level, at a
//     multiple of the space's and the plan's alignment, within the level's
//     capacity, counted in its space's peak (rule 6) and sharing no byte at
//     a common step with a segment, window chunk or other staged chunk
//     there (without options.hierarchy a staged copy is refused); at no
//     time step are more copies outstanding on a link (closed [start, done];
//     a staged copy on each of its two) than its max_outstanding. With options.program too: every access of
//     an op (numbered as in verify/program_liveness.h) to a buffer is served
//     from a space the op's device (its affinity, else "host") may access —
//     the buffer's segment outside its home space covering that step if
//     any, else its home segment — and no compute op writes a buffer while
//     one of its segments in a read-only space covers that step.
//     O(operands x log segments + copies log copies).
// 16. Window prefetches (Plan::window_prefetches, msa/window_prefetch.h;
//     verify/window_checks.cc, checked after rule 4): each names a buffer;
//     its space is a declared space other than the default; 0 < bytes <=
//     the buffer's size; its chunk [offset, offset + bytes) starts at a
//     multiple of the space's, the plan's and options.alignment and ends
//     within the space's capacity (options.capacity, else SpaceInfo's);
//     the buffer's start <= start < done <= the buffer's end; a default-
//     space segment of the buffer covers [start, done - 1] (the source);
//     with options.program, operand `operand` of op `op` is a value of the
//     buffer and the op runs at step `done` (numbered as in
//     verify/program_liveness.h), so the copy is done before it. The chunk,
//     reserved over [start, done], shares no byte at a common step with a
//     segment of the space (any buffer, whether live or not), a sliced
//     prefetch's early chunk (rule 4) or another window. Rule 7 counts the
//     chunks in the space's peak and the MSA statistics' window_prefetches
//     and window_prefetch_bytes. O(windows x (segments + copies + windows)).
// Together, rules 2, 4 and 8 make every read find its data: a segment holds
// the data from its start if it is the origin, else from the done of the copy
// opening it; a copy's source covers [start, done - 1] and already holds the data
// at start; uses inside a prefetched segment wait for the prefetch; and during
// an eviction its source still holds the data. With a program, rule 10 adds
// that data written outside the default space is evicted after the write
// when the default copy is needed again (a refreshing eviction is how a plan
// writes such data back). Not checked: a prefetch made stale by a later
// write in the default space (the MSA planner never writes a buffer's
// default copy while a prefetched copy is in use).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// The rules of a memory hierarchy (rule 15), as the driver states them from
// its target (msa/target.h), in the verifier's own terms.
struct HierarchySpaceRule {
  MemorySpace id = kDefaultSpace;
  std::string name;
  Bytes capacity = 0;
  bool writable = true;
  std::vector<std::string> devices;  // empty or "*": every device
};
struct HierarchyLinkRule {
  MemorySpace from = kDefaultSpace;
  MemorySpace to = kAlternateSpace;
  std::optional<std::int64_t> max_outstanding;
};
struct HierarchyRules {
  std::vector<HierarchySpaceRule> spaces;
  std::vector<HierarchyLinkRule> links;
};

struct VerifyOptions {
  // Capacity in bytes of each listed memory space; unlisted spaces are unbounded.
  std::map<MemorySpace, Bytes> capacity;
  // Every offset must be a multiple of this (values < 1 mean 1).
  Bytes alignment = 1;
  // Limits on copies outstanding at one time step (rule 5); unset: no limit.
  std::optional<std::int64_t> max_outstanding_prefetches;
  std::optional<std::int64_t> max_outstanding_evictions;
  // The program the buffers were analysed from, if any: rule 3 then lets a
  // buffer's bytes be reused at the steps where it holds no data. Null: every
  // buffer is live over its whole segments (CSV input; conservative).
  const Program* program = nullptr;
  // Without a program: the buffers' dead gaps (Buffer::gaps) and occupancy
  // windows (Buffer::windows) are part of the input — a lifetime CSV's `gaps`
  // column — so rule 3 frees their bytes there.
  bool input_gaps = false;
  // The plan is on a memory hierarchy: rule 15 applies.
  std::optional<HierarchyRules> hierarchy;
};

// Checks `plan` against `buffers` and `options` (rules above). Returns OK, or
// FailedPreconditionError whose message names the first violated rule with
// the buffers (name and id), segments (space, byte range, time range), times
// and copies involved. Deterministic: the same inputs give the same message.
absl::Status VerifyPlan(const BufferSet& buffers, const Plan& plan,
                        const VerifyOptions& options = {});

// The payload type under which a violation status carries the id of the
// buffer it is about (decimal text); read it with ViolationBuffer.
inline constexpr char kViolationBufferPayload[] = "memplan/verify/buffer";

// The buffer a violation returned by VerifyPlan is about, when it is about
// one buffer's segment: rule 2's checks of a segment (its time range, space,
// offset, alignment, fixed offset, capacity) and rule 3's overlaps (the
// buffer named first, whose segment met the other's bytes); nullopt for
// other violations and for OK. A caller can then point at that buffer in its
// input, e.g. a CSV solution's row (driver/csv_solution.h).
std::optional<BufferId> ViolationBuffer(const absl::Status& status);

}  // namespace memplan
