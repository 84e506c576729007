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
// Errors: those of RunAllocator (a buffer pinned to alternate memory that
// no longer fits below the block: ResourceExhausted).
absl::StatusOr<MsaResult> RunAllocatorWithBlock(const MsaProblem& problem, ComputationId entry,
                                                const CostModel& cost, const MsaOptions& options,
                                                const AllocatorConfig& config);

}  // namespace memplan
