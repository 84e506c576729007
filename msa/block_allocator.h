// One allocator run with block prefetching (msa/block_prefetch.h): the
// block is reserved at the top of alternate memory and filled by the FIFO
// of weights, then the allocator (msa/allocator.h) plans every other buffer
// in the alternate memory below the block, the block's weights held in
// default memory for it (they are placed already), and the two are merged.
#pragma once

#include "absl/status/statusor.h"
#include "msa/allocator.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/problem.h"

namespace memplan {

// Runs the allocator under `config` with a block of
// options.block_prefetch_bytes (clamped to the fast memory; must be > 0)
// reserved for the weights of the computation `entry`. The result follows
// msa/assignment.h's conventions (mode and variant left empty): each block
// weight has one alternate segment [max(start, 0), last read] at its slot
// and one prefetch with AsyncCopy::block set, copies sorted as
// RunAllocator sorts them, alternate_peak counting the slots, `block` set.
// When no weight finds a slot, no block is reserved: the result is
// RunAllocator's under `config`, `block` unset.
// Errors: those of RunAllocator (a buffer pinned to alternate memory that
// no longer fits below the block: ResourceExhausted).
absl::StatusOr<MsaResult> RunAllocatorWithBlock(const MsaProblem& problem, ComputationId entry,
                                                const CostModel& cost, const MsaOptions& options,
                                                const AllocatorConfig& config);

// Whether block prefetching can run under `options`' copy limits: the
// block's copies are planned before the main pass and counted by neither
// max_outstanding_prefetches nor enforce_prefetch_fifo, so only when
// neither is set (AssignMemorySpaces refuses a block size given with them).
inline bool BlockHonoursCopyLimits(const MsaOptions& options) {
  return options.max_outstanding_prefetches < 0 && !options.enforce_prefetch_fifo;
}

// The gate of default mode's automatic block (msa/assignment.h): whether a
// block of `block_bytes` (ReserveBlock, PlanBlockPrefetch with
// options.alignment and options.fast_memory_bytes) would hold a weight
// that `result`, a plan without a block, reads from default memory at
// some step (no alternate segment of it covers the read). When it holds
// none, the block's variants could only move weights that are already in
// fast memory into less of it, so they are not run. O(PlanBlockPrefetch).
bool BlockWouldTakeDefaultReads(const MsaProblem& problem, ComputationId entry,
                                const MsaOptions& options, Bytes block_bytes,
                                const MsaResult& result);

}  // namespace memplan
