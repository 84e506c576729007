// A memory plan: where every buffer lives (space, offset) over its live range,
// which async copies move it, and summary figures. Produced by the planners
// (packing/, msa/), checked by verify/, written and read by report/plan_json.h.
// Offsets are absolute within their memory space; pools of one space are laid
// out one after another (pool offset + offset inside the pool).
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/region_plan.h"
#include "ir/packing_report.h"
#include "ir/pool_name.h"
#include "ir/small_vector.h"
#include "ir/units.h"

namespace memplan {

// One residency segment: the buffer occupies [offset, offset + size) of
// `space` during the closed time range [start, end].
struct Allocation {
  MemorySpace space = kDefaultSpace;
  Bytes offset = 0;
  TimeStep start = 0;
  TimeStep end = 0;
  bool operator==(const Allocation&) const = default;
};

// One per buffer: 48 bytes, the allocation of a buffer without fast memory
// in place (ir/small_vector.h) and the pool name shared (ir/pool_name.h).
using AllocationList = SmallVector<Allocation, 1>;
struct BufferPlacement {
  PoolName pool;                       // pool name, e.g. "transient"
  AllocationList allocations;          // one for plain packing, more with MSA
};
static_assert(sizeof(void*) != 8 || sizeof(BufferPlacement) == 48);

enum class CopyKind : std::uint8_t { kPrefetch, kEviction };

// An asynchronous copy (copy-start at `start`, copy-done at `done`) of
// `bytes` bytes. A slice of a sliced prefetch (msa/sliced_prefetch.h) moves
// the buffer's bytes [slice_offset, slice_offset + bytes) only: slice
// `slice_index` of `slice_count` (>= 2), slices numbered in start order and
// tiling the buffer's bytes; an unsliced copy has slice_count 1,
// slice_index 0, slice_offset 0 and moves the whole buffer.
//
// A staged copy (`via` set; memory hierarchies only, msa/hierarchy.h) runs
// in two legs: from_space -> via->space into the chunk [via->offset,
// via->offset + bytes) of that intermediate space, then on to to_space.
// The chunk is reserved over [max(start, 0), done]. Example: a weight homed
// in flash with links flash -> sram -> tcm only is prefetched into tcm with
// via = {sram's id, its chunk's offset}.
struct CopyVia {
  MemorySpace space = kDefaultSpace;
  Bytes offset = 0;
  bool operator==(const CopyVia&) const = default;
};
struct AsyncCopy {
  BufferId buffer = kNoId;
  CopyKind kind = CopyKind::kPrefetch;
  MemorySpace from_space = kDefaultSpace;
  MemorySpace to_space = kAlternateSpace;
  TimeStep start = 0;
  TimeStep done = 0;
  Bytes bytes = 0;
  std::int32_t slice_index = 0;
  std::int32_t slice_count = 1;
  Bytes slice_offset = 0;  // first byte of the slice within the buffer
  // A block prefetch (msa/block_prefetch.h): a whole-buffer prefetch of a
  // weight into its slot of the reserved block (MsaStats::block).
  bool block = false;
  std::optional<CopyVia> via = std::nullopt;  // a staged copy's intermediate chunk
};

// The closed range of steps a staged copy's chunk (AsyncCopy::via) is
// reserved over: [max(start, 0), done].
inline std::pair<TimeStep, TimeStep> StagingSteps(const AsyncCopy& c) {
  return {std::max<TimeStep>(c.start, 0), c.done};
}

// The block of alternate memory reserved for block prefetching
// (msa/block_prefetch.h): bytes [offset, offset + size) of the alternate
// space, which the block prefetches' segments must lie in.
struct PrefetchBlock {
  Bytes offset = 0;
  Bytes size = 0;
  bool operator==(const PrefetchBlock&) const = default;
};

// A window prefetch (msa/window_prefetch.h, XLA's window prefetch): before
// op `op`, which reads `buffer` (in default memory) through operand position
// `operand`, the buffer's first `bytes` bytes are copied (copy-start at
// `start`, copy-done at `done`, which is the op's time step) into a window
// chunk [offset, offset + bytes) of `space` reserved over [max(start, 0),
// done]. It opens no segment of the buffer: the op reads that window from
// fast memory and the rest of the operand from default memory.
struct WindowPrefetch {
  BufferId buffer = kNoId;
  OpId op = kNoId;
  std::int32_t operand = 0;  // position in Op::operands
  MemorySpace space = kAlternateSpace;
  TimeStep start = 0;
  TimeStep done = 0;
  Bytes bytes = 0;
  Bytes offset = 0;  // the window chunk's first byte in `space`
  bool operator==(const WindowPrefetch&) const = default;
};

struct SpaceInfo {
  std::string name;                    // "default", "alternate"
  MemorySpace id = kDefaultSpace;
  std::optional<Bytes> capacity;       // nullopt: unbounded
  Bytes peak = 0;                      // highest offset + size used
  // Every offset in this space is a multiple of this (>= 1): the plan's
  // alignment for the spaces packed with it, the fast-memory alignment (the
  // target's, combined with the plan's) for the alternate space under MSA.
  Bytes alignment = 1;
};

struct PoolInfo {
  std::string name;                    // lifetime name (transient, constant, ...) or a region resource's name
  Lifetime lifetime = Lifetime::kTransient;  // of the pool's buffers
  MemorySpace space = kDefaultSpace;
  Bytes offset = 0;                    // base of the pool within its space
  Bytes size = 0;                      // bytes the pool spans (its peak)
  Bytes lower_bound = 0;               // max live bytes of the pool's buffers
  std::int64_t buffers = 0;            // number of buffers in the pool
  Bytes total_bytes = 0;               // sum of their sizes
  // Closed time range the pool exists over; nullopt: the whole run. Pools of
  // one space may share bytes only when their time ranges are disjoint (the
  // queue-ordered allocations of execution regions, ir/region_plan.h).
  std::optional<TimeStep> start;
  std::optional<TimeStep> end;
};

// An unrolled loop found by the memory-bound loop optimizer
// (msa/loop_optimizer.h): `iterations` runs of `period` time steps from
// step `start`, and how the plan runs it.
struct LoopStats {
  TimeStep start = 0;
  TimeStep period = 0;
  std::int64_t iterations = 0;
  bool chosen = false;  // the plan was made with the optimizer's preferences
  // The plan's steady-state iteration, seconds (the time between the starts
  // of the middle iterations, per iteration) and, when chosen, that of the
  // fastest plan made without the optimizer.
  double steady_state_iteration_s = 0;
  std::optional<double> steady_state_without_s = std::nullopt;
  // Buffers the loop touches, per class (msa/loop_optimizer.h).
  std::int64_t temporary = 0;
  std::int64_t loop_carried = 0;
  std::int64_t pinned = 0;
  std::int64_t prefetch = 0;
  std::int64_t other = 0;
  bool operator==(const LoopStats&) const = default;
};

// Memory-space-assignment statistics (present when fast memory is planned).
struct MsaStats {
  double estimated_time_s = 0;
  double time_all_default_s = 0;
  double time_all_fast_s = 0;
  std::int64_t prefetches = 0;
  std::int64_t evictions = 0;
  Bytes prefetch_bytes = 0;
  Bytes eviction_bytes = 0;
  std::int64_t max_outstanding_copies = 0;
  // Sliced prefetches (msa/sliced_prefetch.h): how many prefetches were
  // sliced and how many of the `prefetches` copies are their slices.
  std::int64_t sliced_prefetches = 0;
  std::int64_t prefetch_slices = 0;
  // Window prefetches (Plan::window_prefetches): how many and their bytes.
  // Not counted in `prefetches` or `max_outstanding_copies`.
  std::int64_t window_prefetches = 0;
  Bytes window_prefetch_bytes = 0;
  // Block prefetching (msa/block_prefetch.h): the reserved block (nullopt:
  // none) and how many of the `prefetches` are block prefetches.
  std::optional<PrefetchBlock> block = std::nullopt;
  std::int64_t block_prefetches = 0;
  // The memory-bound loop optimizer's loop (empty: off, or none found).
  std::vector<LoopStats> loops = {};
  // Limits the plan was made under (--max-outstanding-*), -1: none; `memplan
  // verify` re-checks them (verify/verifier.h rule 5).
  std::int64_t max_outstanding_prefetches = -1;
  std::int64_t max_outstanding_evictions = -1;
  // A lower bound on the estimated time of any plan with this fast memory
  // (msa/time_bound.h), seconds; nullopt in plans written before it existed.
  std::optional<double> time_bound_s = std::nullopt;
  // False when every buffer in default memory (on a hierarchy target: in
  // the slowest writable level) does not fit, or some op cannot access it:
  // no plan can run that way, so time_all_default_s bounds nothing.
  bool time_all_default_fits = true;
  // A plan made for --emit-ir / --emit-hlo, which write whole-buffer copies
  // only: the kinds of copy default mode would have tried and did not
  // ("sliced_prefetch", "window_prefetch"; empty: none skipped) and the
  // estimated time of the plan made with them, seconds (what the same
  // command without the flag estimates; nullopt when not computed).
  std::vector<std::string> rewrite_skipped = {};
  std::optional<double> estimated_time_with_skipped_s = std::nullopt;
};

struct Plan {
  std::string input;
  std::string algorithm;               // the packing algorithm that won
  TimeStep time_steps = 0;
  Bytes alignment = 1;
  // Transient pools of the default space: their extent (highest end minus
  // lowest offset) and the max over time of their buffers' live bytes. Without
  // regions there is one such pool, "transient", at offset 0.
  Bytes lower_bound = 0;
  Bytes peak = 0;
  // With --algorithm exact: what the search established about the transient
  // pool of the default space (packing/exact/exact_packer.h): its status
  // ("optimal", "feasible", "infeasible", "stopped"; empty = no search), a
  // proven lower bound on that pool's peak (>= lower_bound) and the nodes
  // visited.
  std::string search_status;
  Bytes proven_lower_bound = 0;
  std::int64_t search_nodes = 0;
  // The search's wall-clock limit (seconds) and whether it was the default
  // one (no --time-limit).
  double search_time_limit_seconds = 0;
  bool search_default_time_limit = false;
  bool verified = false;
  std::vector<SpaceInfo> spaces;
  std::vector<PoolInfo> pools;
  // Limits on the default-space pools of a lifetime (`--capacity
  // transient=BYTES`): together they span at most this many bytes, from the
  // lowest pool offset to the highest pool end. Checked by verify/ (rule 6);
  // written as the pools' "capacity_bytes".
  std::map<Lifetime, Bytes> pool_capacity;
  std::vector<BufferPlacement> placements;  // parallel to BufferSet::buffers
  // Per ValueId of the program (empty without one, e.g. a lifetime CSV): the
  // value's bytes from the first byte of its buffer (a view's offset inside
  // its source, a gathered operand's inside the concatenation; 0 for most).
  // Its address in a segment of its buffer is the segment's offset plus this.
  // Checked by verify/ (rule 14) against the program's views, ties and gathers.
  std::vector<Bytes> value_offsets;
  // The value offsets that depend on dims (values of a buffer holding a
  // subview at a dynamic offset, `view(%x, align(%n, 64))`), as expressions;
  // value_offsets holds their value at the evaluation point. Written as the
  // buffer's "value_offset_exprs".
  std::map<ValueId, SizeExpr> symbolic_value_offsets;
  std::vector<AsyncCopy> copies;
  // Window prefetches, by (done, op, operand); written among the JSON's
  // async_copies with a "window_op" field.
  std::vector<WindowPrefetch> window_prefetches;
  std::optional<MsaStats> msa;
  std::optional<RegionPlan> regions;   // when the program has execution regions
  // How `auto` packed the transient pool of the default space: the members
  // that ran and were skipped (with why), for the summary and the JSON.
  // Unset for the other algorithms.
  std::optional<PackReport> packing;
};

// The name of `space` in `plan`: its SpaceInfo's ("dram", "scratchpad" in a
// hierarchy; "default", "alternate" in two spaces), else SpaceName(space).
inline std::string SpaceNameIn(const Plan& plan, MemorySpace space) {
  for (const SpaceInfo& info : plan.spaces) {
    if (info.id == space) return info.name;
  }
  return SpaceName(space);
}

}  // namespace memplan
