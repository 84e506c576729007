// Pools by lifetime (the IREE notion): buffers are grouped by (memory space,
// lifetime). Transient and staging pools are packed with reuse by the chosen
// packing algorithm; constant, variable and external pools are laid out once,
// end to end (never reused). Within a space the pools are stacked in the order
// transient, staging, variable, constant, external, each based at an aligned
// offset, so every offset in the plan is absolute within its space.
//
// Example: transient a(100)[0,1], b(100)[2,3] and constant w(64):
//   transient pool [0,100) with a@0 b@0; constant pool [100,164) with w@100.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "msa/assignment.h"
#include "packing/packer.h"

namespace memplan {

// A capacity limit and how the user spelled it, for messages (e.g.
// "--capacity transient=256KiB"; empty: "its capacity").
struct CapacityLimit {
  Bytes bytes = 0;
  std::string spelled;
};

struct PoolPlanOptions {
  PackingAlgorithm algorithm = PackingAlgorithm::kAuto;
  PackEffort effort = PackEffort::kDefault;  // how hard kAuto works (packer.h)
  double time_limit_seconds = 0;  // kAuto's and kExact's wall-clock limit; 0 = none
  Bytes alignment = 1;               // every offset is a multiple of this
  std::optional<Bytes> capacity;     // default-space capacity in bytes
  std::string capacity_spelled;      // how `capacity` was given, for messages
  // Per-lifetime limits in the default space: the pools of that lifetime
  // (the pool "transient", and with execution regions the region
  // allocations of that lifetime) must span at most this many bytes, from
  // the lowest pool offset to the highest pool end. Recorded in
  // Plan::pool_capacity. `--capacity transient=256KiB` is
  // the TFLite-Micro question: do the activations fit the arena, whatever
  // the weights (constant pool) take?
  std::map<Lifetime, CapacityLimit> pool_capacity;
  // --algorithm exact: search for the lowest peak (else: for a packing within
  // `capacity`, or the lowest peak when there is no capacity), stop after
  // time_limit_seconds (0 = no limit), and report progress about once a second.
  bool minimize = false;
  std::function<void(const PackProgress&)> search_progress;
};

// Appends the bytes `b` holds over its live range to `items`, as items for
// the max-live lower bound (MaxLiveBytes): one per held piece (HeldPieces)
// of hi - lo bytes, so a buffer counts nothing in its dead gaps and only a
// window's bytes in an occupancy window. O(gaps + windows).
void AppendHeldBytes(const Buffer& b, std::vector<PackItem>& items);

// Places every buffer of `buffers` (one Allocation each, over its live range)
// and fills the plan's pools, spaces (each with the plan's alignment), peak (transient pool of the default
// space) and lower bound (its max live bytes). Buffers with dead gaps
// (Buffer::gaps, from conditionals) may share bytes with buffers live only
// during those gaps, and count toward the lower bound only at their live
// steps (max over steps of the bytes live then: exact, as the buffers live
// at one step hold data together in every run reaching it). In an
// occupancy window (Buffer::windows, a lifetime CSV's `L-U@LO:HI`) a buffer
// counts HI - LO bytes toward the lower bound, so the bound holds for the
// problem as the verifier reads it; the packers still read a movable buffer
// as whole there (its chunk never uses the freed bytes), so the extent may
// stay above the bound. PlanPoolsAround and PlanPoolsWithMsa keep reading
// live ranges as whole hulls. The plan is not yet verified; VerifyAgainst
// with the program accepts the sharing. Buffers with a fixed offset
// (Buffer::fixed_offset, a lifetime CSV's `offset` column) keep it; the
// others are packed around the bytes they hold (HeldPieces: not in their
// gaps, only a window's bytes in a window).
// Errors: FailedPrecondition when two fixed buffers collide
// (CheckFixedOffsetsDisjoint, driver/fixed_offsets.h); InvalidArgument when a
// fixed offset lies below its pool's base; ResourceExhausted when the default space needs more than
// `capacity` bytes or the pools of a lifetime span more than its
// `pool_capacity`; the message names every limit that failed, the bytes
// needed and by how much they exceed the limit, e.g. "plan does not fit:
// transient pool needs 300.00 KiB (307200 bytes), 44.00 KiB (45056 bytes)
// over --capacity transient=256KiB". With PackingAlgorithm::kExact the
// default memory's failure adds what the search established: a proof that
// no packing fits ("every packing has a transient peak of at least ...")
// or a stop at its time limit (without a packing that fits nor a proof that
// none exists, and the proven lower bound), each naming the best packing
// found (without `minimize`: the one the search started from, as at a
// capacity it looks for no lower peak).
absl::StatusOr<Plan> PlanPools(const BufferSet& buffers, const PoolPlanOptions& options);

// A pool with a time range (a region allocation, driver/region_pools.h) to
// place among the default-space pools of its lifetime.
struct TimedPool {
  PoolInfo pool;               // all fields but offset, which placing sets
  Bytes alignment = 1;         // its offset must be a multiple of this
  std::vector<PackItem> live;  // its buffers' sizes and live ranges (for the lower bound)
};

// As PlanPools, for the buffers not marked in `excluded` (one flag per
// buffer), and places the timed pools. A buffer marked in `held` keeps its
// bytes to the end of the run (no other buffer reuses them later; its
// segment still covers its own live range): within the default space, those of a
// lifetime follow that lifetime's pool, packed over their time ranges with
// options.algorithm (two may share bytes when never alive together). The
// plan's peak and lower bound then cover the transient pool and the
// transient timed pools: their extent, and the max live bytes of all their
// buffers. Excluded buffers get no placement (the caller places them in
// their timed pools, whose offsets are set here).
absl::StatusOr<Plan> PlanPoolsAround(const BufferSet& buffers, const std::vector<bool>& excluded,
                                     const std::vector<bool>& held, std::vector<TimedPool>& timed,
                                     const PoolPlanOptions& options);

// The plan of a memory space assignment (msa/assignment.h): alternate
// segments and copies as `msa` decided, and the default-space pools packed
// around them. A buffer of the default space gets a default chunk only when
// it holds data there: produced (or provided) there, or brought there by an
// eviction. The chunk is one segment over [first such time, end] — tighter
// than XLA's whole-live-range default chunk — opened by the first eviction
// when the data is produced in alternate memory; later evictions refresh it
// (verify/verifier.h rules 4 and 8). Buffers pinned to the
// alternate space form the pool "alternate" at offset 0 of space 1; the
// alternate space is declared with capacity `fast_memory_bytes` and
// alignment `fast_memory_alignment` (the one `msa` was planned with). A
// cross-program prefetch (msa/assignment.h) is listed as a prefetch done at
// the buffer's start (start = done): the copy overlaps the previous run, so
// the data is in place when the run begins and the run-time estimate leaves
// the copy out.
// Copies are sorted by (start, done, buffer). Errors: those of PlanPools;
// Internal when a buffer pinned to the alternate space has no segment.
absl::StatusOr<Plan> PlanPoolsWithMsa(const BufferSet& buffers, const MsaResult& msa,
                                      Bytes fast_memory_bytes, Bytes fast_memory_alignment,
                                      const PoolPlanOptions& options);

}  // namespace memplan
